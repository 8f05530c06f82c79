// oidc-provider's storage adapter over the store (issue 12): the provider asks for one adapter per
// model by name; each is a view of the shared `oauth_records` table, so every `serve` process on one
// database answers for the same clients, grants, codes and tokens.
import type { Store } from '../store/index.ts';
import type { OAuthPayload } from '../store/oauth-records.ts';

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
  return (model) => ({
    upsert: (id, payload, expiresIn) => records.upsert(model, id, payload, expiresIn),
    find: (id) => records.find(model, id),
    findByUid: (uid) => records.findByUid(model, uid),
    findByUserCode: (userCode) => records.findByUserCode(model, userCode),
    consume: (id) => records.consume(model, id),
    destroy: (id) => records.destroy(model, id),
    revokeByGrantId: (grantId) => records.revokeByGrantId(grantId),
  });
}
