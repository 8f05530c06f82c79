// Findings a site owner reads in plain words (issue 25 review, item 9): no internal check id in a
// detail or a remediation, no field called “”, no evidence sentence ending on a colon with nothing
// after it, and a tracker's inline script quoted from the start of its statement (item 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/audit/catalogue.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const TEXT = `<p>${'Handmade shoes, resoled and repaired in our workshop. '.repeat(12)}</p>`;

/** A page with no links, no buttons and no scripts: what the checks list is empty. */
const BARE = html('<title>Cobbler</title>', `<main><h1>Cobbler</h1>${TEXT}</main>`);

/** Fields with no name attribute: a search box named only by its placeholder, an unlabelled textarea. */
const NAMELESS_FIELDS = html(
  '<title>Cobbler workshop: shoes resoled and repaired in two days</title>',
  `<main><h1>Cobbler</h1>${TEXT}
   <form action="/find"><input type="text" placeholder="Search shoes"><button>Search</button></form>
   <form action="/ask" method="post"><label>Email <input type="email" name="email" autocomplete="email"></label><textarea></textarea><button>Send my question</button></form></main>`,
);

/** Universal Analytics' snippet as sites pasted it: the id sits right after `analytics.js','ga');`. */
const GA_SNIPPET = html(
  '<title>Cobbler</title>',
  `<main><h1>Cobbler</h1>${TEXT}<a href="/contact">Contact us</a></main>
   <script>(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){(i[r].q=i[r].q||[]).push(arguments)}})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');ga('create','UA-12345-1','auto');ga('send','pageview');</script>`,
);

const CHECK_IDS = CATALOGUE.map(({ spec }) => spec.id);

describe('findings in plain words', () => {
  let site: FixtureSite;
  const outcomes = new Map<string, AuditOutcome<unknown>>();
  const finding = (path: string, id: string) => outcomes.get(path)?.findings.find((f) => f.checkId === id);

  beforeAll(async () => {
    site = await startFixtureSite({
      '/bare': { body: BARE },
      '/fields': { body: NAMELESS_FIELDS },
      '/ga': { body: GA_SNIPPET },
    });
    for (const path of ['/bare', '/fields', '/ga'])
      for (const product of ['ai_readiness', 'marketing_signal'] as const)
        outcomes.set(
          `${product}${path}`,
          await runAudit(product, { url: `${site.origin}${path}`, local: true }, { pageBudget: 1 }),
        );
  }, 60_000);
  afterAll(async () => {
    await site?.close();
  });

  it('ends no evidence on a colon when there is nothing to list', () => {
    expect(finding('marketing_signal/bare', 'mk-analytics')?.evidence[0]?.summary).toBe(
      'the inline scripts of 1 page(s) read (no script loaded from a URL), none of a known analytics tool or tag manager',
    );
    expect(finding('marketing_signal/bare', 'mk-legal-links')?.evidence[0]?.summary).toBe(
      'none of the 0 link(s) on 1 page(s) leads to a privacy policy; the home page has no links',
    );
    expect(finding('marketing_signal/bare', 'mk-call-to-action')?.evidence[0]?.summary).toBe(
      'no button or link with a label on the home page',
    );
    for (const [name, outcome] of outcomes)
      for (const f of outcome.findings)
        for (const evidence of f.evidence) expect(evidence.summary, `${name} ${f.checkId}`).not.toMatch(/:\s*$/);
  });

  it('lists what follows a colon when there is something to list', () => {
    expect(finding('marketing_signal/fields', 'mk-call-to-action')?.evidence[0]?.summary).toMatch(
      /none naming an action: “Search”/,
    );
  });

  it('calls a field with no name attribute so, never “”', () => {
    expect(finding('ai_readiness/fields', 'placeholder-only-label')?.evidence[0]?.summary).toContain(
      'a text field with no name is labelled only by its placeholder',
    );
    expect(finding('ai_readiness/fields', 'form-labels')?.evidence[0]?.summary).toContain(
      'a textarea field with no name',
    );
    expect(finding('marketing_signal/fields', 'mk-short-labelled-forms')?.evidence[0]?.summary).toContain(
      'an unlabelled textarea field with no name',
    );
    for (const [name, outcome] of outcomes)
      for (const f of outcome.findings) {
        expect(f.detail, `${name} ${f.checkId}`).not.toContain('“”');
        for (const evidence of f.evidence) expect(evidence.summary, `${name} ${f.checkId}`).not.toContain('“”');
      }
  });

  it('names no check by its id in a detail or a remediation', () => {
    for (const [name, outcome] of outcomes)
      for (const f of outcome.findings)
        for (const text of [f.detail, f.remediation])
          for (const id of CHECK_IDS)
            if (text.includes(id)) expect.fail(`${name} ${f.checkId}: “${text}” names the check ${id}`);
    // The remediations that pointed at another check by id now name its finding.
    expect(finding('ai_readiness/fields', 'form-labels')?.remediation).toContain(
      '"Fields whose only label disappears when typing"',
    );
  });

  it('quotes a tracker’s inline script from the start of its statement', () => {
    const consent = finding('marketing_signal/ga', 'mk-consent-before-tracking');
    expect(consent?.evidence[0]?.summary).toContain(
      "an inline script, “…ga('create','UA-12345-1','auto');ga('send','pageview');”",
    );
    expect(consent?.evidence[0]?.summary).not.toContain("js','ga')");
  });
});
