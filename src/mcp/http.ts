// Streamable HTTP at /mcp for hosted agent platforms. Each request brings its own bearer: an API key
// (`svc_...`) or an OAuth access token the service issued for this MCP server (issue 12), used as the
// credential of that request. A request without one is answered 401 with the protected resource
// metadata (RFC 9728) that names the service as authorization server. Host and Origin are checked
// against DNS rebinding, bodies are bounded, and both protocol eras share one factory. A client
// cannot hold the server (issue 23): headers and bodies must arrive in time, one address holds a
// bounded number of connections, a refused request's connection closes, and the bearers the service
// refuses are counted per client address, here and (with the shared secret) at the service.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import { type AuthInfo, classifyInboundRequest, createMcpHandler } from '@modelcontextprotocol/server';
import { ApiClientError } from '../client/index.ts';
import type { PacingOptions } from '../client/pacing.ts';
import { addressKey, lastForwardedHop } from '../contract/forwarded-address.ts';
import { SCOPES, trimTrailingSlashes } from '../contract/index.ts';
import { RefusalBudget } from '../contract/refusal-budget.ts';
import { clientPool } from './clients.ts';
import { legacySessions, type SessionLimits } from './legacy-sessions.ts';
import { headerValue, parseBody, readBody, webRequest } from './request-body.ts';
import { createServerFactory } from './server.ts';
import { clientAddressOf, serverPool } from './server-pool.ts';
import { DEFAULT_CONNECTIONS_PER_ADDRESS, type McpSettings } from './settings.ts';
import { TaskStore } from './tasks/task-store.ts';

/**
 * Bearers the service refused, per client address per minute, before 429 here without asking the
 * service (issue 23): a third of the service's default budget, so that without a shared secret one
 * client's junk cannot spend the service's budget for this server's address (it takes three
 * addresses together; the shared secret closes that too).
 */
export const DEFAULT_MCP_REFUSALS_PER_MINUTE = 10;

export const MCP_PATH = '/mcp';
const MCP_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];
/** JSON-RPC bodies are small; a megabyte is far more than any tool call needs. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;
/** A verified key is trusted this long before /me is asked again (a revoked key stops within it). */
const KEY_CHECK_TTL_MS = 60_000;

/**
 * Bounds on sending a request, against clients that drip it: its headers, and all of it with its
 * body. Answers may stream for longer (wait_for_run): these end when the request has arrived. The
 * same as `serve`'s.
 */
export interface RequestTimeouts {
  headersMs: number;
  requestMs: number;
}
export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = { headersMs: 30_000, requestMs: 60_000 };

export interface McpHttpOptions {
  apiUrl: string;
  /** Finds the service again when it refuses connections (the embedded default's local service). */
  reconnect?: () => Promise<string>;
  host: string;
  port: number;
  version: string;
  settings: McpSettings;
  /** Client-side pacing per key (default 60 a minute, the service's limit). */
  pacing?: PacingOptions | false;
  /** Bounds of the 2025-era session table (default 1,000 in all, 20 per key). */
  sessionLimits?: SessionLimits;
  /** Host names besides loopback that may appear in Host and Origin (a hosted deployment's name). */
  allowedHosts?: string[];
  /** This server's public address (the OAuth resource is it plus /mcp); default: where it listens. */
  publicUrl?: string;
  /**
   * The secret shared with the service (SITEAUDIT_MCP_SECRET, or the local service's): with it each
   * request to the service names, signed, the address of the client it is for.
   */
  forwardSecret?: string;
  /** Behind a reverse proxy: a client's address is the last X-Forwarded-For hop (the proxy's own). */
  trustProxy?: boolean;
  /** Bearers the service refused, per client address per minute, before 429 here (DEFAULT_MCP_REFUSALS_PER_MINUTE). */
  refusalsPerMinute?: number;
  /** Connections one address may hold (DEFAULT_CONNECTIONS_PER_ADDRESS); behind a proxy the proxy limits them. */
  connectionsPerAddress?: number;
  /** How long a client may take to send a request (DEFAULT_REQUEST_TIMEOUTS). */
  timeouts?: Partial<RequestTimeouts>;
  log: (line: string) => void;
}

export interface McpHttpServer {
  url: string;
  close: () => Promise<void>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** 413 for a body over MAX_MCP_BODY_BYTES, by its declared length or by what arrived. */
function bodyTooLarge(res: ServerResponse): void {
  sendJson(res, 413, { jsonrpc: '2.0', error: { code: -32600, message: 'request body too large' }, id: null });
}

function rateLimited(res: ServerResponse, retryAfterSeconds: number): void {
  sendJson(
    res,
    429,
    { jsonrpc: '2.0', error: { code: -32000, message: 'rate limited' }, id: null },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** RFC 9728 3.1: the metadata of a resource at a path is at the well-known address plus that path. */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

function challenge(
  res: ServerResponse,
  metadataUrl: string,
  error: 'invalid_request' | 'invalid_token',
  description: string,
): void {
  sendJson(
    res,
    401,
    { jsonrpc: '2.0', error: { code: -32001, message: description }, id: null },
    {
      // RFC 9728 5.1: where a client finds how to get a token for this server.
      'www-authenticate': `Bearer realm="siteaudit", resource_metadata="${metadataUrl}", error="${error}", error_description="${description}"`,
    },
  );
}

function bearerKey(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** Node's options for the timeouts, checked often enough that a short one (a test's) holds to within a quarter. */
function timeoutOptions(given: Partial<RequestTimeouts> = {}) {
  const requestTimeout = given.requestMs ?? DEFAULT_REQUEST_TIMEOUTS.requestMs;
  const headersTimeout = Math.min(given.headersMs ?? DEFAULT_REQUEST_TIMEOUTS.headersMs, requestTimeout);
  const connectionsCheckingInterval = Math.max(25, Math.min(5_000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** Counts each address's open connections and closes those past `limit` at once. */
function capConnections(server: Server, limit: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = addressKey(socket.remoteAddress ?? 'unknown');
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * A client hung up before its request arrived, or the request timeout cut it off: the client's
 * doing, with nobody left to answer; not logged.
 */
const cutOff = (req: IncomingMessage) => !req.complete && (req.destroyed || req.socket.destroyed);

export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const clients = clientPool(
    options.apiUrl,
    `siteaudit-mcp/${options.version}`,
    {
      ...(options.pacing !== undefined ? { pacing: options.pacing } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    },
    options.forwardSecret,
  );
  const refusals = new RefusalBudget(options.refusalsPerMinute ?? DEFAULT_MCP_REFUSALS_PER_MINUTE);
  /** The client's address as the service is told it: the socket's, or behind a proxy the proxy's last hop. */
  const clientAddress = (req: IncomingMessage) =>
    (options.trustProxy ? lastForwardedHop(String(req.headers['x-forwarded-for'] ?? '')) : undefined) ??
    req.socket.remoteAddress ??
    'unknown';
  const verified = new Map<string, { prefix: string; scopes: string[]; until: number }>();
  // One store for every request's server: a task outlives the request that made it.
  const tasks = new TaskStore();

  const factory = createServerFactory({
    version: options.version,
    settings: options.settings,
    log: options.log,
    tasks,
    clientFor: (context) => {
      const token = context.authInfo?.token;
      // The HTTP edge refuses requests without a key, so a missing one here is a wiring bug.
      if (!token) throw new Error('no API key reached the MCP server factory');
      return clients.get(token, clientAddressOf(context.authInfo));
    },
  });
  // 2026-07-28 requests take a server their caller's last request left (server-pool.ts).
  const servers = serverPool(factory);
  const handler = createMcpHandler(servers.factory, {
    legacy: 'stateless',
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror: (error) => options.log(`siteaudit mcp: ${error.message}`),
  });
  const sessions = legacySessions(factory, options.sessionLimits);
  const sweeper = setInterval(() => {
    refusals.sweep();
    servers.sweep();
  }, 60_000);
  sweeper.unref();

  /**
   * toNodeHandler's work. The body is read and parsed once, here (issue 28): a 2025-era session's
   * requests go to its transport on Node's own request and response; the rest (2026-07-28, and
   * 2025-era requests without a session) to the SDK's handler, given the parse so that nothing
   * reads or parses the body again.
   */
  async function serve(req: IncomingMessage, res: ServerResponse, auth: AuthInfo): Promise<void> {
    const text = req.method === 'POST' ? await readBody(req, MAX_MCP_BODY_BYTES) : '';
    if (text === undefined) {
      bodyTooLarge(res);
      return;
    }
    const parsedBody = parseBody(text);
    // The cheap test first: a 2026-07-28 request names no session and opens none.
    if (sessions.takes(req, parsedBody) && isLegacy(req, parsedBody)) {
      await sessions.serve(req, res, auth, parsedBody);
      return;
    }
    const abort = new AbortController();
    let finished = false;
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    try {
      const request = webRequest(req, text, abort.signal);
      const response = await handler.fetch(request, {
        authInfo: auth,
        ...(parsedBody === undefined ? {} : { parsedBody }),
      });
      await writeResponse(res, response, abort.signal);
    } finally {
      finished = true;
    }
  }
  let listening = '';
  const publicBase = () => trimTrailingSlashes(options.publicUrl ?? listening);
  const metadataUrl = () => `${publicBase()}${RESOURCE_METADATA_PATH}`;
  /** RFC 9728: this server, the service that issues its tokens, and the scopes they carry. */
  const resourceMetadata = () => ({
    resource: `${publicBase()}${MCP_PATH}`,
    authorization_servers: [`${trimTrailingSlashes(options.apiUrl)}/oauth`],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'siteaudit',
    resource_documentation: `${trimTrailingSlashes(options.apiUrl)}/openapi.json`,
  });
  const allowed = [...LOOPBACK_NAMES, ...(options.allowedHosts ?? [])];
  const validHost = hostHeaderValidation(allowed);
  const validOrigin = originValidation(allowed);

  async function authenticate(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | undefined> {
    const key = bearerKey(req);
    if (!key) {
      challenge(
        res,
        metadataUrl(),
        'invalid_request',
        'send Authorization: Bearer with a Site Audit API key or an OAuth access token for this server',
      );
      return undefined;
    }
    const address = clientAddress(req);
    const extra = { clientAddress: address };
    const knownKey = () => {
      const known = verified.get(key);
      return known && known.until > Date.now()
        ? { token: key, clientId: known.prefix, scopes: known.scopes, extra }
        : undefined;
    };
    // A key verified lately (perhaps by another request while this one waited its turn) passes.
    const check = await refusals.admit(addressKey(address), { passes: () => knownKey() !== undefined });
    if (!check.admitted) {
      rateLimited(res, check.retryAfterSeconds);
      return undefined;
    }
    let refused = false;
    try {
      const known = knownKey();
      if (known) return known;
      const me = await clients.unpooled(key, address).me();
      verified.set(key, { prefix: me.keyPrefix, scopes: me.scopes, until: Date.now() + KEY_CHECK_TTL_MS });
      if (verified.size > 1024) verified.delete(verified.keys().next().value as string);
      return { token: key, clientId: me.keyPrefix, scopes: me.scopes, extra };
    } catch (error) {
      if (error instanceof ApiClientError && error.status === 401) {
        refused = true;
        challenge(res, metadataUrl(), 'invalid_token', 'the key or token was not accepted by the Site Audit Service');
      } else if (error instanceof ApiClientError && error.status === 429) {
        rateLimited(res, error.retryAfterSeconds ?? 60);
      } else {
        options.log(`siteaudit mcp: cannot verify a key: ${(error as Error).message}`);
        sendJson(
          res,
          503,
          { jsonrpc: '2.0', error: { code: -32000, message: 'the Site Audit Service is unavailable' }, id: null },
          { 'retry-after': '5' },
        );
      }
      return undefined;
    } finally {
      check.settle(refused);
    }
  }

  const server: Server = createServer(timeoutOptions(options.timeouts), async (req, res) => {
    // An answer given before the body has arrived (a refusal) ends the connection: a client dripping
    // the rest must not hold it, as Node would by reading on to the next request.
    res.once('finish', () => {
      if (!req.complete) req.socket.end(() => req.socket.destroy());
    });
    try {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (!validHost(req, res) || !validOrigin(req, res)) return;
      if (path === RESOURCE_METADATA_PATH || path === '/.well-known/oauth-protected-resource') {
        sendJson(res, 200, resourceMetadata(), { 'access-control-allow-origin': '*' });
        return;
      }
      if (path !== MCP_PATH) {
        sendJson(res, 404, { error: { code: 'not_found', message: `the MCP endpoint is ${MCP_PATH}` } });
        return;
      }
      // Streamable HTTP uses these (OPTIONS for a browser's preflight); TRACE, PUT and the rest are refused.
      if (!MCP_METHODS.includes(req.method ?? '')) {
        sendJson(
          res,
          405,
          {
            jsonrpc: '2.0',
            error: { code: -32600, message: `${MCP_PATH} answers ${MCP_METHODS.join(', ')}` },
            id: null,
          },
          { allow: MCP_METHODS.join(', ') },
        );
        req.resume();
        return;
      }
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > MAX_MCP_BODY_BYTES) {
        bodyTooLarge(res);
        req.resume();
        return;
      }
      const auth = await authenticate(req, res);
      if (!auth) {
        req.resume();
        return;
      }
      await serve(req, res, auth);
    } catch (error) {
      if (cutOff(req)) return;
      options.log(`siteaudit mcp: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null });
      else res.end();
    }
  });
  // Behind a proxy every connection is the proxy's: it limits them per client.
  if (!options.trustProxy) capConnections(server, options.connectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.on('clientError', answerClientError);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  listening = `http://${host}:${address.port}`;
  return {
    url: `${listening}${MCP_PATH}`,
    close: async () => {
      clearInterval(sweeper);
      tasks.close();
      await sessions.closeAll();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The SDK's own routing decision (isLegacyRequest): no JSON body, or a request without the 2026-07-28 envelope. */
function isLegacy(req: IncomingMessage, body: unknown): boolean {
  if (body === undefined) return true;
  const header = (name: string) => headerValue(req, name) ?? undefined;
  const route = classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    body,
    ...optional('protocolVersionHeader', header('mcp-protocol-version')),
    ...optional('mcpMethodHeader', header('mcp-method')),
    ...optional('mcpNameHeader', header('mcp-name')),
  });
  return route.kind === 'legacy';
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;

/**
 * Requests Node's HTTP parser refuses (a NUL in a header, an oversized header block, a malformed
 * request line) still get a JSON-RPC error body rather than Node's bare 400 or 431.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing may be written once an answer has begun (the client would read a corrupt one).
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || answering) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['431 Request Header Fields Too Large', 'request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['408 Request Timeout', 'the request was not received in time']
        : ['400 Bad Request', 'malformed HTTP request'];
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null });
  // Closed once written: a client still sending (a dripped body) must not hold the socket half-open.
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Writes a web Response to a Node response; exported for its test (listeners left on `aborted` leak). */
export async function writeResponse(res: ServerResponse, response: Response, aborted: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body !== null && !aborted.aborted && !response.headers.get('content-type')?.includes('event-stream')) {
    // A JSON answer is whole already: one write with its length, not a chunked stream read piece by piece.
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.byteLength) });
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  if (response.body === null || aborted.aborted) {
    res.end();
    return;
  }
  // The listener must go when the response is done: the request's signal outlives it (undici's Request
  // keeps its signal in a FinalizationRegistry until the Request is collected), and a listener left on
  // it holds res, whose listeners hold the Request: a cycle through a GC root, about 11 KB per request.
  let onAbort = () => {};
  const stopped = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    aborted.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for await (const chunk of response.body) {
      if (aborted.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), stopped]);
    }
  } catch {
    // the client went away mid-stream
  } finally {
    aborted.removeEventListener('abort', onAbort);
  }
  res.end();
}
