// App shells recognised by what the page is (issue 25): a docsify site serves `<div id="app"></div>`
// and loads its framework from a CDN. Judged as served, its score is unverified (no "add real text"
// advice, no plain verdict); rendered, the browser shows its real text. A thin page whose only
// script is a measurement tag is no app shell, and fails as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

/** What docsify does, in short: fill #app with the site's documentation. */
const FRAMEWORK = `document.getElementById('app').innerHTML =
  '<main><h1>Widget docs</h1><p>' + 'Install the widget with one command, then configure it in a single file next to your project. '.repeat(6) + '</p></main>';`;

/** The docsify site and the CDN it loads its framework from, on two loopback origins. */
async function startSites(): Promise<{ cdn: FixtureSite; site: FixtureSite }> {
  const cdn = await startFixtureSite({
    '/npm/docsify@4': { headers: { 'content-type': 'text/javascript' }, body: FRAMEWORK },
  });
  const site = await startFixtureSite({
    '/': {
      body: html(
        '<title>Widget docs</title><meta name="viewport" content="width=device-width, initial-scale=1">',
        `<div id="app"></div><script>window.$docsify = { name: 'widget' }</script><script src="//${cdn.host}/npm/docsify@4"></script>`,
      ),
    },
    '/soon': {
      body: html(
        '<title>Soon</title>',
        '<div id="root"><p>Coming soon.</p></div><script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>',
      ),
    },
    // The framework's address answers 404: the browser runs nothing, the mount point stays empty.
    '/broken': {
      body: html('<title>Widget docs</title>', `<div id="app"></div><script src="//${cdn.host}/npm/gone@1"></script>`),
    },
  });
  return { cdn, site };
}

const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);

describe('an app shell whose framework comes from another origin, as served', () => {
  let sites: { cdn: FixtureSite; site: FixtureSite };
  let served: AuditOutcome<unknown>;
  let tagOnly: AuditOutcome<unknown>;

  beforeAll(async () => {
    sites = await startSites();
    const { site } = sites;
    [served, tagOnly] = await Promise.all([
      runAudit('ai_readiness', { url: `${site.origin}/`, local: true }, { pageBudget: 1 }),
      runAudit('ai_readiness', { url: `${site.origin}/soon`, local: true }, { pageBudget: 1 }),
    ]);
  });
  afterAll(async () => {
    await sites?.site.close();
    await sites?.cdn.close();
  });

  it('is an app shell: its content is unverified and so is its score', () => {
    const text = row(served, 'content-in-html');
    expect(text?.status).toBe('unverified');
    expect(text?.detail).toContain('into its mount point “div#app”');
    expect(served.scoreStatus).toBe('unverified');
    expect(served.scoreLabel).toBe('Unverified');
    const finding = served.findings.find((f) => f.checkId === 'content-in-html');
    expect(finding?.title).toBe('Content only appears after JavaScript runs');
    expect(served.findings.some((f) => /add real text/i.test(f.remediation))).toBe(false);
  });

  it('is no app shell when its only script measures (a tag manager), and fails as thin', () => {
    expect(row(tagOnly, 'content-in-html')?.status).toBe('fail');
    expect(tagOnly.scoreStatus).toBeNull();
  });
});

describe.skipIf(!hasChromium)('an app shell whose framework comes from another origin, rendered in Chromium', () => {
  let sites: { cdn: FixtureSite; site: FixtureSite };
  let renderer: Renderer;
  let rendered: AuditOutcome<unknown>;
  let broken: AuditOutcome<unknown>;

  beforeAll(async () => {
    sites = await startSites();
    const { site } = sites;
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    const audit = (path: string) =>
      runAudit(
        'ai_readiness',
        { url: `${site.origin}${path}`, local: true },
        { pageBudget: 1, render: { renderer, mode: 'auto' } },
      );
    rendered = await audit('/');
    broken = await audit('/broken');
  }, 60_000);
  afterAll(async () => {
    await renderer?.close();
    await sites?.site.close();
    await sites?.cdn.close();
  });

  it('shows the real text: no thin-content finding and a score that stands', () => {
    expect(row(rendered, 'content-in-html')?.status).toBe('pass');
    expect(row(rendered, 'content-in-html')?.detail).toContain('as Chromium rendered it');
    expect(rendered.scoreStatus).toBeNull();
    expect(rendered.findings.some((f) => f.checkId === 'content-in-html')).toBe(false);
  });

  it('stays unverified when the application left its mount point empty in the browser', () => {
    expect(row(broken, 'content-in-html')?.status).toBe('unverified');
    expect(row(broken, 'content-in-html')?.detail).toContain('left its mount point “div#app” empty');
    expect(broken.scoreStatus).toBe('unverified');
  });
});

// Review of issue 25: a short server-rendered page (a heading, a sentence, a description) whose one
// script appends an image was judged an app shell: unverified, "content only appears after
// JavaScript runs". A page with words of its own is a thin page; only a bare one waits for scripts.
describe('a short page with words of its own and a script of its own', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    const script = '<script src="/gallery.js"></script>';
    site = await startFixtureSite({
      '/': {
        body: html(
          '<title>Mugs</title><meta name="description" content="Stoneware mugs.">',
          `<main><h1>Stoneware mugs</h1><p>Thrown and glazed by hand in our workshop by the river.</p><div id="gallery"></div></main>${script}`,
        ),
      },
      '/loading': { body: html('<title>Mugs</title>', `<p>Loading…</p>${script}`) },
      '/gallery.js': { headers: { 'content-type': 'text/javascript' }, body: 'void 0;' },
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('is judged as a thin page, with a score, not as an app shell', async () => {
    const outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: true }, { pageBudget: 1 });
    expect(outcome.scoreStatus).not.toBe('unverified');
    expect(row(outcome, 'content-in-html')?.status).toBe('fail');
    expect(outcome.findings.map((f) => f.title).join('\n')).not.toMatch(/only appears after JavaScript/);
  });

  it('while a page that says only "Loading…" waits for its scripts: unverified', async () => {
    const outcome = await runAudit('ai_readiness', { url: `${site.origin}/loading`, local: true }, { pageBudget: 1 });
    expect(outcome.scoreStatus).toBe('unverified');
  });
});
