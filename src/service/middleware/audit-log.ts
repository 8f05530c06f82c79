// spec 5.4.4: every API request is written to the audit log with method, path and status. The query
// string is left out (a key wrongly sent there must not be stored), and so is any secret.
import type { MiddlewareHandler } from 'hono';
import { CLIENT_ADDRESS_HEADER, vouchedAddress } from '../../contract/forwarded-address.ts';
import { maskKeys } from '../../contract/index.ts';
import type { AuditBursts } from '../audit-bursts.ts';
import { clientAddress } from '../client-address.ts';
import type { AppEnv } from '../context.ts';
import { logger } from '../logger.ts';
import type { Store } from '../store/index.ts';

/** Printable ASCII that a path spelled as %XX, decoded; control characters and UTF-8 stay encoded. */
function decodePrintable(path: string): string {
  return path.replace(/%([2-7][0-9A-Fa-f])/g, (encoded, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code < 0x7f ? String.fromCharCode(code) : encoded;
  });
}

/**
 * The path with anything shaped like a key cut to its prefix. Masking looks at the path decoded
 * (several times, for double encoding), since `/projects/%73vc_...` or a `%2D` inside a key spell
 * the same secret; printable characters are stored decoded, and no control character reaches the
 * database (they stay percent-encoded).
 */
export function loggablePath(url: string): string {
  let path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/s, '');
  for (let round = 0; round < 3; round++) {
    const decoded = decodePrintable(path);
    if (decoded === path) break;
    path = decoded;
  }
  return maskKeys(path).slice(0, 512);
}

const UNVOUCHED_WARNING_MS = 10 * 60_000;

/**
 * An MCP server whose secret differs from this service's fails quietly otherwise: its clients'
 * refusals go back to counting against its own address. Said at most every 10 minutes (a forger
 * must not fill the log).
 */
function unvouchedWarning(): (hasSecret: boolean) => void {
  let warnedAt = Number.NEGATIVE_INFINITY;
  return (hasSecret) => {
    const now = Date.now();
    if (now - warnedAt < UNVOUCHED_WARNING_MS) return;
    warnedAt = now;
    logger().warn(
      `a request named its client's address (${CLIENT_ADDRESS_HEADER}) ${
        hasSecret ? 'with a signature that does not hold' : 'but this service has no SITEAUDIT_MCP_SECRET'
      }: give serve and mcp --http the same SITEAUDIT_MCP_SECRET, or that MCP server's clients' refusals count against its own address`,
    );
  };
}

/**
 * Also names the client's address (`clientAddress`) for the middleware after it. A request refused
 * before a key was recognised goes to `bursts`, which keeps one row per address and status a minute.
 */
export function auditLog(
  store: Store,
  bursts: AuditBursts,
  trustProxy: boolean,
  /** The secret with which an MCP server signs its client's address (issue 23). */
  mcpSecret?: string,
): MiddlewareHandler<AppEnv> {
  const warnUnvouched = unvouchedWarning();
  return async function writeAuditLog(c, next) {
    const started = performance.now();
    const named = c.req.header(CLIENT_ADDRESS_HEADER);
    const vouched = vouchedAddress(mcpSecret, named, c.req.header('authorization'));
    if (named !== undefined && vouched === undefined) warnUnvouched(mcpSecret !== undefined);
    const address = clientAddress(c.env?.incoming, c.req.header('x-forwarded-for'), trustProxy, vouched);
    c.set('clientAddress', address);
    await next();
    const auth = c.get('auth');
    const entry = {
      organizationId: auth?.organization.id ?? null,
      keyPrefix: auth?.key.prefix ?? null,
      method: c.req.method,
      path: loggablePath(c.req.url),
      status: c.res.status,
      durationMs: performance.now() - started,
    };
    if (!auth && c.res.status >= 400 && c.res.status < 500) {
      await bursts.record({ ...entry, clientAddress: address });
      return;
    }
    try {
      await store.auditLog.append(entry);
    } catch (error) {
      logger().error(`audit log write failed: ${(error as Error).message}`);
    }
  };
}
