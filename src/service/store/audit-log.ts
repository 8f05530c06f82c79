// The audit log of spec 5.4.4: one row per API request, never holding a secret.

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
}

export function auditLogStore({ db }: StoreContext) {
  return {
    async append(entry: AuditEntry): Promise<void> {
      await db
        .insertInto('audit_log')
        .values({
          id: uuidv7(),
          created_at: nowIso(),
          organization_id: entry.organizationId,
          key_prefix: entry.keyPrefix,
          method: entry.method,
          path: entry.path,
          status: entry.status,
          duration_ms: Math.round(entry.durationMs),
        })
        .execute();
    },

    /** Newest first. */
    async recent(limit: number, organizationId?: string): Promise<AuditLogRow[]> {
      let q = db.selectFrom('audit_log').selectAll();
      if (organizationId) q = q.where('organization_id', '=', organizationId);
      return q.orderBy('created_at', 'desc').limit(limit).execute();
    },
  };
}
