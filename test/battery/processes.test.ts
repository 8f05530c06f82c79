// The process battery: real `siteaudit serve` processes killed with -9 and stopped with SIGTERM in
// the middle of runs, on both backends, and three of them sharing one PostgreSQL. Every run ends
// completed exactly once: one attempt more per kill at most, one run.completed event, credits charged
// once.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { type TestBackend, type TestLocation, testBackends } from '../support/backends.ts';
import { runJson, type ServeProcess, startServe } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { request } from '../support/service.ts';

/** Short, so a killed process's run is taken over within the test. */
const LEASE_SECONDS = 3;
/**
 * For processes that are never killed: three of them rendering on two cores starve one another's
 * event loops, and a renewal every second was measured late by up to 3.5 s (with and without the
 * Core Web Vitals pages), which a 3 s lease does not survive; losing it there is correct behaviour
 * (the run is taken over), not what those tests ask about.
 */
const STEADY_LEASE_SECONDS = 20;
const TERMINAL = new Set(['completed', 'failed', 'failed_auto_credit', 'refunded']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const page = (title: string) =>
  html(`<title>${title}</title>`, `<main><h1>${title}</h1><p>${'Words about the product. '.repeat(12)}</p></main>`);

/** A site whose home page takes `delayMs`, so a run is still running when its process is stopped. */
function slowSite(delayMs: number): Promise<FixtureSite> {
  return startFixtureSite({
    '/': (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page('Slow home'));
      }, delayMs);
    },
  });
}

async function tenantOn(where: string[], credits: number): Promise<string> {
  const org = await runJson<{ organizationId: string }>([
    'admin',
    'org',
    'create',
    '--name',
    'Battery',
    '--plan',
    'pro',
    '--credits',
    String(credits),
    ...where,
  ]);
  const key = await runJson<{ secret: string }>(['admin', 'key', 'create', '--org', org.organizationId, ...where]);
  return key.secret;
}

async function waitForStatus(url: () => string, key: string, runId: string, done: (status: string) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await request<{ status: string }>(url(), `/api/v1/runs/${runId}`, { key }).catch(() => undefined);
    if (run && done(run.body.status)) return run.body.status;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach the state in time`);
    await sleep(150);
  }
}

async function eventsOf(store: Store, runId: string): Promise<string[]> {
  return (await store.db.selectFrom('events').select('type').where('run_id', '=', runId).execute()).map((e) => e.type);
}

/** Steps run after a suite, last first: processes killed, sites closed, stores removed. */
type Cleanup = (() => Promise<unknown>)[];

/** A list of clean-up steps, run last first after the suite. */
function cleanupAfterAll(): Cleanup {
  const cleanup: Cleanup = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });
  return cleanup;
}

async function locationWithArgs(
  backend: TestBackend,
  cleanup: Cleanup,
): Promise<{ location: TestLocation; where: string[] }> {
  const location = await backend.create();
  cleanup.push(() => location.cleanup());
  const where = location.databaseUrl
    ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
    : ['--data-dir', location.dataDir];
  return { location, where };
}

async function serve(
  cleanup: Cleanup,
  where: string[],
  extra: string[] = [],
  leaseSeconds = LEASE_SECONDS,
): Promise<ServeProcess> {
  const process = await startServe([
    ...where,
    '--no-local-org',
    '--allow-local-targets',
    // The battery polls its runs faster than a client should; the rate limit is tested elsewhere.
    '--rate-limit',
    '100000',
    '--worker-lease-seconds',
    String(leaseSeconds),
    ...extra,
  ]);
  cleanup.push(() => process.stop('SIGKILL'));
  return process;
}

describe.each(testBackends())('process battery on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  const cleanup = cleanupAfterAll();

  test('kill -9 and then SIGTERM in the middle of runs: each run completes exactly once', async () => {
    const { location, where } = await locationWithArgs(backend, cleanup);
    const site = await slowSite(2500);
    cleanup.push(() => site.close());
    const key = await tenantOn(where, 10);
    let current = await serve(cleanup, where);
    const url = () => current.url;
    const project = await request<{ projectId: string }>(url(), '/api/v1/projects', {
      key,
      method: 'POST',
      json: { domain: site.host },
    });
    const start = async () =>
      (
        await request<{ runId: string }>(url(), '/api/v1/runs', {
          key,
          method: 'POST',
          json: { projectId: project.body.projectId },
        })
      ).body.runId;

    // kill -9 while the audit waits on the slow home page: the lease runs out and the next process takes it.
    const killed = await start();
    await waitForStatus(url, key, killed, (status) => status === 'running');
    current.child.kill('SIGKILL');
    await sleep(200);
    current = await serve(cleanup, where);
    expect(await waitForStatus(url, key, killed, (status) => TERMINAL.has(status))).toBe('completed');

    // SIGTERM: the run is given back at once (attempt not counted), and the next process completes it.
    const stopped = await start();
    await waitForStatus(url, key, stopped, (status) => status === 'running');
    const began = Date.now();
    expect(await current.stop('SIGTERM')).toBe(0);
    const stopMs = Date.now() - began;
    current = await serve(cleanup, where);
    expect(await waitForStatus(url, key, stopped, (status) => TERMINAL.has(status))).toBe('completed');
    const me = await request<{ credits: { remaining: number } }>(url(), '/api/v1/me', { key });
    await current.stop('SIGTERM');

    const store = await openStore(location);
    try {
      const [afterKill, afterTerm] = [await store.runs.getById(killed), await store.runs.getById(stopped)];
      console.log(
        `battery: processes on ${backend.name}: kill -9 mid-run -> completed in attempt ${afterKill?.attempts}; SIGTERM mid-run -> stopped in ${stopMs} ms, completed in attempt ${afterTerm?.attempts}`,
      );
      expect(afterKill?.attempts).toBe(2);
      expect(afterTerm?.attempts).toBe(1);
      for (const runId of [killed, stopped]) {
        expect((await eventsOf(store, runId)).filter((type) => type === 'run.completed')).toHaveLength(1);
      }
      expect(me.body.credits.remaining).toBe(10 - (afterKill?.credits_spent ?? 0) - (afterTerm?.credits_spent ?? 0));
      expect(stopMs).toBeLessThan(12_000);
    } finally {
      await store.close();
    }
  }, 120_000);

  // Found by the attack battery: a page that crashed its process was claimed again by every next
  // process (5 starts, 5 crashes, attempt 5 of 3 and still running).
  test('a run whose process dies in every attempt ends failed_auto_credit after the third, credits returned', async () => {
    const { location, where } = await locationWithArgs(backend, cleanup);
    const site = await slowSite(60_000);
    cleanup.push(() => site.close());
    const key = await tenantOn(where, 10);
    let current = await serve(cleanup, where);
    const url = () => current.url;
    const project = await request<{ projectId: string }>(url(), '/api/v1/projects', {
      key,
      method: 'POST',
      json: { domain: site.host },
    });
    const runId = (
      await request<{ runId: string }>(url(), '/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId: project.body.projectId },
      })
    ).body.runId;
    const store = await openStore(location);
    try {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const deadline = Date.now() + 30_000;
        while ((await store.runs.getById(runId))?.attempts !== attempt) {
          if (Date.now() > deadline) throw new Error(`attempt ${attempt} never started`);
          await sleep(100);
        }
        current.child.kill('SIGKILL');
        await sleep(200);
        current = await serve(cleanup, where);
      }
      expect(await waitForStatus(url, key, runId, (status) => TERMINAL.has(status))).toBe('failed_auto_credit');
      const me = await request<{ credits: { remaining: number } }>(url(), '/api/v1/me', { key });
      expect(me.body.credits.remaining).toBe(10);
      expect(await store.runs.getById(runId)).toMatchObject({ attempts: 3, status: 'failed_auto_credit' });
      expect(await eventsOf(store, runId)).toEqual(['run.failed']);
    } finally {
      await store.close();
      await current.stop('SIGTERM');
    }
  }, 120_000);
});

describe.each(testBackends().filter((backend) => backend.name === 'postgres'))('shared $name', (backend) => {
  const test = it.skipIf(!backend.available);
  const cleanup = cleanupAfterAll();

  test('three serve processes on one PostgreSQL run ten runs, each exactly once', async () => {
    const { location, where } = await locationWithArgs(backend, cleanup);
    const sites = await Promise.all(Array.from({ length: 10 }, () => slowSite(300)));
    cleanup.push(() => Promise.all(sites.map((site) => site.close())));
    const key = await tenantOn(where, 100);
    const processes = await Promise.all(
      [1, 2, 3].map(() => serve(cleanup, where, ['--worker-concurrency', '2'], STEADY_LEASE_SECONDS)),
    );
    const [first] = processes;
    if (!first) throw new Error('no serve');
    const runIds: string[] = [];
    for (const [n, site] of sites.entries()) {
      const via = processes[n % 3] ?? first;
      const project = await request<{ projectId: string }>(via.url, '/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain: site.host },
      });
      const run = await request<{ runId: string }>(via.url, '/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId: project.body.projectId },
      });
      runIds.push(run.body.runId);
    }
    const statuses = await Promise.all(
      runIds.map((runId) =>
        waitForStatus(
          () => first.url,
          key,
          runId,
          (status) => TERMINAL.has(status),
        ),
      ),
    );
    expect(statuses).toEqual(Array(10).fill('completed'));
    const homeHits = sites.map((site) => site.requests.filter((r) => r.path === '/').length);
    const me = await request<{ credits: { remaining: number } }>(first.url, '/api/v1/me', { key });
    for (const process of processes) expect(await process.stop('SIGTERM')).toBe(0);

    const store = await openStore(location);
    try {
      const rows = await Promise.all(runIds.map((runId) => store.runs.getById(runId)));
      const completions = await Promise.all(
        runIds.map(async (runId) => (await eventsOf(store, runId)).filter((type) => type === 'run.completed').length),
      );
      const spent = rows.reduce((sum, row) => sum + (row?.credits_spent ?? 0), 0);
      console.log(
        `battery: 3 serve processes on one PostgreSQL: 10 runs, attempts ${rows.map((r) => r?.attempts).join(',')}, run.completed events ${completions.join(',')}, home page fetched ${homeHits.join(',')} times per site`,
      );
      expect(rows.map((row) => row?.attempts)).toEqual(Array(10).fill(1));
      expect(completions).toEqual(Array(10).fill(1));
      // One audit per site: every site saw the same number of home-page fetches as the first.
      expect(new Set(homeHits).size).toBe(1);
      expect(me.body.credits.remaining).toBe(100 - spent);
    } finally {
      await store.close();
    }
  }, 120_000);

  test('three serve processes share the monitoring schedule: each switched-on project is checked once', async () => {
    const { where } = await locationWithArgs(backend, cleanup);
    const sites = await Promise.all(Array.from({ length: 6 }, () => slowSite(200)));
    cleanup.push(() => Promise.all(sites.map((site) => site.close())));
    const key = await tenantOn(where, 10);
    const processes = await Promise.all([1, 2, 3].map(() => serve(cleanup, where, [], STEADY_LEASE_SECONDS)));
    const projectIds: string[] = [];
    for (const [n, site] of sites.entries()) {
      const via = processes[n % 3] as ServeProcess;
      const project = await request<{ projectId: string }>(via.url, '/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain: site.host },
      });
      const on = await request(via.url, `/api/v1/projects/${project.body.projectId}/monitoring`, {
        key,
        method: 'PUT',
        json: { enabled: true },
      });
      expect(on.status).toBe(200);
      projectIds.push(project.body.projectId);
    }
    // Switching on checks at once (the process that answered is woken); the others look every 5 s.
    // After two of their looks, each project must still have exactly one check.
    const counts = async () =>
      Promise.all(
        projectIds.map(
          async (id, n) =>
            (
              await request<{ checks: unknown[] }>(
                (processes[(n + 1) % 3] as ServeProcess).url,
                `/api/v1/projects/${id}/monitoring/checks`,
                {
                  key,
                },
              )
            ).body.checks.length,
        ),
      );
    const deadline = Date.now() + 20_000;
    while ((await counts()).some((n) => n === 0) && Date.now() < deadline) await sleep(200);
    await sleep(11_000);
    const checks = await counts();
    const homeHits = sites.map((site) => site.requests.filter((r) => r.path === '/').length);
    console.log(
      `battery: 3 serve processes on one PostgreSQL monitoring 6 projects: checks ${checks.join(',')}, home page fetched ${homeHits.join(',')} times`,
    );
    expect(checks).toEqual(Array(6).fill(1));
    expect(homeHits).toEqual(Array(6).fill(1));
    for (const process of processes) expect(await process.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
