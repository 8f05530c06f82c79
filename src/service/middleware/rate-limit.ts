// spec 8: 60 requests per minute per key, 429 `rate_limited` with Retry-After in whole seconds.
// Counted in fixed one-minute windows in the store, so several processes share one budget. The local
// service's own key, shared by one person's command line and MCP hosts, has a budget of its own.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Store } from '../store/index.ts';

const WINDOW_SECONDS = 60;

/**
 * The fixed one-minute window a moment falls in, as every counter in `rate_limit_windows` keeps it
 * (API keys, sign-in and reveal attempts): its start in unix seconds, and the whole seconds left.
 */
export function minuteWindow(nowMs = Date.now()): { start: number; resetIn: number } {
  const nowSeconds = nowMs / 1000;
  const start = Math.floor(nowSeconds / WINDOW_SECONDS) * WINDOW_SECONDS;
  return { start, resetIn: Math.max(1, Math.ceil(start + WINDOW_SECONDS - nowSeconds)) };
}

export function rateLimit(
  store: Store,
  keyLimit: number,
  localLimit: number = keyLimit,
  now: () => number = Date.now,
): MiddlewareHandler<AppEnv> {
  return async function limitRate(c, next) {
    const { key } = c.get('auth');
    const limit = key.source === 'local' ? localLimit : keyLimit;
    const { start: windowStart, resetIn } = minuteWindow(now());
    const count = await store.rateLimits.take(key.id, windowStart, limit);
    const headers = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(count === null ? 0 : Math.max(0, limit - count)),
      'RateLimit-Reset': String(resetIn),
    };
    if (count === null) {
      throw new ApiError(429, 'rate_limited', `over ${limit} requests per minute for this key; retry in ${resetIn} s`, {
        headers: { ...headers, 'Retry-After': String(resetIn) },
        details: { retryAfterSeconds: resetIn },
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
