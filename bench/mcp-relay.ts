// The floor under the MCP benchmark's whoami rows: a relay with no MCP in it. It reads a JSON-RPC
// tools/call, asks the API's /me with the caller's bearer over a kept-alive connection, and answers
// with the /me JSON as the result's text and structuredContent: the two loopback round trips, the
// socket writes and the JSON of a tool call over HTTP, and nothing else. Run as a process of its own,
// as `siteaudit mcp --http` is; prints "relay at <url>" on stderr when it listens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

const api = process.argv[2];
if (!api) {
  process.stderr.write('usage: node bench/mcp-relay.ts <api-url>\n');
  process.exit(2);
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
  const me = await request(`${api}/api/v1/me`, { headers: { authorization: req.headers.authorization ?? '' } });
  const text = await me.body.text();
  const answer = JSON.stringify({
    jsonrpc: '2.0',
    id: message.id ?? null,
    result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
  res.end(answer);
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`relay at http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
