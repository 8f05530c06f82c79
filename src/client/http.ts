// The typed API client's transport: bearer auth, JSON in and out, the error envelope as typed errors,
// and responses parsed by the contract's schemas at the edge.
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { ApiClientError, ApiConnectionError } from './errors.ts';

export interface ClientOptions {
  /** The service's base address, e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** An API key, svc_... */
  apiKey: string;
  userAgent?: string;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
}

export interface RequestOptions<T extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  schema: T;
}

export type Http = <T extends z.ZodType>(path: string, options: RequestOptions<T>) => Promise<z.infer<T>>;

export function createHttp(options: ClientOptions): Http {
  const base = options.baseUrl.replace(/\/+$/, '');
  return async function send(path, { method = 'GET', query, body, headers, schema }) {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          'user-agent': options.userAgent ?? 'siteaudit-client',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        headersTimeout: options.timeoutMs ?? 30_000,
        bodyTimeout: options.timeoutMs ?? 30_000,
      });
    } catch (error) {
      throw new ApiConnectionError(method, url.href, error);
    }
    const text = await response.body.text();
    if (response.statusCode >= 400) {
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
    return schema.parse(text ? JSON.parse(text) : undefined);
  };
}
