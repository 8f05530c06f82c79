// One delivery attempt (spec 6.5): a POST to the endpoint that counts as delivered on a 2xx within
// the deadline (5 s), with no redirect followed, through the same connect-time SSRF guard as the
// audit fetcher: on a hosted service, a name that resolves to a private address is refused.
import { request } from 'undici';
import { literalHostRefusal } from '../audit/net/addresses.ts';
import { BLOCKED_CODE } from '../audit/net/lookup.ts';
import type { AuditResolver } from '../audit/net/resolver.ts';
import { guardedAgents } from './guarded-agents.ts';
import type { Allowance } from './local-targets.ts';

export const DELIVERY_TIMEOUT_MS = 5_000;
const EXCERPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
  delivered: boolean;
}

export interface SenderOptions {
  resolver: AuditResolver;
  /** Loopback and private endpoints are allowed (the single-user local service, tests); asked at each send. */
  allowPrivate: Allowance;
  timeoutMs?: number;
  /** Extra certificate authorities (tests' own CA). */
  ca?: string | Buffer | Array<string | Buffer>;
}

export function createWebhookSender(options: SenderOptions) {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const agents = guardedAgents({
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    timeoutMs,
    connections: 4,
    ca: options.ca,
  });

  async function send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
      ...result,
      durationMs: performance.now() - started,
    });
    const target = new URL(url);
    const allowPrivate = agents.allowPrivate();
    const refusal = allowPrivate ? undefined : literalHostRefusal(target.hostname);
    if (refusal) return done({ statusCode: null, error: refusal, responseExcerpt: null, delivered: false });
    try {
      const response = await request(target, {
        dispatcher: agents.agent(allowPrivate),
        method: 'POST',
        headers: { ...headers, 'user-agent': 'siteaudit-webhooks/1' },
        body,
        // undici's request follows no redirect: a 3xx is an answer, and not a delivery.
        signal: AbortSignal.timeout(timeoutMs),
      });
      let excerpt = '';
      for await (const chunk of response.body) {
        excerpt += (chunk as Buffer).toString('utf8');
        if (excerpt.length >= EXCERPT_BYTES) {
          response.body.destroy();
          break;
        }
      }
      const delivered = response.statusCode >= 200 && response.statusCode < 300;
      return done({
        statusCode: response.statusCode,
        error: delivered
          ? null
          : `answered ${response.statusCode}${response.statusCode >= 300 && response.statusCode < 400 ? ' (redirects are not followed)' : ''}`,
        responseExcerpt: excerpt.slice(0, EXCERPT_BYTES) || null,
        delivered,
      });
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = e.cause?.code ?? e.code;
      const message =
        code === BLOCKED_CODE
          ? (e.cause?.message ?? e.message)
          : e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
            ? `no answer within ${timeoutMs / 1000} s`
            : `could not connect: ${e.cause?.message ?? e.message}`;
      return done({ statusCode: null, error: message.slice(0, 300), responseExcerpt: null, delivered: false });
    }
  }

  return { send, close: () => agents.close() };
}
