// The typed API client: against the real service for caching and typed errors; against a stub
// upstream only for what the service cannot produce on demand (a chosen Retry-After, a 503, a
// dropped connection).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClientError, ApiConnectionError, createClient } from '../../src/client/index.ts';
import * as fx from '../contract/fixtures.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

const sqlite = testBackends()[0] as ReturnType<typeof testBackends>[number];

describe('the client against the real service', () => {
  let s: TestService;
  let site: FixtureSite;
  let key: string;

  beforeAll(async () => {
    site = await startFixtureSite({ '/': { body: html('<title>t</title>', '<main><h1>Hello</h1></main>') } });
    s = await startTestService(sqlite, { allowLocalTargets: true });
    ({ key } = await s.tenant());
  });
  afterAll(async () => {
    await s.close();
    await site.close();
  });

  it('turns the error envelope into a typed error with the code, status and the service’s words', async () => {
    const client = createClient({ baseUrl: s.url, apiKey: key, pacing: false });
    const error = await client.projects.get('0190f5a0-0000-7000-8000-000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', serviceMessage: 'project not found' });
  });

  it('reads a completed run, its report and each findings page from the service once', async () => {
    const client = createClient({ baseUrl: s.url, apiKey: key, pacing: false });
    const project = await client.projects.create({ domain: site.host });
    let run = await client.runs.start({ projectId: project.projectId }, 'cache-test');
    while (run.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 100));
      run = await client.runs.get(run.runId);
    }
    const requests = async () => (await s.store.auditLog.recent(10_000)).length;
    const before = await requests();
    for (let i = 0; i < 3; i++) {
      await client.runs.get(run.runId);
      await client.runs.report(run.runId);
      await client.runs.findings(run.runId, { limit: 5 });
    }
    expect((await requests()) - before).toBe(2); // the report and the findings page; the run was cached when it completed
    await client.runs.findings(run.runId, { limit: 5, severity: 'high' });
    expect((await requests()) - before).toBe(3); // another page is another key
  });

  it('paces requests to the window it is given, in call order', async () => {
    const client = createClient({ baseUrl: s.url, apiKey: key, pacing: { limit: 3, windowMs: 400 } });
    const started = Date.now();
    const done: number[] = [];
    await Promise.all([0, 1, 2, 3].map(async (i) => client.me().then(() => done.push(i))));
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect(done).toEqual([0, 1, 2, 3]);
  });
});

describe('the client against a stub upstream', () => {
  let server: Server;
  let base: string;
  let script: Array<(req: IncomingMessage, res: ServerResponse) => void> = [];
  let seen: Array<{ method: string; at: number }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', at: Date.now() });
      const next = script.shift();
      if (next) next(req, res);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(fx.keyContext));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const answer =
    (status: number, code: string, headers: Record<string, string> = {}) =>
    (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ error: { code, message: code } }));
    };
  const client = (extra = {}) => createClient({ baseUrl: base, apiKey: 'svc_stub', pacing: false, ...extra });
  const reset = (steps: typeof script) => {
    script = steps;
    seen = [];
  };

  it('waits as Retry-After says, then retries a refused request', async () => {
    reset([answer(429, 'rate_limited', { 'retry-after': '1' })]);
    await expect(client().me()).resolves.toMatchObject({ keyPrefix: 'svc_abcd1234' });
    expect(seen).toHaveLength(2);
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  // Issue 24: `siteaudit audit` waited up to 36 s printing nothing; the wait is told before it starts.
  it('tells its caller how long it waits before a retry, and why', async () => {
    reset([answer(429, 'rate_limited', { 'retry-after': '1' })]);
    const waits: Array<[number, number]> = [];
    await client({ onRetryWait: (ms: number, error: { status: number }) => waits.push([ms, error.status]) }).me();
    expect(waits).toEqual([[1000, 429]]);
  });

  it('hands a Retry-After longer than it may wait to the caller, with the seconds', async () => {
    reset([answer(429, 'rate_limited', { 'retry-after': '120' })]);
    const error = await client({ maxRetryWaitMs: 5000 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: 120 });
    expect(seen).toHaveLength(1);
  });

  it('does not repeat a POST without an Idempotency-Key after a 503, and does with one', async () => {
    reset([answer(503, 'service_unavailable', { 'retry-after': '0' })]);
    await expect(client().projects.create({ domain: 'example.com' })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(seen).toHaveLength(1);
    reset([
      answer(503, 'service_unavailable', { 'retry-after': '0' }),
      (_req, res) => {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...fx.completedRun,
            status: 'pending',
            score: null,
            severityCounts: null,
            findingsTotal: null,
            completedAt: null,
          }),
        );
      },
    ]);
    await expect(client().runs.start({ projectId: fx.PROJECT_ID }, 'retry-safe')).resolves.toMatchObject({
      status: 'pending',
    });
    expect(seen).toHaveLength(2);
  });

  it('retries a GET whose connection dropped, and reports a connection that never answers', async () => {
    reset([(req) => req.socket.destroy()]);
    await expect(client().me()).resolves.toMatchObject({ apiVersion: 'v1' });
    expect(seen).toHaveLength(2);
    const error = await createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_x', pacing: false, maxRetries: 1 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ code: 'connection_failed' });
  });
});
