// The audit log of spec 5.4.4: one row per API request, never holding a secret. Refused
// unauthenticated requests are the exception: a burst of them is one row with a request count.

import { sql } from 'kysely';
import { nowIso, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { AuditLogRow } from './tables.ts';

export interface AuditEntry {
  organizationId: string | null;
  keyPrefix: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** Only for the rows of refused unauthenticated requests. */
  clientAddress?: string;
}

/** Rows deleted by one prune statement, so a long backlog never holds a long lock. */
const PRUNE_BATCH = 5000;

export function auditLogStore({ db }: StoreContext) {
  return {
    /** Writes one row; answers its id. */
    async append(entry: AuditEntry): Promise<string> {
      const id = uuidv7();
      await db
        .insertInto('audit_log')
        .values({
          id,
          created_at: nowIso(),
          organization_id: entry.organizationId,
          key_prefix: entry.keyPrefix,
          method: entry.method,
          path: entry.path,
          status: entry.status,
          duration_ms: Math.round(entry.durationMs),
          client_address: entry.clientAddress ?? null,
        })
        .execute();
      return id;
    },

    /** Counts `more` requests into a burst's row. */
    async addRequests(id: string, more: number): Promise<void> {
      await db
        .updateTable('audit_log')
        .set({ request_count: sql<number>`request_count + ${more}` })
        .where('id', '=', id)
        .execute();
    },

    /** Newest first. */
    async recent(limit: number, organizationId?: string): Promise<AuditLogRow[]> {
      let q = db.selectFrom('audit_log').selectAll();
      if (organizationId) q = q.where('organization_id', '=', organizationId);
      return q.orderBy('created_at', 'desc').limit(limit).execute();
    },

    /** Deletes rows written before `before`, in batches; answers how many went. */
    async prune(before: Date): Promise<number> {
      const cutoff = before.toISOString();
      let deleted = 0;
      for (;;) {
        const batch = db.selectFrom('audit_log').select('id').where('created_at', '<', cutoff).limit(PRUNE_BATCH);
        const result = await db.deleteFrom('audit_log').where('id', 'in', batch).executeTakeFirst();
        const count = Number(result.numDeletedRows);
        deleted += count;
        if (count < PRUNE_BATCH) return deleted;
      }
    },
  };
}
