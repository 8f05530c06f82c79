// The person's side of the dashboard (issue 24): a project page with its audits and score trend per
// product, a navigation bar, report filters, the monitoring switch, dates and statuses in words, and
// pages that fit a phone. The real service over HTTP on both backends, then Chromium at 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, FindingPage, type Monitoring, notEvaluatedText, type Run } from '../../src/contract/index.ts';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { type ProjectRunSummary, projectPage } from '../../src/service/dashboard/project-page.ts';
import { trendText } from '../../src/service/dashboard/trend-chart.ts';
import { dateText, relativeText } from '../../src/service/dashboard/words.ts';
import { testBackends } from '../support/backends.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { type Page, TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** An address no line of a phone holds, on the audited site: the pages must wrap it. */
const LONG_PATH = `/${'a-very-long-page-address-without-any-break'.repeat(6)}`;

/** The text a person sees: the page without its tags, attributes and stylesheet. */
function visibleText(page: string): string {
  const withoutStyle = page.slice(0, page.indexOf('<style>')) + page.slice(page.indexOf('</style>') + 8);
  let text = '';
  let inTag = false;
  for (const ch of withoutStyle) {
    if (ch === '<') inTag = true;
    else if (ch === '>') inTag = false;
    else if (!inTag) text += ch;
  }
  return text;
}

const poorHome = html(
  '<title>Mill</title>',
  `<h1>Mill</h1><img src="/a.png"><img src="/b.png"><p>Short.</p><a href="${LONG_PATH}">more</a>`,
);
const betterHome = html(
  '<title>Mill: flour and bread</title><meta name="description" content="Stone-ground flour and bread, baked daily.">',
  `<main><h1>Mill</h1><img src="/a.png" alt="The mill"><p>${'Stone-ground flour and bread, baked daily in the old mill by the river. '.repeat(8)}</p><a href="${LONG_PATH}">more</a></main>`,
);

describe.each(testBackends())('the project page and the report pages on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let site: FixtureSite;
  let key: string;
  let organizationId: string;
  let projectId: string;
  let runs: Run[];
  let findings: Finding[];
  let owner: TestBrowser;
  let member: TestBrowser;

  async function audit(): Promise<Run> {
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    expect(started.status, started.text).toBe(202);
    for (let i = 0; i < 300; i++) {
      const run = (await s.request<Run>(`/api/v1/runs/${started.body.runId}?waitSeconds=2`, { key })).body;
      if (run.status !== 'pending' && run.status !== 'running') return run;
    }
    throw new Error('the audit did not end');
  }

  async function person(email: string, role: 'owner' | 'member'): Promise<TestBrowser> {
    const user = await createUser(s.store, { email, name: email, password: PASSWORD });
    await addMember(s.store, user.id, organizationId, role);
    const browser = new TestBrowser(s.url);
    expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
    return browser;
  }

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startFixtureSite({
      '/': { body: poorHome },
      [LONG_PATH]: { body: html('<title>More</title>', '<h1>More</h1><img src="/c.png">') },
    });
    s = await startTestService(backend, { allowLocalTargets: true, monitor: false });
    ({ organizationId, key } = await s.tenant());
    owner = await person('owner@example.com', 'owner');
    member = await person('member@example.com', 'member');
    projectId = await s.createProject(key, site.host);
    const first = await audit();
    site.routes.set('/', { body: betterHome });
    const second = await audit();
    runs = [first, second];
    findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${second.runId}/findings?limit=100`, { key })).body,
    ).findings;
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });

  test('lists both audits with their scores, a trend chart, and the latest report one click away', async () => {
    const [first, second] = runs as [Run, Run];
    expect([first.status, second.status]).toEqual(['completed', 'completed']);
    expect(first.score).not.toBe(second.score);
    const home = await owner.get('/');
    expect(home.html).toContain(`<a href="/projects/${projectId}">${site.host}</a>`);
    const res = await owner.get(`/projects/${projectId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const body = res.html;
    expect(body).not.toMatch(/<script/i);
    expect(body).toContain(`<h1>${site.host}</h1>`);
    // Both runs, newest first, each with its score (partial: a local on-page scan) and a link.
    const second_at = body.indexOf(`<td><a href="/runs/${second.runId}">Report</a></td>`);
    const first_at = body.indexOf(`<td><a href="/runs/${first.runId}">Report</a></td>`);
    expect(second_at).toBeGreaterThan(0);
    expect(first_at).toBeGreaterThan(second_at);
    for (const run of runs)
      expect(body).toContain(`<td data-label="Score">${run.score} <span class="partial">partial</span></td>`);
    expect(body).toContain('<td data-label="Status">Completed</td>');
    // The trend, drawn on the server, described in words for those who do not see it.
    const trend = `Score from ${first.score} to ${second.score} over 2 audits (all partial)`;
    expect(body).toContain(`<svg class="trend" role="img" aria-labelledby="trend-ai_readiness-title"`);
    expect(body).toContain(`<title id="trend-ai_readiness-title">${trend}</title>`);
    expect((body.match(/<circle class="dot part"/g) ?? []).length).toBe(2);
    // The latest report of the product is one click away; monitoring too; products not run say so.
    expect(body).toContain(`<a href="/runs/${second.runId}">Open the latest report</a>`);
    expect(body).toContain(`<a href="/projects/${projectId}/monitoring">off</a>`);
    expect(body).toContain('No Website security audits of this site yet.');
    expect(body).toContain('All 2 audits, newest first (a page lists the latest 50).');
    // The bar leads home, and marks this page.
    expect(body).toContain('<a class="brand" href="/">siteaudit</a>');
    expect(body).toContain(`<a href="/projects/${projectId}" aria-current="page">${site.host}</a>`);
    // A member who is not an owner sees it too.
    expect((await member.get(`/projects/${projectId}`)).status).toBe(200);
  });

  test('opens to members only: sign-in for a visitor, the same HTML 404 for a stranger and a missing project', async () => {
    const visitor = new TestBrowser(s.url);
    const path = `/projects/${projectId}`;
    const refused = await visitor.get(path);
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    const other = await s.createOrg({ name: 'Other' });
    const stranger = await createUser(s.store, { email: 'stranger@example.com', name: 'S', password: PASSWORD });
    await addMember(s.store, stranger.id, other.id, 'owner');
    const elsewhere = new TestBrowser(s.url);
    await elsewhere.signIn('stranger@example.com', PASSWORD);
    for (const [browser, target] of [
      [elsewhere, path],
      [owner, '/projects/0190f5a0-0000-7000-8000-000000000000'],
      [owner, '/projects/not-a-uuid'],
    ] as const) {
      const page = await browser.get(target);
      expect(page.status, target).toBe(404);
      expect(page.headers.get('content-type'), target).toMatch(/text\/html/);
      expect(page.html, target).toContain('<h1>Not found</h1>');
      expect(page.html, target).not.toContain(site.host);
    }
  });

  test('puts the navigation bar on report, finding and monitoring pages, and none on a shared report', async () => {
    const run = runs[1] as Run;
    const report = await owner.get(run.humanUrl);
    expect(report.html).toContain('<a class="brand" href="/">siteaudit</a>');
    expect(report.html).toContain(`<a href="/projects/${projectId}">${site.host}</a>`);
    expect(report.html).toContain(`<a href="/runs/${run.runId}" aria-current="page">AI readiness audit</a>`);
    const finding = await owner.get((findings[0] as Finding).humanUrl);
    expect(finding.html).toContain(`<a href="/projects/${projectId}">${site.host}</a>`);
    const monitoring = await owner.get(`/projects/${projectId}/monitoring`);
    expect(monitoring.html).toContain(`<a href="/projects/${projectId}">${site.host}</a>`);
    for (const path of ['/keys', '/members', '/account'])
      expect((await owner.get(path)).html, path).toContain('<a class="brand" href="/">siteaudit</a>');
    // A share link opens one report: no bar, no link into the workspace.
    const made = await owner.post(`/runs/${run.runId}/share`, { action: 'create' }, { from: report });
    const link = /id="share-link" value="([^"]+)"/.exec(made.html)?.[1] as string;
    const anyone = new TestBrowser(s.url);
    for (const page of [await anyone.get(link), await anyone.get(`${link}/findings/${findings[0]?.findingId}`)]) {
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('class="topnav"');
      expect(page.html).not.toContain('href="/"');
      expect(page.html).not.toContain('href="/projects/');
    }
    // Its filters stay under the share link.
    const severity = (findings[0] as Finding).severity;
    const filtered = await anyone.get(`${link}?severity=${severity}`);
    expect(filtered.html).toContain(`href="${new URL(link).pathname}#findings">Clear filters</a>`);
    await owner.post(`/runs/${run.runId}/share`, { action: 'stop' }, { from: await owner.get(run.humanUrl) });
  });

  test('filters a report by severity and category with plain links, and says how many are shown', async () => {
    const run = runs[1] as Run;
    const count = (page: Page) => (page.html.match(/<article class="card finding"/g) ?? []).length;
    const all = await owner.get(run.humanUrl);
    expect(count(all)).toBe(findings.length);
    expect(all.html).not.toContain('Clear filters');
    const severity = (findings[0] as Finding).severity;
    expect(all.html).toContain(`href="/runs/${run.runId}?severity=${severity}#findings"`);
    const bySeverity = await owner.get(`/runs/${run.runId}?severity=${severity}`);
    const expected = findings.filter((f) => f.severity === severity);
    expect(count(bySeverity)).toBe(expected.length);
    expect(bySeverity.html).toContain(`<strong>${expected.length} of ${findings.length} findings</strong>`);
    expect(bySeverity.html).toContain(`<a href="/runs/${run.runId}#findings">Clear filters</a>`);
    for (const f of expected) expect(bySeverity.html).toContain(`id="${f.findingId}"`);
    // Both at once: the category links keep the severity chosen.
    const category = (findings[0] as Finding).category;
    const both = await owner.get(`/runs/${run.runId}?severity=${severity}&category=${category}`);
    const matching = findings.filter((f) => f.severity === severity && f.category === category);
    expect(count(both)).toBe(matching.length);
    expect(both.html).toContain(`<strong>${matching.length} of ${findings.length} findings</strong>`);
    // Values that are no severity or category filter nothing.
    expect(count(await owner.get(`/runs/${run.runId}?severity=urgent&category=%3Cscript%3E`))).toBe(findings.length);
  });

  test('switches monitoring on and off with a form, keeping its interval; refuses a form without its token', async () => {
    const path = `/projects/${projectId}/monitoring`;
    const api = async () => (await s.request<Monitoring>(`/api/v1/projects/${projectId}/monitoring`, { key })).body;
    // An interval set through the API (the service's minimum is 5 minutes).
    await s.request(`/api/v1/projects/${projectId}/monitoring`, {
      key,
      method: 'PUT',
      json: { enabled: false, intervalMinutes: 90 },
    });
    const off = await member.get(path);
    expect(off.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(off.html).toContain('<strong>Off.</strong>');
    expect(off.html).toContain('<button type="submit">Switch monitoring on</button>');
    expect(off.html).not.toContain('PUT /api');
    // No token, or one from another browser: refused, nothing changed.
    expect((await member.post(path, { enabled: 'on' })).status).toBe(403);
    expect((await member.post(path, { enabled: 'on', csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await api()).enabled).toBe(false);
    // A member switches it on: the same change as the API's, the interval kept.
    const on = await member.post(path, { enabled: 'on' }, { from: off });
    expect(on.status).toBe(303);
    expect(on.location).toBe(path);
    expect(await api()).toMatchObject({ enabled: true, intervalMinutes: 90 });
    const onPage = await member.get(path);
    expect(onPage.html).toContain('<strong>On</strong>: every 90 minutes');
    expect(onPage.html).toContain('<button type="submit">Switch monitoring off</button>');
    expect(visibleText(onPage.html)).toMatch(/next check \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC \((in \d+ \w+|just now)\)/);
    // A stranger's form does nothing.
    const other = await s.createOrg({ name: 'Elsewhere' });
    const stranger = await createUser(s.store, { email: 'far@example.com', name: 'F', password: PASSWORD });
    await addMember(s.store, stranger.id, other.id, 'owner');
    const far = new TestBrowser(s.url);
    const farHome = await far.open('/sign-in');
    await far.post('/sign-in', { email: 'far@example.com', password: PASSWORD, next: '/' }, { from: farHome });
    expect((await far.post(path, { enabled: 'off' }, { from: await far.get('/') })).status).toBe(404);
    expect((await api()).enabled).toBe(true);
    // The owner switches it off.
    expect((await owner.post(path, { enabled: 'off' }, { from: await owner.get(path) })).status).toBe(303);
    expect((await api()).enabled).toBe(false);
  });

  test('refuses to switch on monitoring of an archived project, in words', async () => {
    const other = await s.createProject(key, 'archived.example');
    const archived = await s.request(`/api/v1/projects/${other}`, {
      key,
      method: 'DELETE',
      json: { confirm: 'archived.example' },
    });
    expect(archived.status, archived.text).toBeLessThan(300);
    const path = `/projects/${other}/monitoring`;
    const refused = await owner.post(path, { enabled: 'on' }, { from: await owner.get(path) });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('This project is archived: restore it before switching monitoring on.');
  });

  test('says dates, statuses and what a local scan leaves out in words, never as codes', async () => {
    const run = runs[1] as Run;
    const pages = await Promise.all(
      [run.humanUrl, `/projects/${projectId}`, `/projects/${projectId}/monitoring`, '/', '/keys', '/members'].map((p) =>
        owner.get(p),
      ),
    );
    pages.push(await owner.get((findings[0] as Finding).humanUrl));
    for (const page of pages) {
      const text = visibleText(page.html);
      expect(text, page.url).not.toMatch(ISO_INSTANT);
      expect(text, page.url).not.toContain('failed_auto_credit');
    }
    const report = visibleText((pages[0] as Page).html);
    expect((pages[0] as Page).html).toContain(`<time datetime="${run.createdAt}">${dateText(run.createdAt)}</time>`);
    expect(report).not.toMatch(/foundation_files|email_authentication|response_header_security/);
    expect(run.coverage?.notEvaluated).toContain('foundation_files');
    expect(report).toContain(notEvaluatedText(run.coverage?.notEvaluated ?? []));
    // The categories of findings in words.
    expect(report).not.toContain('structured_data');
  });

  it.skipIf(!hasChromium || !backend.available)(
    'fits at 1280 and 390 px wide with no sideways scroll, in Chromium',
    async () => {
      const browser = await launchChromium();
      const shots = join(
        process.env.SITEAUDIT_TEST_OUTPUT || join(import.meta.dirname, '..', '..', 'test-output'),
        'dashboard-history',
      );
      mkdirSync(shots, { recursive: true });
      try {
        const context = await browser.newContext();
        await context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: s.url })));
        const tab = await context.newPage();
        const violations: string[] = [];
        tab.on('console', (message) => {
          if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
        });
        const run = runs[1] as Run;
        const pages = {
          run: run.humanUrl,
          project: `${s.url}/projects/${projectId}`,
          monitoring: `${s.url}/projects/${projectId}/monitoring`,
          finding: (findings.find((f) => f.affectedUrls.some((u) => u.includes(LONG_PATH))) ?? findings[0])
            ?.humanUrl as string,
        };
        for (const width of [1280, 390]) {
          await tab.setViewportSize({ width, height: 900 });
          for (const [name, url] of Object.entries(pages)) {
            await tab.goto(url);
            const fit = await tab.evaluate('[document.documentElement.scrollWidth, window.innerWidth]');
            const [scrollWidth, innerWidth] = fit as [number, number];
            expect(scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(innerWidth);
            await tab.screenshot({ path: join(shots, `${backend.name}-${name}-${width}.png`), fullPage: true });
          }
        }
        // The chart is drawn (the stylesheet's hash admits its classes) and named for assistive technology.
        await tab.goto(pages.project);
        const chart = tab.getByRole('img', { name: /Score from \d+ to \d+ over 2 audits/ });
        await expect(chart.count()).resolves.toBe(1);
        const box = await chart.boundingBox();
        expect(box?.width).toBeGreaterThan(300);
        expect(await tab.evaluate("getComputedStyle(document.querySelector('.trend .line')).stroke")).not.toBe('none');
        // The filters work as plain links.
        await tab.goto(run.humanUrl);
        await tab.locator('nav[aria-label="Filter by severity"] a.chip').nth(1).click();
        await expect(tab.locator('p[role="status"]').innerText()).resolves.toMatch(/^\d+ of \d+ findings/);
        expect(violations).toEqual([]);
        process.stderr.write(`dashboard screenshots: ${shots}\n`);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});

describe('the words of the project page', () => {
  it('says dates in words with a hint of how long ago', () => {
    expect(dateText('2026-11-26T10:41:07.123Z')).toBe('26 Nov 2026, 10:41 UTC');
    expect(dateText('2026-09-03T08:05:00Z')).toBe('3 Sep 2026, 08:05 UTC');
    const now = new Date('2026-11-26T13:41:00Z');
    expect(relativeText('2026-11-26T10:41:00Z', now)).toBe('3 hours ago');
    expect(relativeText('2026-11-26T13:40:50Z', now)).toBe('just now');
    expect(relativeText('2026-11-26T13:46:00Z', now)).toBe('in 5 minutes');
    expect(relativeText('2026-11-25T13:41:00Z', now)).toBe('1 day ago');
  });

  it('describes a trend in words', () => {
    expect(trendText([])).toBe('No scores yet');
    expect(trendText([{ at: '2026-11-20T00:00:00Z', score: 81, partial: false }])).toBe('Score 81 from one audit');
    expect(
      trendText([62, 70, 75, 81].map((score, i) => ({ at: `2026-11-2${i}T00:00:00Z`, score, partial: i === 0 }))),
    ).toBe('Score from 62 to 81 over 4 audits (1 partial)');
  });

  it('says how an audit that could not run ended, and bounds the list', async () => {
    const run = (id: string, status: string, score: number | null): ProjectRunSummary => ({
      id,
      product: 'website_security',
      status,
      created_at: '2026-11-26T10:41:00.000Z',
      completed_at: null,
      score,
      score_status: null,
      severity_counts: status === 'completed' ? '{"critical":0,"high":2,"medium":0,"low":1,"info":0}' : null,
      findings_total: null,
      coverage: null,
    });
    const rendered = String(
      await projectPage({
        project: { id: 'p1', domain: 'example.com', status: 'active', createdAt: '2026-11-01T00:00:00Z' },
        monitoring: { enabled: true, effectiveIntervalMinutes: 60 },
        runs: {
          ai_readiness: [],
          marketing_signal: [],
          website_security: [run('r2', 'failed_auto_credit', null), run('r1', 'completed', 74)],
        },
        more: { ai_readiness: false, marketing_signal: false, website_security: true },
        shown: 2,
        now: new Date('2026-11-26T13:41:00Z'),
      }),
    );
    expect(rendered).toContain('<td data-label="Status">Could not run — credits returned</td>');
    expect(rendered).not.toContain('failed_auto_credit');
    expect(rendered).toContain('<span class="badge high">2 high</span>');
    expect(rendered).toContain('(3 hours ago)');
    expect(rendered).toContain('Score 74 from one audit');
    expect(rendered).toContain('<div class="score">74<small>/100</small></div>');
    expect(rendered).toContain('The latest 2 Website security audits are listed, newest first');
    expect(rendered).toContain('on, every 60 minutes');
  });
});
