// spec 2.12, 2.13 and 6: webhook endpoints, the event envelope and run event data.
import { z } from 'zod';
import { DateTime, Pagination, PlainText, SEVERITIES, Uuid } from './common.ts';

export const EVENT_TYPES = ['run.completed', 'run.failed', 'monitoring.changed'] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

export const EventId = z.string().regex(/^evt_[A-Za-z0-9_-]+$/);

// spec 6.2: every field required.
export const WebhookEvent = z.object({
  id: EventId,
  type: EventType,
  createdAt: DateTime,
  data: z.looseObject({}),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

// spec 6.3: data of run.completed and run.failed, every field required.
export const RunEventData = z.object({
  runId: Uuid,
  projectId: Uuid.nullable(),
  status: z.enum(['completed', 'failed']),
  url: z.url(),
  score: z.int().min(0).max(100).nullable(),
  scoreStatus: z.literal('unverified').nullable(),
  severityCounts: z.partialRecord(z.enum(SEVERITIES), z.int().min(0)).nullable(),
  findingsTotal: z.int().min(0).nullable(),
  error: z.string().nullable(),
  humanUrl: z.url(),
  apiUrl: z.url(),
});
export type RunEventData = z.infer<typeof RunEventData>;

// spec 6.4.3: the signature header form.
export const SIGNATURE_HEADER_PATTERN = /^t=(\d+),v1=([0-9a-f]{64})$/;

// spec 4.12 and 6.5.4: endpoints must be https.
const HttpsUrl = z
  .url({ protocol: /^https$/, error: 'the endpoint URL must use https' })
  .max(2048)
  .pipe(PlainText);

// spec 2.13 leaves the field names open; ours are in docs/decisions.md.
export const WebhookEndpoint = z.object({
  webhookId: Uuid,
  url: z.string(),
  events: z.array(EventType),
  active: z.boolean(),
  description: z.string().nullable(),
  /** Set when the service disabled the endpoint (it kept failing), with why; null otherwise. */
  disabledReason: z.string().nullable(),
  /** During a rotation: until when the previous secret still signs deliveries. */
  previousSecretExpiresAt: DateTime.nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string().startsWith('whsec_') });

export const CreateWebhookBody = z.strictObject({
  url: HttpsUrl,
  events: z.array(EventType).min(1).optional(),
  description: PlainText.max(200).optional(),
});

export const UpdateWebhookBody = z
  .strictObject({
    url: HttpsUrl.optional(),
    events: z.array(EventType).min(1).optional(),
    description: PlainText.max(200).nullable().optional(),
    active: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'send at least one field to change');

export const WebhookList = z.object({ webhooks: z.array(WebhookEndpoint), pagination: Pagination });

/** The longest overlap of a rotation: a week, like the longest deploy cycle worth waiting for. */
export const ROTATION_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;
export const ROTATION_OVERLAP_DEFAULT_SECONDS = 24 * 3600;

export const RotateWebhookSecretBody = z.strictObject({
  /** How long the previous secret keeps signing deliveries; 0 retires it at once. */
  overlapSeconds: z.int().min(0).max(ROTATION_OVERLAP_MAX_SECONDS).optional(),
});

export const RotatedWebhookSecret = WebhookEndpoint.extend({ secret: z.string().startsWith('whsec_') });

// The delivery log of an endpoint (issue 11): each delivery of an event, with its attempts.
export const WebhookAttempt = z.object({
  attemptedAt: DateTime,
  durationMs: z.int().min(0),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  /** The first KB of the receiver's answer: its text, not ours. */
  responseExcerpt: z.string().nullable(),
});

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;

export const WebhookDelivery = z.object({
  deliveryId: Uuid,
  eventId: EventId,
  eventType: EventType,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.int().min(0),
  nextAttemptAt: DateTime.nullable(),
  deliveredAt: DateTime.nullable(),
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: DateTime,
  attemptLog: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery), pagination: Pagination });
