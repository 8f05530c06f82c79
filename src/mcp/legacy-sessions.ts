// 2025-era streamable HTTP with sessions: an `initialize` opens one (Mcp-Session-Id), and the
// session's server instance then carries what a stateless exchange cannot: requests from server to
// client (elicitation for archive_project), notifications/cancelled reaching the call they name,
// and several concurrent streams. A session belongs to the key that opened it, lives in this
// process (a load balancer must keep a session's requests on one process), and ends on DELETE,
// after half an hour idle, or when the process stops. 2026-07-28 traffic needs none of this.
import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  isInitializeRequest,
  type McpServerFactory,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

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
  transport: WebStandardStreamableHTTPServerTransport;
  token: string;
  lastSeen: number;
  /** Ids of requests not yet answered: the SDK routes answers by id, so a second one in flight would hang. */
  pending: Set<unknown>;
}

/** Bound on the ids a session remembers (a cancelled request is never answered, so its id stays). */
const MAX_PENDING_IDS = 1000;

/** The ids of the requests in a POST body (one message or a batch). */
function requestIds(body: unknown): unknown[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .filter((m): m is { id: unknown } => typeof m === 'object' && m !== null && 'method' in m && 'id' in m)
    .map((m) => m.id);
}

/** Forgets an id once the server has sent its answer. */
function trackAnswers(session: Session): void {
  const send = session.transport.send.bind(session.transport);
  session.transport.send = async (message, options) => {
    if ('id' in message && ('result' in message || 'error' in message)) session.pending.delete(message.id);
    return send(message, options);
  };
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

export function legacySessions(
  factory: McpServerFactory,
  maxBodyBytes: number,
  limits: SessionLimits = DEFAULT_SESSION_LIMITS,
) {
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

  async function open(request: Request, auth: AuthInfo, parsedBody: unknown): Promise<Response> {
    await makeRoom(auth.token);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBodyBytes,
      onsessioninitialized: (id) => {
        const session = { transport, token: auth.token, lastSeen: Date.now(), pending: new Set<unknown>() };
        trackAnswers(session);
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    // No requestInfo: the session outlives the request that opened it.
    const server = await factory({ era: 'legacy', authInfo: auth });
    await server.connect(transport);
    return transport.handleRequest(request, { authInfo: auth, parsedBody });
  }

  return {
    /** Serves a 2025-era request: in its session, by opening one, or (neither) by the stateless leg. */
    async serve(
      request: Request,
      auth: AuthInfo,
      parsedBody: unknown,
      stateless: () => Promise<Response>,
    ): Promise<Response> {
      const id = request.headers.get('mcp-session-id');
      if (id) {
        const session = sessions.get(id);
        // Another key's session is as unknown as an expired one.
        if (!session || session.token !== auth.token) return jsonRpcError(404, -32001, 'Session not found');
        session.lastSeen = Date.now();
        const ids = requestIds(parsedBody);
        const taken = ids.find((requestId) => session.pending.has(requestId));
        if (taken !== undefined) {
          return Response.json(
            {
              jsonrpc: '2.0',
              error: { code: -32600, message: `request id ${JSON.stringify(taken)} is still in use in this session` },
              id: taken,
            },
            { status: 400 },
          );
        }
        for (const requestId of ids) {
          if (session.pending.size >= MAX_PENDING_IDS) session.pending.delete(session.pending.values().next().value);
          session.pending.add(requestId);
        }
        const response = await session.transport.handleRequest(request, { authInfo: auth, parsedBody });
        // Refused by the transport (headers, body): never dispatched, so never answered through send.
        if (response.status >= 400) for (const requestId of ids) session.pending.delete(requestId);
        return response;
      }
      if (request.method === 'POST' && isInitializeRequest(parsedBody)) return open(request, auth, parsedBody);
      return stateless();
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
