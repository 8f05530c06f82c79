// spec 4.11 and the run lifecycle over HTTP, on both backends: real audits of a fixture site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiReadinessReport, Finding, FindingPage, Run, RunEventData, RunList } from '../../src/contract/index.ts';
import { startService } from '../../src/service/server.ts';
import { openStore } from '../../src/service/store/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { request, startTestService, type TestService } from '../support/service.ts';

type R = { runId: string; status: string; projectId: string };

const page = (title: string, links: string) =>
  html(
    `<title>${title}</title>`,
    `<main><h1>${title}</h1><p>${'Plain text about the product. '.repeat(10)}</p>${links}</main>`,
  );

async function waitFor(
  s: { request: TestService['request'] },
  key: string,
  runId: string,
  until: (status: string) => boolean,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await s.request<R>(`/api/v1/runs/${runId}`, { key });
    if (until(res.body.status) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const terminal = (status: string) => !['pending', 'running'].includes(status);

/** A second service process on the same store as `first`, with a worker that looks for runs often. */
async function workerBeside(first: TestService): Promise<{ url: string; close(): Promise<void> }> {
  const store = await openStore(first.location);
  const service = await startService({
    store,
    kek: first.kek,
    port: 0,
    allowLocalTargets: true,
    worker: { pollMs: 50 },
  });
  return {
    url: service.url,
    async close() {
      await service.close();
      await store.close();
    },
  };
}

describe.each(testBackends())('runs on $name', (backend) => {
  let s: TestService;
  let site: FixtureSite;
  let key: string;
  let organizationId: string;
  const test = it.skipIf(!backend.available);

  const start = (
    projectId: string,
    headers: Record<string, string> = {},
    k = key,
    extra: Record<string, unknown> = {},
  ) => s.request<R>('/api/v1/runs', { key: k, method: 'POST', json: { projectId, ...extra }, headers });

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({
      '/': { body: page('Home', '<a href="/a">A page</a> <a href="/b">B page</a>') },
      '/a': { body: page('A', '') },
      '/b': { body: page('B', '') },
      '/slow': (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(page('Slow', ''));
        }, 3000);
      },
    });
    s = await startTestService(backend, { allowLocalTargets: true });
    ({ key, organizationId } = await s.tenant('pro', 20));
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await site.close();
  });

  test('runs an audit from 202 to completed, then serves its report and findings', async () => {
    const projectId = await s.createProject(key, site.host);
    const started = await start(projectId, { 'Idempotency-Key': 'first-run' });
    expect(started.status).toBe(202);
    const run = Run.parse(started.body);
    expect(run).toMatchObject({
      status: 'pending',
      product: 'ai_readiness',
      projectId,
      url: `http://${site.host}/`,
      score: null,
      scanMode: null,
    });
    expect(started.headers.get('location')).toBe(run.links?.self);
    expect((await s.request<{ credits: { remaining: number } }>('/api/v1/me', { key })).body.credits.remaining).toBe(
      19,
    );

    const replay = await start(projectId, { 'Idempotency-Key': 'first-run' });
    expect(replay.status).toBe(202);
    expect(replay.body.runId).toBe(run.runId);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await s.request<{ credits: { remaining: number } }>('/api/v1/me', { key })).body.credits.remaining).toBe(
      19,
    );

    const done = await waitFor(s, key, run.runId, terminal);
    const completed = Run.parse(done.body);
    expect(completed, completed.error ?? '').toMatchObject({
      status: 'completed',
      progressPct: 100,
      coverage: { mode: 'local_on_page' },
    });
    expect(completed.findingsTotal).toBeGreaterThan(0);
    expect(completed.score === null ? completed.scoreStatus : completed.score).not.toBeNull();
    expect(done.headers.get('cache-control')).toMatch(/immutable/);

    const report = AiReadinessReport.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    expect(report).toMatchObject({
      runId: run.runId,
      projectId,
      findingsTotal: completed.findingsTotal,
      pagesCrawled: 3,
    });
    expect(report.foundation.robotsTxt.notes).toMatch(/local on-page/);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await s.request(
        `/api/v1/runs/${run.runId}/findings?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key },
      );
      const body = FindingPage.parse(res.body);
      seen.push(...body.findings.map((f) => f.findingId));
      cursor = body.pagination.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(completed.findingsTotal ?? -1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(report.topFindings.map((f) => f.findingId)).toEqual(seen.slice(0, report.topFindings.length));

    const all = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    for (const finding of all) {
      expect(Finding.parse(finding)).toMatchObject({
        runId: run.runId,
        status: 'open',
        humanUrl: `${completed.humanUrl}/findings/${finding.findingId}`,
      });
      expect(finding.agentActions[0]?.description.length).toBeGreaterThan(10);
      // Every finding cites its standard and says how to check the fix, for its own site (issue 13).
      expect(finding.references?.length, finding.title).toBeGreaterThan(0);
      expect(finding.references?.every((r) => r.url.startsWith('https://'))).toBe(true);
      expect(finding.verify, finding.title).toMatch(/\S/);
      expect(finding.verify).not.toMatch(/\{(url|origin|host|domain)\}/);
    }
    // The verify lines are filled in for the audited site itself (URL-encoded in a link to open).
    const host = new URL(completed.url).host;
    for (const finding of all)
      expect(finding.verify, finding.title).toContain(
        finding.verify?.startsWith('Open ') ? encodeURIComponent(host) : host,
      );
    const severity = all[0]?.severity ?? 'info';
    const filtered = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?severity=${severity}`, { key })).body,
    ).findings;
    expect(filtered.every((f) => f.severity === severity)).toBe(true);
    expect(filtered.length).toBe(all.filter((f) => f.severity === severity).length);

    const events = await s.store.runs.events(organizationId);
    const event = events.find((e) => e.run_id === run.runId);
    expect(event?.type).toBe('run.completed');
    expect(event?.id).toMatch(/^evt_/);
    expect(RunEventData.parse(JSON.parse(event?.data ?? '{}'))).toMatchObject({
      runId: run.runId,
      status: 'completed',
      findingsTotal: completed.findingsTotal,
    });
  });

  test('409 run_in_flight while a run is pending or running; no results and no caching until it completes', async () => {
    const slow = await startFixtureSite({
      '/': (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(page('Slow', ''));
        }, 1500);
      },
    });
    try {
      const projectId = await s.createProject(key, slow.host);
      const run = await start(projectId);
      expect(run.status).toBe(202);
      const conflict = await start(projectId);
      expectError(conflict, 409, 'run_in_flight');
      expect(conflict.body).toMatchObject({ error: { runId: run.body.runId } });
      const inFlight = await s.request(`/api/v1/runs/${run.body.runId}`, { key });
      expect(inFlight.headers.get('cache-control')).toBe('no-store');
      expectError(await s.request(`/api/v1/runs/${run.body.runId}/report`, { key }), 404, 'results_unavailable');
      expectError(await s.request(`/api/v1/runs/${run.body.runId}/findings`, { key }), 404, 'results_unavailable');
      expect((await waitFor(s, key, run.body.runId, terminal)).body.status).toBe('completed');
      expect((await start(projectId)).status).toBe(202);
      await waitFor(
        s,
        key,
        (await s.request<{ runs: R[] }>(`/api/v1/runs?projectId=${projectId}&limit=1`, { key })).body.runs[0]?.runId ??
          '',
        terminal,
      );
    } finally {
      await slow.close();
    }
  });

  test('an app shell completes with scoreStatus unverified and a null score; the report keeps the number', async () => {
    const shell = await startFixtureSite({
      '/': { body: html('<title>App</title>', '<div id="root"></div><script src="/app.js"></script>') },
    });
    try {
      const projectId = await s.createProject(key, shell.host);
      const run = await start(projectId);
      const done = Run.parse((await waitFor(s, key, run.body.runId, terminal)).body);
      expect(done).toMatchObject({ status: 'completed', scoreStatus: 'unverified', score: null });
      const report = AiReadinessReport.parse((await s.request(`/api/v1/runs/${done.runId}/report`, { key })).body);
      expect(report.scoreStatus).toBe('unverified');
      expect(typeof report.score).toBe('number');
      const listed = RunList.parse((await s.request(`/api/v1/runs?projectId=${projectId}`, { key })).body).runs[0];
      expect(listed).toMatchObject({ scoreStatus: 'unverified', score: null });
    } finally {
      await shell.close();
    }
  });

  test('gives the same finding ids for the same run on every read, and new ids for a new run', async () => {
    const projectId = await s.createProject(key, `localhost:${site.port}`);
    const first = await start(projectId);
    await waitFor(s, key, first.body.runId, terminal);
    const ids = async (runId: string) =>
      FindingPage.parse((await s.request(`/api/v1/runs/${runId}/findings?limit=100`, { key })).body).findings.map(
        (f) => f.findingId,
      );
    expect(await ids(first.body.runId)).toEqual(await ids(first.body.runId));
    const second = await start(projectId);
    await waitFor(s, key, second.body.runId, terminal);
    const [a, b] = [await ids(first.body.runId), await ids(second.body.runId)];
    expect(a.length).toBe(b.length);
    expect(a.some((id) => b.includes(id))).toBe(false);
  });

  test('lists runs newest first with their score state, filters and cursors', async () => {
    const res = await s.request('/api/v1/runs?limit=100', { key });
    const list = RunList.parse(res.body);
    expect(list.runs.length).toBeGreaterThanOrEqual(3);
    const created = list.runs.map((r) => r.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const done = list.runs.find((r) => r.status === 'completed');
    expect(done?.finishedAt).not.toBeNull();
    const first = RunList.parse((await s.request('/api/v1/runs?limit=1&status=completed', { key })).body);
    expect(first.runs).toHaveLength(1);
    const next = RunList.parse(
      (
        await s.request(
          `/api/v1/runs?limit=1&status=completed&cursor=${encodeURIComponent(first.pagination.nextCursor ?? '')}`,
          { key },
        )
      ).body,
    );
    expect(next.runs[0]?.runId).not.toBe(first.runs[0]?.runId);
    const byProject = RunList.parse(
      (await s.request(`/api/v1/runs?projectId=${first.runs[0]?.projectId}`, { key })).body,
    );
    expect(byProject.runs.every((r) => r.projectId === first.runs[0]?.projectId)).toBe(true);
    expectError(await s.request('/api/v1/runs?status=done', { key }), 400, 'validation_failed');
    expectError(await s.request('/api/v1/runs?projectId=nope', { key }), 400, 'validation_failed');
  });

  test.each([
    ['a missing projectId', {}],
    ['a non-uuid projectId', { projectId: 'x' }],
    ['an unknown scanMode', { projectId: '0190f5a0-0000-7000-8000-000000000000', scanMode: 'paid_seo' }],
  ])('400 validation_failed for %s', async (_name, json) => {
    expectError(await s.request('/api/v1/runs', { key, method: 'POST', json }), 400, 'validation_failed');
  });

  // Found by the attack battery: a prefix match let any suffix through, and PostgreSQL answered 500 to a NUL.
  test.each([
    'paid_marketing_signal\u0000',
    'paid_marketing_signal<script>',
    'paid_marketing_signal\ud800',
    'paid_marketing_signal\u202e',
    'paid_marketing_signal_v3',
    'PAID_AI_READINESS',
  ])('400 validation_failed, without echoing it, for the scanMode %j', async (scanMode) => {
    const projectId = await s.createProject(key, site.host);
    const runs = async () =>
      (await s.request<{ runs: unknown[] }>(`/api/v1/runs?projectId=${projectId}&limit=100`, { key })).body.runs.length;
    const before = await runs();
    const answer = await s.request('/api/v1/runs', { key, method: 'POST', json: { projectId, scanMode } });
    expectError(answer, 400, 'validation_failed');
    expect(answer.text).not.toContain('<script>');
    expect(await runs()).toBe(before);
  });

  test('400 invalid_json for a broken body, and for an Idempotency-Key reused with another body', async () => {
    expectError(await s.request('/api/v1/runs', { key, method: 'POST', body: '{"projectId":' }), 400, 'invalid_json');
    const a = await s.createProject(key, `a.localhost:${site.port}`);
    const b = await s.createProject(key, `b.localhost:${site.port}`);
    expect((await start(a, { 'Idempotency-Key': 'shared' })).status).toBe(202);
    expectError(await start(b, { 'Idempotency-Key': 'shared' }), 400, 'validation_failed');
    expectError(await start(b, { 'Idempotency-Key': 'bad key with spaces' }), 400, 'validation_failed');
  });

  test('402 no_active_subscription on the Free plan, 402 insufficient_credits when short, and no run stored', async () => {
    const free = await s.tenant('free');
    expectError(
      await start(await s.createProject(free.key, `free.localhost:${site.port}`), {}, free.key),
      402,
      'no_active_subscription',
    );
    const broke = await s.tenant('pro', 0);
    const projectId = await s.createProject(broke.key, `broke.localhost:${site.port}`);
    expectError(await start(projectId, {}, broke.key), 402, 'insufficient_credits');
    expect(RunList.parse((await s.request('/api/v1/runs', { key: broke.key })).body).runs).toEqual([]);
  });

  test('409 project_archived for an archived project; 404 for another organization’s project', async () => {
    const projectId = await s.createProject(key, `gone.localhost:${site.port}`);
    await s.request(`/api/v1/projects/${projectId}?confirm=gone.localhost:${site.port}`, { key, method: 'DELETE' });
    expectError(await start(projectId), 409, 'project_archived');
    const stranger = await s.tenant();
    expectError(await start(projectId, {}, stranger.key), 404, 'not_found');
    expectError(await s.request(`/api/v1/runs/0190f5a0-0000-7000-8000-000000000000`, { key }), 404, 'not_found');
  });

  test('retries a timed-out audit, then ends failed_auto_credit with the credits returned and run.failed', async () => {
    const strict = await startTestService(backend, {
      allowLocalTargets: true,
      worker: { pollMs: 50, attemptTimeoutMs: 300, maxAttempts: 2 },
    });
    try {
      const tenant = await strict.tenant('pro', 5);
      site.routes.set('/', site.routes.get('/slow') as never);
      const projectId = await strict.createProject(tenant.key, site.host);
      const run = await strict.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
      const done = await waitFor(strict, tenant.key, run.body.runId, terminal, 15_000);
      expect(done.body).toMatchObject({ status: 'failed_auto_credit', error: expect.stringMatching(/timed out/) });
      expect(
        (await strict.request<{ credits: { remaining: number } }>('/api/v1/me', { key: tenant.key })).body.credits
          .remaining,
      ).toBe(5);
      const row = await strict.store.runs.getById(run.body.runId);
      expect(row?.attempts).toBe(2);
      const event = (await strict.store.runs.events(tenant.organizationId)).find((e) => e.run_id === run.body.runId);
      expect(event?.type).toBe('run.failed');
      expect(RunEventData.parse(JSON.parse(event?.data ?? '{}'))).toMatchObject({ status: 'failed', score: null });
    } finally {
      site.routes.set('/', { body: page('Home', '<a href="/a">A page</a> <a href="/b">B page</a>') });
      await strict.close();
    }
  });

  // Found by the attack battery: a home page dripping a byte at a time outlived the lease, and the
  // same worker claimed the run again while its first attempt still ran.
  test('keeps the lease of a slow attempt alive and never starts a second attempt of it', async () => {
    const dripping = await startTestService(backend, {
      allowLocalTargets: true,
      worker: { pollMs: 20, leaseMs: 300, concurrency: 2 },
    });
    try {
      const tenant = await dripping.tenant('pro', 5);
      site.routes.set('/', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        let sent = 0;
        const timer = setInterval(() => {
          res.write(sent === 0 ? '<!doctype html><title>Drip</title><main><h1>Drip</h1><p>' : 'drip ');
          if (++sent >= 15) {
            clearInterval(timer);
            res.end('</p></main>');
          }
        }, 100);
        res.on('close', () => clearInterval(timer));
      });
      const projectId = await dripping.createProject(tenant.key, site.host);
      const run = await dripping.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
      const done = await waitFor(dripping, tenant.key, run.body.runId, terminal, 15_000);
      expect(done.body.status).toBe('completed');
      expect((await dripping.store.runs.getById(run.body.runId))?.attempts).toBe(1);
    } finally {
      site.routes.set('/', { body: page('Home', '<a href="/a">A page</a> <a href="/b">B page</a>') });
      await dripping.close();
    }
  });

  test('a run whose worker died is claimed again when its lease expires', async () => {
    const api = await startTestService(backend, { allowLocalTargets: true, worker: false });
    try {
      const tenant = await api.tenant();
      const projectId = await api.createProject(tenant.key, site.host);
      const run = await api.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
      const stolen = await api.store.runs.claim('dead-worker', 50);
      expect(stolen?.id).toBe(run.body.runId);
      const rescuer = await workerBeside(api);
      try {
        const done = await waitFor(
          { request: (p, o) => request(rescuer.url, p, o) },
          tenant.key,
          run.body.runId,
          terminal,
        );
        expect(done.body.status).toBe('completed');
        expect((await api.store.runs.getById(run.body.runId))?.attempts).toBe(2);
      } finally {
        await rescuer.close();
      }
    } finally {
      await api.close();
    }
  });

  // Found by the attack battery: a page that took its process down was claimed again after each
  // crash, 5 crashes later at attempt 5 of 3 and still running.
  test('a run whose attempts all died with their process ends failed_auto_credit, credits returned', async () => {
    const api = await startTestService(backend, { allowLocalTargets: true, worker: false });
    try {
      const tenant = await api.tenant('pro', 5);
      const projectId = await api.createProject(tenant.key, site.host);
      const run = await api.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
      // Three workers claim it and die during the attempt: each lease lapses with the attempt unfinished.
      for (let crash = 1; crash <= 3; crash++) {
        const claimed = await api.store.runs.claim(`crashed-${crash}`, 1);
        expect(claimed).toMatchObject({ id: run.body.runId, attempts: crash });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const rescuer = await workerBeside(api);
      try {
        const done = await waitFor(
          { request: (p, o) => request(rescuer.url, p, o) },
          tenant.key,
          run.body.runId,
          terminal,
        );
        expect(done.body).toMatchObject({
          status: 'failed_auto_credit',
          error: expect.stringMatching(/never finished/),
        });
        expect(await api.store.runs.getById(run.body.runId)).toMatchObject({ attempts: 3, lease_owner: null });
        expect(
          (await api.request<{ credits: { remaining: number } }>('/api/v1/me', { key: tenant.key })).body.credits
            .remaining,
        ).toBe(5);
        const event = (await api.store.runs.events(tenant.organizationId)).find((e) => e.run_id === run.body.runId);
        expect(event?.type).toBe('run.failed');
      } finally {
        await rescuer.close();
      }
    } finally {
      await api.close();
    }
  });

  test('a stopping service gives its run back, and the next one completes it', async () => {
    const first = await startTestService(backend, { allowLocalTargets: true, worker: { pollMs: 50 } });
    const tenant = await first.tenant();
    site.routes.set('/', site.routes.get('/slow') as never);
    const projectId = await first.createProject(tenant.key, site.host);
    const run = await first.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
    await waitFor(first, tenant.key, run.body.runId, (status) => status === 'running');
    await first.service.close();
    const released = await first.store.runs.getById(run.body.runId);
    expect(released).toMatchObject({ status: 'pending', attempts: 0 });
    site.routes.set('/', { body: page('Home', '<a href="/a">A page</a> <a href="/b">B page</a>') });
    const second = await workerBeside(first);
    try {
      const done = await waitFor(
        { request: (p, o) => request(second.url, p, o) },
        tenant.key,
        run.body.runId,
        terminal,
      );
      expect(done.body.status).toBe('completed');
    } finally {
      await second.close();
      await first.store.close();
      await first.location.cleanup();
    }
  });
  test('?waitSeconds long-polls a run: answers at the change, counts once, at once when terminal', async () => {
    const tenant = await s.tenant('pro', 5);
    const projectId = await s.createProject(tenant.key, site.host);
    const run = await s.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
    const runId = run.body.runId;
    const path = `/api/v1/runs/${runId}`;
    // Whatever the state now, a long poll comes back as soon as it changes, well before 20 s.
    let last = (await s.request<Run>(path, { key: tenant.key })).body;
    const seen: string[] = [];
    while (!terminal(last.status)) {
      const began = Date.now();
      const next = await s.request<Run>(`${path}?waitSeconds=20`, { key: tenant.key });
      expect(next.status).toBe(200);
      expect(Date.now() - began).toBeLessThan(15_000);
      expect(`${next.body.status}|${next.body.progressPct}|${next.body.currentStep}`).not.toBe(
        `${last.status}|${last.progressPct}|${last.currentStep}`,
      );
      last = next.body;
      seen.push(last.status);
    }
    expect(last.status).toBe('completed');
    const before = Date.now();
    expect((await s.request<Run>(`${path}?waitSeconds=20`, { key: tenant.key })).body.status).toBe('completed');
    expect(Date.now() - before).toBeLessThan(2000);
    // Each long poll was one request in the audit log (and so one for the rate limit).
    const logged = (await s.store.auditLog.recent(1000, tenant.organizationId)).filter((row) => row.path === path);
    expect(logged.length).toBe(seen.length + 2);

    for (const bad of ['0', '26', '1.5', 'x', '-1'])
      expectError(await s.request(`${path}?waitSeconds=${bad}`, { key: tenant.key }), 400, 'validation_failed');
  });

  test('a long poll served by an API-only process sees a run that another process works on', async () => {
    const api = await startTestService(backend, { allowLocalTargets: true, worker: false });
    const worker = await workerBeside(api);
    try {
      const tenant = await api.tenant();
      const projectId = await api.createProject(tenant.key, site.host);
      const run = await api.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
      let status = run.body.status;
      const began = Date.now();
      while (!terminal(status) && Date.now() - began < 20_000) {
        status = (await api.request<R>(`/api/v1/runs/${run.body.runId}?waitSeconds=10`, { key: tenant.key })).body
          .status;
      }
      expect(status).toBe('completed');
    } finally {
      await worker.close();
      await api.close();
    }
  });

  test('a stopping service answers its long polls at once and closes their connections', async () => {
    const api = await startTestService(backend, { allowLocalTargets: true, worker: false });
    const tenant = await api.tenant();
    const projectId = await api.createProject(tenant.key, site.host);
    const run = await api.request<R>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
    const began = Date.now();
    const waiting = api.request<R>(`/api/v1/runs/${run.body.runId}?waitSeconds=20`, { key: tenant.key });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closing = api.close();
    expect((await waiting).body.status).toBe('pending');
    await closing;
    expect(Date.now() - began).toBeLessThan(5000);
  });
});
