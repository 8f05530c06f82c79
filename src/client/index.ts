// The typed client of the Site Audit Service API v1, split by resource.
import { z } from 'zod';
import {
  AiReadinessReport,
  ArchiveResult,
  CreatedWebhookEndpoint,
  FindingPage,
  KeyContext,
  MarketingSignalReport,
  MonitorCheckList,
  Monitoring,
  Project,
  ProjectAccess,
  type ProjectAccessBody,
  ProjectList,
  RecheckResult,
  RestoredProject,
  RotatedWebhookSecret,
  Run,
  RunComparison,
  RunList,
  type Severity,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookList,
  WebsiteSecurityReport,
} from '../contract/index.ts';
import { ImmutableCache } from './cache.ts';
import { type ClientOptions, createHttp } from './http.ts';

export { ApiClientError, ApiConnectionError } from './errors.ts';
export type { ClientOptions } from './http.ts';

// Parsed by product: a report is validated against its own product's schema.
const AnyReport = z.discriminatedUnion('product', [AiReadinessReport, MarketingSignalReport, WebsiteSecurityReport]);

export function createClient(options: ClientOptions) {
  const http = createHttp(options);
  // Completed runs, reports and findings pages are immutable (spec 1): read each once.
  const cache = new ImmutableCache();
  async function cached<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    const hit = cache.get<T>(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (keep(value)) cache.set(key, value);
    return value;
  }
  return {
    me: () => http('/api/v1/me', { schema: KeyContext }),
    projects: {
      list: (query: { limit?: number; cursor?: string; status?: string } = {}) =>
        http('/api/v1/projects', { query, schema: ProjectList }),
      get: (projectId: string) => http(`/api/v1/projects/${encodeURIComponent(projectId)}`, { schema: Project }),
      create: (body: { domain: string; name?: string }) =>
        http('/api/v1/projects', { method: 'POST', body, schema: Project }),
      restore: (projectId: string) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}`, {
          method: 'PATCH',
          body: { status: 'active' },
          schema: RestoredProject,
        }),
      archive: (projectId: string, confirm: string) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}`, {
          method: 'DELETE',
          query: { confirm },
          schema: ArchiveResult,
        }),
    },
    runs: {
      start: (body: { projectId: string; scanMode?: string }, idempotencyKey?: string) =>
        http('/api/v1/runs', {
          method: 'POST',
          body,
          schema: Run,
          ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
        }),
      /**
       * The run; with waitSeconds, a long poll that answers when the run changes (this service's
       * extension; other deployments answer at once, see wait_for_run).
       */
      get: (runId: string, wait: { waitSeconds?: number; signal?: AbortSignal } = {}) =>
        cached(
          `run:${runId}`,
          () =>
            http(`/api/v1/runs/${encodeURIComponent(runId)}`, {
              schema: Run,
              ...(wait.waitSeconds
                ? { query: { waitSeconds: wait.waitSeconds }, extraTimeoutMs: wait.waitSeconds * 1000 }
                : {}),
              ...(wait.signal ? { signal: wait.signal } : {}),
            }),
          (run) => run.status === 'completed',
        ),
      list: (query: { limit?: number; cursor?: string; projectId?: string; status?: string; product?: string } = {}) =>
        http('/api/v1/runs', { query, schema: RunList }),
      /** The checks behind one finding re-run on up to five URLs: this service's extension. */
      recheck: (
        runId: string,
        body: { findingId?: string; fingerprint?: string; urls?: string[] },
        signal?: AbortSignal,
      ) =>
        http(`/api/v1/runs/${encodeURIComponent(runId)}/recheck`, {
          method: 'POST',
          body,
          schema: RecheckResult,
          ...(signal ? { signal } : {}),
          // The service cuts a recheck off at 60 s (a page that drips its answer).
          extraTimeoutMs: 30_000,
        }),
      /** The run against a baseline (a run id, or the previous completed run): this service's extension. */
      compare: (runId: string, baseline?: string) =>
        http(`/api/v1/runs/${encodeURIComponent(runId)}/comparison`, {
          ...(baseline ? { query: { baseline } } : {}),
          schema: RunComparison,
        }),
      report: (runId: string) =>
        cached(`report:${runId}`, () =>
          http(`/api/v1/runs/${encodeURIComponent(runId)}/report`, { schema: AnyReport }),
        ),
      findings: (runId: string, query: { limit?: number; cursor?: string; severity?: Severity } = {}) =>
        cached(`findings:${runId}:${query.limit ?? ''}:${query.cursor ?? ''}:${query.severity ?? ''}`, () =>
          http(`/api/v1/runs/${encodeURIComponent(runId)}/findings`, { query, schema: FindingPage }),
        ),
    },
    monitoring: {
      get: (projectId: string) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}/monitoring`, { schema: Monitoring }),
      /** On or off, at `intervalMinutes` (null: the service's default). */
      set: (projectId: string, body: { enabled: boolean; intervalMinutes?: number | null }) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}/monitoring`, {
          method: 'PUT',
          body,
          schema: Monitoring,
        }),
      checks: (projectId: string, query: { limit?: number; cursor?: string; changesOnly?: boolean } = {}) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}/monitoring/checks`, {
          query: {
            ...(query.limit ? { limit: query.limit } : {}),
            ...(query.cursor ? { cursor: query.cursor } : {}),
            ...(query.changesOnly ? { changesOnly: 'true' } : {}),
          },
          schema: MonitorCheckList,
        }),
    },
    /**
     * A project's access settings, for a site behind a login or a preview wall (this service's
     * extension): the answer names what is set, never a value.
     */
    access: {
      get: (projectId: string) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}/access`, { schema: ProjectAccess }),
      /** Replaces all of them; `{}` clears them. */
      put: (projectId: string, body: ProjectAccessBody) =>
        http(`/api/v1/projects/${encodeURIComponent(projectId)}/access`, {
          method: 'PUT',
          body,
          schema: ProjectAccess,
        }),
    },
    webhooks: {
      create: (body: { url: string; events?: string[]; description?: string }) =>
        http('/api/v1/webhooks', { method: 'POST', body, schema: CreatedWebhookEndpoint }),
      list: (query: { limit?: number; cursor?: string } = {}) =>
        http('/api/v1/webhooks', { query, schema: WebhookList }),
      update: (
        webhookId: string,
        body: { url?: string; events?: string[]; description?: string | null; active?: boolean },
      ) =>
        http(`/api/v1/webhooks/${encodeURIComponent(webhookId)}`, { method: 'PATCH', body, schema: WebhookEndpoint }),
      rotateSecret: (webhookId: string, overlapSeconds?: number) =>
        http(`/api/v1/webhooks/${encodeURIComponent(webhookId)}/rotate-secret`, {
          method: 'POST',
          body: overlapSeconds === undefined ? {} : { overlapSeconds },
          schema: RotatedWebhookSecret,
        }),
      remove: (webhookId: string) =>
        http(`/api/v1/webhooks/${encodeURIComponent(webhookId)}`, { method: 'DELETE', schema: z.undefined() }),
      deliveries: (webhookId: string, query: { limit?: number; cursor?: string } = {}) =>
        http(`/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries`, { query, schema: WebhookDeliveryList }),
      redeliver: (webhookId: string, deliveryId: string) =>
        http(
          `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
          { method: 'POST', schema: z.object({ deliveryId: z.string(), status: z.string() }) },
        ),
    },
  };
}

export type SiteAuditClient = ReturnType<typeof createClient>;
