// Monitoring (spec 6.1 `monitoring.changed`; the rest is ours, docs/decisions.md "Monitoring"): a
// project's home page and its most linked pages are checked on a schedule, and a change of status
// class or of meaningful content is an event.
import { z } from 'zod';
import { DateTime, Pagination, Uuid } from './common.ts';
import { EventId } from './webhook.ts';

/** `failed`: a page that answered now does not (or fails differently); `recovered`: it answers again. */
export const MONITOR_KINDS = ['changed', 'failed', 'recovered'] as const;
export const MonitorKind = z.enum(MONITOR_KINDS);
export type MonitorKind = z.infer<typeof MonitorKind>;

/** What of a page's meaningful content differs from the previous check. */
export const PAGE_CHANGES = [
  'status',
  'final_url',
  'title',
  'description',
  'canonical',
  'robots',
  'headings',
  'text',
] as const;
export const PageChange = z.enum(PAGE_CHANGES);
export type PageChange = z.infer<typeof PageChange>;

/** The longest interval: a week. The shortest is the operator's (`serve --monitor-min-interval-minutes`). */
export const MONITOR_INTERVAL_MAX_MINUTES = 7 * 24 * 60;

// spec 6.1: `data` carries projectId, url, kind and httpStatus; the other fields are additions.
export const MonitoringChangedData = z.object({
  projectId: Uuid,
  url: z.url(),
  kind: MonitorKind,
  /** The status of the final answer after redirects; null when no answer came (timeout, refused, DNS). */
  httpStatus: z.int().nullable(),
  previousHttpStatus: z.int().nullable(),
  changes: z.array(PageChange),
  error: z.string().nullable(),
  checkedAt: DateTime,
  /** The project's monitoring page in the dashboard. */
  humanUrl: z.url(),
});
export type MonitoringChangedData = z.infer<typeof MonitoringChangedData>;

export const MonitoredPage = z.object({
  url: z.string(),
  /** `unknown` until the first check of this page. */
  state: z.enum(['up', 'down', 'unknown']),
  httpStatus: z.int().nullable(),
  /** When the page last changed state or content (the first check counts). */
  since: DateTime.nullable(),
  lastCheckedAt: DateTime.nullable(),
});

export const Monitoring = z.object({
  projectId: Uuid,
  enabled: z.boolean(),
  /** The project's own interval; null follows the service's default. */
  intervalMinutes: z.int().min(1).max(MONITOR_INTERVAL_MAX_MINUTES).nullable(),
  /** The interval checks run at: the project's own, or the service's default. */
  effectiveIntervalMinutes: z.int().min(1),
  nextCheckAt: DateTime.nullable(),
  lastCheckedAt: DateTime.nullable(),
  pages: z.array(MonitoredPage),
  humanUrl: z.url(),
});
export type Monitoring = z.infer<typeof Monitoring>;

export const UpdateMonitoringBody = z.strictObject({
  enabled: z.boolean(),
  /** Minutes between checks; null or absent: the service's default. */
  intervalMinutes: z.int().min(1).max(MONITOR_INTERVAL_MAX_MINUTES).nullable().optional(),
});

export const MonitorCheck = z.object({
  checkId: Uuid,
  url: z.string(),
  checkedAt: DateTime,
  httpStatus: z.int().nullable(),
  up: z.boolean(),
  /** Set when this check emitted a monitoring.changed event; null for a check that saw no change. */
  kind: MonitorKind.nullable(),
  changes: z.array(PageChange),
  error: z.string().nullable(),
  durationMs: z.int().min(0),
  eventId: EventId.nullable(),
});
export type MonitorCheck = z.infer<typeof MonitorCheck>;

export const MonitorCheckList = z.object({ checks: z.array(MonitorCheck), pagination: Pagination });
