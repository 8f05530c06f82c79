// Streamable HTTP at /mcp for hosted agent platforms. Each request brings its own bearer: an API key
// (`svc_...`) or an OAuth access token the service issued for this MCP server (issue 12), used as the
// credential of that request. A request without one is answered 401 with the protected resource
// metadata (RFC 9728) that names the service as authorization server. Host and Origin are checked
// against DNS rebinding, bodies are bounded, and both protocol eras share one factory.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostHeaderValidation, originValidation, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { ApiClientError } from '../client/index.ts';
import type { PacingOptions } from '../client/pacing.ts';
import { SCOPES, trimTrailingSlashes } from '../contract/index.ts';
import { clientPool } from './clients.ts';
import { legacySessions, type SessionLimits } from './legacy-sessions.ts';
import { createServerFactory } from './server.ts';
import type { McpSettings } from './settings.ts';

export const MCP_PATH = '/mcp';
const MCP_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];
/** JSON-RPC bodies are small; a megabyte is far more than any tool call needs. */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;
/** A verified key is trusted this long before /me is asked again (a revoked key stops within it). */
const KEY_CHECK_TTL_MS = 60_000;

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

export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const clients = clientPool(options.apiUrl, `siteaudit-mcp/${options.version}`, {
    ...(options.pacing !== undefined ? { pacing: options.pacing } : {}),
    ...(options.reconnect ? { reconnect: options.reconnect } : {}),
  });
  const verified = new Map<string, { prefix: string; scopes: string[]; until: number }>();

  const factory = createServerFactory({
    version: options.version,
    settings: options.settings,
    log: options.log,
    clientFor: (context) => {
      const token = context.authInfo?.token;
      // The HTTP edge refuses requests without a key, so a missing one here is a wiring bug.
      if (!token) throw new Error('no API key reached the MCP server factory');
      return clients.get(token);
    },
  });
  const handler = createMcpHandler(factory, {
    legacy: 'stateless',
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror: (error) => options.log(`siteaudit mcp: ${error.message}`),
  });
  const sessions = legacySessions(factory, MAX_MCP_BODY_BYTES, options.sessionLimits);

  /** toNodeHandler's work, routing 2025-era requests to their sessions. */
  async function serve(req: IncomingMessage, res: ServerResponse, auth: AuthInfo): Promise<void> {
    const abort = new AbortController();
    let finished = false;
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    let request: Request;
    try {
      request = await toWebRequest(req, undefined, { signal: abort.signal, maxRequestBodySize: MAX_MCP_BODY_BYTES });
    } catch (error) {
      if ((error as { status?: number }).status !== 413) throw error;
      sendJson(res, 413, { jsonrpc: '2.0', error: { code: -32600, message: 'request body too large' }, id: null });
      return;
    }
    try {
      const parsedBody = await parseJson(request);
      const response = (await isLegacyRequest(request.clone(), parsedBody, { maxRequestBodySize: MAX_MCP_BODY_BYTES }))
        ? await sessions.serve(request, auth, parsedBody, () => handler.fetch(request, { authInfo: auth }))
        : await handler.fetch(request, { authInfo: auth });
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
    const known = verified.get(key);
    if (known && known.until > Date.now()) return { token: key, clientId: known.prefix, scopes: known.scopes };
    try {
      const me = await clients.unpooled(key).me();
      verified.set(key, { prefix: me.keyPrefix, scopes: me.scopes, until: Date.now() + KEY_CHECK_TTL_MS });
      if (verified.size > 1024) verified.delete(verified.keys().next().value as string);
      return { token: key, clientId: me.keyPrefix, scopes: me.scopes };
    } catch (error) {
      if (error instanceof ApiClientError && error.status === 401) {
        challenge(res, metadataUrl(), 'invalid_token', 'the key or token was not accepted by the Site Audit Service');
      } else if (error instanceof ApiClientError && error.status === 429) {
        const retry = String(error.retryAfterSeconds ?? 60);
        sendJson(
          res,
          429,
          { jsonrpc: '2.0', error: { code: -32000, message: 'rate limited' }, id: null },
          { 'retry-after': retry },
        );
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
    }
  }

  const server: Server = createServer(async (req, res) => {
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
        sendJson(res, 413, { jsonrpc: '2.0', error: { code: -32600, message: 'request body too large' }, id: null });
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
      options.log(`siteaudit mcp: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null });
      else res.end();
    }
  });
  server.requestTimeout = 0; // wait_for_run streams for up to a minute; the SDK keeps SSE alive
  server.headersTimeout = 30_000;
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
      await sessions.closeAll();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The JSON body of a POST, or undefined (GET, DELETE, or a body the SDK will refuse as a parse error). */
async function parseJson(request: Request): Promise<unknown> {
  if (request.method !== 'POST') return undefined;
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/**
 * Requests Node's HTTP parser refuses (a NUL in a header, an oversized header block, a malformed
 * request line) still get a JSON-RPC error body rather than Node's bare 400 or 431.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32600, message: tooLarge ? 'request headers are too large' : 'malformed HTTP request' },
    id: null,
  });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Writes a web Response to a Node response; exported for its test (listeners left on `aborted` leak). */
export async function writeResponse(res: ServerResponse, response: Response, aborted: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
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
