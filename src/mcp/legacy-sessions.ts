// 2025-era streamable HTTP with sessions: an `initialize` opens one (Mcp-Session-Id), and the
// session's server instance then carries what a stateless exchange cannot: requests from server to
// client (elicitation for archive_project), notifications/cancelled reaching the call they name,
// and several concurrent streams. A session belongs to the key that opened it, lives in this
// process (a load balancer must keep a session's requests on one process), and ends on DELETE,
// after half an hour idle, or when the process stops. 2026-07-28 traffic needs none of this.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthInfo, isInitializeRequest, type McpServerFactory } from '@modelcontextprotocol/server';
import { NodeSessionTransport, sendJsonRpcError } from './session-transport.ts';

const IDLE_MS = 30 * 60_000;

/**
 * Bounds of the session table. A key past its own bound gives up its least recently used session;
 * a full table gives up the least recently used session of the key that holds the most. So an
 * initialize is always served, and no key can fill the table and lock the others out.
 */
export interface SessionLimits {
  total: number;
  perKey: number;
}
export const DEFAULT_SESSION_LIMITS: SessionLimits = { total: 1000, perKey: 20 };

interface Session {
  transport: NodeSessionTransport;
  token: string;
  lastSeen: number;
}

export function legacySessions(factory: McpServerFactory, limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
  const sessions = new Map<string, Session>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (now - session.lastSeen > IDLE_MS) void close(id, session);
  }, 60_000);
  sweep.unref();

  async function close(id: string, session: Session): Promise<void> {
    sessions.delete(id);
    await session.transport.close().catch(() => {});
  }

  /** The least recently used session of `token`, or of the key holding the most when none is given. */
  function evictionCandidate(token?: string): [string, Session] | undefined {
    const byKey = new Map<string, [string, Session][]>();
    for (const entry of sessions) {
      const list = byKey.get(entry[1].token) ?? [];
      list.push(entry);
      byKey.set(entry[1].token, list);
    }
    const lists = token ? [byKey.get(token) ?? []] : [...byKey.values()];
    const largest = lists.reduce<[string, Session][]>((most, list) => (list.length > most.length ? list : most), []);
    return largest.reduce<[string, Session] | undefined>(
      (oldest, entry) => (!oldest || entry[1].lastSeen < oldest[1].lastSeen ? entry : oldest),
      undefined,
    );
  }

  async function makeRoom(token: string): Promise<void> {
    const own = [...sessions.values()].filter((session) => session.token === token).length;
    const victim =
      own >= limits.perKey ? evictionCandidate(token) : sessions.size >= limits.total ? evictionCandidate() : undefined;
    if (victim) await close(...victim);
  }

  async function open(req: IncomingMessage, res: ServerResponse, auth: AuthInfo, body: unknown): Promise<void> {
    await makeRoom(auth.token);
    const id = randomUUID();
    const transport = new NodeSessionTransport(id);
    // No requestInfo: the session outlives the request that opened it.
    const server = await factory({ era: 'legacy', authInfo: auth });
    await server.connect(transport);
    transport.handlePost(req, res, body, auth);
    // An initialize the transport refused (its headers, its shape) opens nothing.
    if (transport.isInitialized) sessions.set(id, { transport, token: auth.token, lastSeen: Date.now() });
    else await server.close().catch(() => {});
  }

  return {
    /** Whether a 2025-era request belongs here: it names a session, or it opens one. */
    takes(req: IncomingMessage, body: unknown): boolean {
      if (req.headers['mcp-session-id'] !== undefined) return true;
      // The method first: the schema's check is what a 2026-07-28 call would otherwise pay each time.
      const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
      return req.method === 'POST' && method === 'initialize' && isInitializeRequest(body);
    },
    /** Serves a request `takes` accepted: in its session, or by opening one. */
    async serve(req: IncomingMessage, res: ServerResponse, auth: AuthInfo, body: unknown): Promise<void> {
      const id = req.headers['mcp-session-id'];
      if (id === undefined) return open(req, res, auth, body);
      const session = typeof id === 'string' ? sessions.get(id) : undefined;
      // Another key's session is as unknown as an expired one.
      if (typeof id !== 'string' || !session || session.token !== auth.token) {
        sendJsonRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
      if (req.method === 'POST') session.transport.handlePost(req, res, body, auth);
      else if (req.method === 'GET') session.transport.handleGet(req, res);
      else if (req.method === 'DELETE') {
        await session.transport.handleDelete(req, res);
        // A DELETE the transport refused (its protocol version) leaves the session open and listed.
        if (session.transport.isClosed) sessions.delete(id);
      } else sendJsonRpcError(res, 405, -32000, 'Method not allowed.', null, { allow: 'GET, POST, DELETE' });
    },
    get size() {
      return sessions.size;
    },
    async closeAll(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...sessions].map(([id, session]) => close(id, session)));
    },
  };
}
