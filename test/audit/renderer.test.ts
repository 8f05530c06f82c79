// Rendered evidence (issue 14), in Debian's Chromium: a single-page app whose content appears only
// after its script runs is judged as the browser shows it (its unverified score becomes a real one),
// axe-core finds contrast failures, the agent view reads the accessibility tree, and a page whose
// script reaches for private addresses gets none of them (the SSRF guard answers for Chromium).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { createChromiumRenderer, type Renderer, subresourcesFrom } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const APP_JS = `document.getElementById('app').innerHTML =
  '<main><h1>Acme garden tools</h1><p>' + 'Hand-forged spades, forks and shears, made in Sheffield since 1901 and sharpened for life. '.repeat(8) +
  '</p><a href="/about">About us</a> <button></button></main>';`;

const CONTRAST = html(
  '<title>Offers</title>',
  `<main><h1>Offers</h1><p style="color:#c8c8c8;background:#ffffff">${'Pale grey on white is hard to read. '.repeat(6)}</p></main>`,
);

describe.skipIf(!hasChromium)('rendered evidence in Chromium', () => {
  let site: FixtureSite;
  let renderer: Renderer;
  let served: AuditOutcome<unknown>;
  let rendered: AuditOutcome<unknown>;
  const audit = (render?: Parameters<typeof runAudit>[2]) =>
    runAudit('ai_readiness', { url: `${site.origin}/`, local: true }, { pageBudget: 5, ...render });

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': {
        body: html(
          '<title>Acme</title><meta name="viewport" content="width=device-width, initial-scale=1">',
          '<div id="app"></div><script src="/app.js"></script><footer><a href="/offers">Offers</a></footer>',
        ),
      },
      '/app.js': { headers: { 'content-type': 'text/javascript' }, body: APP_JS },
      '/offers': { body: CONTRAST },
      '/about': { body: html('<title>About</title>', '<main><h1>About</h1><p>Since 1901.</p></main>') },
    });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    served = await audit();
    rendered = await audit({ render: { renderer, mode: 'auto' } });
  }, 60_000);
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);

  it('judges an app shell as the browser shows it, and its score stops being unverified', () => {
    expect(served.scoreStatus).toBe('unverified');
    expect(row(served, 'content-in-html')?.status).toBe('unverified');
    expect(rendered.scoreStatus).toBeNull();
    expect(row(rendered, 'content-in-html')?.status).toBe('pass');
    expect(row(rendered, 'single-h1')?.status).toBe('pass');
    expect(rendered.rendering).toMatchObject({ mode: 'auto', available: true });
    // /offers is linked in the served HTML; /about only in what the script renders, and found then.
    expect(rendered.rendering?.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/about', '/offers']);
    expect(rendered.rendering?.pages.every((p) => p.error === undefined && p.refused === 0)).toBe(true);
    expect(rendered.execSummary).toMatch(/ Rendered in Chromium: 3 page\(s\)\.$/);
  });

  it('clears the unverified funnel stages of a marketing audit too', async () => {
    const url = { url: `${site.origin}/`, local: true };
    const asServed = await runAudit('marketing_signal', url, { pageBudget: 5 });
    const asRendered = await runAudit('marketing_signal', url, { pageBudget: 5, render: { renderer, mode: 'auto' } });
    expect(asServed.scoreStatus).toBe('unverified');
    expect(asRendered.scoreStatus).toBeNull();
    expect(asRendered.checks.some((c) => c.status === 'unverified')).toBe(false);
  });

  it('turns axe-core violations into findings with WCAG criteria and elements', () => {
    const contrast = rendered.findings.find((f) => f.checkId === 'axe-color-contrast');
    expect(contrast).toMatchObject({ severity: 'high', category: 'accessibility' });
    expect(contrast?.affectedUrls).toEqual([`${site.origin}/offers`]);
    expect(contrast?.references[0]).toEqual({
      title: 'WCAG 2.2 SC 1.4.3',
      url: 'https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html',
    });
    expect(contrast?.evidence[0]?.elements?.[0]?.snippet).toContain('color:#c8c8c8');
    expect(contrast?.verify).toBe(`npx @axe-core/cli ${site.origin}/offers --rules color-contrast`);
    // The unnamed button is our static check's to report (on the rendered DOM), not axe's twice.
    expect(rendered.findings.some((f) => f.checkId === 'axe-button-name')).toBe(false);
    expect(row(rendered, 'button-name')?.status).toBe('fail');
    expect(row(served, 'button-name')?.status).not.toBe('fail');
  });

  it('summarizes the accessibility tree an agent gets of the home page', () => {
    const view = row(rendered, 'agent-accessibility-tree');
    expect(view?.status).toBe('fail');
    expect(view?.detail).toContain('2 named control(s), 1 unnamed; landmarks: main 1, contentinfo 1');
    expect(view?.detail).toContain('unnamed: button');
  });

  it('says why nothing was rendered when there is no Chromium, and judges as served', async () => {
    const none = createChromiumRenderer({ executablePath: '/nonexistent/chromium' });
    const outcome = await audit({ render: { renderer: none, mode: 'auto' } });
    expect(outcome.rendering).toEqual({
      mode: 'auto',
      available: false,
      reason: 'no Chromium at /nonexistent/chromium (install chromium, or set SITEAUDIT_CHROMIUM)',
      pages: [],
    });
    expect(outcome.scoreStatus).toBe('unverified');
    expect(outcome.execSummary).toMatch(
      / Not rendered: no Chromium at \/nonexistent\/chromium \(install chromium, or set SITEAUDIT_CHROMIUM\)\.$/,
    );
  });
});

describe.skipIf(!hasChromium)('a single-page app with a client-side router', () => {
  let app: FixtureSite;
  let renderer: Renderer;
  // Every route serves the same shell; the script renders the route from location.pathname.
  const SHELL = html('<title>Shop</title>', '<div id="root"></div><script src="/router.js"></script>');
  const ROUTER = `const routes = {
    '/': '<h1>Shop</h1><nav><a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/admin" rel="nofollow">Admin</a></nav>',
    '/about': '<h1>About the shop</h1><p>' + 'We sell hand-forged garden tools. '.repeat(10) + '</p>',
    '/pricing': '<h1>Pricing</h1><p style="color:#d0d0d0">' + 'Prices in pale grey. '.repeat(10) + '</p>',
  };
  document.getElementById('root').innerHTML = '<main>' + (routes[location.pathname] || '<h1>Not found</h1>') + '</main>';`;

  beforeAll(async () => {
    app = await startFixtureSite({
      '/': { body: SHELL },
      '/about': { body: SHELL },
      '/pricing': { body: SHELL },
      '/admin': { body: SHELL },
      '/router.js': { headers: { 'content-type': 'text/javascript' }, body: ROUTER },
    });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await app?.close();
  });

  it('follows the links the app shows once rendered, and renders each route', async () => {
    const outcome = await runAudit(
      'ai_readiness',
      { url: `${app.origin}/`, local: true },
      { pageBudget: 10, render: { renderer, mode: 'auto' } },
    );
    expect(outcome.rendering?.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/about', '/pricing']);
    expect(outcome.pagesCrawled).toBe(3);
    expect(outcome.scoreStatus).toBeNull();
    expect(outcome.findings.find((f) => f.checkId === 'axe-color-contrast')?.affectedUrls).toEqual([
      `${app.origin}/pricing`,
    ]);
  });

  it('stays within the page budget', async () => {
    const outcome = await runAudit(
      'ai_readiness',
      { url: `${app.origin}/`, local: true },
      { pageBudget: 2, render: { renderer, mode: 'auto' } },
    );
    expect(outcome.pagesCrawled).toBe(2);
    expect(outcome.rendering?.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/about']);
  });
});

describe.skipIf(!hasChromium)('the renderer behind the SSRF guard', () => {
  let renderer: Renderer;
  let trap: Server;
  let trapPort: number;
  let connections = 0;
  let dns: DnsServer;

  beforeAll(async () => {
    trap = createServer((_req, res) => res.end('secret'));
    trap.on('connection', () => connections++);
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
    dns = await startDnsServer({ 'inward.test': { A: ['127.0.0.1'] } });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM, limits: { pageDeadlineMs: 4000 } });
  });
  afterAll(async () => {
    await renderer?.close();
    await dns?.close();
    trap?.close();
  });

  /** A session as a hosted service renders: no private addresses, names resolved through our DNS. */
  async function hostedSession() {
    const fetcher = createFetcher({ resolver: createResolver([dns.address]), allowPrivate: false, timeoutMs: 2000 });
    const session = await renderer.session(subresourcesFrom(fetcher));
    return { session, close: () => session.close().then(() => fetcher.close()) };
  }

  it('refuses every private address a page script or tag reaches for, and no connection gets through', async () => {
    const { session, close } = await hostedSession();
    try {
      const page = await session.render({
        url: 'https://public.test/',
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: html(
          '<title>Public</title>',
          `<main><h1>Public</h1><img src="http://10.0.0.1/x.png" alt="x"><img src="http://inward.test:${trapPort}/y.png" alt="y">
           <script>
             fetch('http://127.0.0.1:${trapPort}/steal').catch(() => {});
             fetch('http://169.254.169.254/latest/meta-data/').catch(() => {});
             fetch('/api/order', { method: 'POST', body: 'x' }).catch(() => {});
             document.querySelector('h1').textContent = 'Rendered';
           </script></main>`,
        ),
      });
      expect(page.error).toBeUndefined();
      expect(page.html).toContain('<h1>Rendered</h1>');
      const refused = page.refused.map((r) => r.url);
      for (const url of [
        'http://10.0.0.1/x.png',
        `http://127.0.0.1:${trapPort}/steal`,
        'http://169.254.169.254/latest/meta-data/',
        'https://public.test/api/order',
      ])
        expect(refused, url).toContain(url);
      // Chromium upgrades the http image of an https page before asking; the guard refuses it either way.
      expect(refused).toContainEqual(expect.stringMatching(new RegExp(`^https?://inward\\.test:${trapPort}/y\\.png$`)));
      expect(page.refused.find((r) => r.url.includes('inward.test'))?.reason).toContain(
        'resolves only to non-public addresses',
      );
      expect(page.refused.find((r) => r.url.endsWith('/api/order'))?.reason).toBe('POST is not sent by an audit');
      expect(connections).toBe(0);
    } finally {
      await close();
    }
  });

  it('reports a page that outgrows the heap ceiling, and the next session still renders', async () => {
    const small = createChromiumRenderer({ executablePath: CHROMIUM, limits: { pageDeadlineMs: 8000, heapMb: 64 } });
    const fetcher = createFetcher({ resolver: createResolver([dns.address]), allowPrivate: false, timeoutMs: 2000 });
    try {
      const session = await small.session(subresourcesFrom(fetcher));
      const greedy = await session.render({
        url: 'https://public.test/greedy',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html(
          '<title>Greedy</title>',
          '<script>const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random()));</script>',
        ),
      });
      expect(greedy.html).toBeUndefined();
      expect(greedy.error).toBe('the page crashed (over the 64 MiB heap ceiling, or a renderer failure)');
      await session.close();
      const again = await small.session(subresourcesFrom(fetcher));
      const next = await again.render({
        url: 'https://public.test/next',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html('<title>Next</title>', '<main><h1>Next</h1></main>'),
      });
      expect(next.html).toContain('<h1>Next</h1>');
      await again.close();
    } finally {
      await small.close();
      await fetcher.close();
    }
  }, 30_000);

  it('ends a page that never finishes at its deadline, and renders the next one', async () => {
    const { session, close } = await hostedSession();
    try {
      const stuck = await session.render({
        url: 'https://public.test/stuck',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html('<title>Stuck</title>', '<script>for (;;) {}</script>'),
      });
      expect(stuck.error).toBe('not rendered within 4000 ms');
      expect(stuck.html).toBeUndefined();
      const next = await session.render({
        url: 'https://public.test/next',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html('<title>Next</title>', '<main><h1>Next</h1></main>'),
      });
      expect(next.html).toContain('<h1>Next</h1>');
    } finally {
      await close();
    }
  }, 20_000);
});
