// A recheck of one finding (issue 26): the real service on both backends audits a fixture site with
// two defects, one is fixed, and POST /runs/{id}/recheck re-runs only the finding's checks on its
// pages: pass for the fixed one, fail with evidence for the other; a dev server on this machine is
// allowed where local targets are; no credits are spent and nothing stored changes; its own rate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, FindingPage, type KeyContext, RecheckResult, type Run } from '../../src/contract/index.ts';
import { RECHECKS_PER_MINUTE } from '../../src/service/routes/recheck.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

const TEXT = `<p>${'Stoneware mugs, thrown and glazed by hand in our workshop by the river. '.repeat(6)}</p>`;
const BROKEN = html('<title>Mugs from the mill</title>', `<main><h1>Mugs</h1>${TEXT}<img src="/mug.jpg"></main>`);
const ONE_FIXED = html(
  '<title>Mugs from the mill</title>',
  `<main><h1>Mugs</h1>${TEXT}<img src="/mug.jpg" alt="A blue mug"></main>`,
);

type ErrorBody = { error: { code: string; message: string } };

describe.each(testBackends())('rechecking a finding on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let site: FixtureSite;
  let dev: FixtureSite;
  let key: string;
  let organizationId: string;
  let run: Run;
  let findings: Finding[];
  const byCheck = (id: string) => findings.find((f) => f.checkId === id) as Finding;
  const recheck = (body: unknown, withKey = key) =>
    s.request(`/api/v1/runs/${run.runId}/recheck`, { key: withKey, method: 'POST', json: body });

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({ '/': { body: BROKEN } });
    dev = await startFixtureSite({ '/': { body: ONE_FIXED } });
    s = await startTestService(backend, { allowLocalTargets: true, monitor: false });
    ({ organizationId, key } = await s.tenant());
    const projectId = await s.createProject(key, site.host);
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    for (let i = 0; i < 300; i++) {
      run = (await s.request<Run>(`/api/v1/runs/${started.body.runId}?waitSeconds=2`, { key })).body;
      if (run.status !== 'pending' && run.status !== 'running') break;
    }
    findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    site.routes.set('/', { body: ONE_FIXED });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await site?.close();
    await dev?.close();
  });

  test('passes the fixed finding and fails the other with its evidence, spending nothing, changing nothing', async () => {
    const credits = async () => (await s.request<KeyContext>('/api/v1/me', { key })).body.credits;
    const before = await credits();
    const fixed = await recheck({ findingId: byCheck('image-alt').findingId });
    expect(fixed.status, fixed.text).toBe(200);
    const pass = RecheckResult.parse(fixed.body);
    expect(pass.checkIds).toEqual(['image-alt']);
    expect(pass.results).toMatchObject([{ url: `${site.origin}/`, status: 'pass', evidence: [] }]);
    const remaining = byCheck('meta-description');
    const still = RecheckResult.parse((await recheck({ fingerprint: remaining.fingerprint })).body);
    expect(still.findingId).toBe(remaining.findingId);
    expect(still.results[0]?.status).toBe('fail');
    expect(still.results[0]?.evidence[0]?.url).toBe(`${site.origin}/`);
    expect(still.note).toMatch(/changes no stored run or finding/);
    expect(before?.remaining).toBeGreaterThan(0);
    expect(await credits()).toEqual(before);
    const after = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    expect(after).toEqual(findings);
  });

  test('judges a dev server on this machine where local targets are allowed', async () => {
    const res = await recheck({ findingId: byCheck('image-alt').findingId, urls: [`${dev.origin}/`] });
    expect(res.status, res.text).toBe(200);
    expect(RecheckResult.parse(res.body).results).toMatchObject([{ url: `${dev.origin}/`, status: 'pass' }]);
  });

  test('refuses another site, too many URLs, an unnamed or unknown finding, and a key without runs:write', async () => {
    const id = byCheck('image-alt').findingId;
    const elsewhere = await recheck({ findingId: id, urls: ['https://elsewhere.example/'] });
    expect(elsewhere.status).toBe(400);
    expect((elsewhere.body as ErrorBody).error).toMatchObject({ code: 'validation_failed' });
    expect((elsewhere.body as ErrorBody).error.message).toMatch(/elsewhere\.example.*neither on/);
    const six = Array.from({ length: 6 }, (_, i) => `${site.origin}/p${i}`);
    expect((await recheck({ findingId: id, urls: six })).status).toBe(400);
    expect((await recheck({})).status).toBe(400);
    expect((await recheck({ findingId: id, fingerprint: 'fp_0' })).status).toBe(400);
    const unknown = await recheck({ findingId: 'f_0123456789abcdef' });
    expect(unknown.status).toBe(404);
    expect((unknown.body as ErrorBody).error.code).toBe('not_found');
    const readOnly = await s.createKey(organizationId, { scopes: ['runs:read', 'findings:read'] });
    const refused = await recheck({ findingId: id }, readOnly);
    expect(refused.status).toBe(403);
    expect((refused.body as ErrorBody).error.code).toBe('insufficient_scope');
    const bad = await s.request(`/api/v1/runs/${run.runId}/recheck`, { key, method: 'POST', body: '{' });
    expect((bad.body as ErrorBody).error.code).toBe('invalid_json');
  });

  test(`has a rate of its own: ${RECHECKS_PER_MINUTE} a minute per organization, then 429 with Retry-After`, async () => {
    const { key: other } = await s.tenant();
    const projectId = await s.createProject(other, dev.host);
    const started = await s.request<Run>('/api/v1/runs', { key: other, method: 'POST', json: { projectId } });
    let theirs = started.body;
    for (let i = 0; i < 300 && theirs.status !== 'completed'; i++)
      theirs = (await s.request<Run>(`/api/v1/runs/${started.body.runId}?waitSeconds=2`, { key: other })).body;
    const page = FindingPage.parse(
      (await s.request(`/api/v1/runs/${theirs.runId}/findings?limit=100`, { key: other })).body,
    );
    const findingId = (page.findings[0] as Finding).findingId;
    const statuses: number[] = [];
    for (let i = 0; i <= RECHECKS_PER_MINUTE; i++) {
      const res = await s.request(`/api/v1/runs/${theirs.runId}/recheck`, {
        key: other,
        method: 'POST',
        json: { findingId },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((res.body as ErrorBody).error.code).toBe('rate_limited');
      }
    }
    // A minute boundary may fall inside the loop: at most one 200 more, never none refused.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(RECHECKS_PER_MINUTE - 1);
  }, 120_000);
});
