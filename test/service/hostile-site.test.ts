// Issue 22: while the service audits a site made of pathological inputs, the same process keeps
// answering (/healthz and the API with p99 under 100 ms) and keeps its lease on the run, and the
// audit completes on its first attempt. The budget is the issue's; the figures behind it are in
// docs/benchmarks.md ("Hostile site", `npm run bench -- hostile`). The site is served from a thread
// of its own: its TLS over 8 MB of pages is the attacker's work, not the service's, and on this
// process's event loop it would be counted against the service's budget.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindingPage, type Run } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { BOMB_PATH, HOSTILE_HOST, type HostileSiteApart, startHostileSiteApart } from '../support/hostile-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

const BUDGET_P99_MS = 100;
const LEASE_MS = 4000;

const sqlite = testBackends().find((b) => b.name === 'sqlite');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

describe('a hostile site cannot stall the service', () => {
  let hostile: HostileSiteApart;
  let s: TestService;

  beforeAll(async () => {
    if (!sqlite) throw new Error('no sqlite backend');
    hostile = await startHostileSiteApart();
    s = await startTestService(sqlite, {
      allowLocalTargets: true,
      worker: { pollMs: 50, leaseMs: LEASE_MS, engine: hostile.engine },
    });
  });
  afterAll(async () => {
    await s?.close();
    await hostile?.close();
  });

  it('answers /healthz and the API within budget, keeps the lease, and completes the audit', async () => {
    const { key } = await s.tenant();
    const projectId = await s.createProject(key, HOSTILE_HOST);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    expect(started.status).toBe(202);
    const runId = started.body.runId;

    const health: number[] = [];
    const api: number[] = [];
    const lapses: string[] = [];
    let run = started.body;
    // Ask as a client would, every 10 ms, until the run ends; note every moment the lease had lapsed.
    for (let i = 0; i < 6000 && (run.status === 'pending' || run.status === 'running'); i++) {
      let t = performance.now();
      const ok = await s.request('/healthz');
      health.push(performance.now() - t);
      expect(ok.status).toBe(200);
      t = performance.now();
      run = (await s.request<Run>(`/api/v1/runs/${runId}`, { key })).body;
      api.push(performance.now() - t);
      const row = await s.store.db
        .selectFrom('runs')
        .select(['status', 'lease_expires_at'])
        .where('id', '=', runId)
        .executeTakeFirst();
      if (row?.status === 'running' && row.lease_expires_at && Date.parse(row.lease_expires_at) < Date.now())
        lapses.push(row.lease_expires_at);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    delay.disable();
    const figures = {
      healthzP99: percentile(health, 99),
      apiP99: percentile(api, 99),
      loopDelayP99: delay.percentile(99) / 1e6,
      loopDelayMax: delay.max / 1e6,
      samples: health.length,
    };
    console.error('FIGURES', JSON.stringify(figures));
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(figures.healthzP99, JSON.stringify(figures)).toBeLessThan(BUDGET_P99_MS);
    expect(figures.apiP99, JSON.stringify(figures)).toBeLessThan(BUDGET_P99_MS);
    expect(lapses).toEqual([]);
    const attempts = await s.store.db.selectFrom('runs').select('attempts').where('id', '=', runId).executeTakeFirst();
    expect(attempts?.attempts).toBe(1);

    // The audit read the site: the wildcard rule was applied to the path it names, and the huge
    // pages were judged.
    const findings = FindingPage.parse((await s.request(`/api/v1/runs/${runId}/findings?limit=100`, { key })).body);
    expect(findings.findings.length).toBeGreaterThan(0);
    const requests = await hostile.requests();
    expect(requests.some((r) => r.path === `${BOMB_PATH}b`)).toBe(false);
    expect(requests.some((r) => r.path === BOMB_PATH)).toBe(true);
    expect(requests.some((r) => r.path === '/links')).toBe(true);
  });
});
