// An app shell whose framework does not load in the browser (issue 25): docsify from a CDN the audit
// cannot reach, a Vue shell showing "Loading..." whose script answers 404. Chromium loads the page,
// but nothing builds it: it could not be rendered, so AI readiness and marketing signal stay
// unverified with rendering on as with it off, no "add real text" advice, no marketing finding on
// content the audit never saw, and the summary, the report and the report page say the page was
// loaded but not built, naming the scripts that did not load. A shell whose framework does load is
// judged as the browser shows it.
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type AuditResolver, createResolver } from '../../src/audit/net/resolver.ts';
import type { RenderMode } from '../../src/audit/render/render-site.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { AiReadinessReport } from '../../src/contract/index.ts';
import { reportSummary } from '../../src/service/dashboard/score-summary.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite, startLinkedSite } from '../support/fixture-site.ts';

/** No internet, for certain: every host name fails to resolve, as on a machine without a network. */
function offline(): AuditResolver {
  const real = createResolver();
  return {
    ...real,
    async addresses(hostname) {
      if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return real.addresses(hostname);
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    },
  };
}

/** What a framework does once loaded: fill #app with the site's content. */
const BUILD = `document.getElementById('app').innerHTML =
  '<main><h1>Acme garden tools</h1><p>' + 'Hand-forged spades, forks and shears, made in Sheffield since 1901 and sharpened for life. '.repeat(4) +
  '</p><p>Call us on <a href="tel:+441142000000">0114 200 0000</a> or <a href="/contact">write to us</a>.</p></main>';`;

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const DOCSIFY_CDN = 'http://cdn.jsdelivr.net/npm/docsify@4';

async function startSites(): Promise<{ cdn: FixtureSite; site: FixtureSite; vueUrl: string }> {
  // The CDN on loopback: Vue's address answers 404 (no route), the working framework answers with BUILD.
  const cdn = await startFixtureSite({
    '/app@1/app.js': { headers: { 'content-type': 'text/javascript' }, body: BUILD },
  });
  const vueUrl = `http://${cdn.host}/vue@3/dist/vue.global.prod.js`;
  const site = await startFixtureSite({
    '/': {
      body: html(`<title>Acme</title>${VIEWPORT}`, `<div id="app">Loading...</div><script src="${vueUrl}"></script>`),
    },
    '/docs': {
      body: html(
        `<title>Widget docs</title>${VIEWPORT}`,
        `<div id="app"></div><script>window.$docsify = { name: 'widget' }</script><script src="//cdn.jsdelivr.net/npm/docsify@4"></script>`,
      ),
    },
    '/built': {
      body: html(
        `<title>Acme garden tools</title>${VIEWPORT}`,
        `<div id="app">Loading...</div><script src="http://${cdn.host}/app@1/app.js"></script>`,
      ),
    },
  });
  return { cdn, site, vueUrl };
}

const PRODUCTS = ['ai_readiness', 'marketing_signal'] as const;
type Product = (typeof PRODUCTS)[number];
const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);
/** The marketing checks that read the page's content: contact, pricing, calls to action, proof. */
const CONTENT_CHECK = /contact|pricing|call-to-action|offer|proof|social|cta/;

describe.skipIf(!hasChromium)('an app shell whose framework does not load', () => {
  let sites: Awaited<ReturnType<typeof startSites>>;
  let renderer: Renderer;
  const outcomes = new Map<string, AuditOutcome<unknown>>();
  const key = (shell: string, product: Product, mode: RenderMode) => `${shell} ${product} ${mode}`;
  const outcome = (shell: string, product: Product, mode: RenderMode) =>
    outcomes.get(key(shell, product, mode)) as AuditOutcome<unknown>;

  beforeAll(async () => {
    sites = await startSites();
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    for (const [shell, path] of [
      ['vue', '/'],
      ['docsify', '/docs'],
      ['built', '/built'],
    ] as const)
      for (const product of PRODUCTS)
        for (const mode of ['never', 'auto'] as const)
          outcomes.set(
            key(shell, product, mode),
            await runAudit(
              product,
              { url: `${sites.site.origin}${path}`, local: true },
              { pageBudget: 1, resolver: offline(), render: { renderer, mode } },
            ),
          );
  }, 120_000);
  afterAll(async () => {
    await renderer?.close();
    await sites?.site.close();
    await sites?.cdn.close();
  });

  for (const shell of ['vue', 'docsify'])
    for (const product of PRODUCTS)
      for (const mode of ['never', 'auto'] as const)
        it(`${shell}, ${product}, rendering ${mode === 'never' ? 'off' : 'on'}: unverified, no advice on content it did not see`, () => {
          const o = outcome(shell, product, mode);
          expect(o.scoreStatus).toBe('unverified');
          expect(o.scoreLabel).toBe('Unverified');
          expect(o.findings.some((f) => /add real text/i.test(`${f.title} ${f.remediation} ${f.agentAction}`))).toBe(
            false,
          );
          if (product === 'ai_readiness') expect(row(o, 'content-in-html')?.status).toBe('unverified');
          // No marketing finding on contact, pricing or a call to action: the page's content was never seen.
          const unseen = o.findings.filter((f) => CONTENT_CHECK.test(f.checkId));
          expect(unseen.map((f) => f.title)).toEqual([]);
          for (const id of ['mk-contact-paths', 'mk-call-to-action'])
            if (product === 'marketing_signal' && shell === 'vue') expect(row(o, id)?.status).toBe('unverified');
        });

  it('says the page was loaded but not built, and names the script that did not load', () => {
    for (const product of PRODUCTS) {
      const vue = outcome('vue', product, 'auto');
      expect(vue.rendering?.pages).toHaveLength(1);
      expect(vue.rendering?.pages[0]).toMatchObject({
        unbuilt: true,
        failedScripts: [{ url: sites.vueUrl, reason: 'HTTP 404' }],
      });
      expect(vue.execSummary).not.toContain('Rendered in Chromium');
      expect(vue.execSummary).not.toContain('from the served HTML');
      expect(vue.execSummary).toContain('the home page loaded in Chromium but its scripts did not build its content');
      expect(vue.execSummary).toContain(
        `1 page(s) loaded in Chromium, but their scripts did not build the content, so they are judged as app shells (${sites.site.origin}/: did not load ${sites.vueUrl} (HTTP 404)).`,
      );
      const docsify = outcome('docsify', product, 'auto');
      expect(docsify.rendering?.pages[0]).toMatchObject({
        unbuilt: true,
        failed: 1,
        failedScripts: [{ url: DOCSIFY_CDN, reason: 'its host name did not resolve' }],
      });
      expect(docsify.execSummary).toContain(`did not load ${DOCSIFY_CDN} (its host name did not resolve)`);
      expect(docsify.execSummary).not.toContain('Rendered in Chromium');
    }
    const served = outcome('vue', 'ai_readiness', 'never');
    expect(served.execSummary).toContain('Not rendered: rendering is off');
  });

  it('keeps the served shell’s finding, with what the browser showed', () => {
    const o = outcome('vue', 'ai_readiness', 'auto');
    const text = row(o, 'content-in-html');
    expect(text?.detail).toContain('rendered in Chromium, it still shows 10 characters: its scripts did not build');
    expect(text?.detail).toContain(`${sites.vueUrl} (HTTP 404)`);
    expect(o.findings.find((f) => f.checkId === 'content-in-html')?.title).toBe(
      'Content only appears after JavaScript runs',
    );
    expect(row(outcome('docsify', 'ai_readiness', 'auto'), 'content-in-html')?.detail).toContain(
      'left its mount point “div#app” empty',
    );
  });

  it('shows the page loaded but not built on the report page, with the script that did not load', async () => {
    const o = outcome('vue', 'ai_readiness', 'auto');
    const report = AiReadinessReport.parse({
      schemaVersion: 2,
      runId: '01890a5d-ac96-774b-bcce-b302099a8057',
      projectId: null,
      url: o.startUrl,
      score: o.score,
      scoreLabel: o.scoreLabel,
      execSummary: o.execSummary,
      severityCounts: o.severityCounts,
      findingsTotal: o.findings.length,
      scanMode: null,
      model: null,
      costUsd: 0,
      createdAt: '2026-11-26T10:00:00.000Z',
      completedAt: '2026-11-26T10:01:00.000Z',
      humanUrl: 'https://siteaudit.example/runs/01890a5d-ac96-774b-bcce-b302099a8057',
      scoreStatus: 'unverified',
      rendering: o.rendering,
      product: 'ai_readiness',
      topFindings: [],
      foundation: {
        sitemap: { present: false, notes: '' },
        robotsTxt: { present: false, notes: '' },
        llmsTxt: { present: false, notes: '' },
      },
      pagesCrawled: 1,
    });
    expect(report.rendering?.pages[0]?.failedScripts).toEqual([{ url: sites.vueUrl, reason: 'HTTP 404' }]);
    const page = String(await reportSummary(report));
    expect(page).toContain(
      `<code>${sites.site.origin}/</code> (loaded, but its scripts did not build the content; did not load: ${sites.vueUrl} (HTTP 404))`,
    );
    expect(page).toContain('Chromium loaded the page, but its scripts did not build its content');
    expect(page).not.toContain('The served HTML could not support a score');
  });

  it('judges a shell whose framework loads as the browser shows it', () => {
    for (const product of PRODUCTS) {
      const o = outcome('built', product, 'auto');
      expect(o.scoreStatus).toBeNull();
      expect(o.rendering?.pages[0]?.unbuilt).toBeUndefined();
      expect(o.execSummary).toMatch(/ Rendered in Chromium: 1 page\(s\)\.$/);
      expect(o.findings.some((f) => f.checkId === 'content-in-html')).toBe(false);
    }
    expect(row(outcome('built', 'ai_readiness', 'auto'), 'content-in-html')?.status).toBe('pass');
    // As served, it is an app shell still.
    expect(outcome('built', 'ai_readiness', 'never').scoreStatus).toBe('unverified');
  });
});

describe.skipIf(!hasChromium)('auto mode says how many pages it rendered, and why no more', () => {
  let site: FixtureSite;
  let renderer: Renderer;

  beforeAll(async () => {
    site = await startLinkedSite(['/a', '/b', '/c', '/d'], VIEWPORT);
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it('rendered 2 of 5 pages: no app shell, a sample of 2', async () => {
    const o = await runAudit(
      'ai_readiness',
      { url: `${site.origin}/`, local: true },
      { pageBudget: 5, render: { renderer, mode: 'auto' } },
    );
    expect(o.rendering?.pages).toHaveLength(2);
    expect(o.execSummary).toMatch(
      / Rendered in Chromium: 2 of 5 page\(s\); 3 other page\(s\) judged on their served HTML only, without CSS or scripts \(auto rendered 2: any app shells and a sample of 2 other pages, up to 7 a run\)\.$/,
    );
  }, 60_000);
});
