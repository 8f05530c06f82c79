// The webhook deliverer of every `serve` process (spec 6, issue 11). It turns outbox events into
// deliveries, leases due ones through the store (so processes share the work and a killed process's
// deliveries are taken over when their lease runs out), signs and sends them, and schedules retries
// after 1 m, 5 m, 30 m, 2 h, 6 h and 24 h. The event id is the same on every attempt. Issue 28: each
// send runs in a lane of its own (lanes.ts), so a free lane takes what comes due while an endpoint
// holds another, and the claim keeps each organization, and its failing endpoints, to their caps.
import { randomBytes } from 'node:crypto';
import { type AuditResolver, createResolver } from '../audit/net/resolver.ts';
import { signDelivery } from '../contract/webhook-signature.ts';
import { decryptSecret } from './key-encryption.ts';
import { Lanes } from './lanes.ts';
import type { Allowance } from './local-targets.ts';
import { observeDelivery } from './metrics.ts';
import { PassLoop } from './pass-loop.ts';
import { type ClaimedDelivery, DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from './store/deliveries.ts';
import type { Store } from './store/index.ts';
import { createWebhookSender, DELIVERY_TIMEOUT_MS, type SendResult } from './webhook-sender.ts';

/** spec 6.5.2: the waits before attempts 2 to 7; after the seventh, deliveries stop. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21_600, 86_400] as const;
const DISPATCH_BATCH = 100;
/** How long a delivery stays with a process that stopped renewing it (one killed with -9). */
export const DEFAULT_DELIVERY_LEASE_MS = 30_000;
/** An endpoint with no successful delivery for this long is disabled (docs/decisions.md, "Webhooks"). */
export const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000;

export interface DelivererOptions {
  store: Store;
  kek: Buffer | Error;
  resolver?: AuditResolver;
  /** Loopback and private endpoints are allowed; asked at each delivery (see local-targets.ts). */
  allowPrivate: Allowance;
  ca?: string | Buffer | Array<string | Buffer>;
  timeoutMs?: number;
  /** Milliseconds between passes nothing asked for; a function is asked before each wait (wakeups.ts). */
  pollMs?: number | (() => number);
  leaseMs?: number;
  concurrency?: number;
  /** What the claim keeps to across processes: caps per organization and for failing endpoints (issue 28). */
  limits?: DeliveryLimits;
  disableAfterMs?: number;
  /** The time in milliseconds; tests drive the retry schedule with their own. */
  clock?: () => number;
  /** Run the loop on a timer (false: a test calls tick() itself). */
  autoStart?: boolean;
  log?: (line: string) => void;
}

/** The secret, or undefined when this key-encryption key cannot open it (a KEK changed without re-keying). */
function unseal(kek: Buffer, sealed: string): string | undefined {
  try {
    return decryptSecret(kek, sealed);
  } catch {
    return undefined;
  }
}

export class Deliverer {
  readonly owner = `deliverer-${randomBytes(6).toString('hex')}`;
  readonly #options: DelivererOptions;
  readonly #sender: ReturnType<typeof createWebhookSender>;
  readonly #clock: () => number;
  readonly #loop: PassLoop;
  readonly #lanes: Lanes<ClaimedDelivery>;

  constructor(options: DelivererOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#sender = createWebhookSender({
      resolver: options.resolver ?? createResolver(),
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    this.#lanes = new Lanes({
      lanes: options.concurrency ?? 4,
      claim: () =>
        this.#loop.stopped
          ? Promise.resolve(undefined)
          : options.store.deliveries.claim(
              this.owner,
              new Date(this.#clock()).toISOString(),
              options.leaseMs ?? DEFAULT_DELIVERY_LEASE_MS,
              options.limits ?? DEFAULT_DELIVERY_LIMITS,
            ),
      work: (claimed) => this.#attempt(claimed),
      // A send that ended freed a lane (and maybe its organization's cap): look again now.
      onFree: () => {
        if (options.autoStart !== false) this.#loop.wake();
      },
      onError: (error) => options.log?.(`webhooks: ${error.message}`),
    });
    this.#loop = new PassLoop(
      () => this.#pass(),
      options.pollMs ?? 1000,
      (error) => options.log?.(`webhooks: ${error.message}`),
    );
  }

  start(): void {
    if (this.#options.autoStart !== false) this.#loop.start();
  }

  /** A pass now (after a run ended in this process, say); one pass at a time, one more if asked meanwhile. */
  wake(): void {
    this.#loop.wake();
  }

  /** A pass now, and the next timed one at the pace of the moment (wake-ups came up or went down). */
  repace(): void {
    if (this.#options.autoStart === false) this.wake();
    else this.#loop.restart();
  }

  /**
   * A whole pass, for tests and benchmarks that drive the deliverer themselves: dispatches new events,
   * then sends every due delivery it may, `concurrency` at a time, until none is left.
   */
  async tick(): Promise<void> {
    if (await this.#dispatch()) await this.#lanes.drain();
  }

  /**
   * A timed or woken pass: dispatches new events and fills the free lanes, without waiting for their
   * sends, so a delivery that comes due while an endpoint holds a lane is sent by a free one now.
   */
  async #pass(): Promise<void> {
    if (await this.#dispatch()) await this.#lanes.fill();
  }

  /** Turns new events into deliveries; false once stopping. */
  async #dispatch(): Promise<boolean> {
    const { store } = this.#options;
    // A backlog (a service that was down) is dispatched in batches until none is left.
    while (
      (await store.deliveries.dispatch(new Date(this.#clock()).toISOString(), DISPATCH_BATCH)).events === DISPATCH_BATCH
    ) {
      if (this.#loop.stopped) return false;
    }
    return !this.#loop.stopped;
  }

  async #attempt({ delivery, endpoint, event }: ClaimedDelivery): Promise<void> {
    const { kek, store } = this.#options;
    const attemptedAt = new Date(this.#clock()).toISOString();
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      createdAt: event.created_at,
      data: JSON.parse(event.data),
    });
    let result: SendResult;
    if (kek instanceof Error) {
      result = {
        statusCode: null,
        error: 'the service cannot read signing secrets (no key-encryption key)',
        responseExcerpt: null,
        durationMs: 0,
        delivered: false,
      };
    } else {
      // During a rotation's overlap the previous secret still signs (docs/decisions.md, "Webhooks").
      const previousValid =
        endpoint.previous_secret_ciphertext &&
        endpoint.previous_secret_expires_at &&
        Date.parse(endpoint.previous_secret_expires_at) > this.#clock();
      const secret = unseal(
        kek,
        previousValid ? (endpoint.previous_secret_ciphertext as string) : endpoint.secret_ciphertext,
      );
      result =
        secret === undefined
          ? {
              statusCode: null,
              error: 'the signing secret cannot be read with this key-encryption key',
              responseExcerpt: null,
              durationMs: 0,
              delivered: false,
            }
          : await this.#sender.send(
              endpoint.url,
              {
                'content-type': 'application/json',
                'x-service-event': event.type,
                'x-service-event-id': event.id,
                'x-service-signature': signDelivery(secret, body, Math.floor(this.#clock() / 1000)),
              },
              body,
            );
    }
    observeDelivery(delivery, Date.parse(attemptedAt), result.delivered);
    const finishedAt = this.#clock();
    const delay = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
    const outcome = await store.deliveries.finish(
      delivery.id,
      this.owner,
      {
        attemptedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        responseExcerpt: result.responseExcerpt,
        delivered: result.delivered,
        nextAttemptAt:
          result.delivered || delay === undefined ? null : new Date(finishedAt + delay * 1000).toISOString(),
      },
      this.#options.disableAfterMs ?? DISABLE_AFTER_MS,
    );
    if (outcome === 'endpoint_disabled')
      this.#options.log?.(`webhooks: disabled endpoint ${endpoint.id}: every delivery failed for too long`);
  }

  /** Stops taking deliveries, lets the ones in flight finish (at most the send deadline), gives back the rest. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await this.#lanes.settled();
    await this.#options.store.deliveries.release(this.owner, new Date(this.#clock()).toISOString()).catch(() => {});
    await this.#sender.close();
  }
}
