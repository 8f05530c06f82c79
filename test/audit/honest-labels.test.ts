// Honest labels (issue 10): a score that stands on part of the checks says so, an unverified one is
// never "Good", and a foundation file that was not read is "not evaluated" or "unknown", not missing.
// Found on real use: website_security on localhost was "100/100 (Excellent). No issues found." from
// 4 checks; an empty app shell was "84/100 Good" beside a plain-HTML site's 47.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/index.ts';
import { foundationState } from '../../src/contract/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const LABELS = /^(Excellent|Good|Needs work|Poor)$/;

let plain: FixtureSite;
let shell: FixtureSite;
beforeAll(async () => {
  const body = `<main><h1>Plumbing in Springfield</h1><p>${'We fix leaks and boilers. '.repeat(20)}</p></main>`;
  plain = await startFixtureSite({
    '/': { body: html('<title>Smith Plumbing</title><meta name="description" content="Plumbers.">', body) },
    // The connection drops: nothing is learned about robots.txt.
    '/robots.txt': (req) => (req.socket as Socket).destroy(),
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
});

describe('honest labels', () => {
  it('labels a local scan partial and says what it did not evaluate', async () => {
    const outcome = await runAudit('website_security', { url: `${plain.origin}/`, local: true });
    const scored = outcome.checks.filter((c) => c.status === 'pass' || c.status === 'fail').length;
    expect(outcome.scoreLabel).toMatch(/^Partial: (Excellent|Good|Needs work|Poor) on \d+ evaluated checks$/);
    expect(Number(outcome.scoreLabel.match(/on (\d+) evaluated/)?.[1])).toBeLessThanOrEqual(scored);
    expect(outcome.execSummary).toContain('a local on-page scan; not evaluated: dns, tls, redirects');
    expect(outcome.execSummary).not.toContain('No issues found');
    expect(outcome.coverage?.notEvaluated).toContain('response_header_security');
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
