// How long the audit log keeps its rows: `serve --audit-log-days` (90 unless set; 0 keeps them for
// ever). The housekeeper (housekeeper.ts), one process of a deployment at a time, prunes them with
// the rest of the retention a second after it takes its lease and hourly after that.
// `siteaudit admin audit-log prune` does the same on demand.

export const DEFAULT_AUDIT_LOG_DAYS = 90;

const DAY_MS = 86_400_000;

/**
 * The moment before which rows go. Nothing is older than 1970: more days than that keep everything,
 * rather than a date past JavaScript's range (999,999,999 days is one) that no query can use.
 */
export const retentionCutoff = (days: number, now = Date.now()) => new Date(Math.max(0, now - days * DAY_MS));
