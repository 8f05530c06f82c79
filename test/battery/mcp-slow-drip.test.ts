// The slow-drip battery (issue 23): raw connections to `mcp --http` that drip a body with a valid
// key, drip a body without one (answered 401 at once), or drip their headers, 50 of each from ten
// client addresses, and one address opening far more connections than it may hold. Every drip is
// closed within the stated bound, none outlives it, nothing is logged as a fault, and the server
// still serves a real MCP client afterwards. Timeouts are short here so the battery runs in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { connectHttp, startLoopbackMcp } from '../support/mcp.ts';
import { closedWithin, type Drip, drip, postHead } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

const HEADERS_MS = 1_000;
const REQUEST_MS = 2_500;
const PER_ADDRESS = 20;
const EACH = 50;
/** Node checks the timeouts every quarter of the headers timeout; a loaded machine needs a little more. */
const SLACK_MS = 1_000;

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

/** The n-th of ten client addresses. */
const address = (n: number) => `127.0.1.${10 + (n % 10)}`;
const mcpPost = (headers: Record<string, string> = {}) =>
  postHead('/mcp', { accept: 'application/json, text/event-stream', ...headers });

describe('MCP slow-drip battery', () => {
  it('closes every drip within its bound, and serves a real client afterwards', async () => {
    const keyed: Drip[] = [];
    const keyless: Drip[] = [];
    const slowHeaders: Drip[] = [];
    for (let n = 0; n < EACH; n++) {
      const localAddress = address(n);
      keyed.push(drip(mcp.url, mcpPost({ authorization: `Bearer ${key}` }), { everyMs: 200, localAddress }));
      keyless.push(drip(mcp.url, mcpPost(), { everyMs: 200, localAddress }));
      slowHeaders.push(
        drip(mcp.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', { everyMs: 200, localAddress }),
      );
    }
    const [early, headers, bodies] = await Promise.all([
      Promise.all(keyless.map((connection) => closedWithin(connection.closed, 1_000))),
      Promise.all(slowHeaders.map((connection) => closedWithin(connection.closed, HEADERS_MS + SLACK_MS))),
      Promise.all(keyed.map((connection) => closedWithin(connection.closed, REQUEST_MS + SLACK_MS))),
    ]);
    // Answered 401 at once and closed; the rest cut off by the headers and request timeouts.
    expect(Math.max(...early)).toBeLessThan(1_000);
    expect(keyless.every((connection) => /^HTTP\/1\.1 401 /.test(connection.received()))).toBe(true);
    expect(Math.max(...headers)).toBeLessThan(HEADERS_MS + SLACK_MS);
    expect(Math.max(...bodies)).toBeLessThan(REQUEST_MS + SLACK_MS);
    expect(keyed.every((connection) => /^HTTP\/1\.1 408 /.test(connection.received()))).toBe(true);

    const client = await connectHttp(mcp.url, key, { era: '2026-07-28' });
    try {
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    expect(logged.filter((line) => /Error|\n\s+at /.test(line))).toEqual([]);
  });

  it('holds no more connections of one address than its cap, however many it opens', async () => {
    const flood = Array.from({ length: PER_ADDRESS * 3 }, () =>
      drip(mcp.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', { everyMs: 100, localAddress: '127.0.1.99' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(flood.filter((connection) => connection.isOpen()).length).toBeLessThanOrEqual(PER_ADDRESS);
    const closed = await Promise.all(flood.map((connection) => closedWithin(connection.closed, HEADERS_MS + SLACK_MS)));
    expect(Math.max(...closed)).toBeLessThan(HEADERS_MS + SLACK_MS);
  });
});
