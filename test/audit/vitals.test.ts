// Lab Core Web Vitals (issue 29), in Debian's Chromium: the renderer's LCP, CLS and TBT on fixture
// pages (a fast page, a late banner that pushes the text down, a script that blocks after first
// paint, a hero image a script asks for late) against Lighthouse 13.5's lab values on the same pages
// at the same profile (slow 4G and a 4x CPU slowdown as DevTools throttling, 1280x900), the
// findings they give in both reports with the elements named, and no row for a page not measured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { band, LIGHTHOUSE_LAB_FLAGS, METRICS } from '../../src/audit/checks/vitals.ts';
import { type AuditOptions, runAudit } from '../../src/audit/index.ts';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { createChromiumRenderer, type Renderer, subresourcesFrom } from '../../src/audit/render/renderer.ts';
import { MOBILE_SLOW_4G, throttledLink } from '../../src/audit/render/throttle.ts';
import type { PageVitals } from '../../src/audit/render/vitals.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureRoute, type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { createVerifyEnv, type VerifyEnv } from '../support/verify-env.ts';
import { VITALS_FIXTURES, type VitalsFixture, type VitalsRoutes } from '../support/vitals-pages.ts';

/**
 * How far the renderer's values may be from Lighthouse's on the same page (docs/scoring.md, "Core
 * Web Vitals"). Both apply the same throttling, so what differs is each run's own timing: the
 * renderer answers every request through interception (some tens of milliseconds per request in the
 * chain, more on a loaded machine), and on a busy machine a first paint can land either side of one
 * round trip of the throttled link (a parser-blocking script arriving 562.5 ms after the document).
 * Measured over 6 runs of these pages on this machine's 2 cores, shared with other tests (load
 * average 1 to 8): LCP from 0.82 to 1.16 of Lighthouse's (1.48 once, 1,092 against 739 ms, at load
 * 8), the late hero's 4.6 s within 2 to 8%; TBT from 0.94 to 0.97; CLS 0.428 against 0.433 every
 * time. So: LCP within 25% or one request latency of the profile (562.5 ms), TBT within 25% or
 * 100 ms, CLS within 0.05 absolute; and on every page the same web.dev band for each metric.
 */
const TOLERANCE = {
  lcp: { ratio: 0.25, absolute: MOBILE_SLOW_4G.requestLatencyMs },
  tbt: { ratio: 0.25, absolute: 100 },
  cls: { ratio: 0, absolute: 0.05 },
} as const;

const within = (key: keyof typeof TOLERANCE, ours: number, theirs: number) =>
  Math.abs(ours - theirs) <= Math.max(TOLERANCE[key].ratio * theirs, TOLERANCE[key].absolute);

interface LabValues {
  lcp: number;
  cls: number;
  tbt: number;
}

const LINE_TIMEOUT = 150_000;

describe.skipIf(!hasChromium)('lab Core Web Vitals', () => {
  let renderer: Renderer;
  let env: VerifyEnv;

  beforeAll(() => {
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    env = createVerifyEnv();
  });
  afterAll(async () => {
    await renderer?.close();
    env?.close();
  });

  async function serve<T>(routes: VitalsRoutes, use: (site: FixtureSite) => Promise<T>): Promise<T> {
    const site = await startFixtureSite(routes);
    try {
      return await use(site);
    } finally {
      await site.close();
    }
  }

  /** One render of the page, as the audit renders it; `vitals` asked or not. */
  async function render(site: FixtureSite, vitals: boolean) {
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 10_000 });
    const session = await renderer.session(subresourcesFrom(fetcher));
    try {
      const url = `${site.origin}/`;
      const page = await fetcher.fetch(url, AbortSignal.timeout(10_000));
      return await session.render({ url, status: page.status, headers: page.headers, body: page.body }, { vitals });
    } finally {
      await session.close();
    }
  }

  /** Lighthouse's lab values at the renderer's profile: its JSON's numericValue of each audit. */
  async function lighthouse(url: string): Promise<LabValues> {
    const audits = Object.values(METRICS).map((m) => m.audit);
    const line = `npx lighthouse ${url} --only-audits=${audits.join(',')} ${LIGHTHOUSE_LAB_FLAGS} --chrome-flags=--headless --quiet --output=json`;
    const result = await env.run(line, {}, LINE_TIMEOUT);
    const report = JSON.parse(result.stdout) as {
      audits: Record<string, { numericValue?: number; errorMessage?: string }>;
    };
    const value = (audit: string) => {
      const numeric = report.audits[audit]?.numericValue;
      if (numeric === undefined) throw new Error(`Lighthouse gave no ${audit}: ${report.audits[audit]?.errorMessage}`);
      return numeric;
    };
    return {
      lcp: value(METRICS.lcp.audit),
      cls: value(METRICS.cls.audit),
      tbt: value(METRICS.tbt.audit),
    };
  }

  const valuesOf = (vitals: PageVitals): LabValues => ({
    lcp: vitals.lcp?.value ?? Number.NaN,
    cls: vitals.cls.value,
    tbt: vitals.tbt.value,
  });

  const bands = (values: LabValues) => ({
    lcp: band(METRICS.lcp, { value: values.lcp }),
    cls: band(METRICS.cls, { value: values.cls }),
    tbt: band(METRICS.tbt, { value: values.tbt }),
  });

  const expectedBands = (fixture: VitalsFixture) => ({
    lcp: fixture.poor === 'lcp' ? 'poor' : 'good',
    cls: fixture.poor === 'cls' ? 'poor' : 'good',
    tbt: fixture.poor === 'tbt' ? 'poor' : 'good',
  });

  // One page at a time: Lighthouse and the renderer each want the machine's CPU to themselves.
  describe('match Lighthouse on the same pages', () => {
    for (const fixture of VITALS_FIXTURES)
      it(
        fixture.name,
        () =>
          serve(fixture.before, async (site) => {
            const rendered = await render(site, true);
            expect(rendered.vitalsError).toBeUndefined();
            const vitals = rendered.vitals as PageVitals;
            expect(vitals.cut, 'the page settled within the throttled window').toBeUndefined();
            const ours = valuesOf(vitals);
            const theirs = await lighthouse(`${site.origin}/`);
            const compared = `ours ${JSON.stringify(ours)}, Lighthouse ${JSON.stringify(theirs)}`;
            process.stdout.write(`[vitals] ${fixture.name}: ${compared}\n`);
            expect(within('lcp', ours.lcp, theirs.lcp), `LCP: ${compared}`).toBe(true);
            expect(within('cls', ours.cls, theirs.cls), `CLS: ${compared}`).toBe(true);
            expect(within('tbt', ours.tbt, theirs.tbt), `TBT: ${compared}`).toBe(true);
            // The verdicts a site owner reads are the same, and the fixture's defect is the one found.
            expect(bands(ours), compared).toEqual(expectedBands(fixture));
            expect(bands(theirs), compared).toEqual(expectedBands(fixture));
          }),
        4 * LINE_TIMEOUT,
      );
  });

  describe('findings', () => {
    const options = (): AuditOptions => ({
      allowPrivate: true,
      timeoutMs: 10_000,
      pageBudget: 1,
      render: { renderer, mode: 'always' },
    });
    const fixture = (poor: VitalsFixture['poor']) => VITALS_FIXTURES.find((f) => f.poor === poor) as VitalsFixture;

    it('names the LCP element, a late image, and offers to preload it', () =>
      serve(fixture('lcp').before, async (site) => {
        const url = `${site.origin}/`;
        const outcome = await runAudit('ai_readiness', { url, local: false }, options());
        const finding = outcome.findings.find((f) => f.checkId === 'largest-contentful-paint');
        expect(finding, outcome.findings.map((f) => f.checkId).join(', ')).toMatchObject({
          severity: 'medium',
          category: 'performance',
          affectedUrls: [url],
        });
        expect(finding?.evidence[0]?.summary).toMatch(
          /^LCP \d\.\d s \(poor\): the largest element, “<img src="\/hero\.png"/,
        );
        expect(finding?.evidence[0]?.elements?.[0]).toMatchObject({
          selector: 'div#hero > img',
          snippet: expect.stringMatching(/^<img src="\/hero\.png" alt="A forged spade"/),
        });
        expect(finding?.remediation).toContain('<img src="/hero.png"');
        expect(finding?.suggestions?.[0]?.content).toBe(
          `<link rel="preload" as="image" href="${site.origin}/hero.png" fetchpriority="high">`,
        );
        expect(finding?.verify).toBe(
          `npx lighthouse ${url} --only-audits=largest-contentful-paint ${LIGHTHOUSE_LAB_FLAGS} --chrome-flags=--headless --quiet --output=json | grep -A5 '"id": "largest-contentful-paint"' | grep '"numericValue"'`,
        );
        expect(finding?.references.map((r) => r.url)).toContain('https://web.dev/articles/lcp');
        // The other two metrics of the same page are good.
        for (const id of ['cumulative-layout-shift', 'total-blocking-time'])
          expect(outcome.checks.find((c) => c.id === id)?.status, id).toBe('pass');
      }));

    it('names the elements a late banner pushed down, in both reports', () =>
      serve(fixture('cls').before, async (site) => {
        const url = `${site.origin}/`;
        const ai = await runAudit('ai_readiness', { url, local: false }, options());
        const shift = ai.findings.find((f) => f.checkId === 'cumulative-layout-shift');
        expect(shift?.severity).toBe('medium');
        expect(shift?.evidence[0]?.summary).toMatch(
          /^CLS 0\.\d\d \(poor\): the largest shift \(0\.\d\d\) at \d\.\d s moved “<p>” \(body > main > p:nth-of-type\(1\)\)/,
        );
        expect(shift?.evidence[0]?.elements?.[0]).toEqual({
          selector: 'body > main > p:nth-of-type(1)',
          snippet: '<p>',
        });
        const marketing = await runAudit('marketing_signal', { url, local: false }, options());
        const row = marketing.checks.find((c) => c.id === 'mk-cumulative-layout-shift');
        expect(row).toMatchObject({ status: 'fail', stage: 'improve', category: 'performance_ux' });
        expect(marketing.findings.find((f) => f.checkId === 'mk-cumulative-layout-shift')?.title).toBe(
          'The layout jumps while the page loads (Cumulative Layout Shift)',
        );
      }));

    it('counts the blocking time of a script after first paint', () =>
      serve(fixture('tbt').before, async (site) => {
        const url = `${site.origin}/`;
        const outcome = await runAudit('ai_readiness', { url, local: false }, options());
        const finding = outcome.findings.find((f) => f.checkId === 'total-blocking-time');
        expect(finding?.evidence[0]?.summary).toMatch(
          /^TBT \d+ ms \(poor\): [34] long task\(s\) on the main thread, the longest 3\d\d ms$/,
        );
        expect(finding?.detail).toContain('good ≤ 200 ms, poor > 600 ms');
      }));

    it('passes the fixed pages', async () => {
      for (const f of VITALS_FIXTURES)
        await serve(f.after, async (site) => {
          const url = `${site.origin}/`;
          const ai = await runAudit('ai_readiness', { url, local: false }, options());
          const marketing = await runAudit('marketing_signal', { url, local: false }, options());
          for (const id of ['largest-contentful-paint', 'cumulative-layout-shift', 'total-blocking-time']) {
            expect(ai.checks.find((c) => c.id === id)?.status, `${f.name}: ${id}`).toBe('pass');
            expect(marketing.checks.find((c) => c.id === `mk-${id}`)?.status, `${f.name}: mk-${id}`).toBe('pass');
          }
        });
    }, 240_000);

    it('measures the home page and two more of a run, not every page it renders', async () => {
      const text = `<p>${'Hand-forged spades and forks for small farms. '.repeat(12)}</p>`;
      const routes: VitalsRoutes = {
        '/': {
          body: html(
            '<title>Forge</title>',
            `<main><h1>Forge</h1>${text}<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/d">D</a></main>`,
          ),
        },
        '/d': { body: html('<title>D</title>', `<main><h1>D</h1>${text}<script src="/app.js"></script></main>`) },
        '/app.js': (VITALS_FIXTURES.find((f) => f.poor === 'tbt') as VitalsFixture).before['/app.js'] as FixtureRoute,
      };
      for (const path of ['/a', '/b', '/c'])
        routes[path] = { body: html(`<title>${path}</title>`, `<main><h1>${path}</h1>${text}</main>`) };
      await serve(routes, async (site) => {
        const url = `${site.origin}/`;
        const outcome = await runAudit('ai_readiness', { url, local: false }, { ...options(), pageBudget: 5 });
        expect(outcome.rendering?.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/a', '/b', '/c', '/d']);
        // /d blocks its main thread for 750 ms, but it is the fifth page: not measured, not a finding.
        const tbt = outcome.checks.find((c) => c.id === 'total-blocking-time');
        expect(tbt?.status).toBe('pass');
        expect(tbt?.detail).toMatch(/^TBT good on 3 page\(s\) measured/);
        expect(outcome.findings.filter((f) => f.affectedUrls.includes(`${site.origin}/d`))).not.toContainEqual(
          expect.objectContaining({ checkId: 'total-blocking-time' }),
        );
      });
    }, 120_000);

    it('gives no row for a page not rendered', () =>
      serve(fixture('tbt').before, async (site) => {
        const url = `${site.origin}/`;
        const ids = ['largest-contentful-paint', 'cumulative-layout-shift', 'total-blocking-time'];
        const unrendered = await runAudit('ai_readiness', { url, local: false }, { allowPrivate: true, pageBudget: 1 });
        expect(unrendered.checks.filter((c) => ids.includes(c.id))).toEqual([]);
        expect(unrendered.findings.filter((f) => ids.includes(f.checkId))).toEqual([]);
        const never = await runAudit(
          'marketing_signal',
          { url, local: false },
          { allowPrivate: true, pageBudget: 1, render: { renderer, mode: 'never' } },
        );
        expect(never.checks.filter((c) => c.id.startsWith('mk-') && ids.includes(c.id.slice(3)))).toEqual([]);
      }));
  });

  it('adds a bounded time to a render (the figures in docs/scoring.md)', async () => {
    for (const f of VITALS_FIXTURES)
      await serve(f.before, async (site) => {
        const plain = await render(site, false);
        const measured = await render(site, true);
        process.stdout.write(
          `[vitals] ${f.name}: render ${plain.ms} ms without measuring, ${measured.ms} ms with (+${measured.ms - plain.ms} ms)\n`,
        );
        // At most the throttled window (6 s of the 15 s deadline) and the second of quiet after it.
        expect(measured.ms - plain.ms).toBeLessThan(7000);
        expect(measured.error).toBeUndefined();
      });
  }, 240_000);
});

describe('the throttled link', () => {
  it('holds each response for the latency, then shares the throughput among those in flight', async () => {
    // 100 ms of latency, 10 bytes per ms: 1,000 bytes alone take 100 ms, two at once 200 ms.
    const link = throttledLink({
      name: 'test',
      requestLatencyMs: 100,
      downloadThroughputKbps: 78.125,
      cpuSlowdownMultiplier: 1,
    });
    const start = performance.now();
    const ended: number[] = [];
    await Promise.all([
      link.deliver(start, 1000).then(() => ended.push(performance.now() - start)),
      link.deliver(start, 1000).then(() => ended.push(performance.now() - start)),
    ]);
    expect(Math.min(...ended)).toBeGreaterThanOrEqual(290);
    expect(Math.max(...ended)).toBeLessThan(400);
    // A response whose fetch took longer than the latency is held no more for it.
    const late = performance.now();
    await link.deliver(late - 500, 100);
    expect(performance.now() - late).toBeLessThan(60);
  });

  it('lets everything through at once when released', async () => {
    const link = throttledLink(MOBILE_SLOW_4G);
    const start = performance.now();
    const held = link.deliver(start, 10_000_000);
    setTimeout(() => link.release(), 50);
    await held;
    expect(performance.now() - start).toBeLessThan(500);
    await link.deliver(performance.now(), 10_000_000);
    expect(link.released).toBe(true);
  });
});

describe('bands', () => {
  it.each([
    ['lcp', 2500, 'good'],
    ['lcp', 2501, 'needs improvement'],
    ['lcp', 4000, 'needs improvement'],
    ['lcp', 4001, 'poor'],
    ['cls', 0.1, 'good'],
    ['cls', 0.25, 'needs improvement'],
    ['cls', 0.2501, 'poor'],
    ['tbt', 200, 'good'],
    ['tbt', 600, 'needs improvement'],
    ['tbt', 601, 'poor'],
  ] as const)('%s %d is %s', (key, value, expected) => {
    expect(band(METRICS[key], { value })).toBe(expected);
  });

  it('judges a bound only when it is poor already', () => {
    expect(band(METRICS.lcp, { value: 6000, atLeast: true })).toBe('poor');
    expect(band(METRICS.lcp, { value: 3000, atLeast: true })).toBeUndefined();
  });
});
