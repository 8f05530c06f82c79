// One log record per request (issue 28): its id (the X-Request-Id requestId() honoured or made, and
// echoed), method, route, status, time and the key's prefix, never the key (spec 5.2.1). The path is
// written for API requests only, cut as the audit log cuts it (no query string, anything shaped like
// a key masked): pages carry secrets in theirs (a consent's interaction, a shared run's or a sign-in
// link's token), so for them the route's pattern says enough.
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../context.ts';
import { logger } from '../logger.ts';
import { loggablePath } from './audit-log.ts';

/**
 * The pattern of the route the request was for (`/api/v1/runs/:runId`): the last one matched that
 * is not a middleware's wildcard, else that wildcard (no route). A bounded set to group by, unlike paths.
 */
function routeOf(c: Context<AppEnv>): string | null {
  const matched = matchedRoutes(c);
  const route = matched.findLast((r) => !r.path.endsWith('*')) ?? matched.at(-1);
  return route?.path ?? null;
}

/** The path of an API request, cut as the audit log cuts it; undefined for a page (see above). */
function apiPath(c: Context<AppEnv>): string | undefined {
  return c.req.path.startsWith('/api/') ? loggablePath(c.req.url) : undefined;
}

/** What a log line may say a request was for: its API path, else its route's pattern. */
export function loggableTarget(c: Context<AppEnv>): string {
  return apiPath(c) ?? routeOf(c) ?? '';
}

export function requestLog(): MiddlewareHandler<AppEnv> {
  return async function logRequest(c, next) {
    const started = performance.now();
    await next();
    const { status } = c.res;
    const route = routeOf(c);
    const path = apiPath(c);
    const record = {
      requestId: c.get('requestId'),
      method: c.req.method,
      route,
      ...(path === undefined ? {} : { path }),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      keyPrefix: c.get('auth')?.key.prefix ?? null,
    };
    const message = `${record.method} ${path ?? route} ${status}`;
    if (status >= 500) logger().error(record, message);
    else logger().info(record, message);
  };
}
