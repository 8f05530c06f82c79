// A run against a baseline (issue 26): the real service on both backends audits a fixture site with
// two defects, one is fixed, it audits again; the comparison matches findings by fingerprint and
// says notFound (never "resolved", spec 2.5), with the score change; runs list by product; bad
// baselines get clear errors in the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, FindingPage, type Run, RunComparison, RunList } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

const TEXT = `<p>${'Stoneware mugs, thrown and glazed by hand in our workshop by the river. '.repeat(6)}</p>`;
/** Two defects: an image without alt text and no meta description. */
const BROKEN = html('<title>Mugs from the mill</title>', `<main><h1>Mugs</h1>${TEXT}<img src="/mug.jpg"></main>`);
/** The image fixed; the description still missing. */
const ONE_FIXED = html(
  '<title>Mugs from the mill</title>',
  `<main><h1>Mugs</h1>${TEXT}<img src="/mug.jpg" alt="A blue mug"></main>`,
);

describe.each(testBackends())('comparing runs on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let site: FixtureSite;
  let key: string;
  let projectId: string;
  let first: Run;
  let second: Run;

  async function audit(scanMode?: string): Promise<Run> {
    const json = scanMode ? { projectId, scanMode } : { projectId };
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json });
    expect(started.status, started.text).toBe(202);
    for (let i = 0; i < 300; i++) {
      const run = (await s.request<Run>(`/api/v1/runs/${started.body.runId}?waitSeconds=2`, { key })).body;
      if (run.status !== 'pending' && run.status !== 'running') return run;
    }
    throw new Error('the audit did not end');
  }
  const findings = async (run: Run): Promise<Finding[]> =>
    FindingPage.parse((await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body).findings;

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({ '/': { body: BROKEN } });
    s = await startTestService(backend, { allowLocalTargets: true, monitor: false });
    ({ key } = await s.tenant());
    projectId = await s.createProject(key, site.host);
    first = await audit();
    site.routes.set('/', { body: ONE_FIXED });
    second = await audit();
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });

  test('matches the defect still there and says the fixed one was not found, with the score change', async () => {
    expect([first.status, second.status]).toEqual(['completed', 'completed']);
    const res = await s.request(`/api/v1/runs/${second.runId}/comparison`, { key });
    expect(res.status, res.text).toBe(200);
    const comparison = RunComparison.parse(res.body);
    expect(comparison.baselineRunId).toBe(first.runId);
    const byCheck = (id: string) => comparison.findings.find((f) => f.checkId === id);
    expect(byCheck('image-alt')?.comparison).toBe('notFound');
    expect(byCheck('image-alt')?.runId).toBe(first.runId);
    expect(byCheck('image-alt')?.instances).toEqual({ new: 0, persisting: 0, notFound: 1 });
    const description = byCheck('meta-description');
    expect(description?.comparison).toBe('persisting');
    expect(description?.instances.persisting).toBe(1);
    // The same fingerprint in both runs, under two findingIds (spec 2.5: ids are per run).
    const [before, after] = [await findings(first), await findings(second)];
    const old = before.find((f) => f.checkId === 'meta-description');
    const now = after.find((f) => f.checkId === 'meta-description');
    expect(now?.fingerprint).toBe(old?.fingerprint);
    expect(now?.findingId).not.toBe(old?.findingId);
    expect(description?.baselineFindingId).toBe(old?.findingId);
    expect(comparison.counts.notFound).toBeGreaterThanOrEqual(1);
    expect(comparison.counts.new).toBe(0);
    expect(comparison.score).toEqual({
      current: second.score,
      baseline: first.score,
      change: (second.score ?? 0) - (first.score ?? 0),
    });
    expect(comparison.note).toMatch(/not a resolution/);
    expect(JSON.stringify(comparison)).not.toMatch(/"resolved"/);
    // Stored findings never change status because of a later run.
    expect(before.every((f) => f.status === 'open')).toBe(true);
  });

  test('takes any completed run of the project and product as the baseline, itself included', async () => {
    const res = await s.request(`/api/v1/runs/${second.runId}/comparison?baseline=${second.runId}`, { key });
    const comparison = RunComparison.parse(res.body);
    expect(comparison.counts.new).toBe(0);
    expect(comparison.counts.notFound).toBe(0);
    expect(comparison.score.change).toBe(0);
  });

  test('answers a run with no earlier run, a malformed, unknown or foreign baseline with a clear error', async () => {
    const none = await s.request<{ error: { code: string } }>(`/api/v1/runs/${first.runId}/comparison`, { key });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('no_baseline');
    const malformed = await s.request<{ error: { code: string } }>(
      `/api/v1/runs/${second.runId}/comparison?baseline=last-week`,
      { key },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('validation_failed');
    const unknown = await s.request<{ error: { code: string } }>(
      `/api/v1/runs/${second.runId}/comparison?baseline=00000000-0000-4000-8000-000000000000`,
      { key },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    // Another organization's run is not found, not a mismatch: its existence is not disclosed.
    const other = await s.tenant();
    const theirs = await s.request<{ error: { code: string } }>(
      `/api/v1/runs/${second.runId}/comparison?baseline=${first.runId}`,
      { key: other.key },
    );
    expect(theirs.status).toBe(404);
    const security = await audit('paid_website_security');
    const mismatch = await s.request<{ error: { code: string } }>(
      `/api/v1/runs/${second.runId}/comparison?baseline=${security.runId}`,
      { key },
    );
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe('baseline_mismatch');
  }, 60_000);

  test('lists a project’s runs of one product, newest first', async () => {
    const res = await s.request(`/api/v1/runs?projectId=${projectId}&product=ai_readiness`, { key });
    const list = RunList.parse(res.body);
    expect(list.runs.map((r) => r.runId)).toEqual([second.runId, first.runId]);
    const bad = await s.request<{ error: { code: string } }>('/api/v1/runs?product=seo', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
  });
});
