// `siteaudit audit --format junit` (issue 27): the audit as JUnit XML, read back with junit2json as a
// CI system reads it. One suite per product, one test case per check; hostile site text stays well-formed XML.
import { parse, type TestCase, type TestSuite, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/audit/catalogue.ts';
import type { ProductAudit } from '../../src/cli/ci/audit-result.ts';
import { escapeXml, toJunit } from '../../src/cli/ci/junit.ts';
import { type Finding, WebsiteSecurityReport } from '../../src/contract/index.ts';
import { syntheticAudit, syntheticFinding, syntheticResult } from '../support/audit-result.ts';

const RUN_URL = 'http://127.0.0.1:8787/runs/11111111-1111-4111-8111-111111111111';

/** The characters of `xml` outside XML 1.0's Char production (junit2json's parser lets them through). */
function notXmlChars(xml: string): string[] {
  const bad: string[] = [];
  for (const ch of xml) {
    const c = ch.codePointAt(0) ?? 0;
    const ok =
      c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
    if (!ok) bad.push(ch);
  }
  return bad;
}

async function read(xml: string): Promise<TestSuites> {
  expect(notXmlChars(xml)).toEqual([]);
  // Text never holds a raw `]]>` (illegal outside CDATA) or a `&` that starts no reference.
  expect(xml).not.toContain(']]>');
  expect(xml).not.toMatch(/&(?!(?:amp|lt|gt|quot|#\d{1,2});)/);
  return (await parse(xml)) as TestSuites;
}

const cases = (suite: TestSuite | undefined) => suite?.testcase ?? [];
const byName = (suite: TestSuite | undefined, name: string): TestCase | undefined =>
  cases(suite).find((c) => c.name === name);
const property = (suite: TestSuite | undefined, name: string) => suite?.properties?.find((p) => p.name === name)?.value;

/** An AI readiness audit whose ledger has a pass, an info, an unverified row and three failed checks. */
function ledgerAudit(): ProductAudit {
  const findings = [
    syntheticFinding(1, { severity: 'high' }),
    { ...syntheticFinding(2, { severity: 'medium' }), alsoChecks: ['single-h1'] },
    syntheticFinding(3, { severity: 'low' }),
  ];
  const audit = syntheticAudit(findings, { states: ['new'] });
  if (audit.report.product !== 'ai_readiness' || !audit.report.checks) throw new Error('an ai_readiness ledger');
  audit.report.checks.rows.push(
    { id: 'llms-txt', label: 'llms.txt', category: 'discoverability', status: 'unverified', detail: 'not fetched' },
    { id: 'canonical', label: 'Canonical URL', category: 'metadata', status: 'info', detail: 'none set' },
  );
  // Findings the ledger does not name: a check of its own, and one stored before findings named their check.
  audit.findings.push(syntheticFinding(4, { severity: 'critical', checkId: 'orphan-check', title: 'Orphan' }), {
    ...syntheticFinding(5, { severity: 'info', title: 'Old finding' }),
    checkId: undefined,
  });
  return audit;
}

describe('toJunit', () => {
  it('writes one test case per check: failed with a finding, skipped when unverified, else passed', async () => {
    const xml = toJunit(syntheticResult([ledgerAudit()]));
    const root = await read(xml);
    expect(root).toMatchObject({ name: 'siteaudit', tests: 8, failures: 6, errors: 0 });
    const [suite, ...rest] = root.testsuite ?? [];
    expect(rest).toEqual([]);
    expect(suite).toMatchObject({ name: 'siteaudit.ai_readiness', tests: 8, failures: 6, errors: 0, skipped: 1 });
    expect(cases(suite).map((c) => c.name)).toEqual([
      'One H1 per page (single-h1)',
      'Check check-1 (check-1)',
      'Check check-2 (check-2)',
      'Check check-3 (check-3)',
      'llms.txt (llms-txt)',
      'Canonical URL (canonical)',
      'Orphan (orphan-check)',
      'Old finding (f_00000005)',
    ]);
    // A merged finding fails the check it absorbed too.
    expect(byName(suite, 'One H1 per page (single-h1)')?.failure?.[0]).toMatchObject({ type: 'medium' });
    expect(byName(suite, 'One H1 per page (single-h1)')?.classname).toBe('siteaudit.ai_readiness.content_structure');
    const failed = byName(suite, 'Check check-1 (check-1)');
    expect(failed?.classname).toBe('siteaudit.ai_readiness.accessibility');
    expect(failed?.failure).toHaveLength(1);
    expect(failed?.failure?.[0]).toMatchObject({ message: 'Images without a text alternative (1)', type: 'high' });
    expect(failed?.failure?.[0]?.inner).toBe(
      [
        '[high] Images without a text alternative (1)',
        '1 page(s) have images without alt text.',
        'Pages (1):',
        '  https://shop.example/page-1',
        'Fix: Give each image an alt attribute that says what it shows.',
        "Verify: curl -s https://shop.example/ | grep -c '<img'",
        `Report: ${RUN_URL}#f_00000001`,
      ].join('\n'),
    );
    expect(byName(suite, 'llms.txt (llms-txt)')).toMatchObject({ skipped: [{ message: 'unverified: not fetched' }] });
    expect(byName(suite, 'llms.txt (llms-txt)')?.failure).toBeUndefined();
    const passed = byName(suite, 'Canonical URL (canonical)');
    expect(passed?.failure).toBeUndefined();
    expect(passed?.skipped).toBeUndefined();
    expect(byName(suite, 'Orphan (orphan-check)')).toMatchObject({
      classname: 'siteaudit.ai_readiness.accessibility',
      failure: [{ type: 'critical', message: 'Orphan' }],
    });
  });

  it('fails an unverified check that has a finding, and names every finding of a check, worst first', async () => {
    const audit = syntheticAudit([
      syntheticFinding(1, { checkId: 'shared', severity: 'low', title: 'Mild' }),
      syntheticFinding(2, { checkId: 'shared', severity: 'high', title: 'Bad' }),
    ]);
    if (audit.report.product !== 'ai_readiness' || !audit.report.checks) throw new Error('an ai_readiness ledger');
    const [, row] = audit.report.checks.rows;
    if (row) row.status = 'unverified';
    const suite = (await read(toJunit(syntheticResult([audit])))).testsuite?.[0];
    expect(suite).toMatchObject({ tests: 2, failures: 1, skipped: 0 });
    const shared = byName(suite, 'Check shared (shared)');
    expect(shared?.skipped).toBeUndefined();
    expect(shared?.failure?.[0]).toMatchObject({ message: 'Bad (and 1 more findings)', type: 'high' });
    const body = shared?.failure?.[0]?.inner ?? '';
    expect(body.indexOf('[high] Bad')).toBeLessThan(body.indexOf('[low] Mild'));
  });

  it('lists a few pages of a finding and counts the rest', async () => {
    const pages = Array.from({ length: 1000 }, (_, i) => `https://shop.example/p${i}`);
    const suite = (await read(toJunit(syntheticResult([syntheticAudit([syntheticFinding(1, { pages })])]))))
      .testsuite?.[0];
    const body = byName(suite, 'Check check-1 (check-1)')?.failure?.[0]?.inner ?? '';
    expect(body).toContain('Pages (1000):\n  https://shop.example/p0\n');
    expect(body).toContain('  https://shop.example/p19\n  and 980 more\n');
    expect(body).not.toContain('p20\n');
  });

  it('carries the run, score, comparison and report address as properties', async () => {
    const audit = syntheticAudit([syntheticFinding(1)], { states: ['new'], score: 72, baselineScore: 75 });
    const gate = { passed: false, checks: [{ expression: 'score<90', tripped: true, detail: 'below' }] };
    const suite = (await read(toJunit(syntheticResult([audit], { gate })))).testsuite?.[0];
    expect(suite?.properties).toEqual([
      { name: 'siteaudit.target', value: 'https://shop.example/' },
      { name: 'siteaudit.product', value: 'AI readiness' },
      { name: 'siteaudit.runId', value: '11111111-1111-4111-8111-111111111111' },
      { name: 'siteaudit.score', value: 72 },
      { name: 'siteaudit.baselineRunId', value: '22222222-2222-4222-8222-222222222222' },
      { name: 'siteaudit.scoreChange', value: -3 },
      { name: 'siteaudit.gate', value: 'failed' },
      { name: 'siteaudit.reportUrl', value: RUN_URL },
      { name: 'siteaudit.version', value: '0.1.0' },
    ]);
  });

  it('gives no report address from a local service, and no number for an unverified score', async () => {
    const audit = syntheticAudit([syntheticFinding(1)]);
    const unverified: ProductAudit[] = [
      { ...audit, report: { ...audit.report, scoreStatus: 'unverified' } },
      { ...audit, run: { ...audit.run, score: null, scoreStatus: 'unverified' } },
    ];
    for (const one of unverified) {
      const xml = toJunit(syntheticResult([one], { localLinks: true }));
      expect(xml).not.toContain('127.0.0.1');
      const suite = (await read(xml)).testsuite?.[0];
      expect(property(suite, 'siteaudit.score')).toBe('unverified');
      expect(property(suite, 'siteaudit.reportUrl')).toBeUndefined();
    }
  });

  it('says what a partial score stands on', async () => {
    const audit = syntheticAudit([syntheticFinding(1)]);
    const coverage = { mode: 'local_on_page' as const, notEvaluated: ['dns'], evaluatedChecks: 4, totalChecks: 36 };
    const suite = (await read(toJunit(syntheticResult([{ ...audit, report: { ...audit.report, coverage } }]))))
      .testsuite?.[0];
    expect(property(suite, 'siteaudit.scoreBasis')).toBe('Partial: 4 of 36 AI readiness checks evaluated');
    // The catalogue's other AI readiness checks are there, skipped with why, not left out.
    const catalogue = CATALOGUE.filter((entry) => entry.product === 'ai_readiness').map((entry) => entry.spec.id);
    const names = (suite?.testcase ?? []).map((c) => c.name ?? '');
    for (const id of catalogue)
      expect(
        names.some((name) => name.endsWith(`(${id})`)),
        id,
      ).toBe(true);
    const skipped = (suite?.testcase ?? []).filter((c) => c.skipped);
    expect(skipped.length).toBe(catalogue.length - 1);
    expect(suite?.skipped).toBe(catalogue.length - 1);
    expect(JSON.stringify(skipped[0])).toContain('not evaluated by a local on-page scan (it leaves out DNS)');
  });

  it('times each suite by its run and sums the totals over products', async () => {
    const ai = syntheticAudit([syntheticFinding(1), syntheticFinding(2)]);
    ai.run = { ...ai.run, startedAt: '2026-11-28T10:00:00.100Z', completedAt: '2026-11-28T10:00:12.300Z' };
    const base = syntheticAudit([]).report;
    const report = WebsiteSecurityReport.parse({
      ...base,
      product: 'website_security',
      topFindings: [],
      scope: { label: 'Public surface', disclaimer: 'Not a penetration test.', pagesScanned: 1 },
      pillars: [],
      pagesScanned: 1,
      checks: [
        {
          id: 'hsts',
          label: 'HSTS',
          pillar: 'transport_trust',
          status: 'fail',
          severity: 'high',
          evidence: 'none',
          recommendation: 'Set it.',
        },
        {
          id: 'csp',
          label: 'CSP',
          pillar: 'browser_defenses',
          status: 'unverified',
          severity: 'medium',
          evidence: 'n/a',
          recommendation: '',
        },
        {
          id: 'caa',
          label: 'CAA',
          pillar: 'dns_email_trust',
          status: 'pass',
          severity: 'low',
          evidence: 'set',
          recommendation: '',
        },
      ],
    });
    const hsts: Finding = { ...syntheticFinding(9, { checkId: 'hsts', severity: 'high' }), category: 'security' };
    const security: ProductAudit = {
      ...syntheticAudit([hsts]),
      product: 'website_security',
      report,
      run: {
        ...ai.run,
        product: 'website_security',
        startedAt: '2026-11-28T11:30:00Z',
        completedAt: '2026-11-28T11:30:01.5Z',
      },
    };
    const root = await read(toJunit(syntheticResult([ai, security])));
    const [first, second] = root.testsuite ?? [];
    expect(first).toMatchObject({ tests: 3, failures: 2, skipped: 0, time: 12.2, timestamp: '2026-11-28T10:00:00' });
    expect(second).toMatchObject({
      name: 'siteaudit.website_security',
      tests: 3,
      failures: 1,
      skipped: 1,
      time: 1.5,
      timestamp: '2026-11-28T11:30:00',
    });
    expect(cases(second).map((c) => [c.classname, c.name])).toEqual([
      ['siteaudit.website_security.transport_trust', 'HSTS (hsts)'],
      ['siteaudit.website_security.browser_defenses', 'CSP (csp)'],
      ['siteaudit.website_security.dns_email_trust', 'CAA (caa)'],
    ]);
    expect(byName(second, 'CSP (csp)')?.skipped).toEqual([{ message: 'unverified: n/a' }]);
    expect(root).toMatchObject({ tests: 6, failures: 3, errors: 0, time: 13.7 });
    expect(toJunit(syntheticResult([ai, security]))).toMatch(/<testsuites [^>]*skipped="1"/);
  });

  it('keeps hostile site text well-formed: markup escaped, characters XML cannot hold replaced', async () => {
    const hostile = 'a]]>b\u0000c\uD800d&e<f>"g\'\uFFFE\uFFFF\u001b[31m\u0085\n\tnext \uDE00 😀 <![CDATA[x]]> &amp;';
    const shown = 'a]]>b\uFFFDc\uFFFDd&e<f>"g\'\uFFFD\uFFFD\uFFFD[31m\uFFFD\n\tnext \uFFFD 😀 <![CDATA[x]]> &amp;';
    const finding = {
      ...syntheticFinding(1, { title: hostile, pages: [`https://evil.example/${hostile}`] }),
      remediation: hostile,
      verify: hostile,
    };
    const audit = syntheticAudit([finding]);
    const xml = toJunit(syntheticResult([audit], { target: hostile }));
    const suite = (await read(xml)).testsuite?.[0];
    const failure = byName(suite, 'Check check-1 (check-1)')?.failure?.[0];
    expect(failure?.message).toBe(shown);
    expect(failure?.inner).toContain(`[${finding.severity}] ${shown}\n`);
    expect(failure?.inner).toContain(`  https://evil.example/${shown}\n`);
    expect(failure?.inner).toContain(`Fix: ${shown}\nVerify: ${shown}\n`);
    expect(property(suite, 'siteaudit.target')).toBe(shown);
  });
});

describe('escapeXml', () => {
  it.each([
    ['&<>', false, '&amp;&lt;&gt;'],
    ['"\'', false, '"\''],
    ['"\n\t\r', true, '&quot;&#10;&#9;&#13;'],
    ['a\nb\tc\rd', false, 'a\nb\tc&#13;d'],
    ['\u0000\u0008\u000b\u001f\u007f\u009f', false, '\uFFFD'.repeat(6)],
    ['\uD800x\uDC00\uD83D\uDE00\uFFFE\uFFFF\uFFFD', false, '\uFFFDx\uFFFD😀\uFFFD\uFFFD\uFFFD'],
    [']]>', false, ']]&gt;'],
  ])('writes %j (attribute: %s) as %j', (text, attribute, xml) => {
    expect(escapeXml(text, attribute)).toBe(xml);
  });
});
