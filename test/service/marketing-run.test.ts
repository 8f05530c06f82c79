// A marketing_signal run end to end through the API, on both backends, and the project's marketing
// report (spec 4.8) that follows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketingSignalReport, type Run } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.each(testBackends())('marketing_signal runs on $name', (backend) => {
  let s: TestService;
  let site: FixtureSite;
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({
      '/': {
        body: html(
          '<title>Acme garden tools for small farms</title>',
          `<main><h1>Garden tools for small farms</h1><p>${'Forged by hand. '.repeat(20)}</p><a href="/contact">Contact us</a></main>`,
        ),
      },
    });
    s = await startTestService(backend, { allowLocalTargets: true });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await site.close();
  });

  test('completes, and becomes the project’s marketing report', async () => {
    const { key } = await s.tenant();
    const projectId = await s.createProject(key, site.host);
    expectError(await s.request(`/api/v1/projects/${projectId}/marketing/report`, { key }), 404, 'no_marketing_run');
    const started = await s.request<Run>('/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId, scanMode: 'paid_marketing_signal_v2' },
    });
    expect(started.body).toMatchObject({ product: 'marketing_signal', scanMode: 'paid_marketing_signal_v2' });
    let run = started.body;
    for (let i = 0; i < 200 && ['pending', 'running'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
    }
    expect(run.status).toBe('completed');
    const report = MarketingSignalReport.parse(
      (await s.request(`/api/v1/projects/${projectId}/marketing/report`, { key })).body,
    );
    expect(report).toMatchObject({ runId: run.runId, product: 'marketing_signal', sourceCoverage: 'public_only' });
    expect(report.stageScores).toHaveLength(5);
    const sameAsRun = MarketingSignalReport.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    expect(sameAsRun).toEqual(report);
  });
});
