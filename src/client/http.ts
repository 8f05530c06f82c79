// The typed API client's transport: bearer auth, JSON in and out, the error envelope as typed errors,
// responses parsed by the contract's schemas at the edge, requests paced per key, and retries only
// where they are safe (a 429 was refused before any work; other retries need an idempotent request).
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { trimTrailingSlashes } from '../contract/index.ts';
import { ApiClientError, ApiConnectionError } from './errors.ts';
import { DEFAULT_PACING, PacingExceeded, type PacingOptions, pacerFor } from './pacing.ts';

export interface ClientOptions {
  /** The service's base address, e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** An API key, svc_... */
  apiKey: string;
  userAgent?: string;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  /** Requests per window for this key (default 60 a minute, spec 8); false turns pacing off. */
  pacing?: PacingOptions | false;
  /** Retries of a refused or failed request where a retry is safe (default 3). */
  maxRetries?: number;
  /** The longest wait for a retry; a longer Retry-After is passed to the caller instead (default 60 s). */
  maxRetryWaitMs?: number;
  /** Told before each wait for a retry, so a person is not left watching nothing (the CLI says it). */
  onRetryWait?: (waitMs: number, error: ApiClientError) => void;
  /**
   * Called once per request when the service refused the connection (nothing was sent, so any
   * request may be repeated): finds or starts the service and returns its address to retry at.
   * The embedded default uses it to follow a local service that was restarted or stopped.
   */
  reconnect?: () => Promise<string>;
  /**
   * Headers added to every request, asked for each time (`mcp --http` names its client's address
   * in a signed header, contract/forwarded-address.ts).
   */
  headers?: (authorization: string) => Record<string, string>;
}

export interface RequestOptions<T extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  schema: T;
  /** Ends the request (and its retries) when aborted; the abort reason is thrown. */
  signal?: AbortSignal;
  /** How long the service may take to answer this request, beyond the client's timeout (a long poll). */
  extraTimeoutMs?: number;
}

export type Http = <T extends z.ZodType>(path: string, options: RequestOptions<T>) => Promise<z.infer<T>>;

/** Whether repeating the request is safe after this failure (the API's PATCH and DELETE are state-idempotent). */
function retryable(error: ApiClientError, method: string, idempotencyKey: boolean): boolean {
  if (error.status === 429) return true; // refused before any work was done
  const repeatable = method !== 'POST' || idempotencyKey;
  return repeatable && (error.status === 503 || error instanceof ApiConnectionError);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the connection was refused outright, before any byte of the request was sent. */
function refused(error: ApiConnectionError): boolean {
  const cause = error.cause as { code?: string; cause?: { code?: string } } | undefined;
  const code = cause?.code ?? cause?.cause?.code;
  return code === 'ECONNREFUSED';
}

export function createHttp(options: ClientOptions): Http {
  let base = trimTrailingSlashes(options.baseUrl);
  const pacer = options.pacing === false ? undefined : pacerFor(options.apiKey, options.pacing ?? DEFAULT_PACING);
  const maxRetries = options.maxRetries ?? 3;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;

  async function once(
    method: string,
    url: URL,
    body: unknown,
    { headers, signal, extraTimeoutMs = 0 }: Pick<RequestOptions<z.ZodType>, 'headers' | 'signal' | 'extraTimeoutMs'>,
  ): Promise<string> {
    try {
      await pacer?.acquire(maxRetryWaitMs);
    } catch (error) {
      if (!(error instanceof PacingExceeded)) throw error;
      // The same answer the service would give, without asking it: the caller decides when to retry.
      throw new ApiClientError(method, url.href, 429, 'rate_limited', error.message, {
        retryAfterSeconds: Math.ceil(error.retryAfterMs / 1000),
      });
    }
    signal?.throwIfAborted();
    const timeoutMs = (options.timeoutMs ?? 30_000) + extraTimeoutMs;
    let response: Dispatcher.ResponseData;
    try {
      const authorization = `Bearer ${options.apiKey}`;
      response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: {
          ...options.headers?.(authorization),
          authorization,
          accept: 'application/json',
          'user-agent': options.userAgent ?? 'siteaudit-client',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        ...(signal ? { signal } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      signal?.throwIfAborted();
      throw new ApiConnectionError(method, url.href, error);
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw new ApiConnectionError(method, url.href, error);
    }
    if (response.statusCode < 400) return text;
    let code = 'http_error';
    let message = text.slice(0, 300) || `HTTP ${response.statusCode}`;
    let details: Record<string, unknown> = {};
    try {
      const envelope = JSON.parse(text) as { error?: Record<string, unknown> };
      if (envelope.error && typeof envelope.error.code === 'string') {
        const { code: c, message: m, ...rest } = envelope.error;
        code = c as string;
        message = typeof m === 'string' ? m : message;
        details = rest;
      }
    } catch {
      // not the envelope: keep the raw text
    }
    const retryAfter = Number(response.headers['retry-after']);
    throw new ApiClientError(method, url.href, response.statusCode, code, message, {
      details,
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
    });
  }

  return async function send(path, { method = 'GET', query, body, headers, schema, signal, extraTimeoutMs }) {
    const address = () => {
      const url = new URL(`${base}${path}`);
      for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      return url;
    };
    let url = address();
    const idempotencyKey = Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'idempotency-key');
    let reconnected = false;
    for (let attempt = 0; ; attempt++) {
      try {
        const text = await once(method, url, body, {
          ...(headers ? { headers } : {}),
          ...(signal ? { signal } : {}),
          ...(extraTimeoutMs ? { extraTimeoutMs } : {}),
        });
        return schema.parse(text ? JSON.parse(text) : undefined);
      } catch (error) {
        if (options.reconnect && !reconnected && error instanceof ApiConnectionError && refused(error)) {
          reconnected = true;
          base = trimTrailingSlashes(await options.reconnect());
          url = address();
          continue;
        }
        if (!(error instanceof ApiClientError) || attempt >= maxRetries || !retryable(error, method, idempotencyKey))
          throw error;
        // Retry-After is honoured as given; without one, back off 0.5 s, 1 s, 2 s.
        const waitMs = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 500 * 2 ** attempt;
        if (waitMs > maxRetryWaitMs) throw error;
        options.onRetryWait?.(waitMs, error);
        await sleep(waitMs);
      }
    }
  };
}
