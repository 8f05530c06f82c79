// spec 6.4: signing a delivery and verifying one. The service signs with `signDelivery`; a receiver
// verifies with `verifyWebhook` (exported by the package as `siteaudit/webhooks`) before it trusts
// or parses the body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_HEADER_PATTERN, WebhookEvent } from './webhook.ts';

/** spec 6.4.4: a signature older or newer than this is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookVerificationCode = 'malformed_header' | 'stale_timestamp' | 'bad_signature' | 'invalid_body';

/** Why a delivery was refused; `code` is stable, `message` says it for a person. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationCode;
  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.code = code;
  }
}

const hmac = (secret: string, timestamp: number, body: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

/** The `x-service-signature` value for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signDelivery(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export interface VerifyOptions {
  /** The endpoint's signing secret; during a rotation, the new and the previous one. */
  secret: string | readonly string[];
  /** The `x-service-signature` header as received. */
  header: string | null | undefined;
  /** The raw request body, exactly as received (before any JSON parsing). */
  body: string | Uint8Array;
  /** Seconds of clock difference accepted (default 300, spec 6.4.4). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: number;
}

/**
 * Checks a delivery's signature and answers its event, or throws a WebhookVerificationError:
 * a header not of the form `t=<digits>,v1=<64 hex>`, a timestamp more than 300 s away, a signature
 * that no given secret produced (compared in constant time), or a body that is not an event.
 */
export function verifyWebhook(options: VerifyOptions): WebhookEvent {
  const match = SIGNATURE_HEADER_PATTERN.exec((options.header ?? '').trim());
  if (!match)
    throw new WebhookVerificationError('malformed_header', 'the signature header is not t=<digits>,v1=<64 hex>');
  const timestamp = Number(match[1]);
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (!Number.isSafeInteger(timestamp) || Math.abs(now - timestamp) > tolerance)
    throw new WebhookVerificationError(
      'stale_timestamp',
      `the signature's timestamp is more than ${tolerance} s from now: a replay, or a clock out of step`,
    );
  const given = Buffer.from(match[2] as string, 'hex');
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs the signing secret');
  // Every secret is tried, so the time taken does not tell which one matched.
  let valid = false;
  for (const secret of secrets) {
    if (timingSafeEqual(Buffer.from(hmac(secret, timestamp, options.body), 'hex'), given)) valid = true;
  }
  if (!valid) throw new WebhookVerificationError('bad_signature', 'the signature does not match the body and secret');
  const text = typeof options.body === 'string' ? options.body : Buffer.from(options.body).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the signed body is not JSON');
  }
  const event = WebhookEvent.safeParse(parsed);
  if (!event.success) throw new WebhookVerificationError('invalid_body', 'the signed body is not a webhook event');
  return event.data;
}
