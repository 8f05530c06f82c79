// The dashboard pages behind every humanUrl: served over HTTP, escaped, and read in headless Chromium.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, FindingPage, type ReportContext, type Run } from '../../src/contract/index.ts';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { findingPage, runPage } from '../../src/service/dashboard/pages.ts';
import { testBackends } from '../support/backends.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const sqlite = testBackends()[0] as ReturnType<typeof testBackends>[number];
const PASSWORD = 'correct horse battery staple';

describe('dashboard pages', () => {
  let s: TestService;
  let site: FixtureSite;
  let key: string;
  let run: Run;
  let findings: Finding[];
  /** A signed-in member of the run's organization: the pages are theirs to read (issue 12). */
  let viewer: TestBrowser;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: html('<title>Shop</title>', '<h1>Shop</h1><img src="/a.png"><p>Short.</p>') },
    });
    s = await startTestService(sqlite, { allowLocalTargets: true });
    const tenant = await s.tenant();
    key = tenant.key;
    const owner = await createUser(s.store, { email: 'owner@example.com', name: 'Owner', password: PASSWORD });
    await addMember(s.store, owner.id, tenant.organizationId, 'owner');
    viewer = new TestBrowser(s.url);
    expect((await viewer.signIn('owner@example.com', PASSWORD)).status).toBe(303);
    const projectId = await s.createProject(key, site.host);
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    for (let i = 0; i < 200; i++) {
      run = (await s.request<Run>(`/api/v1/runs/${started.body.runId}`, { key })).body;
      if (run.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
  });
  afterAll(async () => {
    await s.close();
    await site.close();
  });

  it('serves the run report at its humanUrl, with no scripts allowed', async () => {
    expect(run.humanUrl).toBe(`${s.url}/runs/${run.runId}`);
    const res = await viewer.get(run.humanUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const body = res.html;
    expect(body).toContain(site.host);
    expect(body).not.toMatch(/<script/i);
    for (const finding of findings) expect(body).toContain(finding.findingId);
    // The project's monitoring page is one link away, served with the same headers.
    expect(body).toContain(`href="/projects/${run.projectId}/monitoring"`);
    const monitoring = await viewer.get(`/projects/${run.projectId}/monitoring`);
    expect(monitoring.status).toBe(200);
    expect(monitoring.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(monitoring.html).toContain('<strong>Off.</strong>');
  });

  it('serves each finding at its humanUrl', async () => {
    const finding = findings[0] as Finding;
    const res = await viewer.get(finding.humanUrl);
    expect(res.status).toBe(200);
    const body = res.html;
    expect(body).toContain('How to fix it');
    expect(body).toContain(finding.findingId);
    // The standard it cites, linked, and the line that checks the fix (issue 13).
    expect(finding.references?.length).toBeGreaterThan(0);
    expect(body).toContain(`<a href="${finding.references?.[0]?.url}" rel="noopener noreferrer">`);
    expect(body).toContain('<strong>Check the fix:</strong>');
  });

  it('shows the offending elements a finding names, from the API and on its page (issue 10)', async () => {
    const alt = findings.find((f) => f.title === 'Images without alt text') as Finding;
    expect(alt.evidence[0]).toEqual({
      type: 'page',
      url: `${site.origin}/`,
      summary: 'an <img> without alt: <img src=“/a.png”>',
      elements: [{ selector: 'body > img', snippet: '<img src="/a.png">', fingerprint: expect.stringMatching(/^fp_/) }],
      fingerprint: expect.stringMatching(/^fp_/),
    });
    const body = (await viewer.get(alt.humanUrl)).html;
    expect(body).toContain('<code>body &gt; img</code>');
    expect(body).toContain('<code>&lt;img src=&quot;/a.png&quot;&gt;</code>');
  });

  it('offers paste-ready fixes as suggestions to review, with a copy button (issue 13)', async () => {
    const identity = findings.find((f) => f.agentActions.some((a) => a.suggestion?.format === 'json-ld')) as Finding;
    expect(identity.title).toBe('No Organization identity in structured data');
    const action = identity.agentActions.find((a) => a.suggestion) as Finding['agentActions'][number];
    expect(action.suggestion).toMatchObject({ label: 'Organization JSON-LD', review: true });
    expect(action.description).toBe(
      `Suggestion to review (Organization JSON-LD, for the <head> of the home page):\n${action.suggestion?.content}`,
    );
    expect(
      JSON.parse(/<script[^>]*>([\s\S]*)<\/script>/.exec(action.suggestion?.content ?? '')?.[1] ?? ''),
    ).toMatchObject({
      '@type': 'Organization',
      name: 'Shop',
      // A local scan's starter names no local address (issue 25): a placeholder to replace.
      url: 'https://www.example.com/',
    });
    const res = await viewer.get(identity.humanUrl);
    // The copy button is the service's own script; nothing inline may run.
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.html).toContain('Suggested fix, ready to paste');
    expect(res.html).toContain('review it before applying');
    expect(res.html).toContain('<button type="button" data-copy="suggestion-0">Copy</button>');
    expect(res.html).toContain('<script src="/assets/copy.js"></script>');
    // A finding with no suggestion runs no script at all.
    const plain = findings.find((f) => f.agentActions.every((a) => !a.suggestion)) as Finding;
    expect((await viewer.get(plain.humanUrl)).html).not.toMatch(/<script/i);
  });

  it.each([
    '/runs/not-a-uuid',
    '/runs/0190f5a0-0000-7000-8000-000000000000',
    '/runs/RUN/findings/f_0000',
    '/runs/RUN/findings/nope',
  ])('answers 404 with a page for %s', async (path) => {
    const res = await viewer.get(path.replace('RUN', run.runId));
    expect(res.status).toBe(404);
    expect(res.html).toContain('Not found');
  });

  it('escapes text that came from audited pages', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const finding = {
      ...(findings[0] as Finding),
      title: hostile,
      detail: hostile,
      affectedUrls: ['javascript:alert(3)'],
      evidence: [{ type: 'page' as const, summary: hostile }],
      agentActions: [
        {
          type: 'remediation' as const,
          description: hostile,
          suggestion: { label: hostile, target: hostile, format: 'text', content: hostile, review: true as const },
        },
      ],
    };
    const report = JSON.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).text) as ReportContext;
    for (const rendered of [
      String(await runPage(run, { ...report, execSummary: hostile }, [finding], '/runs/x')),
      String(await findingPage(run, finding, '/runs/x')),
    ]) {
      expect(rendered).not.toContain('<script>alert');
      expect(rendered).not.toContain('<img src=x');
      expect(rendered).toContain('&lt;script&gt;');
      expect(rendered).not.toContain('href="javascript:');
    }
  });

  it('shows a run in flight with its progress and refreshes itself', async () => {
    const pending = await runPage(
      { ...run, status: 'running', progressPct: 40, currentStep: 'crawled 4 of up to 25 pages', completedAt: null },
      null,
      [],
      '/runs/x',
    );
    expect(String(pending)).toContain('http-equiv="refresh"');
    expect(String(pending)).toContain('<progress value="40"');
  });

  it('sends a visitor who is not signed in to sign in, and shows a signed-in stranger nothing', async () => {
    const visitor = new TestBrowser(s.url);
    // This service audits this machine's sites: the sign-in page names the command that opens the page signed in.
    const signIn = await visitor.open(`/runs/${run.runId}`);
    expect(signIn.html).toContain(`siteaudit dashboard &#39;${s.url}/runs/${run.runId}&#39;`);
    for (const path of [
      `/runs/${run.runId}`,
      `/runs/${run.runId}/findings/${findings[0]?.findingId}`,
      `/projects/${run.projectId}/monitoring`,
    ]) {
      const page = await visitor.get(path);
      expect(page.status, path).toBe(303);
      expect(page.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
    // Signed in to another workspace: the same 404 as a run that does not exist.
    const other = await s.createOrg({ name: 'Other' });
    const stranger = await createUser(s.store, { email: 'stranger@example.com', name: 'S', password: PASSWORD });
    await addMember(s.store, stranger.id, other.id, 'owner');
    const elsewhere = new TestBrowser(s.url);
    await elsewhere.signIn('stranger@example.com', PASSWORD);
    expect((await elsewhere.get(`/runs/${run.runId}`)).status).toBe(404);
    expect((await elsewhere.get(`/projects/${run.projectId}/monitoring`)).status).toBe(404);
    expect((await elsewhere.get(`/runs/${run.runId}/findings/${findings[0]?.findingId}`)).status).toBe(404);
  });

  it('lets an owner share one report by an unguessable link, and stop sharing it', async () => {
    const page = await viewer.get(run.humanUrl);
    expect(page.html).toContain('Make a share link');
    const made = await viewer.post(`/runs/${run.runId}/share`, { action: 'create' }, { from: page });
    expect(made.status).toBe(200);
    const link = /id="share-link" value="([^"]+)"/.exec(made.html)?.[1] as string;
    expect(link).toMatch(new RegExp(`^${s.url}/shared/[\\w-]{43}$`));
    const anyone = new TestBrowser(s.url);
    const shared = await anyone.get(link);
    expect(shared.status).toBe(200);
    expect(shared.html).toContain(site.host);
    // Its findings open under the share link; the workspace's other pages do not.
    const finding = findings[0] as Finding;
    expect(shared.html).toContain(`${new URL(link).pathname}/findings/${finding.findingId}`);
    expect((await anyone.get(`${link}/findings/${finding.findingId}`)).status).toBe(200);
    expect(shared.html).not.toContain('/monitoring');
    expect(shared.html).not.toContain('Make a share link');
    // A member who is not an owner cannot share.
    const member = await createUser(s.store, { email: 'member@example.com', name: 'M', password: PASSWORD });
    const me = await s.request<{ organizationId: string }>('/api/v1/me', { key });
    await addMember(s.store, member.id, me.body.organizationId, 'member');
    const memberBrowser = new TestBrowser(s.url);
    await memberBrowser.signIn('member@example.com', PASSWORD);
    const memberPage = await memberBrowser.get(run.humanUrl);
    expect(memberPage.status).toBe(200);
    expect(memberPage.html).not.toContain('Make a share link');
    expect(
      (await memberBrowser.post(`/runs/${run.runId}/share`, { action: 'create' }, { from: memberPage })).status,
    ).toBe(404);
    // Stopped: the link opens nothing.
    await viewer.post(`/runs/${run.runId}/share`, { action: 'stop' }, { from: await viewer.get(run.humanUrl) });
    expect((await anyone.get(link)).status).toBe(404);
    expect((await anyone.get('/shared/not-a-token')).status).toBe(404);
  });

  it.skipIf(!hasChromium)('reads well in headless Chromium, with no policy violations', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      await context.addCookies([...viewer.cookies].map(([name, value]) => ({ name, value, url: s.url })));
      const tab = await context.newPage();
      const violations: string[] = [];
      tab.on('console', (message) => {
        if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
      });
      await tab.goto(run.humanUrl);
      await expect(tab.locator('h1').first().innerText()).resolves.toBe(site.host);
      // A local scan: the page heads with what the score stands on, and its number is no larger than
      // the text around it (issue 24: a partial "100" was the largest thing on the page).
      await expect(tab.locator('#score-basis').innerText()).resolves.toMatch(
        /^Partial: \d+ of \d+ AI readiness checks evaluated$/,
      );
      await expect(tab.locator('.score').count()).resolves.toBe(0);
      const sizes = await tab.evaluate(
        "[document.querySelector('#score-basis + .card strong'), document.body].map((e) => parseFloat(getComputedStyle(e).fontSize))",
      );
      expect((sizes as number[])[0]).toBeLessThanOrEqual((sizes as number[])[1] as number);
      await expect(tab.locator('article.finding').count()).resolves.toBe(findings.length);
      // The stylesheet applied (its hash is allowed by the policy): severity badges are coloured.
      const background = await tab.evaluate("getComputedStyle(document.querySelector('.badge')).backgroundColor");
      expect(background).not.toBe('rgba(0, 0, 0, 0)');
      const shot = join(mkdtempSync(join(tmpdir(), 'siteaudit-shot-')), 'report.png');
      await tab.screenshot({ path: shot, fullPage: true });
      await tab.locator('article.finding h3 a').first().click();
      await expect(tab.locator('h2').first().innerText()).resolves.toBe('How to fix it');
      // A suggestion's copy button runs under the page's policy and copies the text (or selects it).
      const identity = findings.find((f) => f.agentActions.some((a) => a.suggestion)) as Finding;
      await tab.goto(identity.humanUrl);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
      await tab.locator('[data-copy="suggestion-0"]').click();
      // The copy is asynchronous: wait for the script to say how it went, then check what it said.
      const state = tab.locator('#suggestion-0-state').filter({ hasText: /\S/ });
      await state.waitFor();
      await expect(state.innerText()).resolves.toMatch(/Copied|Press Ctrl\+C/);
      const copied = await tab.evaluate('navigator.clipboard.readText().catch(() => getSelection().toString())');
      expect(copied).toBe(identity.agentActions.find((a) => a.suggestion)?.suggestion?.content);
      expect(violations).toEqual([]);
      process.stderr.write(`dashboard screenshot: ${shot}\n`);
    } finally {
      await browser.close();
    }
  });
});
