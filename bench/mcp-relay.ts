// The floor under the MCP benchmark's whoami rows: a relay with no MCP in it. It reads a JSON-RPC
// tools/call, asks the API's /me with the caller's bearer over a kept-alive connection, and answers
// with the /me JSON as the result's text and structuredContent: the two loopback round trips, the
// socket writes and the JSON of a tool call over HTTP, and nothing else. So that the SDK client can
// connect to it too (and its own work be measured on the same floor), it answers the handshakes with
// fixed JSON: initialize and its notification (2025-11-25), server/discover (2026-07-28), a tools/list
// of one tool with no output schema, and 405 to the GET stream. Run as a process of its own, as
// `siteaudit mcp --http` is; prints "relay at <url>" on stderr when it listens.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

const api = process.argv[2];
if (!api) {
  process.stderr.write('usage: node bench/mcp-relay.ts <api-url>\n');
  process.exit(2);
}

const SERVER_INFO = { name: 'siteaudit-bench-relay', version: '1.0.0' };
const CAPABILITIES = { tools: {} };
const TOOLS = [{ name: 'whoami', description: 'The /me of the caller, relayed.', inputSchema: { type: 'object' } }];

interface Message {
  id?: unknown;
  method?: string;
  params?: { protocolVersion?: string };
}

function send(res: ServerResponse, status: number, body = ''): void {
  res.writeHead(status, {
    ...(body ? { 'content-type': 'application/json' } : {}),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** A result as its era has it: 2026-07-28 results say they are complete. */
const answer = (message: Message, result: object, modern: boolean) =>
  JSON.stringify({ jsonrpc: '2.0', id: message.id, result: modern ? { resultType: 'complete', ...result } : result });

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    send(res, 405);
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
  const modern = req.headers['mcp-protocol-version'] === '2026-07-28';
  if (message.id === undefined) {
    send(res, 202);
    return;
  }
  if (message.method === 'initialize') {
    const protocolVersion = message.params?.protocolVersion ?? '2025-11-25';
    send(res, 200, answer(message, { protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO }, modern));
    return;
  }
  if (message.method === 'server/discover') {
    send(res, 200, answer(message, { supportedVersions: ['2026-07-28'], capabilities: CAPABILITIES }, modern));
    return;
  }
  if (message.method === 'tools/list') {
    send(res, 200, answer(message, { tools: TOOLS, ...(modern ? { ttlMs: 0, cacheScope: 'private' } : {}) }, modern));
    return;
  }
  const me = await request(`${api}/api/v1/me`, { headers: { authorization: req.headers.authorization ?? '' } });
  const text = await me.body.text();
  send(res, 200, answer(message, { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) }, modern));
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`relay at http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
