// Builds the OpenAPI 3.1 description served at /openapi.json from the contract's zod schemas (spec 4.13).
import { z } from 'zod';
import { CliRevokeRequest, CliTokenRequest, CliTokenResponse } from './cli-token.ts';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, SEVERITIES } from './common.ts';
import { RunComparison } from './comparison.ts';
import { type ErrorCode, ErrorEnvelope } from './errors.ts';
import { Finding, FindingPage } from './finding.ts';
import { Integration, IntegrationsResponse, SignalsResponse } from './integration.ts';
import { KeyContext } from './key-context.ts';
import { MonitorCheckList, Monitoring, MonitoringChangedData, UpdateMonitoringBody } from './monitoring.ts';
import {
  ArchiveProjectBody,
  ArchiveResult,
  CreateProjectBody,
  Project,
  ProjectList,
  RestoredProject,
  RestoreProjectBody,
} from './project.ts';
import { ProjectAccess, ProjectAccessBody } from './project-access.ts';
import { RecheckBody, RecheckResult } from './recheck.ts';
import {
  AiReadinessReport,
  CheckRow,
  MarketingSignalReport,
  ReportContext,
  SeverityCounts,
  WebsiteSecurityReport,
} from './report.ts';
import { PRODUCTS, RUN_STATUSES, RUN_WAIT_SECONDS_MAX, Run, RunList, RunListItem, StartRunBody } from './run.ts';
import { SCOPES, type Scope } from './scopes.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  RotatedWebhookSecret,
  RotateWebhookSecretBody,
  RunEventData,
  UpdateWebhookBody,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEvent,
  WebhookList,
} from './webhook.ts';

const COMPONENTS = {
  ErrorEnvelope,
  KeyContext,
  Project,
  RestoredProject,
  ProjectList,
  CreateProjectBody,
  RestoreProjectBody,
  ArchiveProjectBody,
  ArchiveResult,
  Run,
  RunListItem,
  RunList,
  StartRunBody,
  Finding,
  FindingPage,
  RunComparison,
  RecheckBody,
  RecheckResult,
  SeverityCounts,
  CheckRow,
  AiReadinessReport,
  MarketingSignalReport,
  WebsiteSecurityReport,
  ReportContext,
  Integration,
  IntegrationsResponse,
  SignalsResponse,
  CliTokenRequest,
  CliTokenResponse,
  CliRevokeRequest,
  WebhookEndpoint,
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookList,
  RotateWebhookSecretBody,
  RotatedWebhookSecret,
  WebhookDeliveryList,
  WebhookEvent,
  RunEventData,
  Monitoring,
  UpdateMonitoringBody,
  MonitorCheckList,
  MonitoringChangedData,
  ProjectAccess,
  ProjectAccessBody,
} as const;
type ComponentName = keyof typeof COMPONENTS;

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description: string;
  schema: object;
  /** Marks what this service adds to the spec (an OpenAPI specification extension). */
  'x-siteaudit-extension'?: true;
};

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  scope?: Scope | null; // null: authenticated, no scope; undefined: no authentication
  parameters?: Parameter[];
  body?: ComponentName;
  ok: {
    status: number;
    schema?: ComponentName;
    description: string;
    extra?: Record<number, { schema: ComponentName; description: string }>;
  };
  errors: Partial<Record<number, ErrorCode[]>>;
}

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
const uuidParam = (name: string, what: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  description: `The ${what} id (uuid).`,
  schema: { type: 'string', format: 'uuid' },
});
const LIMIT: Parameter = {
  name: 'limit',
  in: 'query',
  description: `Page size, 1 to ${PAGE_LIMIT_MAX}.`,
  schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
};
const CURSOR: Parameter = {
  name: 'cursor',
  in: 'query',
  description: 'Opaque cursor from the previous page (`pagination.nextCursor`).',
  schema: { type: 'string' },
};
const PROJECT = uuidParam('projectId', 'project');
const RUN = uuidParam('runId', 'run');
const WEBHOOK = uuidParam('webhookId', 'webhook endpoint');

const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/v1/me',
    operationId: 'getKeyContext',
    summary: 'The key context: organization, scopes, plan, credits and credit costs. The recommended first call.',
    tag: 'keys',
    scope: null,
    ok: { status: 200, schema: 'KeyContext', description: 'The key context.' },
    errors: {},
  },
  {
    method: 'post',
    path: '/api/v1/cli/token',
    operationId: 'exchangeCliToken',
    summary: 'Exchange a single-use authorization code (loopback + PKCE S256) for a newly minted key.',
    tag: 'keys',
    body: 'CliTokenRequest',
    ok: { status: 201, schema: 'CliTokenResponse', description: 'The new key; its secret is shown this once.' },
    errors: {
      400: ['invalid_request', 'invalid_grant'],
      413: ['payload_too_large'],
      // Refused exchanges count against the client address's budget (docs/decisions.md, "Refused requests").
      429: ['rate_limited'],
      500: ['internal_error'],
      503: ['key_encryption_unavailable', 'service_unavailable'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/cli/revoke',
    operationId: 'revokeCliKey',
    summary:
      'Revoke a key by presenting it (RFC 7009; `siteaudit logout`). Answers 200 whether or not the token was a live key.',
    tag: 'keys',
    body: 'CliRevokeRequest',
    ok: { status: 200, description: '`{revoked: true}`: the token, if it was a live key, no longer works.' },
    errors: { 400: ['invalid_request'], 413: ['payload_too_large'], 429: ['rate_limited'] },
  },
  {
    method: 'get',
    path: '/api/v1/projects',
    operationId: 'listProjects',
    summary: 'Projects of the key’s organization, newest first. Archived ones only on request.',
    tag: 'projects',
    scope: 'projects:read',
    parameters: [
      LIMIT,
      CURSOR,
      {
        name: 'status',
        in: 'query',
        description: 'Omitted excludes archived; `all` removes the filter.',
        schema: { type: 'string', enum: ['active', 'paused', 'archived', 'all'] },
      },
    ],
    ok: { status: 200, schema: 'ProjectList', description: 'A page of projects.' },
    errors: { 400: ['validation_failed'] },
  },
  {
    method: 'post',
    path: '/api/v1/projects',
    operationId: 'createProject',
    summary: 'Create a project for a domain; idempotent by domain, and restores an archived one.',
    tag: 'projects',
    scope: 'projects:write',
    body: 'CreateProjectBody',
    ok: {
      status: 201,
      schema: 'Project',
      description: 'A new project.',
      extra: { 200: { schema: 'Project', description: 'The existing project (`idempotent`, maybe `restored`).' } },
    },
    errors: {
      400: ['invalid_json', 'invalid_domain', 'validation_failed'],
      403: ['project_scoped_key'],
      409: ['project_limit_reached', 'project_exists'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}',
    operationId: 'getProject',
    summary: 'One project.',
    tag: 'projects',
    scope: 'projects:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'Project', description: 'The project.' },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'patch',
    path: '/api/v1/projects/{projectId}',
    operationId: 'restoreProject',
    summary: 'Restore an archived project; the body is exactly {"status": "active"}.',
    tag: 'projects',
    scope: 'projects:write',
    parameters: [PROJECT],
    body: 'RestoreProjectBody',
    ok: { status: 200, schema: 'RestoredProject', description: 'The project with `restored` and `idempotent`.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      404: ['not_found'],
      409: ['project_not_archived', 'project_limit_reached'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/{projectId}',
    operationId: 'archiveProject',
    summary: 'Archive a project (never a hard delete); `confirm` must equal its exact domain.',
    tag: 'projects',
    scope: 'projects:delete',
    parameters: [
      PROJECT,
      {
        name: 'confirm',
        in: 'query',
        description: 'The project’s exact domain (or send it in a JSON body).',
        schema: { type: 'string' },
      },
    ],
    body: 'ArchiveProjectBody',
    ok: { status: 200, schema: 'ArchiveResult', description: 'The project is archived.' },
    errors: {
      400: ['confirmation_required', 'confirmation_mismatch', 'invalid_json'],
      403: ['project_scoped_key'],
      404: ['not_found'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/marketing/report',
    operationId: 'getMarketingReport',
    summary: 'The report context of the project’s latest completed Marketing Signal run.',
    tag: 'reports',
    scope: 'reports:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'MarketingSignalReport', description: 'The Marketing Signal report context.' },
    errors: { 404: ['not_found', 'no_marketing_run', 'results_unavailable'] },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/integrations',
    operationId: 'listIntegrations',
    summary: 'Connected-signal integrations and their status (all planned, none connected yet).',
    tag: 'projects',
    scope: 'projects:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'IntegrationsResponse', description: 'The integrations.' },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/signals',
    operationId: 'listSignals',
    summary: 'Connected signals of the project (empty under public_only coverage).',
    tag: 'projects',
    scope: 'projects:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'SignalsResponse', description: 'The signals.' },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/api/v1/runs',
    operationId: 'listRuns',
    summary: 'Runs of the organization, newest first, with their score state.',
    tag: 'runs',
    scope: 'runs:read',
    parameters: [
      LIMIT,
      CURSOR,
      {
        name: 'projectId',
        in: 'query',
        description: 'Only this project’s runs.',
        schema: { type: 'string', format: 'uuid' },
      },
      {
        name: 'status',
        in: 'query',
        description: 'Only runs in this status.',
        schema: { type: 'string', enum: [...RUN_STATUSES] },
      },
      {
        name: 'product',
        in: 'query',
        description: 'Extension of this service: only runs of this product.',
        schema: { type: 'string', enum: [...PRODUCTS] },
        'x-siteaudit-extension': true,
      },
    ],
    ok: { status: 200, schema: 'RunList', description: 'A page of runs.' },
    errors: { 400: ['validation_failed'] },
  },
  {
    method: 'post',
    path: '/api/v1/runs',
    operationId: 'startRun',
    summary: 'Start an audit; spends credits; answers at once with the pending run.',
    tag: 'runs',
    scope: 'runs:write',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        description: 'Makes retries safe: the same key returns the same run.',
        schema: { type: 'string', maxLength: 255 },
      },
    ],
    body: 'StartRunBody',
    ok: { status: 202, schema: 'Run', description: 'The run, pending.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      402: ['insufficient_credits', 'no_active_subscription'],
      404: ['not_found'],
      409: ['run_in_flight', 'project_archived'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}',
    operationId: 'getRun',
    summary: 'One run with `links`; poll about every 10 seconds until it is terminal, or long-poll with `waitSeconds`.',
    tag: 'runs',
    scope: 'runs:read',
    parameters: [
      RUN,
      {
        name: 'waitSeconds',
        in: 'query',
        description: `Extension of this service: a long poll. While the run is pending or running, answer as soon as its status, progressPct or currentStep changes, or after this many seconds (1 to ${RUN_WAIT_SECONDS_MAX}) with the run as it is. A terminal run is answered at once. One request for the rate limit. Deployments without the extension ignore the parameter, so a client that sees an unchanged run come back early should fall back to polling.`,
        schema: { type: 'integer', minimum: 1, maximum: RUN_WAIT_SECONDS_MAX },
        'x-siteaudit-extension': true,
      },
    ],
    ok: { status: 200, schema: 'Run', description: 'The run (cacheable once completed, no-store while in flight).' },
    errors: { 400: ['validation_failed'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/report',
    operationId: 'getRunReport',
    summary: 'The report context of a completed run; read it before paging findings.',
    tag: 'reports',
    scope: 'reports:read',
    parameters: [RUN],
    ok: { status: 200, schema: 'ReportContext', description: 'The report context of the run’s product.' },
    errors: { 404: ['not_found', 'results_unavailable'] },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/findings',
    operationId: 'listFindings',
    summary: 'Findings of a completed run, worst first, cursor-paginated.',
    tag: 'findings',
    scope: 'findings:read',
    parameters: [
      RUN,
      LIMIT,
      CURSOR,
      {
        name: 'severity',
        in: 'query',
        description: 'Only findings of this severity.',
        schema: { type: 'string', enum: [...SEVERITIES] },
      },
    ],
    ok: { status: 200, schema: 'FindingPage', description: 'A page of findings.' },
    errors: { 400: ['validation_failed'], 404: ['not_found', 'results_unavailable'] },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{runId}/comparison',
    operationId: 'compareRuns',
    summary:
      'Extension of this service: a completed run against a baseline run of the same project and product, finding by finding (matched by fingerprint): new, persisting, notFound (never "resolved", spec 2.5), with counts and the score change.',
    tag: 'findings',
    scope: 'findings:read',
    parameters: [
      RUN,
      {
        name: 'baseline',
        in: 'query',
        description:
          'A completed run id of the same project and product, or `previous` (the default): the completed run started last before this one.',
        schema: { type: 'string' },
        'x-siteaudit-extension': true,
      },
    ],
    ok: { status: 200, schema: 'RunComparison', description: 'The comparison.' },
    errors: {
      400: ['validation_failed'],
      404: ['not_found', 'results_unavailable', 'no_baseline'],
      409: ['baseline_mismatch'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/runs/{runId}/recheck',
    operationId: 'recheckFinding',
    summary:
      'Extension of this service: re-run the checks behind one finding of a completed run (by findingId or fingerprint) on up to 5 URLs (default: its affected URLs; the project’s site, or this machine where local targets are allowed), each judged alone: pass, fail, not_evaluated or error, with the findings’ evidence shape. No credits; 30 a minute per organization; stored runs and findings never change.',
    tag: 'findings',
    scope: 'runs:write',
    parameters: [RUN],
    body: 'RecheckBody',
    ok: { status: 200, schema: 'RecheckResult', description: 'The verdict per URL.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      404: ['not_found', 'results_unavailable'],
      413: ['payload_too_large'],
      429: ['rate_limited'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/monitoring',
    operationId: 'getMonitoring',
    summary: 'Whether the project is monitored, at what interval, and the state of each watched page.',
    tag: 'monitoring',
    scope: 'projects:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'Monitoring', description: 'The project’s monitoring.' },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{projectId}/monitoring',
    operationId: 'setMonitoring',
    summary:
      'Switch monitoring on or off and set its interval (null: the service’s default). Switching on checks within seconds.',
    tag: 'monitoring',
    scope: 'projects:write',
    parameters: [PROJECT],
    body: 'UpdateMonitoringBody',
    ok: { status: 200, schema: 'Monitoring', description: 'The project’s monitoring after the change.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      404: ['not_found'],
      409: ['project_archived'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/monitoring/checks',
    operationId: 'listMonitorChecks',
    summary: 'The history of checks, newest first; `changesOnly=true` keeps those that emitted monitoring.changed.',
    tag: 'monitoring',
    scope: 'projects:read',
    parameters: [
      PROJECT,
      LIMIT,
      CURSOR,
      {
        name: 'changesOnly',
        in: 'query',
        description: 'Only the checks that emitted an event.',
        schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
      },
    ],
    ok: { status: 200, schema: 'MonitorCheckList', description: 'A page of checks.' },
    errors: { 400: ['validation_failed'], 404: ['not_found'] },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{projectId}/access',
    operationId: 'getProjectAccess',
    summary:
      'Extension of this service: the names of the project’s access settings (headers, cookies, whether basic auth is set) for a site behind a login or a preview wall; never a value.',
    tag: 'projects',
    scope: 'projects:read',
    parameters: [PROJECT],
    ok: { status: 200, schema: 'ProjectAccess', description: 'What is set, by name.' },
    errors: { 404: ['not_found'] },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{projectId}/access',
    operationId: 'setProjectAccess',
    summary:
      'Extension of this service: replace the project’s access settings (headers, basic auth, cookies; `{}` clears them). Audits send them only to the project’s own origin. Write-only: the answer names what is set, never a value, and no refusal quotes one.',
    tag: 'projects',
    scope: 'projects:write',
    parameters: [PROJECT],
    body: 'ProjectAccessBody',
    ok: { status: 200, schema: 'ProjectAccess', description: 'What is set after the change, by name.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      404: ['not_found'],
      413: ['payload_too_large'],
      503: ['key_encryption_unavailable'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks',
    operationId: 'createWebhook',
    summary: 'Subscribe an https endpoint to events; the signing secret is returned this once.',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    body: 'CreateWebhookBody',
    ok: { status: 201, schema: 'CreatedWebhookEndpoint', description: 'The endpoint with its signing secret.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      403: ['project_scoped_key'],
      409: ['webhook_limit_reached'],
      413: ['payload_too_large'],
      503: ['key_encryption_unavailable'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/webhooks',
    operationId: 'listWebhooks',
    summary: 'The organization’s webhook endpoints, newest first (no secrets).',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [LIMIT, CURSOR],
    ok: { status: 200, schema: 'WebhookList', description: 'A page of endpoints.' },
    errors: { 400: ['validation_failed'], 403: ['project_scoped_key'] },
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{webhookId}',
    operationId: 'getWebhook',
    summary: 'One webhook endpoint.',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK],
    ok: { status: 200, schema: 'WebhookEndpoint', description: 'The endpoint.' },
    errors: { 403: ['project_scoped_key'], 404: ['not_found'] },
  },
  {
    method: 'patch',
    path: '/api/v1/webhooks/{webhookId}',
    operationId: 'updateWebhook',
    summary: 'Change an endpoint: its URL, events, description, or `active: false` to disable it.',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK],
    body: 'UpdateWebhookBody',
    ok: { status: 200, schema: 'WebhookEndpoint', description: 'The changed endpoint.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      403: ['project_scoped_key'],
      404: ['not_found'],
      413: ['payload_too_large'],
    },
  },
  {
    method: 'delete',
    path: '/api/v1/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Remove an endpoint; no further deliveries.',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK],
    ok: { status: 204, description: 'Removed.' },
    errors: { 403: ['project_scoped_key'], 404: ['not_found'] },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{webhookId}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary:
      'A new signing secret, returned this once; the previous one keeps signing for `overlapSeconds` (default a day).',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK],
    body: 'RotateWebhookSecretBody',
    ok: { status: 200, schema: 'RotatedWebhookSecret', description: 'The endpoint with its new signing secret.' },
    errors: {
      400: ['invalid_json', 'validation_failed'],
      403: ['project_scoped_key'],
      404: ['not_found'],
      413: ['payload_too_large'],
      503: ['key_encryption_unavailable'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{webhookId}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary:
      'The endpoint’s deliveries, newest first, each with its attempts (time, status, duration, error, answer excerpt).',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK, LIMIT, CURSOR],
    ok: { status: 200, schema: 'WebhookDeliveryList', description: 'A page of deliveries.' },
    errors: { 400: ['validation_failed'], 403: ['project_scoped_key'], 404: ['not_found'] },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again now, with the same event id; its retry schedule starts over.',
    tag: 'webhooks',
    scope: 'webhooks:manage',
    parameters: [WEBHOOK, uuidParam('deliveryId', 'delivery')],
    ok: { status: 202, description: 'Queued: `{deliveryId, status: "pending"}`.' },
    errors: { 403: ['project_scoped_key'], 404: ['not_found'], 409: ['delivery_in_progress'] },
  },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing, unknown or revoked key',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  429: 'Rate limited; see Retry-After',
  500: 'Internal error',
  503: 'Unavailable',
};

function errorResponse(status: number, codes: readonly string[]) {
  const response: Record<string, unknown> = {
    description: `${STATUS_TEXT[status] ?? 'Error'}. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: { 'application/json': { schema: ref('ErrorEnvelope') } },
  };
  if (status === 429)
    response.headers = { 'Retry-After': { description: 'Whole seconds to wait.', schema: { type: 'integer' } } };
  return response;
}

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {};
  const ok = (schema: ComponentName | undefined, description: string) =>
    schema ? { description, content: { 'application/json': { schema: ref(schema) } } } : { description };
  responses[String(op.ok.status)] = ok(op.ok.schema, op.ok.description);
  for (const [status, extra] of Object.entries(op.ok.extra ?? {}))
    responses[status] = ok(extra.schema, extra.description);
  const errors: Partial<Record<number, ErrorCode[]>> = { ...op.errors };
  if (op.scope !== undefined) {
    // spec 4: every authenticated operation can also answer 401 and 429; scoped ones 403.
    errors[401] = ['unauthorized'];
    if (op.scope) errors[403] = ['insufficient_scope', ...(errors[403] ?? [])];
    errors[429] = ['rate_limited'];
  }
  for (const [status, codes] of Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))) {
    responses[status] = errorResponse(Number(status), codes ?? []);
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(op.scope ? { 'x-required-scope': op.scope } : {}),
    security: op.scope === undefined ? [] : [{ bearerAuth: op.scope ? [op.scope] : [] }],
    ...(op.parameters ? { parameters: op.parameters } : {}),
    ...(op.body
      ? { requestBody: { required: op.method !== 'delete', content: { 'application/json': { schema: ref(op.body) } } } }
      : {}),
    responses,
  };
}

function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      // The format says it; zod's long regexes for uuid and date-time only add noise.
      if (jsonSchema.format && jsonSchema.pattern) delete jsonSchema.pattern;
    },
  });
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

/** The OpenAPI 3.1 document; `serverUrl` is the service's public base address. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = operationObject(op);
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document.',
      tags: ['meta'],
      security: [],
      responses: { 200: { description: 'The OpenAPI 3.1 description.', content: { 'application/json': {} } } },
    },
  };
  const runEvent = (type: string) => ({
    post: {
      summary: `Delivered when ${type === 'run.completed' ? 'an audit finished' : 'an audit failed terminally'}.`,
      description: 'Signed with x-service-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">.',
      requestBody: { content: { 'application/json': { schema: ref('WebhookEvent') } } },
      responses: { 200: { description: 'Any 2xx within 5 seconds acknowledges the delivery.' } },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Site Audit Service API',
      version: '1.0.0',
      description:
        'Projects, runs, report contexts and findings of website audits (AI readiness, marketing signal, security). ' +
        'Start a run, poll it until terminal, read the report context first, then page findings.',
    },
    servers: [{ url: serverUrl }],
    tags: ['keys', 'projects', 'runs', 'reports', 'findings', 'monitoring', 'webhooks', 'meta'].map((name) => ({
      name,
    })),
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: {
      'run.completed': runEvent('run.completed'),
      'run.failed': runEvent('run.failed'),
      'monitoring.changed': {
        post: {
          summary: 'Delivered when a monitored page fails, recovers, or changes status class or content.',
          description:
            'Signed like run events. `data` is MonitoringChangedData; the envelope is WebhookEvent with type monitoring.changed.',
          requestBody: { content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { 200: { description: 'Any 2xx within 5 seconds acknowledges the delivery.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_…',
          description: `An API key in the Authorization header; never in the query string. Scopes: ${SCOPES.join(', ')}.`,
        },
      },
      schemas: componentSchemas(),
    },
  };
}

/** The operations the document describes, as `METHOD /path` (used by tests to check coverage). */
export const OPENAPI_OPERATIONS: readonly string[] = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);
