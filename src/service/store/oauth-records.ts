// The OAuth authorization server's records (issue 12): the storage contract of oidc-provider's
// adapters (upsert, find, findByUid, findByUserCode, consume, destroy, revokeByGrantId) over one
// table, so every `serve` process on one database sees the same clients, grants and tokens.
// No secret is stored as itself (issue 23): a record whose id is a bearer credential (a code, an
// access, refresh or registration access token) or a cookie value (a session, an interaction) is
// kept under the id's SHA-256 and found by hashing what is presented, as API keys are.
import { createHash } from 'node:crypto';
import type { StoreContext } from './context.ts';

export type OAuthPayload = Record<string, unknown> & {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Models whose ids are no secret: a client's id is public, a grant's id only names it (for revocation). */
const PLAIN_ID_MODELS = new Set(['Client', 'Grant']);

/** The id a record is stored under: the id itself for clients and grants, else its SHA-256. */
export function storedOAuthId(model: string, id: string): string {
  return PLAIN_ID_MODELS.has(model) ? id : sha256(id);
}

/** A confidential client's secret as stored, and what a presented one is hashed to for comparison. */
export const clientSecretHash = (secret: string): string => `sha256:${sha256(secret)}`;
const HASHED_SECRET = /^sha256:[0-9a-f]{64}$/;

/**
 * The payload as stored: without the id it repeats (`jti`, the secret itself), without the session
 * cookie an interaction copies, and with a client's secret hashed.
 */
export function storedOAuthPayload(model: string, payload: OAuthPayload): OAuthPayload {
  if (model === 'Client') {
    const secret = payload.client_secret;
    // Written again (found, then saved), a client's secret is already its hash.
    return typeof secret === 'string' && !HASHED_SECRET.test(secret)
      ? { ...payload, client_secret: clientSecretHash(secret) }
      : payload;
  }
  if (PLAIN_ID_MODELS.has(model)) return payload;
  const { jti: _secret, ...rest } = payload;
  const session = rest.session as Record<string, unknown> | undefined;
  if (model === 'Interaction' && session && typeof session === 'object' && 'cookie' in session) {
    const { cookie: _cookie, ...kept } = session;
    rest.session = kept;
  }
  return rest;
}

/** The client a record belongs to (its own id for a client), so a registration and its token are kept together. */
export function oauthClientOf(model: string, id: string, payload: OAuthPayload): string | null {
  if (model === 'Client') return id;
  return typeof payload.clientId === 'string' ? payload.clientId : null;
}

/** Registrations no authorization has used: a client and its registration access token. */
export const REGISTRATION_MODELS: readonly string[] = ['Client', 'RegistrationAccessToken'];

/**
 * How long a dynamic registration is kept until an authorization with it completes (then for
 * good): unauthenticated registrations must not pile up (issue 23).
 */
export const PENDING_REGISTRATION_SECONDS = 3600;

export function oauthRecordStore({ db }: StoreContext) {
  async function findWhere(model: string, column: 'id' | 'uid' | 'user_code', value: string) {
    const row = await db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('model', '=', model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date().toISOString())]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as OAuthPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: row.consumed_at };
  }

  /** What was stored without its id, given back with the id the caller presented. */
  const withId = (model: string, id: string, payload: OAuthPayload | undefined) =>
    payload && !PLAIN_ID_MODELS.has(model) ? { ...payload, jti: id } : payload;

  return {
    /** Writes the record whole; `expiresIn` in seconds (undefined: until destroyed). */
    async upsert(model: string, id: string, payload: OAuthPayload, expiresIn: number | undefined): Promise<void> {
      const row = {
        model,
        id: storedOAuthId(model, id),
        payload: JSON.stringify(storedOAuthPayload(model, payload)),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        client_id: oauthClientOf(model, id, payload),
        expires_at: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000).toISOString(),
        consumed_at: null,
      };
      await db
        .insertInto('oauth_records')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            uid: row.uid,
            user_code: row.user_code,
            client_id: row.client_id,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    },

    /** The record's payload (with `consumed` once used), or undefined when absent or expired. */
    find: async (model: string, id: string) =>
      withId(model, id, await findWhere(model, 'id', storedOAuthId(model, id))),
    // Found by uid (a session, for a token's session check) the cookie value is not known: no `jti`.
    findByUid: (model: string, uid: string) => findWhere(model, 'uid', uid),
    findByUserCode: (model: string, userCode: string) => findWhere(model, 'user_code', userCode),

    /** Marks a one-time record used; the first use wins. */
    async consume(model: string, id: string): Promise<void> {
      await db
        .updateTable('oauth_records')
        .set({ consumed_at: Math.floor(Date.now() / 1000) })
        .where('model', '=', model)
        .where('id', '=', storedOAuthId(model, id))
        .where('consumed_at', 'is', null)
        .execute();
    },

    async destroy(model: string, id: string): Promise<void> {
      await db
        .deleteFrom('oauth_records')
        .where('model', '=', model)
        .where('id', '=', storedOAuthId(model, id))
        .execute();
    },

    /** Every token and code of a grant, whatever its model (a revoked grant leaves nothing usable). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
    },

    /** A registered client that completed an authorization: it and its registration token no longer expire. */
    async keepClient(clientId: string): Promise<void> {
      await db
        .updateTable('oauth_records')
        .set({ expires_at: null })
        .where('client_id', '=', clientId)
        .where('model', 'in', REGISTRATION_MODELS)
        .where('expires_at', 'is not', null)
        .execute();
    },

    /** Deletes expired records; answers how many. */
    async prune(now = new Date()): Promise<number> {
      const result = await db
        .deleteFrom('oauth_records')
        .where('expires_at', '<', now.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
