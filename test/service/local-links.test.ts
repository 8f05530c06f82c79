// Report links of the local service (issue 24; docs/decisions.md, "Local report links"): a humanUrl
// given to the local key opens its page in this machine's browser with no password, and gives
// nothing to anyone else: another key, another path, another Host, another machine, a deployment.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, ReportContext, Run } from '../../src/contract/index.ts';
import { issueKey } from '../../src/service/api-keys.ts';
import { ACCESS_PARAM, isLoopbackAddress, isLoopbackHost } from '../../src/service/local-links.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { requestFrom } from '../support/raw-http.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** An address of this machine that is not loopback, when it has one (connections from it are not local). */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const sessionCookie = (headers: Headers) =>
  headers.getSetCookie().find((c) => c.startsWith('siteaudit_session=') && !/Max-Age=0/i.test(c));

async function waitForRun(s: TestService, key: string, runId: string): Promise<Run> {
  for (let i = 0; i < 300; i++) {
    const run = (await s.request<Run>(`/api/v1/runs/${runId}`, { key })).body;
    if (run.status !== 'pending' && run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not end`);
}

describe.each(testBackends())('local report links ($name)', (backend) => {
  let s: TestService;
  let site: FixtureSite;
  let localKey: string;
  let otherKey: string;
  let run: Run;
  let projectId: string;

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({ '/': { body: html('<title>Shop</title>', '<h1>Shop</h1><img src="/a.png">') } });
    s = await startTestService(backend, { allowLocalTargets: true, localLinks: true });
    const org = await s.createOrg({ name: 'Local' });
    localKey = (await issueKey(s.store, s.kek, { organizationId: org.id, name: 'Local key', source: 'local' })).secret;
    otherKey = await s.createKey(org.id);
    projectId = await s.createProject(localKey, site.host);
    const started = await s.request<Run>('/api/v1/runs', { key: localKey, method: 'POST', json: { projectId } });
    // The 202 of a run just started is the first link an agent shares (start_run).
    expect(started.status).toBe(202);
    expect(new URL(started.body.humanUrl).searchParams.get(ACCESS_PARAM)).toMatch(/^[\w-]{43}$/);
    run = await waitForRun(s, localKey, started.body.runId);
    expect(run.status).toBe('completed');
  });
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });

  it.skipIf(!backend.available)('gives the local key links with a token, and other keys plain ones', async () => {
    const path = `/runs/${run.runId}`;
    const linked = new URL(run.humanUrl);
    expect(`${linked.origin}${linked.pathname}`).toBe(`${s.url}${path}`);
    expect(linked.searchParams.get(ACCESS_PARAM)).toMatch(/^[\w-]{43}$/);

    const report = (
      await s.request<ReportContext>(`${path}/report`.replace('/runs', '/api/v1/runs'), { key: localKey })
    ).body;
    expect(new URL(report.humanUrl).searchParams.get(ACCESS_PARAM)).toBe(linked.searchParams.get(ACCESS_PARAM));
    const findings = (await s.request<{ findings: Finding[] }>(`/api/v1/runs/${run.runId}/findings`, { key: localKey }))
      .body.findings;
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      const url = new URL(finding.humanUrl);
      expect(url.pathname).toBe(`${path}/findings/${finding.findingId}`);
      expect(url.searchParams.get(ACCESS_PARAM)).toMatch(/^[\w-]{43}$/);
    }
    const monitoring = await s.request<{ humanUrl: string }>(`/api/v1/projects/${projectId}/monitoring`, {
      key: localKey,
    });
    expect(new URL(monitoring.body.humanUrl).searchParams.has(ACCESS_PARAM)).toBe(true);

    // A key of anyone else (an admin's, a teammate's) gets the member-only address, as on a deployment.
    const plain = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key: otherKey })).body;
    expect(plain.humanUrl).toBe(`${s.url}${path}`);
    const plainReport = (await s.request<ReportContext>(`/api/v1/runs/${run.runId}/report`, { key: otherKey })).body;
    expect(plainReport.humanUrl).toBe(`${s.url}${path}`);
  });

  it.skipIf(!backend.available)(
    'opens the report in a fresh browser on this machine, and drops the token',
    async () => {
      const browser = new TestBrowser(s.url);
      const first = await browser.get(run.humanUrl);
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe(`/runs/${run.runId}`);
      expect(first.headers.get('referrer-policy')).toBe('no-referrer');
      const page = await browser.open(`/runs/${run.runId}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(site.host);
      // The session is the local person's: the project and a finding open too.
      expect((await browser.get(`/projects/${projectId}/monitoring`)).status).toBe(200);
    },
  );

  it.skipIf(!backend.available)('opens a finding link the same way', async () => {
    const findings = (await s.request<{ findings: Finding[] }>(`/api/v1/runs/${run.runId}/findings`, { key: localKey }))
      .body.findings;
    const finding = findings[0] as Finding;
    const browser = new TestBrowser(s.url);
    const page = await browser.open(finding.humanUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain(finding.findingId);
  });

  it.skipIf(!backend.available)(
    'refuses a token of another page, a changed token, and a Host of another name',
    async () => {
      const token = new URL(run.humanUrl).searchParams.get(ACCESS_PARAM) as string;
      const tries = [
        `/projects/${projectId}/monitoring?${ACCESS_PARAM}=${token}`,
        `/runs/${run.runId}?${ACCESS_PARAM}=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
        `/runs/${run.runId}?${ACCESS_PARAM}=`,
      ];
      for (const path of tries) {
        const res = await fetch(`${s.url}${path}`, { redirect: 'manual' });
        expect(res.status, path).toBe(303);
        expect(res.headers.get('location'), path).toMatch(/^\/sign-in\?next=/);
        expect(sessionCookie(res.headers), path).toBeUndefined();
      }
      // A page of another site whose name was rebound to 127.0.0.1 reaches the service with its own Host.
      const { port } = new URL(s.url);
      const rebound = await requestFrom('127.0.0.1', `${s.url}/runs/${run.runId}?${ACCESS_PARAM}=${token}`, {
        headers: { host: `attacker.example:${port}` },
      });
      expect(rebound.status).toBe(403);
      expect(rebound.headers['set-cookie'] ?? []).toEqual([]);
    },
  );

  it.skipIf(!backend.available || !outsideAddress)(
    'gives no access from another machine, even on a service that issues local links',
    async () => {
      const local = await startTestService(backend, {
        host: '0.0.0.0',
        localLinks: true,
        location: s.location,
        worker: false,
      });
      try {
        const link = new URL(run.humanUrl);
        const res = await fetch(`http://${outsideAddress}:${new URL(local.url).port}${link.pathname}${link.search}`, {
          redirect: 'manual',
        });
        expect(res.status).toBe(403);
        expect(sessionCookie(res.headers)).toBeUndefined();
      } finally {
        await local.close();
      }
    },
  );

  it.skipIf(!backend.available)(
    'gives no access on a hosted deployment, from another address or from loopback',
    async () => {
      // The same store behind a deployment: it reads no token and issues none.
      const hosted = await startTestService(backend, { host: '0.0.0.0', location: s.location, worker: false });
      try {
        const link = new URL(run.humanUrl);
        const { port } = new URL(hosted.url);
        const origins = [`http://127.0.0.1:${port}`, ...(outsideAddress ? [`http://${outsideAddress}:${port}`] : [])];
        for (const origin of origins) {
          const res = await fetch(`${origin}${link.pathname}${link.search}`, { redirect: 'manual' });
          expect(res.status, origin).toBe(303);
          expect(res.headers.get('location'), origin).toBe(`/sign-in?next=${encodeURIComponent(link.pathname)}`);
          expect(sessionCookie(res.headers), origin).toBeUndefined();
        }
        const given = (await hosted.request<Run>(`/api/v1/runs/${run.runId}`, { key: localKey })).body;
        expect(given.humanUrl).toBe(`${hosted.url}/runs/${run.runId}`);
      } finally {
        await hosted.close();
      }
    },
  );
});

describe('loopback checks', () => {
  it('knows this machine by its addresses and names only', () => {
    for (const a of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', '', undefined, '0.0.0.0', '::'])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    for (const h of ['127.0.0.1:8787', 'localhost:1', 'LOCALHOST', '[::1]:8787'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['attacker.example:8787', 'localhost.attacker.example', '127.0.0.1.nip.io', '', undefined])
      expect(isLoopbackHost(h), String(h)).toBe(false);
  });
});

describe('a local link token', () => {
  it('is the run’s: its report and its findings’ pages share one, another run or project has its own', async () => {
    const { LocalLinks } = await import('../../src/service/local-links.ts');
    const links = new LocalLinks('secret');
    const run = '/runs/01a22000-0000-7000-8000-000000000001';
    expect(links.tokenFor(`${run}/findings/f_0000000000000001`)).toBe(links.tokenFor(run));
    expect(links.valid(`${run}/findings/f_0000000000000002`, links.tokenFor(run))).toBe(true);
    expect(links.tokenFor('/runs/01a22000-0000-7000-8000-000000000002')).not.toBe(links.tokenFor(run));
    expect(links.valid('/projects/01a22000-0000-7000-8000-000000000001', links.tokenFor(run))).toBe(false);
  });
});
