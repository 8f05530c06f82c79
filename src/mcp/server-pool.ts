// 2026-07-28 requests are stateless, and the SDK asks the factory for a server for each one. Building
// one registers every tool, prompt and resource: the largest part of the MCP process's own work on a
// call (issue 28). A caller's next request takes the server its last exchange left behind instead.
// Servers are kept per caller (its bearer and address, which name its API client and its tasks), so
// a server never serves anybody else; whatever the SDK sets per request (the negotiated version, the
// client's envelope) it sets again on each, and the tools read the caller's capabilities from the
// request on this era, never from the server.
import type { AuthInfo, McpRequestContext, McpServer } from '@modelcontextprotocol/server';

export interface ServerPoolLimits {
  /** Idle servers kept for one caller: as many as it has requests in flight at once, up to this. */
  perCaller: number;
  /** Idle servers kept in all; the callers seen least lately lose theirs first. */
  total: number;
  /** An idle server older than this is built again (a key revoked since is not held on to). */
  idleMs: number;
}

export const DEFAULT_SERVER_POOL_LIMITS: ServerPoolLimits = { perCaller: 4, total: 256, idleMs: 60_000 };

interface Idle {
  server: McpServer;
  since: number;
}

export interface ServerPool {
  /** The factory to give the SDK's handler: pooled on 2026-07-28, a new server for anything else. */
  factory: (context: McpRequestContext) => McpServer;
  /** Idle servers now kept (for tests). */
  idle(): number;
  /** Servers built so far (for tests). */
  built(): number;
  /** Lets go of idle servers past their time. */
  sweep(): void;
}

/** The client address the HTTP edge put on a request's bearer, which the factory's API client names. */
export function clientAddressOf(authInfo: AuthInfo | undefined): string {
  const address = authInfo?.extra?.clientAddress;
  return typeof address === 'string' ? address : 'unknown';
}

/** The caller a server is bound to: the factory's API client is per bearer and per client address. */
function callerOf(context: McpRequestContext): string | undefined {
  const token = context.authInfo?.token;
  return token ? `${clientAddressOf(context.authInfo)} ${token}` : undefined;
}

export function serverPool(
  build: (context: McpRequestContext) => McpServer,
  limits: ServerPoolLimits = DEFAULT_SERVER_POOL_LIMITS,
): ServerPool {
  // Insertion order is recency: a caller whose server comes back moves to the end.
  const idle = new Map<string, Idle[]>();
  let count = 0;
  let built = 0;

  const take = (caller: string, now: number): McpServer | undefined => {
    const list = idle.get(caller);
    const newest = list?.pop();
    if (!list || !newest) return undefined;
    count--;
    if (now - newest.since <= limits.idleMs) {
      if (list.length === 0) idle.delete(caller);
      return newest.server;
    }
    // The rest are older still.
    count -= list.length;
    idle.delete(caller);
    return undefined;
  };

  const keep = (caller: string, server: McpServer): void => {
    const list = idle.get(caller) ?? [];
    if (list.length >= limits.perCaller) return;
    idle.delete(caller);
    idle.set(caller, list);
    list.push({ server, since: Date.now() });
    count++;
    while (count > limits.total) {
      const [oldest, servers] = idle.entries().next().value as [string, Idle[]];
      servers.shift();
      count--;
      if (servers.length === 0) idle.delete(oldest);
    }
  };

  return {
    factory(context) {
      const caller = context.era === 'modern' ? callerOf(context) : undefined;
      if (caller === undefined) {
        built++;
        return build(context);
      }
      let server = take(caller, Date.now());
      if (!server) {
        built++;
        server = build(context);
      }
      const signal = context.requestInfo?.signal;
      // The SDK calls this when the exchange ends. An exchange the client cut off may still have a
      // handler running (it is aborted after this call): such a server is dropped, not kept.
      server.server.onclose = () => {
        server.server.onclose = undefined;
        if (!signal?.aborted) keep(caller, server);
      };
      return server;
    },
    idle: () => count,
    built: () => built,
    sweep() {
      const now = Date.now();
      for (const [caller, list] of idle) {
        const fresh = list.filter((entry) => now - entry.since <= limits.idleMs);
        count -= list.length - fresh.length;
        if (fresh.length === 0) idle.delete(caller);
        else idle.set(caller, fresh);
      }
    },
  };
}
