// Issue 28: what `mcp --http` does again on every call that it need do once. On 2026-07-28 every
// request built a server instance (every tool registered again), and the SDK asked zod for the tool's
// JSON Schemas each time (8% of a call); a request body was cloned up to three times and read and
// parsed twice; and the API behind it must be reached over connections kept alive, not one per call.
// Counted, never timed.
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { whoami } from '../../tools/whoami.ts';
import { testBackends } from '../support/backends.ts';
import { connectHttp, type Era, startLoopbackMcp } from '../support/mcp.ts';
import { startTestService, type TestService } from '../support/service.ts';

const CALLS = 6;

/** A TCP relay in front of the service that counts the connections made to it. */
async function countingRelay(
  target: string,
): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    const upstream = connect(Number(port), hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const backend = testBackends()[0];
if (!backend) throw new Error('no SQLite backend');
let service: TestService;
let relay: Awaited<ReturnType<typeof countingRelay>>;
let mcp: McpHttpServer;
const clients: Client[] = [];

beforeAll(async () => {
  service = await startTestService(backend);
  relay = await countingRelay(service.url);
  mcp = await startLoopbackMcp(relay.url, { pacing: false });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await mcp?.close();
  await relay?.close();
  await service?.close();
});

async function newClient(era: Era): Promise<Client> {
  const { key } = await service.tenant();
  const client = await connectHttp(mcp.url, key, { era });
  clients.push(client);
  return client;
}

async function callWhoami(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  expect(result.isError).toBeFalsy();
}

describe.each(['2025-11-25', '2026-07-28'] as const)('mcp --http on %s, call after call', (era) => {
  it('builds the tool’s JSON Schemas once, not per call or per listing', async () => {
    const client = await newClient(era);
    await client.listTools();
    await callWhoami(client);
    // zod's own builders, which every advertised schema comes from.
    const output = vi.spyOn(whoami.outputSchema['~standard'].jsonSchema, 'output');
    const input = vi.spyOn(whoami.inputSchema['~standard'].jsonSchema, 'input');
    for (let i = 0; i < CALLS; i++) {
      await callWhoami(client);
      await client.listTools();
    }
    // Built before the spies (by the first listing), so not again: was once per call and per listing.
    expect(output).not.toHaveBeenCalled();
    expect(input).not.toHaveBeenCalled();
  });

  it('builds its server once for calls one after another, not per call', async () => {
    const client = await newClient(era);
    await callWhoami(client);
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    for (let i = 0; i < CALLS; i++) await callWhoami(client);
    // Was every tool registered again on each 2026-07-28 call: a new server per request.
    expect(registered).not.toHaveBeenCalled();
  });

  it('serves each caller as itself however their calls interleave', async () => {
    const tenants = [await service.tenant(), await service.tenant()];
    const callers = await Promise.all(
      tenants.map(async ({ key }) => {
        const client = await connectHttp(mcp.url, key, { era });
        clients.push(client);
        return client;
      }),
    );
    const organizationOf = async (client: Client) => {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      return (result.structuredContent as { organizationId: string }).organizationId;
    };
    for (let i = 0; i < 3; i++) {
      const [first, second] = callers as [Client, Client];
      // One after another, then several at once, so that kept servers and new ones both serve.
      expect([await organizationOf(first), await organizationOf(second)]).toEqual(tenants.map((t) => t.organizationId));
      const together = await Promise.all([first, second, first, second].map(organizationOf));
      expect(together).toEqual([...tenants, ...tenants].map((t) => t.organizationId));
    }
  });

  it('reads and parses each request body once', async () => {
    const client = await newClient(era);
    await callWhoami(client);
    const clone = vi.spyOn(Request.prototype, 'clone');
    for (let i = 0; i < CALLS; i++) await callWhoami(client);
    // One clone per call, read to parse the body; was two (2025 session) or three (2026-07-28).
    expect(clone.mock.calls.length).toBeLessThanOrEqual(CALLS);
  });

  it('reaches the API over one kept-alive connection for calls one after another', async () => {
    const client = await newClient(era);
    const before = relay.connections();
    // Each call asks the API's /me; at most one new connection (the last may have idled out) for all.
    for (let i = 0; i < CALLS; i++) await callWhoami(client);
    expect(relay.connections() - before).toBeLessThanOrEqual(1);
  });
});
