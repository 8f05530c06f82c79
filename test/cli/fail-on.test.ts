// `--fail-on` (issue 27): every expression form, its judgement on an audit, and the malformed ones.
import { describe, expect, it } from 'vitest';
import { pageState } from '../../src/cli/ci/audit-result.ts';
import { compareRuns, findingKey, instancesOf } from '../../src/cli/ci/compare.ts';
import { checkAgainstCall, judge, judgeGate, parseFailOn } from '../../src/cli/ci/fail-on.ts';
import { CliError } from '../../src/cli/options.ts';
import { syntheticAudit, syntheticFinding } from '../support/audit-result.ts';

const findings = [
  syntheticFinding(1, { severity: 'high', title: 'No HSTS' }),
  syntheticFinding(2, { severity: 'medium' }),
  syntheticFinding(3, { severity: 'low' }),
  syntheticFinding(4, { severity: 'info' }),
];
// 1 and 3 new, 2 and 4 persisting.
const audit = syntheticAudit(findings, { score: 72, states: ['new', 'persisting'] });
const verdict = (expression: string, audits = [audit]) => judge(parseFailOn(expression), audits);

describe('--fail-on expressions', () => {
  it('score<90 and score:PRODUCT<80 compare each product score', () => {
    expect(verdict('score<90')).toEqual({ expression: 'score<90', tripped: true, detail: 'AI readiness score 72' });
    expect(verdict('score<72').tripped).toBe(false);
    expect(verdict('score<=72').tripped).toBe(true);
    expect(verdict('score:ai_readiness<80').tripped).toBe(true);
    expect(verdict('score:ai_readiness<70').tripped).toBe(false);
    expect(verdict(' score >= 50 ').tripped).toBe(true);
  });

  it('an unverified score fails a score gate closed', () => {
    const unverified = syntheticAudit(findings, { score: 95 });
    unverified.report = { ...unverified.report, scoreStatus: 'unverified' };
    const check = verdict('score<90', [unverified]);
    expect(check.tripped).toBe(true);
    expect(check.detail).toContain('unverified');
  });

  it('severity>=high trips on a finding that bad or worse, and names it', () => {
    const high = verdict('severity>=high');
    expect(high).toMatchObject({ tripped: true });
    expect(high.detail).toBe('1 finding of severity >= high, the worst high: No HSTS');
    expect(verdict('severity>=critical')).toMatchObject({
      tripped: false,
      detail: 'no finding of severity >= critical',
    });
    expect(verdict('severity=info').tripped).toBe(true);
    expect(verdict('severity>medium').tripped).toBe(true);
  });

  it('findings>N counts every finding; category:NAME>N those of one category', () => {
    expect(verdict('findings>3')).toMatchObject({ tripped: true, detail: '4 findings' });
    expect(verdict('findings>4').tripped).toBe(false);
    expect(verdict('category:accessibility>0')).toMatchObject({ tripped: true, detail: '4 findings in accessibility' });
    expect(verdict('category:security>0')).toMatchObject({ tripped: false, detail: '0 findings in security' });
  });

  it('new>0 and new:severity>=medium look at the findings the baseline did not have', () => {
    expect(verdict('new>0')).toMatchObject({ tripped: true, detail: '2 new findings' });
    expect(verdict('new>2').tripped).toBe(false);
    expect(verdict('new:severity>=medium')).toMatchObject({ tripped: true });
    expect(verdict('new:severity>=medium').detail).toContain('1 new finding of severity >= medium');
    // Finding 2 (medium) persists, so only the high new one counts; >= critical has none.
    expect(verdict('new:severity>=critical').tripped).toBe(false);
    expect(verdict('persisting:findings>=2').tripped).toBe(true);
    expect(verdict('ai_readiness:new:category:accessibility>1').tripped).toBe(true);
    expect(verdict('ai_readiness:new:category:accessibility>2').tripped).toBe(false);
    // With no baseline run at all, every finding is new.
    const first = syntheticAudit(findings);
    first.noBaseline = true;
    expect(verdict('new>3', [first]).tripped).toBe(true);
  });

  it('counts as new a finding the baseline had, but not on this page (a defect spreading)', () => {
    const onHome = syntheticFinding(7, { checkId: 'image-alt', severity: 'high', pages: ['https://shop.example/'] });
    const spread = syntheticFinding(8, {
      checkId: 'image-alt',
      severity: 'high',
      pages: ['https://preview.shop.example/', 'https://preview.shop.example/about'],
    });
    const baseline = syntheticAudit([onHome]);
    const same = syntheticAudit([{ ...onHome, findingId: 'f_0000aaaa' }]);
    same.comparison = compareRuns(same, baseline);
    expect(verdict('new>0', [same]).tripped).toBe(false);
    // Another host (a preview), the same page and one more: the finding is new, its first page is not.
    const current = syntheticAudit([spread]);
    current.comparison = compareRuns(current, baseline);
    expect(current.comparison.findings[0]).toMatchObject({ comparison: 'new', instances: { new: 1, persisting: 1 } });
    expect(verdict('new:severity>=high', [current])).toMatchObject({ tripped: true });
  });

  it('compares a finding that names its pages only in affectedUrls by those pages', () => {
    const pagesOnly = (n: number, pages: string[]) => ({
      ...syntheticFinding(n, { checkId: 'content-dates', severity: 'medium', pages }),
      evidence: [{ type: 'check' as const, summary: 'no dates' }],
    });
    const baseline = syntheticAudit([pagesOnly(1, ['https://shop.example/', 'https://shop.example/a'])]);
    const same = syntheticAudit([pagesOnly(2, ['https://shop.example/', 'https://shop.example/a'])]);
    same.comparison = compareRuns(same, baseline);
    expect(same.comparison.counts).toMatchObject({ new: 0, persisting: 1 });
    const spread = syntheticAudit([
      pagesOnly(3, ['https://shop.example/', 'https://shop.example/a', 'https://shop.example/b']),
    ]);
    spread.comparison = compareRuns(spread, baseline);
    expect(spread.comparison.findings[0]).toMatchObject({ comparison: 'new', instances: { new: 1, persisting: 2 } });
    expect(verdict('new>0', [spread]).tripped).toBe(true);
    // SARIF's state per page agrees: the pages the baseline had persist, the added one is new.
    const [finding] = spread.findings;
    const [old] = baseline.findings;
    if (!finding || !old) throw new Error('no finding');
    spread.baselineInstances = new Map([[findingKey(old), instancesOf(old)]]);
    expect(pageState(spread, finding, 'https://shop.example/a', [])).toBe('persisting');
    expect(pageState(spread, finding, 'https://shop.example/b', [])).toBe('new');
  });

  it('the gate passes only when no expression trips', () => {
    expect(judgeGate([parseFailOn('score<50'), parseFailOn('severity>=critical')], [audit]).passed).toBe(true);
    expect(judgeGate([parseFailOn('score<50'), parseFailOn('findings>0')], [audit]).passed).toBe(false);
    expect(judgeGate([], [audit])).toEqual({ checks: [], passed: true });
  });

  it.each([
    ['score', 'no comparison'],
    ['score<', 'a score must be a whole number'],
    ['score<ninety', 'a score must be a whole number'],
    ['score<101', 'at most 100'],
    ['score:seo<80', 'unknown product "seo"'],
    ['score:ai_readiness:x<80', 'at most one product'],
    ['severity>=urgent', 'unknown severity "urgent"'],
    ['severity:x>=high', 'unexpected "x"'],
    ['findings>-1', 'a count must be a whole number'],
    ['findings>2.5', 'a count must be a whole number'],
    ['category:colour>0', 'unknown category "colour"'],
    ['category>0', 'category takes one name'],
    ['bugs>0', 'unknown measure "bugs"'],
    ['bogus:severity>=high', 'a scope new, persisting or a product'],
    ['new:persisting>0', 'cannot both scope'],
    ['new:score<90', 'score cannot be scoped'],
    ['::>0', 'an empty name'],
    ['score=>90', 'a score must be a whole number'],
    ['>0', 'an empty name'],
  ])('%s is refused with a clear message', (expression, message) => {
    const refuse = () => parseFailOn(expression);
    expect(refuse).toThrow(CliError);
    expect(refuse).toThrow(message);
    expect(refuse).toThrow('forms: score<90');
  });

  it('refuses, before any audit, a product the call does not audit and new without a baseline', () => {
    expect(() => checkAgainstCall([parseFailOn('score:website_security<80')], ['ai_readiness'], false)).toThrow(
      'add --product website_security',
    );
    expect(() => checkAgainstCall([parseFailOn('new>0')], ['ai_readiness'], false)).toThrow('need --baseline');
    expect(() =>
      checkAgainstCall([parseFailOn('new>0'), parseFailOn('score<90')], ['ai_readiness'], true),
    ).not.toThrow();
  });
});
