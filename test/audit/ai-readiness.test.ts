// The ai_readiness product against fixture sites on loopback: each check fails on the defective site
// and passes on the good one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import type { AiReadinessDetails } from '../../src/audit/products/ai-readiness.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const paragraph =
  'Acme makes sturdy garden tools for small farms. Every tool is forged in steel, sharpened by hand, and guaranteed for twenty years. '.repeat(
    3,
  );

function goodPage(origin: string, path: string, title: string) {
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'Organization', name: 'Acme', url: `${origin}/`, logo: `${origin}/logo.png` },
      { '@type': 'WebPage', name: title, datePublished: '2026-01-01', dateModified: '2026-02-01' },
    ],
  });
  return html(
    `<title>${title} — Acme</title><meta name="description" content="Garden tools forged in steel and guaranteed for twenty years.">` +
      `<link rel="canonical" href="${origin}${path}"><link rel="alternate" hreflang="en-GB" href="${origin}${path}">` +
      `<script src="/app.js" defer></script><script type="application/ld+json">${jsonLd}</script>`,
    `<header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header><main><h1>${title}</h1><p>${paragraph}</p>` +
      '<h2>How long does a tool last?</h2><p>Twenty years, guaranteed.</p>' +
      '<img src="/hoe.jpg" alt="A forged hoe" width="400" height="300">' +
      '<form action="/subscribe" method="post"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email"><button type="submit">Subscribe</button></form>' +
      '</main><footer>Acme</footer>',
  );
}

function defectivePage() {
  const product = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Hoe' });
  return html(
    '<meta name="robots" content="noindex"><script src="/bundle.js"></script>' +
      `<script type="application/ld+json">{"@type": "Organization",}</script><script type="application/ld+json">${product}</script>` +
      '<link rel="alternate" hreflang="english" href="/en">',
    '<div id="root"><h1>Tools</h1><h1>More tools</h1><h3>Skipped</h3>' +
      '<img src="/hoe.jpg"><a href="/gone">click here</a> <a href="javascript:void(0)">Menu</a> <a href="/heavy">Catalogue</a>' +
      '<form><input name="email" autocomplete="emale"><button></button></form>' +
      // The ARIA rules axe runs on served HTML (issue 25): Bootstrap 4 tabs and an unnamed svg image.
      '<ul role="tablist"><li><a href="#a" role="tab">A</a></li></ul><svg role="img"><path d=""/></svg></div>',
    '',
  ).replace(' lang=""', '');
}

describe('ai_readiness', () => {
  let good: FixtureSite;
  let bad: FixtureSite;
  let goodOutcome: AuditOutcome<AiReadinessDetails>;
  let badOutcome: AuditOutcome<AiReadinessDetails>;

  beforeAll(async () => {
    good = await startFixtureSite();
    const o = good.origin;
    good.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train=no\n\nSitemap: ${o}/sitemap.xml\n`,
    });
    good.routes.set('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/</loc></url><url><loc>${o}/about</loc></url></urlset>`,
    });
    good.routes.set('/llms.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `# Acme\n\n> Garden tools forged in steel.\n\n## Docs\n\n- [About](${o}/about): who we are\n`,
    });
    good.routes.set('/', { body: goodPage(o, '/', 'Garden tools') });
    good.routes.set('/about', { body: goodPage(o, '/about', 'About Acme') });

    bad = await startFixtureSite();
    bad.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /\n\nUser-agent: siteaudit\nAllow: /\n\nUser-agent: OAI-SearchBot\nUser-agent: GPTBot\nDisallow: /\n\nthis line is not a rule\n',
    });
    bad.routes.set('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<urlset><url><loc>/relative</loc></url><url><loc>${bad.origin}/gone</loc></url></urlset>`,
    });
    bad.routes.set('/start', { status: 301, headers: { location: '/step' } });
    bad.routes.set('/step', { status: 302, headers: { location: '/' } });
    bad.routes.set('/', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(defectivePage());
      }, 900);
    });
    bad.routes.set('/heavy', {
      body: html('<title>Heavy</title>', `<main><h1>Catalogue</h1><p>${'x'.repeat(600 * 1024)}</p></main>`),
    });

    [goodOutcome, badOutcome] = await Promise.all([
      runAudit(
        'ai_readiness',
        { url: `${good.origin}/`, local: false },
        { allowPrivate: true, maxBytes: 4 * 1024 * 1024 },
      ),
      runAudit(
        'ai_readiness',
        { url: `${bad.origin}/start`, local: false },
        { allowPrivate: true, maxBytes: 4 * 1024 * 1024 },
      ),
    ]);
  });
  afterAll(async () => {
    await good.close();
    await bad.close();
  });

  const status = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id)?.status;

  it.each([
    // [check, on the good site, on the defective site]
    ['robots-txt-valid', 'pass', 'fail'],
    ['robots-allows-search', 'pass', 'fail'],
    ['robots-allows-ai-answer-bots', 'pass', 'fail'],
    ['robots-training-crawlers', 'info', 'info'],
    ['sitemap-valid', 'pass', 'fail'],
    ['sitemap-urls-live', 'pass', 'fail'],
    ['llms-txt', 'pass', 'fail'],
    ['pages-indexable', 'pass', 'fail'],
    ['pages-answer-2xx', 'pass', 'fail'],
    ['home-redirect-chain', 'pass', 'fail'],
    ['title-present', 'pass', 'fail'],
    ['meta-description', 'pass', 'fail'],
    ['canonical-absolute', 'pass', 'fail'],
    ['html-lang', 'pass', 'fail'],
    ['hreflang-valid', 'pass', 'fail'],
    ['content-in-html', 'pass', 'unverified'],
    ['single-h1', 'pass', 'fail'],
    ['heading-order', 'pass', 'fail'],
    ['main-landmark', 'pass', 'fail'],
    ['answerable-content', 'info', 'info'],
    ['content-dates', 'pass', 'fail'],
    ['image-alt', 'pass', 'fail'],
    ['link-name', 'pass', 'fail'],
    ['form-labels', 'pass', 'fail'],
    ['button-name', 'pass', 'fail'],
    ['crawlable-links', 'pass', 'fail'],
    ['autocomplete-valid', 'pass', 'fail'],
    ['time-to-first-byte', 'pass', 'fail'],
    ['html-weight', 'pass', 'fail'],
    ['render-blocking-scripts', 'pass', 'fail'],
    ['image-dimensions', 'pass', 'fail'],
    ['json-ld-parses', 'pass', 'fail'],
    ['organization-schema', 'pass', 'fail'],
    ['schema-required-properties', 'pass', 'fail'],
  ])('%s: %s on the good site, %s on the defective one', (id, onGood, onBad) => {
    expect(status(goodOutcome, id), `good: ${goodOutcome.checks.find((c) => c.id === id)?.detail}`).toBe(onGood);
    expect(status(badOutcome, id), `bad: ${badOutcome.checks.find((c) => c.id === id)?.detail}`).toBe(onBad);
  });

  it('rates the search block on the defective site critical, and the noindex home page too', () => {
    const severity = (id: string) => badOutcome.findings.find((f) => f.checkId === id)?.severity;
    expect(severity('robots-allows-search')).toBe('critical');
    expect(severity('pages-indexable')).toBe('critical');
    expect(badOutcome.findings[0]?.severity).toBe('critical');
  });

  it('scores the good site high and the defective one low, marking the app shell unverified', () => {
    expect(goodOutcome.score).toBeGreaterThanOrEqual(85);
    expect(goodOutcome.scoreStatus).toBeNull();
    expect(badOutcome.score).toBeLessThan(30);
    expect(badOutcome.scoreStatus).toBe('unverified');
    expect(badOutcome.severityCounts.critical).toBeGreaterThanOrEqual(2);
    expect(goodOutcome.details.foundation).toMatchObject({
      robotsTxt: { present: true },
      sitemap: { present: true },
      llmsTxt: { present: true },
    });
  });

  it('gives findings a developer can act on: remediation, an agent action, affected URLs and evidence', () => {
    for (const finding of badOutcome.findings.filter((f) => f.severity !== 'info')) {
      expect(finding.remediation.length, finding.checkId).toBeGreaterThan(20);
      expect(finding.agentAction.length, finding.checkId).toBeGreaterThan(20);
      expect(finding.affectedUrls.length, finding.checkId).toBeGreaterThan(0);
    }
  });

  it('gives the same outcome for the same site', async () => {
    const again = await runAudit('ai_readiness', { url: `${good.origin}/`, local: false }, { allowPrivate: true });
    expect(again.score).toBe(goodOutcome.score);
    expect(again.findings.map((f) => f.checkId)).toEqual(goodOutcome.findings.map((f) => f.checkId));
  });

  it('runs a local on-page scan without the foundation files, and says what it did not evaluate', async () => {
    const local = await runAudit('ai_readiness', { url: `${good.origin}/`, local: true });
    expect(local.coverage).toEqual({
      mode: 'local_on_page',
      notEvaluated: expect.arrayContaining(['dns', 'tls', 'foundation_files']),
      evaluatedChecks: expect.any(Number),
      totalChecks: expect.any(Number),
    });
    expect(
      local.checks.some((c) => c.id.startsWith('robots') || c.id.startsWith('sitemap') || c.id === 'llms-txt'),
    ).toBe(false);
    expect(good.requests.filter((r) => r.path === '/robots.txt').length).toBeGreaterThan(0);
  });

  it('fails thin pages without scripts outright (not unverified)', async () => {
    const thin = await startFixtureSite({ '/': { body: html('<title>t</title>', '<main><h1>Hi</h1></main>') } });
    try {
      const outcome = await runAudit('ai_readiness', { url: `${thin.origin}/`, local: true });
      expect(status(outcome, 'content-in-html')).toBe('fail');
      expect(outcome.scoreStatus).toBeNull();
    } finally {
      await thin.close();
    }
  });

  it('reports progress from 0 to at least 90 with named steps', async () => {
    const steps: Array<[number, string]> = [];
    await runAudit(
      'ai_readiness',
      { url: `${good.origin}/`, local: false },
      { allowPrivate: true, onProgress: (pct, step) => steps.push([pct, step]) },
    );
    expect(steps[0]?.[0]).toBe(0);
    expect(steps.at(-1)?.[0]).toBeGreaterThanOrEqual(90);
    expect(steps.map(([pct]) => pct)).toEqual([...steps.map(([pct]) => pct)].sort((a, b) => a - b));
  });
});

describe('ai_readiness over HTTPS', () => {
  it('passes served-over-https and no-mixed-content on a clean HTTPS site, fails them where due', async () => {
    const { createTestCa, startSecureSites } = await import('../support/secure-sites.ts');
    const { startDnsServer } = await import('../support/dns-server.ts');
    const { createResolver } = await import('../../src/audit/net/resolver.ts');
    const ca = createTestCa();
    const body = (extra: string) =>
      html('<title>Tools</title>', `<main><h1>Tools</h1><p>${paragraph}</p>${extra}</main>`);
    const sites = await startSecureSites({
      'clean.test': {
        tls: ca.issue(['clean.test'], 100),
        https: { '/': { body: body('<img src="https://clean.test/a.png" alt="a">') } },
        http: {},
      },
      'mixed.test': {
        tls: ca.issue(['mixed.test'], 100),
        https: { '/': { body: body('<img src="http://mixed.test/a.png" alt="a">') } },
        http: {},
      },
    });
    const dns = await startDnsServer({ 'clean.test': { A: ['127.0.0.1'] }, 'mixed.test': { A: ['127.0.0.1'] } });
    const plain = await startFixtureSite({ '/': { body: body('') } });
    try {
      const options = { allowPrivate: true, resolver: createResolver([dns.address]), ports: sites.ports, ca: ca.caPem };
      const clean = await runAudit('ai_readiness', { url: 'https://clean.test/', local: false }, options);
      const mixed = await runAudit('ai_readiness', { url: 'https://mixed.test/', local: false }, options);
      const overHttp = await runAudit(
        'ai_readiness',
        { url: `${plain.origin}/`, local: false },
        { allowPrivate: true },
      );
      const status = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id)?.status;
      expect([status(clean, 'served-over-https'), status(clean, 'no-mixed-content')]).toEqual(['pass', 'pass']);
      expect(status(mixed, 'no-mixed-content')).toBe('fail');
      expect(status(overHttp, 'served-over-https')).toBe('fail');
    } finally {
      await sites.close();
      await dns.close();
      await plain.close();
      ca.cleanup();
    }
  });
});
