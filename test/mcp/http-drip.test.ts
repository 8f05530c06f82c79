// Issue 23: `mcp --http` held slow-drip connections without limit (requestTimeout 0): 300 dripping a
// body with a valid key and 300 without a key, already answered 401, were all open after 75 s. And a
// client that hung up mid-body was logged as a 5-line "Error: aborted" stack. Here with short
// timeouts, so each bound shows in a second or two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { startLoopbackMcp } from '../support/mcp.ts';
import { closedWithin, drip, postHead, requestFrom } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

const HEADERS_MS = 600;
const REQUEST_MS = 2_000;
const PER_ADDRESS = 6;
/** Node checks the timeouts every quarter of the headers timeout: allow that and a little more. */
const SLACK_MS = 600;

let service: TestService;
let mcp: McpHttpServer;
let key: string;
const logged: string[] = [];
beforeAll(async () => {
  const backend = testBackends()[0];
  if (!backend) throw new Error('no SQLite backend');
  service = await startTestService(backend);
  mcp = await startLoopbackMcp(service.url, {
    settings: { pollIntervalMs: 100, defaultWaitSeconds: 1 },
    timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS },
    connectionsPerAddress: PER_ADDRESS,
    log: (line) => logged.push(line),
  });
  key = (await service.tenant()).key;
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
});

const mcpPost = (headers: Record<string, string> = {}) =>
  postHead('/mcp', { accept: 'application/json, text/event-stream', ...headers });

describe('slow clients of mcp --http', () => {
  it('closes the connection of a request refused before its body arrived', async () => {
    const noKey = drip(mcp.url, mcpPost(), { localAddress: '127.0.0.2' });
    const badKey = drip(mcp.url, mcpPost({ authorization: `Bearer svc_${'b'.repeat(43)}` }), {
      localAddress: '127.0.0.2',
    });
    const tooLarge = drip(mcp.url, postHead('/mcp', { authorization: `Bearer ${key}` }, 5_000_000), {
      localAddress: '127.0.0.2',
    });
    // Answered at once and closed, well before the request timeout would have cut them off.
    for (const connection of [noKey, badKey, tooLarge])
      expect(await closedWithin(connection.closed, 1_000)).toBeLessThan(1_000);
    expect(noKey.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(badKey.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(tooLarge.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('cuts off headers and bodies sent too slowly, and not an answer that streams for longer', async () => {
    const slowHeaders = drip(mcp.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', {
      localAddress: '127.0.0.3',
    });
    const slowBody = drip(mcp.url, mcpPost({ authorization: `Bearer ${key}` }), { localAddress: '127.0.0.3' });
    expect(await closedWithin(slowHeaders.closed, HEADERS_MS + SLACK_MS)).toBeLessThan(HEADERS_MS + SLACK_MS);
    const cut = await closedWithin(slowBody.closed, REQUEST_MS + SLACK_MS);
    expect(cut).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(cut).toBeLessThan(REQUEST_MS + SLACK_MS);
    expect(slowBody.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slowBody.received()).toContain('"jsonrpc":"2.0"');

    // A 2025 session's event stream: the request is in, so it stays open past the request timeout.
    const opened = await requestFrom('127.0.0.3', mcp.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drip', version: '1' } },
      }),
    });
    const session = String(opened.headers['mcp-session-id']);
    const stream = drip(
      mcp.url,
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`,
      { everyMs: 60_000, localAddress: '127.0.0.3' },
    );
    expect(await closedWithin(stream.closed, REQUEST_MS + SLACK_MS + 500)).toBe(Number.POSITIVE_INFINITY);
    expect(stream.received()).not.toContain('408');
    stream.hangUp();
  });

  it('caps the connections one address holds, and not its neighbours’', async () => {
    const held = Array.from({ length: PER_ADDRESS + 4 }, () =>
      drip(mcp.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', { everyMs: 50, localAddress: '127.0.0.4' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.filter((connection) => connection.isOpen())).toHaveLength(PER_ADDRESS);
    // Another address is served meanwhile.
    const neighbour = await requestFrom(
      '127.0.0.5',
      mcp.url.replace(/\/mcp$/, '/.well-known/oauth-protected-resource'),
    );
    expect(neighbour.status).toBe(200);
    for (const connection of held) connection.hangUp();
    await Promise.all(held.map((connection) => connection.closed));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server sees them close too
    // Freed when they close.
    const again = await requestFrom('127.0.0.4', mcp.url.replace(/\/mcp$/, '/.well-known/oauth-protected-resource'));
    expect(again.status).toBe(200);
  });

  it('logs nothing for a client that hangs up mid-body or is cut off', async () => {
    logged.length = 0;
    const gone = drip(mcp.url, mcpPost({ authorization: `Bearer ${key}` }), { localAddress: '127.0.0.6' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    gone.hangUp();
    await closedWithin(
      drip(mcp.url, mcpPost({ authorization: `Bearer ${key}` }), { localAddress: '127.0.0.6' }).closed,
      3_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(logged).toEqual([]);
  });
});
