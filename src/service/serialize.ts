// Rows to wire shapes (spec 2.2, 2.3, 2.13).
import type { KeyContext, Project, ProjectStatus, WebhookDelivery, WebhookEndpoint } from '../contract/index.ts';
import type { AuthContext } from './context.ts';
import { CREDIT_COSTS, planTerms } from './plans.ts';
import type { ProjectRow, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './store/index.ts';

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
