// spec 5.4.4: every API request is written to the audit log with method, path and status. The query
// string is left out (a key wrongly sent there must not be stored), and so is any secret.
import type { MiddlewareHandler } from 'hono';
import { CLIENT_ADDRESS_HEADER, vouchedAddress } from '../../contract/forwarded-address.ts';
import { maskKeys } from '../../contract/index.ts';
import type { AuditBursts } from '../audit-bursts.ts';
import { clientAddress } from '../client-address.ts';
import type { AppEnv } from '../context.ts';
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
  return async function writeAuditLog(c, next) {
    const started = performance.now();
    const vouched = vouchedAddress(mcpSecret, c.req.header(CLIENT_ADDRESS_HEADER), c.req.header('authorization'));
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
      process.stderr.write(`siteaudit: audit log write failed: ${(error as Error).message}\n`);
    }
  };
}
