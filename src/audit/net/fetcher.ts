// The audit's HTTP client: a polite, bounded GET. Every hop (each redirect, each connection's DNS
// answer) is checked against the SSRF guard unless local targets are allowed; bodies are capped;
// each request has its own timeouts. Redirects are followed here, one checked hop at a time.
import { request, errors as undiciErrors } from 'undici';
import { literalHostRefusal } from './addresses.ts';
import { BLOCKED_CODE, connectPort, guardedAgent, type PortMap } from './lookup.ts';
import type { AuditResolver } from './resolver.ts';

export const USER_AGENT = 'siteaudit/1 (+https://github.com/siteaudit; site audit crawler)';

export interface FetcherOptions {
  resolver: AuditResolver;
  /** Admit loopback and private addresses (the embedded default and tests). */
  allowPrivate: boolean;
  /** The longest wait for a connection, for headers, or between two chunks of the body. */
  timeoutMs?: number;
  /** The longest a whole fetch may take, headers and body (a site dripping a byte at a time). */
  deadlineMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Extra CA certificates to trust (PEM), for test sites with their own certificate. */
  ca?: string | string[];
  /** Connect to these ports instead of 80/443 (tests); URLs in results stay as the site wrote them. */
  ports?: PortMap;
  /** A project's access settings: headers for its own origin only (issue 29). */
  access?: SiteAccess;
}

/**
 * Headers a site behind a login or a preview wall needs (a bypass token, basic auth, cookies), sent
 * on requests to `origin` only: never on a redirect to another origin, never to a third party's
 * subresource, whoever asks (crawler, agent user agents, the renderer).
 */
export interface SiteAccess {
  origin: string;
  headers: Record<string, string>;
}

export interface FetchedPage {
  requestedUrl: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
  bytes: number;
  truncated: boolean;
  redirects: Array<{ url: string; status: number }>;
  /** Time to response headers of the final hop. */
  ttfbMs: number;
  /** The body's bytes, when asked for (`RequestAs.raw`). */
  raw?: Buffer;
}

/** How one request presents itself, when not as the audit's crawler (an AI agent's user agent, a markdown Accept). */
export interface RequestAs {
  userAgent?: string;
  accept?: string;
  /** An Origin header, to see whether the server opens CORS to a stranger. */
  origin?: string;
  /** Keep the body as bytes in `raw` (images, fonts, scripts for the renderer); `body` is then empty. */
  raw?: boolean;
  /** Access settings for this request's own origin, instead of the fetcher's (monitoring shares one fetcher). */
  access?: SiteAccess;
}

export class FetchError extends Error {
  override readonly name = 'FetchError';
  readonly code: 'blocked' | 'timeout' | 'network' | 'too_many_redirects' | 'bad_url';
  readonly url: string;
  constructor(code: FetchError['code'], url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.url = url;
  }
}

/** The access headers of a request: only for the settings' own origin (a redirect elsewhere gets none). */
function accessHeaders(access: SiteAccess | undefined, url: URL): Record<string, string> {
  return access && url.origin === access.origin ? access.headers : {};
}

export function createFetcher(options: FetcherOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.deadlineMs ?? 2 * timeoutMs;
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const userAgent = options.userAgent ?? USER_AGENT;

  const agent = guardedAgent({
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    timeoutMs,
    connections: 8,
    ca: options.ca,
  });

  function checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new FetchError('bad_url', raw, `not a URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchError('bad_url', raw, `only http and https are fetched, not ${url.protocol}`);
    }
    if (url.username || url.password) throw new FetchError('bad_url', raw, 'URLs with credentials are not fetched');
    const refusal = options.allowPrivate ? undefined : literalHostRefusal(url.hostname);
    if (refusal) throw new FetchError('blocked', raw, refusal);
    return url;
  }

  async function fetchOnce(url: URL, caller?: AbortSignal, as?: RequestAs) {
    const started = performance.now();
    const deadline = AbortSignal.timeout(deadlineMs);
    const signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
    // A mapped port changes where we connect, not the URL the site is judged by (Host stays as is).
    const target = new URL(url);
    const port = connectPort(url, options.ports ?? {});
    if (!url.port && port !== (url.protocol === 'https:' ? 443 : 80)) target.port = String(port);
    const response = await request(target, {
      dispatcher: agent,
      method: 'GET',
      headers: {
        ...accessHeaders(as?.access ?? options.access, url),
        host: url.host,
        'user-agent': as?.userAgent ?? userAgent,
        accept: as?.accept ?? 'text/html,application/xhtml+xml,text/plain,application/xml;q=0.9,*/*;q=0.5',
        ...(as?.origin ? { origin: as.origin } : {}),
      },
      signal,
    });
    const ttfbMs = performance.now() - started;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      if (bytes + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        response.body.destroy();
        break;
      }
      chunks.push(buffer);
      bytes += buffer.length;
    }
    const headers: Record<string, string> = {};
    let setCookies: string[] = [];
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      if (name === 'set-cookie') setCookies = Array.isArray(value) ? value : [value];
      else headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const whole = Buffer.concat(chunks);
    return {
      status: response.statusCode,
      headers,
      setCookies,
      body: as?.raw ? '' : whole.toString('utf8'),
      ...(as?.raw ? { raw: whole } : {}),
      bytes,
      truncated,
      ttfbMs,
    };
  }

  function classify(error: unknown, url: string): FetchError {
    if (error instanceof FetchError) return error;
    const e = error as NodeJS.ErrnoException;
    const cause = (e?.cause ?? e) as NodeJS.ErrnoException;
    if (cause?.code === BLOCKED_CODE || e?.code === BLOCKED_CODE) {
      return new FetchError('blocked', url, cause.message, { cause: error });
    }
    if (
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      error instanceof undiciErrors.ConnectTimeoutError ||
      e?.name === 'AbortError' ||
      e?.name === 'TimeoutError'
    ) {
      return new FetchError('timeout', url, `timed out fetching ${url}`, { cause: error });
    }
    return new FetchError(
      'network',
      url,
      `${cause?.code ?? 'error'} fetching ${url}: ${cause?.message ?? e?.message}`,
      {
        cause: error,
      },
    );
  }

  return {
    userAgent,

    /** GET `raw`, following up to maxRedirects redirects, each hop checked. */
    async fetch(raw: string, signal?: AbortSignal, as?: RequestAs): Promise<FetchedPage> {
      const redirects: FetchedPage['redirects'] = [];
      let current = checkUrl(raw);
      for (;;) {
        let result: Awaited<ReturnType<typeof fetchOnce>>;
        try {
          result = await fetchOnce(current, signal, as);
        } catch (error) {
          throw classify(error, current.href);
        }
        const location = result.headers.location;
        if (result.status >= 300 && result.status < 400 && location) {
          redirects.push({ url: current.href, status: result.status });
          if (redirects.length > maxRedirects) {
            throw new FetchError('too_many_redirects', raw, `more than ${maxRedirects} redirects from ${raw}`);
          }
          current = checkUrl(new URL(location, current).href);
          continue;
        }
        return { requestedUrl: raw, url: current.href, redirects, ...result };
      }
    },

    close: () => agent.close(),
  };
}

export type Fetcher = ReturnType<typeof createFetcher>;

/** A fetch whose failure is an answer too: the page, or 'unreachable' with the reason. */
export async function tryFetch(
  fetcher: Fetcher,
  url: string,
  signal?: AbortSignal,
  as?: RequestAs,
): Promise<{ page?: FetchedPage; status: number | 'unreachable'; error?: string }> {
  try {
    const page = await fetcher.fetch(url, signal, as);
    return { page, status: page.status };
  } catch (error) {
    return { status: 'unreachable', error: error instanceof FetchError ? error.message : String(error) };
  }
}
