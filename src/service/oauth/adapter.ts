// oidc-provider's storage adapter over the store (issue 12): the provider asks for one adapter per
// model by name; each is a view of the shared `oauth_records` table, so every `serve` process on one
// database answers for the same clients, grants, codes and tokens. The store keeps secrets hashed
// (store/oauth-records.ts); here, a dynamic registration lives only an hour until an authorization
// completes with it (issue 23).
import type { Store } from '../store/index.ts';
import { type OAuthPayload, PENDING_REGISTRATION_SECONDS, REGISTRATION_MODELS } from '../store/oauth-records.ts';

export interface OAuthAdapter {
  upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OAuthPayload | undefined>;
  findByUid(uid: string): Promise<OAuthPayload | undefined>;
  findByUserCode(userCode: string): Promise<OAuthPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export function oauthAdapterFactory(store: Store): (model: string) => OAuthAdapter {
  const records = store.oauthRecords;
  const pending = (model: string) => REGISTRATION_MODELS.includes(model);
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      // oidc-provider keeps registrations for ever; ours expire until a person grants the client access.
      const ttl = expiresIn === undefined && pending(model) ? PENDING_REGISTRATION_SECONDS : expiresIn;
      await records.upsert(model, id, payload, ttl);
      if (model === 'Grant' && typeof payload.clientId === 'string') await records.keepClient(payload.clientId);
    },
    find: (id) => records.find(model, id),
    findByUid: (uid) => records.findByUid(model, uid),
    findByUserCode: (userCode) => records.findByUserCode(model, userCode),
    consume: (id) => records.consume(model, id),
    destroy: (id) => records.destroy(model, id),
    revokeByGrantId: (grantId) => records.revokeByGrantId(grantId),
  });
}
