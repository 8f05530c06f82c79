// The MCP lockout battery (issue 23): clients of `mcp --http` send made-up bearers, API-key shaped
// and OAuth-token shaped, in bursts, at the service's and the MCP server's default budgets. A key the
// service has never seen, presented by another client of the same MCP server through a real MCP
// client, must still work; the junk must be answered 401 or 429 and nothing else. Clients come from
// addresses of 127/8, all this machine.
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { DEFAULT_REFUSALS_PER_MINUTE } from '../../src/service/address-throttle.ts';
import { testBackends } from '../support/backends.ts';
import { startLoopbackMcp } from '../support/mcp.ts';
import { requestFrom } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

const SECRET = 'battery-shared-mcp-secret-'.repeat(2);
const junkBearer = (n: number) =>
  n % 2 === 0 ? `svc_${`${n}`.padStart(43, 'q')}` : `oauth_${`${n}`.padStart(40, 'z')}`;

/** Fixed one-minute windows: start well inside one so the attack and the check share it. */
async function insideOneMinute(seconds = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const backend = testBackends()[0];
if (!backend) throw new Error('no SQLite backend');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(secret: string | undefined): Promise<{ service: TestService; mcp: McpHttpServer }> {
  const service = await startTestService(backend as NonNullable<typeof backend>, {
    refusalsPerMinute: DEFAULT_REFUSALS_PER_MINUTE,
    ...(secret ? { mcpSecret: secret } : {}),
  });
  cleanups.push(() => service.close());
  const mcp = await startLoopbackMcp(service.url, {
    settings: { pollIntervalMs: 100, defaultWaitSeconds: 1 },
    ...(secret ? { forwardSecret: secret } : {}),
  });
  cleanups.push(() => mcp.close());
  return { service, mcp };
}

/** `count` junk requests from `address`, `parallel` at a time; the statuses they got. */
async function attack(url: string, address: string, count: number, parallel = 20): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const burst = Array.from({ length: Math.min(parallel, count - start) }, (_, n) =>
      requestFrom(address, url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${junkBearer(start + n)}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    statuses.push(...(await Promise.all(burst)).map((answer) => answer.status));
  }
  return statuses;
}

/** whoami through the SDK's own client, connecting from `address`. */
async function whoamiFrom(url: string, address: string, key: string): Promise<unknown> {
  // undici's own connect options have no local address: connect the socket here.
  const agent = new Agent({
    connect: (options, callback) => {
      const socket = connect({ host: options.hostname, port: Number(options.port), localAddress: address });
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
  const client = new Client({ name: 'battery-neighbour', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: ((input: string | URL, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch,
  });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return result.structuredContent;
  } finally {
    await client.close();
    await agent.close();
  }
}

describe('MCP lockout battery', () => {
  it.each([
    ['with the secret shared by the service and the MCP server', SECRET],
    ['without a shared secret', undefined],
  ])('junk bearers from one client address do not lock a fresh key out, %s', async (_name, secret) => {
    const { service, mcp } = await world(secret);
    const victim = await service.tenant();
    await insideOneMinute();
    const statuses = await attack(mcp.url, '127.0.0.1', 120);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(DEFAULT_REFUSALS_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    expect(await whoamiFrom(mcp.url, '127.0.0.2', victim.key)).toMatchObject({
      organizationId: victim.organizationId,
    });
    // And a second fresh key, after more junk.
    await attack(mcp.url, '127.0.0.1', 40);
    const second = await service.tenant();
    expect(await whoamiFrom(mcp.url, '127.0.0.3', second.key)).toMatchObject({
      organizationId: second.organizationId,
    });
  });

  it('junk from several client addresses at once locks none of the others out, with the shared secret', async () => {
    const { service, mcp } = await world(SECRET);
    const victims = [await service.tenant(), await service.tenant()];
    await insideOneMinute();
    const attackers = ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14', '127.0.0.15'];
    const results = await Promise.all(attackers.map((address) => attack(mcp.url, address, 60, 10)));
    for (const statuses of results) {
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(DEFAULT_REFUSALS_PER_MINUTE);
    }
    for (const [n, victim] of victims.entries())
      expect(await whoamiFrom(mcp.url, `127.0.0.2${n}`, victim.key)).toMatchObject({
        organizationId: victim.organizationId,
      });
    // The service charged each attacker, never the MCP server's own address.
    await service.service.flushAuditLog();
    const charged = new Set(
      (await service.store.auditLog.recent(10_000)).filter((row) => !row.key_prefix).map((row) => row.client_address),
    );
    expect(charged).toEqual(new Set(attackers));
  });
});
