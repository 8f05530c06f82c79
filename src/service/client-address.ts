// The address a request came from, for throttling refused requests before authentication. Behind a
// reverse proxy every request comes from the proxy, so an operator who runs one says so
// (`serve --trust-proxy`) and the last X-Forwarded-For hop, the one the proxy added, is used instead.
// Requests of `mcp --http` all come from the MCP server, which names its own client's address in a
// header signed with the secret the two share (issue 23; see contract/forwarded-address.ts).
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addressKey, lastForwardedHop, MCP_SECRET_ENV, MIN_MCP_SECRET_LENGTH } from '../contract/forwarded-address.ts';
import type { SocketHolder } from './context.ts';

export { addressKey } from '../contract/forwarded-address.ts';

/**
 * `vouched` is the address an MCP server named and signed (see vouchedAddress); it wins over the
 * socket and the proxy, which both see the MCP server.
 */
export function clientAddress(
  incoming: SocketHolder | undefined,
  forwardedFor: string | undefined,
  trustProxy: boolean,
  vouched?: string,
): string {
  if (vouched) return addressKey(vouched);
  const hop = trustProxy ? lastForwardedHop(forwardedFor) : undefined;
  if (hop) return addressKey(hop);
  const remote = incoming?.socket?.remoteAddress;
  return remote ? addressKey(remote) : 'unknown';
}

/**
 * Whether a request failed because its client went away before its body was read (it hung up, or
 * the request timeout cut it off): the client's fault, though its ECONNRESET looks like a database's.
 */
export function clientHungUp(incoming: SocketHolder | undefined, error: unknown): boolean {
  const request = incoming as { complete?: boolean; destroyed?: boolean; errored?: unknown } | undefined;
  if (request?.complete !== false) return false;
  return request.destroyed === true || request.errored === error;
}

/** Where the embedded service keeps the secret it shares with local `mcp --http` processes. */
export const MCP_SECRET_FILE = 'mcp-secret';

/**
 * The secret with which `mcp --http` vouches for its clients' addresses: SITEAUDIT_MCP_SECRET when
 * set (a deployment sets the same on the service and its MCP servers), else, for the embedded
 * service (`dataDir` given), a random one kept in its data directory (mode 0600), made by whichever
 * of the service and a local MCP server comes first. Throws when the variable is too short.
 */
export function mcpSecret(env: NodeJS.ProcessEnv, dataDir?: string): string | undefined {
  const configured = env[MCP_SECRET_ENV]?.trim();
  if (configured) {
    if (configured.length < MIN_MCP_SECRET_LENGTH)
      throw new Error(`${MCP_SECRET_ENV} must be at least ${MIN_MCP_SECRET_LENGTH} characters`);
    return configured;
  }
  if (!dataDir) return undefined;
  const file = join(dataDir, MCP_SECRET_FILE);
  const read = () => {
    try {
      const secret = readFileSync(file, 'utf8').trim();
      return secret.length >= MIN_MCP_SECRET_LENGTH ? secret : undefined;
    } catch {
      return undefined;
    }
  };
  const existing = read();
  if (existing) return existing;
  // Written whole under a temporary name, then linked into place: a reader never sees half a file,
  // and of two processes racing, the second link fails and both read the first one's secret.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return read();
}
