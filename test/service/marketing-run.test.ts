// A marketing_signal run end to end through the API, on both backends, and the project's marketing
// report (spec 4.8) that follows it. Issue 25: what a local scan's findings carry (evidence on every
// one, an Organization JSON-LD starter with no local address in it) and a documentation site read
// as one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindingPage, MarketingSignalReport, type Run } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.each(testBackends())('marketing_signal runs on $name', (backend) => {
  let s: TestService;
  let site: FixtureSite;
  let docs: FixtureSite;
  const test = it.skipIf(!backend.available);

  /** Starts a marketing run on a new project for the host and waits for it. */
  const runFor = async (key: string, host: string) => {
    const projectId = await s.createProject(key, host);
    let run = (
      await s.request<Run>('/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId, scanMode: 'paid_marketing_signal_v2' },
      })
    ).body;
    for (let i = 0; i < 200 && ['pending', 'running'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
    }
    expect(run.status).toBe('completed');
    return run;
  };

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
    docs = await startFixtureSite({
      '/': {
        body: html(
          '<meta name="generator" content="Docusaurus v3.1.1"><title>Relay Kit | Typed messaging</title>',
          `<div id="__docusaurus"><nav><a href="/docs/intro">Docs</a> <a href="/docs/api">API</a></nav><main><h1>Relay Kit</h1><p>${'Typed messages between edge functions. '.repeat(10)}</p><a href="/docs/intro">Tutorial - 5min</a></main></div>`,
        ),
      },
    });
    s = await startTestService(backend, { allowLocalTargets: true });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await site.close();
    await docs.close();
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

  test('gives every finding of a local scan evidence, and no local address in the suggested JSON-LD', async () => {
    const { key } = await s.tenant();
    const run = await runFor(key, site.host);
    const page = FindingPage.parse((await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body);
    expect(page.findings.length).toBeGreaterThan(0);
    expect(page.findings.filter((f) => f.evidence.length === 0).map((f) => f.title)).toEqual([]);
    const schema = page.findings.find((f) => f.title === 'Search engines cannot read who the business is');
    const suggested = schema?.agentActions.find((a) => a.suggestion)?.suggestion?.content ?? '';
    expect(suggested).toContain('"url": "https://www.example.com/"');
    expect(suggested).toContain('<!-- Replace https://www.example.com/');
    expect(suggested).not.toContain('127.0.0.1');
  });

  test('reads a documentation site as one: no pricing or sales call to action asked, and the report says so', async () => {
    const { key } = await s.tenant();
    const run = await runFor(key, docs.host);
    const report = MarketingSignalReport.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    expect(report.execSummary).toContain('Read as a documentation site (generator “Docusaurus v3.1.1”');
    // The kind is in the report's data too, with what decided it.
    expect(report.siteKind?.kind).toBe('documentation');
    expect(report.siteKind?.signals.join(' ')).toContain('Docusaurus');
    const rows = new Map(report.checks?.rows.map((r) => [r.id, r]));
    for (const id of ['mk-pricing-visible', 'mk-call-to-action']) {
      expect(rows.get(id)?.status, id).toBe('info');
      expect(rows.get(id)?.detail, id).toMatch(/^not asked of a documentation site/);
    }
    const page = FindingPage.parse((await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body);
    expect(page.findings.map((f) => f.title)).not.toContain('Pricing is hidden');
    expect(page.findings.map((f) => f.title)).not.toContain('No clear call to action');
  });
});
