// Issue 23: 30 requests with made-up bearers through `mcp --http` tripped the service's refusal
// throttle on the MCP server's own address, and every key the service had not accepted lately was
// then answered 429 through MCP. The MCP server counts refused bearers per client address itself,
// and with the secret it shares with the service it names each client's address, signed, so the
// service throttles the client that sent the junk and nobody else. Clients come from 127.0.0.1 and
// 127.0.0.2, two addresses of this machine.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHttpOptions, McpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { startLoopbackMcp } from '../support/mcp.ts';
import { type RawResponse, requestFrom } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

const SECRET = 'a-secret-the-service-and-mcp-share-'.repeat(2);
const ATTACKER = '127.0.0.1';
const NEIGHBOUR = '127.0.0.2';
const junkKey = (n: number) => `svc_${String(n).padStart(43, 'j')}`;
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lockout', version: '1' } },
});

/** Fixed one-minute windows: start well inside one so a burst is not split by the turn of a minute. */
async function insideOneMinute(seconds = 10): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const backend = testBackends()[0];
if (!backend) throw new Error('no SQLite backend');
let service: TestService | undefined;
let mcp: McpHttpServer | undefined;
afterEach(async () => {
  await mcp?.close();
  await service?.close();
  mcp = service = undefined;
});

async function start(
  serviceOptions: Parameters<typeof startTestService>[1],
  mcpOptions: Partial<McpHttpOptions>,
): Promise<{ service: TestService; mcp: McpHttpServer }> {
  service = await startTestService(backend as NonNullable<typeof backend>, serviceOptions);
  mcp = await startLoopbackMcp(service.url, {
    settings: { pollIntervalMs: 100, defaultWaitSeconds: 1 },
    ...mcpOptions,
  });
  return { service, mcp };
}

/** An MCP initialize with `key`, from `address`, with extra headers (a proxy's X-Forwarded-For). */
const initializeWith = (url: string, address: string, key: string, headers: Record<string, string> = {}) =>
  requestFrom(address, url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: initialize,
  });

const statuses = (answers: RawResponse[]) => answers.map((answer) => answer.status);

describe('refused bearers through mcp --http', () => {
  it('with the shared secret, the service throttles the client that sent junk, not the MCP server', async () => {
    const world = await start(
      { refusalsPerMinute: 5, mcpSecret: SECRET },
      { forwardSecret: SECRET, refusalsPerMinute: 1000 },
    );
    const { key: fresh } = await world.service.tenant();
    await insideOneMinute();
    const junk = [];
    for (let n = 0; n < 20; n++) junk.push(await initializeWith(world.mcp.url, ATTACKER, junkKey(n)));
    // The service counted them against the attacker, as it would a direct client.
    expect(statuses(junk)).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    // A key the service has never seen still gets in from another client of the same MCP server.
    expect((await initializeWith(world.mcp.url, NEIGHBOUR, fresh)).status).toBe(200);
    // The attacker's address stays throttled for new keys, as for a direct client.
    const { key: another } = await world.service.tenant();
    expect((await initializeWith(world.mcp.url, ATTACKER, another)).status).toBe(429);
    await world.service.service.flushAuditLog();
    const addresses = new Set((await world.service.store.auditLog.recent(100)).map((row) => row.client_address));
    expect(addresses.has(ATTACKER)).toBe(true);
  });

  it('without a shared secret, the MCP server stops a client’s junk before the service’s budget', async () => {
    const world = await start({ refusalsPerMinute: 8 }, { refusalsPerMinute: 5 });
    const { key: fresh } = await world.service.tenant();
    await insideOneMinute();
    const junk = await Promise.all(
      Array.from({ length: 20 }, (_, n) => initializeWith(world.mcp.url, ATTACKER, junkKey(n))),
    );
    expect(statuses(junk).filter((status) => status === 401)).toHaveLength(5);
    expect(statuses(junk).filter((status) => status === 429)).toHaveLength(15);
    const throttled = junk.find((answer) => answer.status === 429);
    expect(Number(throttled?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(throttled?.text ?? '{}')).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect((await initializeWith(world.mcp.url, NEIGHBOUR, fresh)).status).toBe(200);
  });

  it('behind a proxy, names the client the proxy names', async () => {
    const world = await start(
      { refusalsPerMinute: 3, mcpSecret: SECRET },
      { forwardSecret: SECRET, refusalsPerMinute: 1000, trustProxy: true },
    );
    const { key: fresh } = await world.service.tenant();
    await insideOneMinute();
    const from = (client: string) => ({ 'x-forwarded-for': `198.51.100.1, ${client}` });
    const junk = [];
    for (let n = 0; n < 6; n++)
      junk.push(await initializeWith(world.mcp.url, ATTACKER, junkKey(n), from('203.0.113.7')));
    expect(statuses(junk)).toEqual([401, 401, 401, 429, 429, 429]);
    // Same socket address (the proxy's), another client.
    expect((await initializeWith(world.mcp.url, ATTACKER, fresh, from('203.0.113.8'))).status).toBe(200);
    await world.service.service.flushAuditLog();
    const addresses = new Set((await world.service.store.auditLog.recent(100)).map((row) => row.client_address));
    expect(addresses.has('203.0.113.7')).toBe(true);
    expect(addresses.has(ATTACKER)).toBe(false);
  });
});
