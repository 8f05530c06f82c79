// spec 5.4.4: every API request is written to the audit log with method, path and status. The query
// string is left out (a key wrongly sent there must not be stored), and so is any secret.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Store } from '../store/index.ts';

/**
 * The path as it came over the wire (still percent-encoded, so no control characters reach the
 * database), with anything shaped like a key cut to its prefix.
 */
export function loggablePath(url: string): string {
  const raw = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/s, '');
  return raw.replace(/(svc_[A-Za-z0-9_-]{8})[A-Za-z0-9_-]*/g, '$1…').slice(0, 512);
}

export function auditLog(store: Store): MiddlewareHandler<AppEnv> {
  return async function writeAuditLog(c, next) {
    const started = performance.now();
    await next();
    const auth = c.get('auth');
    try {
      await store.auditLog.append({
        organizationId: auth?.organization.id ?? null,
        keyPrefix: auth?.key.prefix ?? null,
        method: c.req.method,
        path: loggablePath(c.req.url),
        status: c.res.status,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      process.stderr.write(`siteaudit: audit log write failed: ${(error as Error).message}\n`);
    }
  };
}
