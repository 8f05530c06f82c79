// How long the audit log keeps its rows: `serve --audit-log-days` (90 unless set; 0 keeps them for
// ever). Each process prunes a second after it starts and hourly after that; deleting old rows is
// idempotent, so several processes on one PostgreSQL need no coordination.
// `siteaudit admin audit-log prune` does the same on demand.
import type { Store } from './store/index.ts';

export const DEFAULT_AUDIT_LOG_DAYS = 90;

const FIRST_PRUNE_MS = 1_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

export const retentionCutoff = (days: number, now = Date.now()) => new Date(now - days * DAY_MS);

export function auditLogRetention(store: Store, days: number, log: (line: string) => void): { stop(): Promise<void> } {
  if (days === 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= store.auditLog
      .prune(retentionCutoff(days))
      .then((deleted) => {
        if (deleted > 0) log(`audit log: deleted ${deleted} rows older than ${days} days`);
      })
      .catch((error: Error) => log(`audit log prune failed: ${error.message}`))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(prune, FIRST_PRUNE_MS);
  const every = setInterval(prune, PRUNE_EVERY_MS);
  first.unref();
  every.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
