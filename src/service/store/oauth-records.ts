// The OAuth authorization server's records (issue 12): the storage contract of oidc-provider's
// adapters (upsert, find, findByUid, findByUserCode, consume, destroy, revokeByGrantId) over one
// table, so every `serve` process on one database sees the same clients, grants and tokens.
import type { StoreContext } from './context.ts';

export type OAuthPayload = Record<string, unknown> & {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
};

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

  return {
    /** Writes the record whole; `expiresIn` in seconds (undefined: until destroyed). */
    async upsert(model: string, id: string, payload: OAuthPayload, expiresIn: number | undefined): Promise<void> {
      const row = {
        model,
        id,
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
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
            expires_at: row.expires_at,
          }),
        )
        .execute();
    },

    /** The record's payload (with `consumed` once used), or undefined when absent or expired. */
    find: (model: string, id: string) => findWhere(model, 'id', id),
    findByUid: (model: string, uid: string) => findWhere(model, 'uid', uid),
    findByUserCode: (model: string, userCode: string) => findWhere(model, 'user_code', userCode),

    /** Marks a one-time record used; the first use wins. */
    async consume(model: string, id: string): Promise<void> {
      await db
        .updateTable('oauth_records')
        .set({ consumed_at: Math.floor(Date.now() / 1000) })
        .where('model', '=', model)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .execute();
    },

    async destroy(model: string, id: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();
    },

    /** Every token and code of a grant, whatever its model (a revoked grant leaves nothing usable). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
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
