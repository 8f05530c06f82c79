// The MCP server as hosts on the official SDK's 1.x line see it (Claude Desktop, Cursor, the
// Inspector): that client validates every structuredContent against the tool's outputSchema, so a
// result our 2.x tests accept can reach those hosts as "-32602 ... does not match the tool's output
// schema". Every tool, and every error path with its advice, over stdio and streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, startMcpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { errorOf, textOf } from '../support/mcp.ts';
import { callV1, connectHttpV1, connectStdioV1, type V1Client } from '../support/mcp-v1.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { type McpWorld, startMcpWorld, structured } from './support.ts';

let world: McpWorld;
beforeAll(async () => {
  world = await startMcpWorld();
});
afterAll(async () => {
  await world?.close();
});

const MISSING_RUN = '01234567-89ab-7def-8123-456789abcdef';

describe.each(['stdio', 'HTTP'] as const)('SDK 1.x client over %s', (transport) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });
  let elicitAnswer: 'accept' | 'decline' = 'accept';
  async function connect(key: string): Promise<V1Client> {
    const onElicit = () =>
      elicitAnswer === 'accept'
        ? { action: 'accept' as const, content: { archive: true } }
        : { action: 'decline' as const };
    const connection =
      transport === 'stdio'
        ? await connectStdioV1(world.env(key), onElicit)
        : await connectHttpV1(world.http.url, key, onElicit);
    closers.push(connection.close);
    return connection.client;
  }
  const call = callV1;

  it('runs a whole audit with every result valid against its output schema', async () => {
    const { key } = await world.service.tenant('pro', 20);
    const client = await connect(key);
    await client.listTools(); // the 1.x client validates results only for tools it has listed
    expect(structured(await call(client, 'whoami'))).toMatchObject({ plan: 'pro', creditsRemaining: 20 });
    const { projectId } = structured<{ projectId: string }>(
      await call(client, 'create_project', { domain: world.site.host }),
    );
    expect(structured(await call(client, 'list_projects'))).toMatchObject({ projects: [{ projectId }] });
    const run = structured<{ runId: string }>(await call(client, 'start_run', { projectId }));
    let waited = await call(client, 'wait_for_run', { runId: run.runId, maxWaitSeconds: 20 });
    while (structured<{ stillRunning: boolean }>(waited).stillRunning)
      waited = await call(client, 'wait_for_run', { runId: run.runId, maxWaitSeconds: 20 });
    expect(structured(waited)).toMatchObject({ status: 'completed', done: true });
    const report = await call(client, 'get_report', { runId: run.runId });
    expect(report.isError).toBeFalsy();
    expect(structured<{ humanUrl: string }>(report).humanUrl).toContain(run.runId);
    const findings = await call(client, 'page_findings', { runId: run.runId, limit: 2 });
    expect(findings.isError).toBeFalsy();
    expect(structured<{ findings: unknown[] }>(findings).findings.length).toBeGreaterThan(0);

    const badCursor = await call(client, 'page_findings', { runId: run.runId, cursor: 'not-a-cursor' });
    expect(errorOf(badCursor)).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(textOf(badCursor)).toContain('correct the arguments');
  });

  it('reads not_found, run_in_flight and results_unavailable with their advice', async () => {
    const { key } = await world.service.tenant('pro', 20);
    const client = await connect(key);
    await client.listTools();
    const missing = await call(client, 'get_report', { runId: MISSING_RUN });
    expect(errorOf(missing)).toEqual({ code: 'not_found', status: 404 });
    expect(textOf(missing)).toContain('list_projects shows projects');

    const { projectId } = structured<{ projectId: string }>(
      await call(client, 'create_project', { domain: world.slowSite.host }),
    );
    const run = structured<{ runId: string }>(await call(client, 'start_run', { projectId }));
    const second = await call(client, 'start_run', { projectId, idempotencyKey: `v1-second-${transport}` });
    expect(errorOf(second)).toMatchObject({ code: 'run_in_flight', status: 409, details: { runId: run.runId } });
    expect(textOf(second)).toContain(`wait_for_run with runId "${run.runId}"`);

    const early = await call(client, 'get_report', { runId: run.runId });
    expect(errorOf(early)).toMatchObject({ code: 'results_unavailable', status: 404 });
    expect(textOf(early)).toContain('Call wait_for_run');
  });

  it('reads confirmation_mismatch, a declined confirmation, and archives with a yes', async () => {
    const { key } = await world.service.tenant('pro', 1);
    const client = await connect(key);
    await client.listTools();
    const domain = `v1-archive-${transport.toLowerCase()}.example`;
    const { projectId } = structured<{ projectId: string }>(await call(client, 'create_project', { domain }));
    const wrong = await call(client, 'archive_project', { projectId, confirm: 'other.example' });
    expect(errorOf(wrong)).toEqual({ code: 'confirmation_mismatch', status: 400 });
    expect(textOf(wrong)).toContain(`confirm "${domain}"`);
    elicitAnswer = 'decline';
    const declined = await call(client, 'archive_project', { projectId, confirm: domain });
    elicitAnswer = 'accept';
    expect(errorOf(declined)).toEqual({ code: 'not_confirmed' });
    expect(structured(await call(client, 'archive_project', { projectId, confirm: domain }))).toEqual({
      projectId,
      domain,
      archived: true,
    });
  });

  it('reads 402 (Free plan, no credits) and 403 with what to do', async () => {
    const free = await world.service.tenant('free');
    const freeClient = await connect(free.key);
    await freeClient.listTools();
    const freeProject = await world.service.createProject(free.key, `v1-free-${transport.toLowerCase()}.example`);
    const refused = await call(freeClient, 'start_run', { projectId: freeProject });
    expect(errorOf(refused)).toEqual({ code: 'no_active_subscription', status: 402 });
    expect(textOf(refused)).toContain('upgrade to a paid plan');

    const broke = await world.service.tenant('pro', 0);
    const brokeClient = await connect(broke.key);
    await brokeClient.listTools();
    const brokeProject = await world.service.createProject(broke.key, world.site.host);
    const poor = await call(brokeClient, 'start_run', { projectId: brokeProject });
    expect(errorOf(poor)).toMatchObject({ code: 'insufficient_credits', status: 402 });
    expect(textOf(poor)).toContain('Nothing was charged');

    const scoped = await world.service.tenant('pro', 5);
    const project = await world.service.createProject(scoped.key, `v1-scope-${transport.toLowerCase()}.example`);
    const readOnly = await world.service.createKey(scoped.organizationId, { scopes: ['projects:read', 'runs:read'] });
    const readOnlyClient = await connect(readOnly);
    await readOnlyClient.listTools();
    const forbidden = await call(readOnlyClient, 'start_run', { projectId: project });
    expect(errorOf(forbidden)).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(textOf(forbidden)).toContain('lacks the runs:write scope');
  });
});

describe('SDK 1.x client and the rate limit', () => {
  let limited: TestService;
  let http: McpHttpServer;
  beforeAll(async () => {
    const backend = testBackends()[0];
    if (!backend) throw new Error('no SQLite backend');
    limited = await startTestService(backend, { rateLimit: 3 });
    http = await startMcpHttpServer({
      apiUrl: limited.url,
      host: '127.0.0.1',
      port: 0,
      version: '9.9.9',
      settings: { pollIntervalMs: 150, defaultWaitSeconds: 20 },
      log: () => {},
    });
  });
  afterAll(async () => {
    await http?.close();
    await limited?.close();
  });

  it.each(['stdio', 'HTTP'] as const)('reads a 429 with the seconds to wait over %s', async (transport) => {
    const { key } = await limited.tenant('pro', 5);
    const { client, close } =
      transport === 'stdio'
        ? await connectStdioV1({ SITEAUDIT_API_URL: limited.url, SITEAUDIT_API_KEY: key })
        : await connectHttpV1(http.url, key);
    try {
      await client.listTools();
      let result = await callV1(client, 'whoami');
      // Enough calls to fill a fresh window too, should the minute turn (or a short wait be retried) meanwhile.
      for (let i = 0; i < 10 && !result.isError; i++) result = await callV1(client, 'whoami');
      const error = errorOf(result);
      expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(textOf(result)).toContain(`after ${error.retryAfterSeconds} seconds`);
    } finally {
      await close();
    }
  });
});
