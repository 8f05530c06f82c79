// Rows to wire shapes (spec 2.2, 2.3, 2.13; monitoring, docs/decisions.md).
import type { PageState } from '../audit/index.ts';
import type {
  KeyContext,
  MonitorCheck,
  Monitoring,
  PageChange,
  Project,
  ProjectStatus,
  WebhookDelivery,
  WebhookEndpoint,
} from '../contract/index.ts';
import type { AuthContext } from './context.ts';
import { monitoringHumanUrl } from './monitor.ts';
import { CREDIT_COSTS, planTerms } from './plans.ts';
import { startUrlFor } from './runs.ts';
import type {
  MonitorCheckRow,
  MonitorRow,
  ProjectRow,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from './store/index.ts';

export function toProject(row: ProjectRow): Project {
  return {
    projectId: row.id,
    name: row.name,
    domain: row.domain,
    slug: row.slug,
    status: row.status as ProjectStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toKeyContext(auth: AuthContext, version: string): KeyContext {
  const { key, organization } = auth;
  return {
    keyPrefix: key.prefix,
    keyName: key.name,
    organizationId: organization.id,
    organizationName: organization.name,
    organizationSlug: organization.slug,
    projectId: key.project_id,
    scopes: [...auth.scopes],
    plan: planTerms(organization.plan).label,
    credits: { remaining: organization.credits_remaining, monthlyIncluded: organization.credits_monthly },
    apiVersion: 'v1',
    contractVersion: 2,
    latestCliVersion: version,
    creditCosts: CREDIT_COSTS,
  };
}

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    webhookId: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEndpoint['events'],
    active: row.active === 1,
    description: row.description,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toWebhookDelivery(row: WebhookDeliveryRow & { attemptLog: WebhookAttemptRow[] }): WebhookDelivery {
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    eventType: row.event_type as WebhookDelivery['eventType'],
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    attemptLog: row.attemptLog.map((a) => ({
      attemptedAt: a.attempted_at,
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      responseExcerpt: a.response_excerpt,
    })),
  };
}

/** A project's monitoring: its setting and what the last check saw of each page (the home page until then). */
export function toMonitoring(
  project: ProjectRow,
  row: MonitorRow | undefined,
  defaultIntervalMinutes: number,
  publicUrl: string,
): Monitoring {
  const states = Object.entries(JSON.parse(row?.pages ?? '{}') as Record<string, PageState>);
  const pages: Monitoring['pages'] =
    states.length > 0
      ? states.map(([url, state]) => ({
          url,
          state: state.up ? 'up' : 'down',
          httpStatus: state.httpStatus,
          since: state.since,
          lastCheckedAt: state.lastCheckedAt,
        }))
      : [{ url: startUrlFor(project).url, state: 'unknown', httpStatus: null, since: null, lastCheckedAt: null }];
  return {
    projectId: project.id,
    enabled: row?.enabled === 1,
    intervalMinutes: row?.interval_minutes ?? null,
    effectiveIntervalMinutes: row?.interval_minutes ?? defaultIntervalMinutes,
    nextCheckAt: row?.next_check_at ?? null,
    lastCheckedAt: row?.last_checked_at ?? null,
    pages,
    humanUrl: monitoringHumanUrl(publicUrl, project.id),
  };
}

export function toMonitorCheck(row: MonitorCheckRow): MonitorCheck {
  return {
    checkId: row.id,
    url: row.url,
    checkedAt: row.created_at,
    httpStatus: row.http_status,
    up: row.up === 1,
    kind: row.kind as MonitorCheck['kind'],
    changes: JSON.parse(row.changes) as PageChange[],
    error: row.error,
    durationMs: row.duration_ms,
    eventId: row.event_id,
  };
}
