// A static check that shares its concern with axe is decided on a rendered page by axe's rules
// (checks/axe-verdicts.ts), so its verify line runs exactly those rules (issue 25: form-labels ran
// axe's `label` while an unnamed <select> fails `select-name`, and button-name ran `button-name`
// while an empty <input type="submit"> fails `input-button-name`; both lines printed 0 violations
// before the fix). Held here for every such check, so that a rule added to the mapping reaches the
// line. The lines that are not axe's say why, and the findings with a line of their own are checked
// on a served page: single-h1 with no H1 shown verifies with axe's page-has-heading-one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITATIONS } from '../../src/audit/catalogue.ts';
import { AXE_DECIDES, AXE_LEFT_TO_STATIC } from '../../src/audit/checks/axe-verdicts.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

/** The static checks whose line is not axe's, and why the line they have shows their defect. */
const NOT_AXE: Record<string, string> = {
  'title-present': 'a second <title> is the check’s own (axe reads the first): the line prints every title of the page',
  'single-h1':
    'several H1s are the check’s own (axe asks for one at least): the line counts them; a page with no H1 shown has axe’s page-has-heading-one as its line (pages-content.ts)',
};

/** The rules an axe line runs: every `--rules` list in it. */
const rulesOf = (line: string) =>
  [...line.matchAll(/@axe-core\/cli \S+ --rules ([a-z0-9,-]+)/g)].flatMap((m) => (m[1] ?? '').split(',')).sort();

describe('the verify line of a check that shares axe rules', () => {
  it('runs exactly the axe rules that decide the check', () => {
    const wrong: string[] = [];
    for (const [check, shared] of Object.entries(AXE_DECIDES)) {
      const line = CITATIONS[check]?.verify ?? '';
      const rules = rulesOf(line);
      if (rules.length === 0 && check in NOT_AXE) continue;
      const expected = [...shared.rules].sort();
      if (rules.join(',') !== expected.join(','))
        wrong.push(`${check}: runs ${rules.join(',') || 'no axe rule'}, decided by ${expected.join(',')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is not axe’s where the rule is left to the static check, or the exception says why', () => {
    for (const check of Object.values(AXE_LEFT_TO_STATIC)) expect(rulesOf(CITATIONS[check]?.verify ?? '')).toEqual([]);
    for (const check of Object.keys(NOT_AXE)) expect(check in AXE_DECIDES, check).toBe(true);
  });
});

describe('findings of the shared checks on served pages', () => {
  let site: FixtureSite;
  let outcome: AuditOutcome<unknown>;
  const finding = (check: string) => outcome.findings.find((f) => f.checkId === check);

  beforeAll(async () => {
    site = await startFixtureSite({
      // Its only H1 hidden: the served HTML has one <h1> tag, the page shows none.
      '/': {
        body: html(
          '<title>Forged garden tools</title>',
          `<main><h1 hidden>Tools</h1><p>Hand-forged tools.</p><a href="/b">Hoes</a>
           <form action="/s"><select name="size"><option>S</option></select><input type="button" class="go"></form></main>`,
        ),
      },
      '/b': {
        body: html('<title>Hoes</title>', '<main><h1>Hoes</h1><p>Forged hoes.</p></main>'),
      },
    });
    outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: false }, { allowPrivate: true });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('single-h1 with no H1 shown verifies with axe’s page-has-heading-one, and asks for one', () => {
    const h1 = finding('single-h1');
    expect(h1?.verify).toBe(`npx @axe-core/cli ${site.origin}/ --rules page-has-heading-one`);
    expect(h1?.agentAction).toMatch(/Give each page without an <h1> one/);
    expect(h1?.agentAction).not.toMatch(/turn the other <h1>/);
  });

  it('button-name says what the unnamed button is, an <input> as much as a <button>', () => {
    const button = finding('button-name');
    const summary = button?.evidence[0]?.summary ?? '';
    expect(summary).not.toMatch(/a <button>/);
    expect(summary).toMatch(/^a button with no name .*<input type="button" class="go">/);
    expect(button?.verify).toBe(`npx @axe-core/cli ${site.origin}/ --rules button-name,input-button-name`);
  });

  it('form-labels verifies an unnamed <select> with axe’s select-name', () => {
    expect(finding('form-labels')?.verify).toBe(`npx @axe-core/cli ${site.origin}/ --rules label,select-name`);
  });
});
