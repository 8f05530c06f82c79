// One 2025-era session's transport, on Node's own request and response (issue 28). The SDK's
// web-standard transport turns every request into a web Request and every answer into an SSE web
// stream, which costs more than the tool call it carries; this one writes to the socket directly.
// An answer goes out as one JSON body unless the server sends something first (progress, an
// elicitation): only then does the exchange become an SSE stream. Streamable HTTP lets the server
// choose either for each POST, and clients must accept both.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  isJsonContentType,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

/** The SDK's batch bound: a body of more messages is refused before any is dispatched. */
const MAX_BATCH = 100;
/** Ids a session remembers as unanswered (a cancelled request is never answered, so its id stays). */
const MAX_IN_FLIGHT_IDS = 1000;
const KEEP_ALIVE_MS = 15_000;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

type Message = JSONRPCMessage & { id?: RequestId; method?: string };
const isRequest = (m: Message) => m.method !== undefined && m.id !== undefined;
const isResponse = (m: Message) => m.method === undefined && ('result' in m || 'error' in m);
const isInitialize = (m: Message) => m.method === 'initialize' && m.id !== undefined;

/** One POST's requests and where their answers go. */
interface Exchange {
  res: ServerResponse;
  ids: RequestId[];
  answers: Map<RequestId, JSONRPCMessage>;
  /** Set once the exchange has become an SSE stream. */
  keepAlive?: NodeJS.Timeout;
  ended: boolean;
}

export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export class NodeSessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private initialized = false;
  private closed = false;
  private supported: string[] = [...SUPPORTED_PROTOCOL_VERSIONS];
  private readonly exchanges = new Map<RequestId, Exchange>();
  private readonly inFlight = new Set<RequestId>();
  private standalone: { res: ServerResponse; keepAlive: NodeJS.Timeout } | undefined;

  readonly sessionId: string;

  constructor(sessionId: string) {
    this.sessionId = sessionId;
  }

  /** Whether an initialize has been accepted (a refused one leaves the session unopened). */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Whether the session has ended (DELETE, idle, eviction, shutdown). */
  get isClosed(): boolean {
    return this.closed;
  }

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  /** POST: `body` is the parsed JSON (undefined when it was not JSON). */
  handlePost(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: AuthInfo): void {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      sendJsonRpcError(
        res,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
      return;
    }
    if (!isJsonContentType(req.headers['content-type'] ?? null)) {
      sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      return;
    }
    if (body === undefined) {
      sendJsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON');
      return;
    }
    if (Array.isArray(body) && body.length > MAX_BATCH) {
      sendJsonRpcError(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
      return;
    }
    let messages: Message[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => parseJSONRPCMessage(m) as Message);
    } catch {
      sendJsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      return;
    }
    if (this.closed) {
      sendJsonRpcError(res, 404, -32001, 'Session not found');
      return;
    }
    if (messages.some(isInitialize)) {
      if (this.initialized) {
        sendJsonRpcError(res, 400, -32600, 'Invalid Request: Server already initialized');
        return;
      }
      if (messages.length > 1) {
        sendJsonRpcError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
        return;
      }
      this.initialized = true;
    } else if (!this.validSession(req, res)) return;
    const ids = messages.filter(isRequest).map((m) => m.id as RequestId);
    // The SDK routes answers by id: a second request with an id still unanswered would take its answer.
    const taken = ids.find((id) => this.inFlight.has(id));
    if (taken !== undefined) {
      sendJsonRpcError(res, 400, -32600, `request id ${JSON.stringify(taken)} is still in use in this session`, taken);
      return;
    }
    if (ids.length === 0) {
      for (const message of messages) this.onmessage?.(message, { authInfo });
      res.writeHead(202, { 'mcp-session-id': this.sessionId, 'content-length': 0 }).end();
      return;
    }
    const exchange: Exchange = { res, ids, answers: new Map(), ended: false };
    for (const id of ids) {
      if (this.inFlight.size >= MAX_IN_FLIGHT_IDS)
        this.inFlight.delete(this.inFlight.values().next().value as RequestId);
      this.inFlight.add(id);
      this.exchanges.set(id, exchange);
    }
    // A client that hangs up loses the answers; the calls themselves run on (2025: cancel is a notification).
    res.once('close', () => this.forget(exchange));
    for (const message of messages) this.onmessage?.(message, { authInfo });
  }

  /** GET: the session's one stream for messages not tied to a request. */
  handleGet(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      sendJsonRpcError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
      return;
    }
    if (!this.validSession(req, res)) return;
    if (this.standalone) {
      sendJsonRpcError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
      return;
    }
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    const stream = { res, keepAlive: this.keepAlive(res) };
    this.standalone = stream;
    res.once('close', () => {
      clearInterval(stream.keepAlive);
      if (this.standalone === stream) this.standalone = undefined;
    });
  }

  /** DELETE: ends the session. */
  async handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.validSession(req, res)) return;
    res.writeHead(200, { 'content-length': 0 }).end();
    await this.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as Message;
    const answer = isResponse(m);
    const related = answer ? m.id : options?.relatedRequestId;
    if (related === undefined) {
      if (answer) throw new Error('Cannot send a response on a standalone SSE stream');
      this.standalone?.res.write(sseEvent(message));
      return;
    }
    if (answer) this.inFlight.delete(related);
    const exchange = this.exchanges.get(related);
    if (!exchange || exchange.ended) {
      if (answer)
        this.onerror?.(new Error(`the answer to request ${String(related)} is undeliverable: its client hung up`));
      return;
    }
    if (!answer) {
      this.stream(exchange).write(sseEvent(message));
      return;
    }
    exchange.answers.set(related, message);
    if (exchange.answers.size < exchange.ids.length) return;
    const answers = exchange.ids.map((id) => exchange.answers.get(id) as JSONRPCMessage);
    if (exchange.keepAlive) {
      for (const a of answers) exchange.res.write(sseEvent(a));
      exchange.res.end();
    } else {
      const body = JSON.stringify(answers.length === 1 ? answers[0] : answers);
      exchange.res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'mcp-session-id': this.sessionId,
      });
      exchange.res.end(body);
    }
    this.forget(exchange);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) {
      // An exchange still waiting ends without its answer, as the SDK's transport ends its streams.
      if (!exchange.res.headersSent) sendJsonRpcError(exchange.res, 404, -32001, 'Session not found');
      else exchange.res.end();
      this.forget(exchange);
    }
    this.standalone?.res.end();
    this.onclose?.();
  }

  /** Turns an exchange into an SSE stream (once): something is sent before its answer. */
  private stream(exchange: Exchange): ServerResponse {
    if (!exchange.keepAlive) {
      exchange.res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
      exchange.keepAlive = this.keepAlive(exchange.res);
    }
    return exchange.res;
  }

  private keepAlive(res: ServerResponse): NodeJS.Timeout {
    const timer = setInterval(() => res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    timer.unref();
    return timer;
  }

  private forget(exchange: Exchange): void {
    if (exchange.ended) return;
    exchange.ended = true;
    clearInterval(exchange.keepAlive);
    for (const id of exchange.ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
  }

  private validSession(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.initialized) {
      sendJsonRpcError(res, 400, -32000, 'Bad Request: Server not initialized');
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !this.supported.includes(version)) {
      sendJsonRpcError(
        res,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.supported.join(', ')})`,
      );
      return false;
    }
    return true;
  }
}
