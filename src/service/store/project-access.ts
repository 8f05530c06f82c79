// A project's access settings (issue 29): one row per project that has any, the values sealed by
// the caller (key-encryption.ts) before they reach here, so no statement ever carries them in clear.
import { nowIso, type StoreContext } from './context.ts';

export interface AccessNames {
  headers: string[];
  cookies: string[];
  basicAuth: boolean;
}

export interface StoredAccess {
  names: AccessNames;
  sealed: string;
  updatedAt: string;
}

export function projectAccessStore({ db }: StoreContext) {
  return {
    async get(projectId: string): Promise<StoredAccess | undefined> {
      const row = await db
        .selectFrom('project_access')
        .select(['names', 'sealed', 'updated_at'])
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row && { names: JSON.parse(row.names) as AccessNames, sealed: row.sealed, updatedAt: row.updated_at };
    },

    /** Replaces the project's settings whole; returns when they changed. */
    async put(projectId: string, names: AccessNames, sealed: string): Promise<string> {
      const now = nowIso();
      await db
        .insertInto('project_access')
        .values({ project_id: projectId, names: JSON.stringify(names), sealed, updated_at: now })
        .onConflict((oc) =>
          oc.column('project_id').doUpdateSet({ names: JSON.stringify(names), sealed, updated_at: now }),
        )
        .execute();
      return now;
    },

    /** Forgets them (`{}`): the row goes, nothing sealed stays behind. */
    async clear(projectId: string): Promise<void> {
      await db.deleteFrom('project_access').where('project_id', '=', projectId).execute();
    },
  };
}

export type ProjectAccessStore = ReturnType<typeof projectAccessStore>;
