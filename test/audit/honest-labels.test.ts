// Honest labels (issue 10): a score that stands on part of the checks says so, an unverified one is
// never "Good", and a foundation file that was not read is "not evaluated" or "unknown", not missing.
// Found on real use: website_security on localhost was "100/100 (Excellent). No issues found." from
// 4 checks; an empty app shell was "84/100 Good" beside a plain-HTML site's 47.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/audit/catalogue.ts';
import { SEVERITY_WEIGHT } from '../../src/audit/checks.ts';
import { runAudit } from '../../src/audit/index.ts';
import { checkCounts } from '../../src/audit/outcome.ts';
import { foundationState } from '../../src/contract/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const LABELS = /^(Excellent|Good|Needs work|Poor)$/;
const VERDICTS = /Excellent|Good|Needs work|Poor/;
/** The checks of a product that weigh in its score, by the catalogue (docs/scoring.md, "Catalogue"). */
const weighted = (product: string) =>
  CATALOGUE.filter((c) => c.product === product && SEVERITY_WEIGHT[c.spec.severity] > 0).length;

let plain: FixtureSite;
let shell: FixtureSite;
/** A server that sends no security header at all, and one page script from a CDN without integrity. */
let bare: FixtureSite;
beforeAll(async () => {
  const body = `<main><h1>Plumbing in Springfield</h1><p>${'We fix leaks and boilers. '.repeat(20)}</p></main>`;
  plain = await startFixtureSite({
    '/': { body: html('<title>Smith Plumbing</title><meta name="description" content="Plumbers.">', body) },
    // The connection drops: nothing is learned about robots.txt.
    '/robots.txt': (req) => (req.socket as Socket).destroy(),
  });
  bare = await startFixtureSite({
    '/': {
      body: html(
        '<title>Dev server</title><script src="https://cdn.example.com/lib.js"></script>',
        '<main><h1>Dev</h1></main>',
      ),
    },
  });
  shell = await startFixtureSite({
    '/': {
      body: html(
        '<title>App</title><script type="module" src="/assets/index-4f2a.js"></script>',
        '<div id="root"></div>',
      ),
    },
  });
});
afterAll(async () => {
  await plain?.close();
  await shell?.close();
  await bare?.close();
});

describe('honest labels', () => {
  it('labels a local scan partial and says what it did not evaluate', async () => {
    const outcome = await runAudit('website_security', { url: `${plain.origin}/`, local: true });
    const scored = outcome.checks.filter((c) => c.status === 'pass' || c.status === 'fail').length;
    expect(outcome.scoreLabel).toMatch(/^Partial: \d+ of \d+ security checks evaluated$/);
    expect(Number(outcome.scoreLabel.match(/^Partial: (\d+) of/)?.[1])).toBeLessThanOrEqual(scored);
    expect(outcome.execSummary).toMatch(/^Partial: a local on-page scan evaluated \d+ of the \d+ security checks; /);
    expect(outcome.execSummary).toContain('not evaluated: DNS, TLS (HTTPS), redirects');
    expect(outcome.execSummary).not.toContain('No issues found');
    expect(outcome.coverage?.notEvaluated).toContain('response_header_security');
  });

  // Issue 24: a server that sends no security header at all read "100 Partial: Excellent on 4
  // evaluated checks", and one medium finding made another local site "33 Poor".
  it('counts the checks a local security scan evaluated against those of a full scan, and gives no verdict', async () => {
    const total = weighted('website_security');
    expect(total).toBeGreaterThan(30);
    const outcome = await runAudit('website_security', { url: `${bare.origin}/`, local: true });
    const evaluated = outcome.checks.filter(
      (c) => (c.status === 'pass' || c.status === 'fail') && SEVERITY_WEIGHT[c.severity] > 0,
    ).length;
    expect(evaluated).toBe(4);
    expect(outcome.coverage).toMatchObject({ mode: 'local_on_page', evaluatedChecks: 4, totalChecks: total });
    expect(outcome.scoreLabel).toBe(`Partial: 4 of ${total} security checks evaluated`);
    expect(outcome.scoreLabel).not.toMatch(VERDICTS);
    // The summary leads with the partial fact, names what was left out in words, then the number.
    expect(outcome.execSummary).toMatch(
      new RegExp(`^Partial: a local on-page scan evaluated 4 of the ${total} security checks; not evaluated: `),
    );
    expect(outcome.execSummary).toContain(
      'DNS, TLS (HTTPS), redirects, foundation files (robots.txt, sitemap, llms.txt), email authentication (SPF, DKIM, DMARC) and response headers (security headers, cookies).',
    );
    expect(outcome.execSummary).not.toMatch(/foundation_files|response_header_security/);
    expect(outcome.execSummary).toContain(`Website security score on those checks: ${outcome.score}/100.`);
    expect(outcome.execSummary).not.toMatch(VERDICTS);
    // The script without integrity is one medium finding: the score is low, and still not "Poor".
    expect(outcome.severityCounts.medium).toBe(1);
    expect(outcome.score).toBeLessThan(50);
  });

  it('gives the counts for every product, never more evaluated than a full scan has', async () => {
    for (const product of ['ai_readiness', 'marketing_signal', 'website_security'] as const) {
      const outcome = await runAudit(product, { url: `${plain.origin}/`, local: true });
      const coverage = outcome.coverage as NonNullable<typeof outcome.coverage>;
      expect(coverage.totalChecks, product).toBe(weighted(product));
      expect(coverage.evaluatedChecks, product).toBeGreaterThan(0);
      expect(coverage.evaluatedChecks, product).toBeLessThan(coverage.totalChecks);
      if (outcome.scoreStatus !== 'unverified')
        expect(outcome.scoreLabel, product).toMatch(
          new RegExp(`^Partial: ${coverage.evaluatedChecks} of ${coverage.totalChecks} `),
        );
    }
  });

  it('never gives an unverified app shell a label such as Good', async () => {
    for (const product of ['ai_readiness', 'marketing_signal'] as const) {
      const outcome = await runAudit(product, { url: `${shell.origin}/`, local: true });
      expect(outcome.scoreStatus).toBe('unverified');
      expect(outcome.scoreLabel).toBe('Unverified');
      expect(outcome.execSummary).toMatch(/score unverified: part of the content only appears after JavaScript runs/);
    }
  });

  it('keeps the plain scale for a full scan', async () => {
    const outcome = await runAudit('ai_readiness', { url: `${plain.origin}/`, local: false }, { allowPrivate: true });
    expect(outcome.coverage).toBeNull();
    expect(outcome.scoreStatus === 'unverified' ? 'Unverified' : outcome.scoreLabel).toMatch(
      outcome.scoreStatus === 'unverified' ? /^Unverified$/ : LABELS,
    );
  });

  it('says a robots.txt that could not be fetched is unknown, and a local scan did not read the files', async () => {
    const full = await runAudit('ai_readiness', { url: `${plain.origin}/`, local: false }, { allowPrivate: true });
    const robots = (full.details as { foundation: { robotsTxt: { present: boolean; notes: string } } }).foundation
      .robotsTxt;
    expect(robots.notes).toMatch(/^unknown: could not be fetched/);
    expect(foundationState(robots)).toBe('unknown');
    const local = await runAudit('ai_readiness', { url: `${plain.origin}/`, local: true });
    const files = (local.details as { foundation: Record<string, { present: boolean; notes: string }> }).foundation;
    expect(Object.values(files).map(foundationState)).toEqual(['not_evaluated', 'not_evaluated', 'not_evaluated']);
  });
});

// Review of issue 25: the same site gave "38 of 56", "42 of 59" as axe found more or fewer rules
// failing (a passing axe rule has no row). The counts are the catalogue's, whatever axe found.
describe('the counts a partial label gives', () => {
  it('are the catalogue’s weighted checks, the same whatever axe rules failed', () => {
    const weighted = CATALOGUE.filter((c) => c.product === 'ai_readiness' && SEVERITY_WEIGHT[c.spec.severity] > 0);
    const rows = weighted.slice(0, 10).map(({ spec }) => ({ ...spec, status: 'pass' as const, detail: '' }));
    const axe = { ...(rows[0] as (typeof rows)[number]), id: 'axe-color-contrast', status: 'fail' as const };
    expect(checkCounts('ai_readiness', rows)).toEqual({ evaluated: 10, total: weighted.length });
    expect(checkCounts('ai_readiness', [...rows, axe])).toEqual({ evaluated: 10, total: weighted.length });
  });
});
