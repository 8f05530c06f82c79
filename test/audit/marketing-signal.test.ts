// The marketing_signal product against fixture hosts on loopback: each check passes on the
// well-built site and fails on a defective one; an app shell leaves content stages unverified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import type { MarketingSignalDetails } from '../../src/audit/products/marketing-signal.ts';
import { MarketingSignalReport } from '../../src/contract/index.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { expectCheckStatuses } from '../support/expect-checks.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { createTestCa, type SecureSites, startSecureSites, type TestCa } from '../support/secure-sites.ts';

const business = JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'LocalBusiness',
  name: 'Acme Tools',
  url: 'https://brand.test/',
  telephone: '+44 20 7946 0000',
  address: { '@type': 'PostalAddress', streetAddress: '1 Forge Lane', addressLocality: 'Sheffield' },
  sameAs: ['https://www.linkedin.com/company/acme'],
  aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.8', reviewCount: '120' },
});

const goodHome = html(
  '<title>Forged garden tools for small farms — Acme</title>' +
    '<meta name="description" content="Hand-forged hoes, forks and spades for small farms, guaranteed for twenty years. Book a demo at our forge.">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="google-site-verification" content="abc">' +
    '<meta property="og:title" content="Acme"><meta property="og:type" content="website"><meta property="og:image" content="https://brand.test/og.png"><meta property="og:url" content="https://brand.test/">' +
    '<meta name="twitter:card" content="summary_large_image">' +
    `<script type="application/ld+json">${business}</script>` +
    '<script src="https://consent.cookiebot.com/uc.js" data-cbid="x"></script>' +
    "<script>(function(w,d,s,l,i){w[l]=w[l]||[];var j=d.createElement(s);j.src='https://www.googletagmanager.com/gtm.js?id='+i;d.head.appendChild(j)})(window,document,'script','dataLayer','GTM-ABC123');</script>" +
    '<script src="https://static.hotjar.com/c/hotjar-1.js"></script>',
  '<header><a href="/">Acme</a> <a href="/pricing">Pricing</a> <a href="/contact">Contact us</a> <a class="button" href="/demo">Book a demo</a></header>' +
    '<main><h1>Forged garden tools for small farms</h1><p>Every tool is forged by hand.</p><h2>What our customers say</h2><blockquote>Best hoe I have owned.</blockquote>' +
    '<form action="https://brand.test/contact" method="post"><label for="e">Email</label><input id="e" name="email" type="email" autocomplete="email"><button>Request a quote</button></form>' +
    '<img src="/hoe.jpg" alt="A hoe" width="400" height="300"></main>' +
    '<footer><a href="tel:+442079460000">Call us</a> <a href="mailto:hello@brand.test">Email us</a> <a href="/privacy">Privacy policy</a> <a href="/terms">Terms</a> <a href="https://www.linkedin.com/company/acme">LinkedIn</a></footer>',
);

const cheapHome = html(
  '<title>Home</title><meta name="twitter:card" content="big">' +
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABCDEF1234"></script>' +
    "<script>!function(f,b,e,v){f.fbq=function(){};}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init','123');</script>" +
    `<!-- ${'x'.repeat(520 * 1024)} -->`,
  '<h1>Welcome</h1><a href="/x">Click here</a><img src="/a.png" alt="a">' +
    `<form action="http://cheap.test/x" method="post">${Array.from({ length: 9 }, (_, i) => `<input name="f${i}">`).join('')}<button>Submit</button></form>`,
);

const formlessHome = html(
  '<meta name="robots" content="noindex"><title>x</title>' +
    '<script async src="https://www.googletagmanager.com/gtag/js?id=UA-1234567-1"></script><script async src="https://www.googletagmanager.com/gtag/js?id=UA-1234567-1"></script>',
  '<p>Some words about us, but no path onward.</p>',
);

describe('marketing_signal', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  const outcomes: Record<string, AuditOutcome<MarketingSignalDetails>> = {};

  beforeAll(async () => {
    ca = createTestCa();
    const plain = (body: string, headers: Record<string, string | string[]> = {}) => ({ '/': { body, headers } });
    sites = await startSecureSites({
      'brand.test': {
        tls: ca.issue(['brand.test'], 200),
        https: {
          ...plain(goodHome),
          '/sitemap.xml': {
            headers: { 'content-type': 'application/xml' },
            body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://brand.test/</loc></url></urlset>',
          },
        },
        http: {},
      },
      'cheap.test': { tls: ca.issue(['cheap.test'], 200), https: plain(cheapHome), http: {} },
      'formless.test': {
        tls: ca.issue(['formless.test'], 200),
        https: plain(formlessHome, { 'set-cookie': ['_ga=GA1.1.1; Path=/'] }),
        http: {},
      },
      'shell.test': {
        tls: ca.issue(['shell.test'], 200),
        https: plain(html('<title>App</title>', '<div id="root"></div><script src="/app.js"></script>')),
        http: {},
      },
    });
    dns = await startDnsServer(
      Object.fromEntries(
        ['brand.test', 'cheap.test', 'formless.test', 'shell.test'].map((h) => [h, { A: ['127.0.0.1'] }]),
      ),
    );
    const options = {
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ports: sites.ports,
      ca: ca.caPem,
      maxBytes: 4 * 1024 * 1024,
    };
    for (const host of ['brand.test', 'cheap.test', 'formless.test', 'shell.test']) {
      outcomes[host] = await runAudit('marketing_signal', { url: `https://${host}/`, local: false }, options);
    }
  });
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  it.each([
    // [check, brand.test (good), cheap.test, formless.test]
    ['mk-indexable', 'pass', 'pass', 'fail'],
    ['mk-title-length', 'pass', 'fail', 'fail'],
    ['mk-description-length', 'pass', 'fail', 'fail'],
    ['mk-sitemap', 'pass', 'fail', 'fail'],
    ['mk-business-schema', 'pass', 'fail', 'fail'],
    ['mk-open-graph', 'pass', 'fail', 'fail'],
    ['mk-twitter-card', 'pass', 'fail', 'fail'],
    // cheap.test's nine-field form is a way to reach the business, for this check as for mk-contact-or-booking.
    ['mk-contact-paths', 'pass', 'pass', 'fail'],
    ['mk-social-proof', 'pass', 'fail', 'fail'],
    ['mk-legal-links', 'pass', 'fail', 'fail'],
    ['mk-social-profiles', 'pass', 'fail', 'fail'],
    ['mk-https', 'pass', 'pass', 'pass'],
    ['mk-call-to-action', 'pass', 'fail', 'fail'],
    ['mk-specific-cta-labels', 'pass', 'fail', 'pass'],
    ['mk-short-labelled-forms', 'pass', 'fail', 'pass'],
    ['mk-contact-or-booking', 'pass', 'pass', 'fail'],
    ['mk-specific-h1', 'pass', 'fail', 'fail'],
    ['mk-pricing-visible', 'pass', 'fail', 'fail'],
    ['mk-analytics', 'pass', 'pass', 'pass'],
    ['mk-no-legacy-ua', 'pass', 'pass', 'fail'],
    ['mk-no-duplicate-tags', 'pass', 'pass', 'fail'],
    ['mk-consent-before-tracking', 'pass', 'fail', 'fail'],
    ['mk-no-tracking-cookies-on-first-response', 'pass', 'pass', 'fail'],
    ['mk-viewport', 'pass', 'fail', 'fail'],
    ['mk-page-weight', 'pass', 'fail', 'pass'],
    ['mk-image-dimensions', 'pass', 'fail', 'pass'],
    ['mk-ad-pixels', 'info', 'info', 'info'],
    ['mk-experimentation-tools', 'info', 'info', 'info'],
  ])('%s: good %s, cheap %s, formless %s', (id, good, cheap, formless) => {
    expectCheckStatuses(outcomes, id, { 'brand.test': good, 'cheap.test': cheap, 'formless.test': formless });
  });

  it('names what it detected: the tag manager, the consent manager, pixels and heatmaps', () => {
    const detail = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id)?.detail;
    expect(detail('brand.test', 'mk-analytics')).toContain('Google Tag Manager');
    expect(detail('brand.test', 'mk-consent-before-tracking')).toContain('Cookiebot');
    expect(detail('brand.test', 'mk-experimentation-tools')).toContain('Hotjar');
    expect(detail('cheap.test', 'mk-ad-pixels')).toContain('Meta Pixel');
  });

  it('names Universal Analytics in the consent finding, with the script that loads it as evidence', () => {
    const consent = outcomes['formless.test']?.findings.find((f) => f.checkId === 'mk-consent-before-tracking');
    expect(consent?.detail).toContain('Universal Analytics');
    expect(consent?.detail).not.toContain('()');
    expect(consent?.evidence[0]?.elements?.[0]?.snippet).toBe(
      '<script async src="https://www.googletagmanager.com/gtag/js?id=UA-1234567-1">',
    );
    expect(consent?.evidence[0]?.summary).toContain('Universal Analytics (UA-1234567-1)');
  });

  it('gives every finding evidence: the element or the text it judged', () => {
    for (const host of ['cheap.test', 'formless.test']) {
      const bare = outcomes[host]?.findings.filter((f) => f.evidence.length === 0).map((f) => f.checkId);
      expect(bare, host).toEqual([]);
    }
    const cta = outcomes['cheap.test']?.findings.find((f) => f.checkId === 'mk-call-to-action');
    expect(cta?.evidence[0]?.summary).toContain('“Click here”');
    expect(cta?.evidence[0]?.elements?.map((e) => e.snippet)).toContain('<a href="/x">');
  });

  it('scores five stages blended 20/20/25/25/10, with measure at most medium confidence', () => {
    const good = outcomes['brand.test'] as AuditOutcome<MarketingSignalDetails>;
    expect(good.details.stageScores.map((s) => s.stage)).toEqual(['find', 'trust', 'act', 'measure', 'improve']);
    expect(good.details.stageScores.every((s) => s.status === 'scored' && s.score === 100)).toBe(true);
    expect(good.details.stageScores.find((s) => s.stage === 'measure')?.confidence).toBe('medium');
    expect(good.score).toBe(100);
    expect(good.details.sourceCoverage).toBe('public_only');
    const cheap = outcomes['cheap.test'] as AuditOutcome<MarketingSignalDetails>;
    const blended = Math.round(
      cheap.details.stageScores.reduce(
        (sum, s) => sum + s.score * { find: 20, trust: 20, act: 25, measure: 25, improve: 10 }[s.stage],
        0,
      ) / 100,
    );
    expect(cheap.score).toBe(blended);
    expect(cheap.findings.every((f) => f.stage !== undefined)).toBe(true);
  });

  it('leaves content stages of an app shell unverified, and the score with them', () => {
    const shell = outcomes['shell.test'] as AuditOutcome<MarketingSignalDetails>;
    const byStage = Object.fromEntries(shell.details.stageScores.map((s) => [s.stage, s]));
    expect([byStage.find?.status, byStage.trust?.status, byStage.act?.status]).toEqual([
      'unverified',
      'unverified',
      'unverified',
    ]);
    expect(byStage.find?.confidence).toBe('low');
    expect(shell.scoreStatus).toBe('unverified');
  });

  it('fails mk-https on a site served over plain HTTP', async () => {
    const site = await startFixtureSite({ '/': { body: goodHome } });
    try {
      const outcome = await runAudit(
        'marketing_signal',
        { url: `${site.origin}/`, local: false },
        { allowPrivate: true },
      );
      expect(outcome.checks.find((c) => c.id === 'mk-https')?.status).toBe('fail');
    } finally {
      await site.close();
    }
  });

  it('answers a report context the contract accepts', async () => {
    const { toFindings, toReportContext } = await import('../../src/audit/report.ts');
    const outcome = outcomes['cheap.test'] as AuditOutcome<MarketingSignalDetails>;
    const meta = {
      runId: '0190f5a0-0000-7000-8000-000000000001',
      projectId: null,
      scanMode: 'paid_marketing_signal',
      createdAt: '2026-11-21T00:00:00.000Z',
      completedAt: '2026-11-21T00:01:00.000Z',
      humanUrl: 'http://127.0.0.1/runs/x',
    };
    const findings = toFindings(outcome, meta);
    const report = MarketingSignalReport.parse(toReportContext(outcome, meta, findings));
    expect(report.topFindings.every((f) => f.stage)).toBe(true);
    expect(report.templatesAudited).toBeGreaterThanOrEqual(1);
  });
});

// Every common tracker by its script and its ids (issue 25: a list without Universal Analytics
// named nothing); cookieless analytics are named as such and need no consent.
const TRACKER_SNIPPETS: Array<[name: string, script: string]> = [
  ['Universal Analytics', '<script async src="https://www.googletagmanager.com/gtag/js?id=UA-1234567-1"></script>'],
  ['Google Analytics 4', "<script>gtag('config', 'G-ABCDEF1234');</script>"],
  [
    'Google Tag Manager',
    "<script>(function(w,d,s,l,i){j.src='https://www.googletagmanager.com/gtm.js?id='+i})(window,document,'script','dataLayer','GTM-ABC123');</script>",
  ],
  ['Google Ads', '<script async src="https://www.googletagmanager.com/gtag/js?id=AW-123456789"></script>'],
  ['Meta Pixel', "<script>fbq('init', '1234567890');fbq('track', 'PageView');</script>"],
  ['LinkedIn Insight', '<script async src="https://snap.licdn.com/li.lms-analytics/insight.min.js"></script>'],
  ['TikTok Pixel', "<script>ttq.load('C4ABCDEFGH12IJKL3MN0');ttq.page();</script>"],
  ['Hotjar', '<script>h._hjSettings={hjid:3456789,hjsv:6};</script>'],
  ['Microsoft Clarity', '<script async src="https://www.clarity.ms/tag/k3j4h5g6f7"></script>'],
  ['Matomo', "<script>var _paq = window._paq || [];_paq.push(['trackPageView']);</script>"],
  ['Segment', '<script>analytics.load("AbCdEf1234567890");</script>'],
  ['HubSpot', '<script id="hs-script-loader" async defer src="//js.hs-scripts.com/7654321.js"></script>'],
];

describe('trackers', () => {
  let site: FixtureSite;
  let quiet: FixtureSite;
  let outcome: AuditOutcome<MarketingSignalDetails>;
  let cookieless: AuditOutcome<MarketingSignalDetails>;
  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: html(`<title>Trackers</title>${TRACKER_SNIPPETS.map(([, s]) => s).join('')}`, '<h1>Tracked</h1>') },
    });
    quiet = await startFixtureSite({
      '/': {
        body: html(
          '<title>Quiet</title><script defer data-domain="quiet.test" src="https://plausible.io/js/script.js"></script><script src="https://cdn.usefathom.com/script.js" data-site="ABC" defer></script>',
          '<h1>Counted without cookies</h1>',
        ),
      },
    });
    const options = { allowPrivate: true };
    outcome = await runAudit('marketing_signal', { url: `${site.origin}/`, local: false }, options);
    cookieless = await runAudit('marketing_signal', { url: `${quiet.origin}/`, local: false }, options);
  });
  afterAll(async () => {
    await site?.close();
    await quiet?.close();
  });

  it.each(TRACKER_SNIPPETS)('recognises %s and names it, with its script, in the consent finding', (name, script) => {
    const consent = outcome.findings.find((f) => f.checkId === 'mk-consent-before-tracking');
    expect(consent?.detail).toContain(name);
    // Ten evidence items at most: one per tracker, the last naming the rest.
    const evidence = consent?.evidence.find((e) => e.summary.includes(name));
    const tag = script.slice(0, script.indexOf('>') + 1);
    expect(evidence?.elements?.map((e) => e.snippet)).toContain(tag);
  });

  it('names cookieless analytics as such, and asks no consent for them', () => {
    expect(cookieless.checks.find((c) => c.id === 'mk-analytics')?.detail).toBe(
      'analytics: Plausible (cookieless), Fathom (cookieless)',
    );
    const consent = cookieless.checks.find((c) => c.id === 'mk-consent-before-tracking');
    expect(consent?.status).toBe('pass');
    expect(consent?.detail).toContain('only cookieless analytics (Plausible, Fathom)');
  });
});
