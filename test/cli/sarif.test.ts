// `--format sarif` (issue 27) on synthetic results: valid against the OASIS SARIF 2.1.0 schema in
// every shape, one run per product, a rule per check, a result per finding and page with the
// fingerprints code scanning tracks, and GitHub's limits kept. test/cli/audit-gate.test.ts runs it
// on a real audit.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AuditResult, ProductAudit } from '../../src/cli/ci/audit-result.ts';
import { pageUri, SARIF_LIMITS, sarifText, toSarif } from '../../src/cli/ci/sarif.ts';
import {
  type AiReadinessReport,
  type Finding,
  MarketingSignalReport,
  type Product,
  type Severity,
  WebsiteSecurityReport,
} from '../../src/contract/index.ts';
import { syntheticAudit, syntheticFinding, syntheticResult } from '../support/audit-result.ts';
import { sarifSchemaErrors } from '../support/sarif-schema.ts';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region: { startLine: number; snippet?: { text: string } };
    };
  }>;
  partialFingerprints: Record<string, string>;
  baselineState?: string;
  properties: Record<string, unknown>;
}
interface SarifRule {
  id: string;
  helpUri?: string;
  help: { text: string; markdown: string };
  defaultConfiguration: { level: string };
  properties: { tags: string[]; 'security-severity'?: string; references: Array<{ url: string }> };
}
interface SarifRun {
  tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
  automationDetails: { id: string };
  originalUriBaseIds?: Record<string, unknown>;
  invocations: Array<{ toolExecutionNotifications?: Array<{ message: { text: string } }> }>;
  results: SarifResult[];
  properties: Record<string, unknown>;
}
interface SarifLog {
  version: string;
  runs: SarifRun[];
}

const sarif = (result: AuditResult, limits = SARIF_LIMITS) => toSarif(result, limits) as SarifLog;
const only = (log: SarifLog) => log.runs[0] as SarifRun;

/** The audit as another product: the same run and findings under that product's report. */
function asProduct(audit: ProductAudit, product: Exclude<Product, 'ai_readiness'>, checks: unknown[]): ProductAudit {
  const {
    topFindings,
    foundation,
    pagesCrawled,
    checks: _,
    product: __,
    ...common
  } = audit.report as AiReadinessReport;
  const report =
    product === 'website_security'
      ? WebsiteSecurityReport.parse({
          ...common,
          product,
          topFindings: [],
          scope: { label: 'Public surface', disclaimer: 'Not a penetration test.', pagesScanned: 3 },
          pillars: [],
          checks,
          pagesScanned: 3,
        })
      : MarketingSignalReport.parse({
          ...common,
          product,
          topFindings: [],
          pagesCrawled,
          stageScores: ['find', 'trust', 'act', 'measure', 'improve'].map((stage) => ({
            stage,
            status: 'scored',
            score: 70,
            checks_pass: 1,
            checks_fail: 1,
            finding_count: 1,
            top_finding: null,
            confidence: 'medium',
          })),
          sourceCoverage: 'public_only',
          connectedSources: [],
          templatesAudited: 1,
          checks: { pass: 0, fail: checks.length, info: 0, unverified: 0, rows: checks },
        });
  return { ...audit, product, run: { ...audit.run, product }, report };
}

const securityFinding = (n: number, severity: Severity) => ({
  ...syntheticFinding(n, { checkId: 'csp-present', severity, title: 'No Content-Security-Policy' }),
  category: 'security' as const,
});

function securityAudit(severity: Severity = 'high'): ProductAudit {
  const finding = securityFinding(900, severity);
  return asProduct(syntheticAudit([finding]), 'website_security', [
    {
      id: 'csp-present',
      label: 'Content-Security-Policy restricts scripts',
      pillar: 'browser_defenses',
      status: 'fail',
      severity: 'high',
      evidence: 'no header',
      recommendation: 'Send a Content-Security-Policy header.',
    },
    {
      id: 'hsts',
      label: 'Strict-Transport-Security',
      pillar: 'transport_trust',
      status: 'pass',
      severity: 'info',
      evidence: 'max-age=31536000',
      recommendation: 'Keep it.',
    },
  ]);
}

const marketingAudit = () =>
  asProduct(syntheticAudit([syntheticFinding(800, { checkId: 'mk-analytics' })]), 'marketing_signal', [
    { id: 'mk-analytics', label: 'Analytics present', category: 'measurement', status: 'fail', detail: 'none' },
  ]);

const locate: AuditResult['locate'] = (element) =>
  element.snippet.includes('hero') ? [{ file: 'public/index.html', line: 12, confidence: 'high' }] : [];

/** The shapes the issue names, each checked against the schema. */
const SHAPES: Array<[string, () => AuditResult]> = [
  ['no findings', () => syntheticResult([syntheticAudit([])])],
  [
    'several products',
    () => syntheticResult([syntheticAudit([syntheticFinding(1)]), marketingAudit(), securityAudit()]),
  ],
  [
    'comparisons',
    () =>
      syntheticResult([
        syntheticAudit([syntheticFinding(1), syntheticFinding(2)], { states: ['new', 'persisting'], notFound: 3 }),
      ]),
  ],
  [
    'source locations',
    () =>
      syntheticResult([syntheticAudit([syntheticFinding(1, { snippet: '<img class="hero">' }), syntheticFinding(2)])], {
        locate,
      }),
  ],
  [
    '1,000 findings',
    () => syntheticResult([syntheticAudit(Array.from({ length: 1000 }, (_, i) => syntheticFinding(i)))]),
  ],
];

describe('sarif', () => {
  it.each(SHAPES)('is valid SARIF 2.1.0 for a result with %s', (_, make) => {
    const log = sarif(make());
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
  });

  it('writes JSON with a two-space indent and a trailing newline, byte for byte the same each time', () => {
    const make = SHAPES[3]?.[1] as () => AuditResult;
    const text = sarifText(make());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(sarifText(make())).toBe(text);
  });

  it('writes one run per product with its own category (not its host: a preview compares with main) and the tool', () => {
    const log = sarif(syntheticResult([syntheticAudit([syntheticFinding(1)]), marketingAudit(), securityAudit()]));
    expect(log.runs.map((run) => run.automationDetails.id)).toEqual([
      'siteaudit/ai_readiness/',
      'siteaudit/marketing_signal/',
      'siteaudit/website_security/',
    ]);
    for (const run of log.runs)
      expect(run.tool.driver).toMatchObject({
        name: 'siteaudit',
        version: '0.1.0',
        informationUri: 'https://github.com/siteaudit/siteaudit',
      });
  });

  it("makes a rule of every check of the ledger and of each finding's check outside it", () => {
    const axe = syntheticFinding(2, { checkId: 'axe-color-contrast', title: 'Text contrast too low' });
    const audit = syntheticAudit([syntheticFinding(1)]);
    const run = only(sarif(syntheticResult([{ ...audit, findings: [...audit.findings, axe] }])));
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(['single-h1', 'check-1', 'axe-color-contrast']);
    // The catalogue's citation for a check with no finding: its standard and its verify line.
    const h1 = run.tool.driver.rules[0] as SarifRule;
    expect(h1.helpUri).toMatch(/^https:\/\/html\.spec\.whatwg\.org\//);
    expect(h1.help.text).toContain('Verify the fix: curl -sS https://shop.example/');
    // A finding's own references and fix.
    const axeRule = run.tool.driver.rules[2] as SarifRule;
    expect(axeRule.helpUri).toBe('https://www.w3.org/TR/WCAG22/#non-text-content');
    expect(axeRule.help.markdown).toContain('Give each image an alt attribute');
    expect(axeRule.properties.references).toEqual([
      { title: 'WCAG 2.2 SC 1.1.1', url: 'https://www.w3.org/TR/WCAG22/#non-text-content' },
    ]);
  });

  it("escapes a finding's text in the help markdown and fences its verify line", () => {
    const finding = {
      ...syntheticFinding(1),
      remediation: 'See [the fix](https://evil.example) <img src=x onerror=alert(1)>',
      verify: 'curl -s https://shop.example/ | grep -c "```"',
      references: [],
    };
    const rule = only(sarif(syntheticResult([syntheticAudit([finding])]))).tool.driver.rules[1] as SarifRule;
    expect(rule.help.markdown).toContain('See \\[the fix\\]\\(https://evil.example\\) \\<img');
    expect(rule.help.markdown).toContain('````\ncurl -s https://shop.example/ | grep -c "```"\n````');
    expect(rule.helpUri).toBeUndefined();
  });

  it.each([
    ['shapes with findings', SHAPES.slice(1)],
    ['several checks', [['', () => syntheticResult([syntheticAudit([3, 1, 2].map((n) => syntheticFinding(n)))])]]],
  ] as Array<[string, typeof SHAPES]>)('points every ruleIndex at its rule (%s)', (_, shapes) => {
    for (const [, make] of shapes)
      for (const run of sarif(make()).runs) {
        expect(run.results.length).toBeGreaterThan(0);
        for (const result of run.results)
          expect(run.tool.driver.rules[result.ruleIndex]?.id, result.ruleId).toBe(result.ruleId);
      }
  });

  it.each([
    ['critical', 'error'],
    ['high', 'error'],
    ['medium', 'warning'],
    ['low', 'note'],
    ['info', 'note'],
  ] as Array<[Severity, string]>)('gives a %s finding and its check the level %s', (severity, level) => {
    const run = only(sarif(syntheticResult([syntheticAudit([syntheticFinding(1, { severity, checkId: 'x-check' })])])));
    expect(run.results[0]?.level).toBe(level);
    expect(run.tool.driver.rules.find((rule) => rule.id === 'x-check')?.defaultConfiguration.level).toBe(level);
  });

  it('gives security checks, and only them, a security-severity and the security tag', () => {
    const ai = syntheticAudit([
      syntheticFinding(1),
      { ...syntheticFinding(2, { checkId: 'served-over-https' }), category: 'security' },
    ]);
    const log = sarif(syntheticResult([ai, securityAudit()]));
    const [aiRun, securityRun] = log.runs as [SarifRun, SarifRun];
    const severityOf = (run: SarifRun, id: string) =>
      run.tool.driver.rules.find((rule) => rule.id === id)?.properties['security-severity'];
    expect(severityOf(aiRun, 'single-h1')).toBeUndefined();
    expect(severityOf(aiRun, 'check-1')).toBeUndefined();
    expect(severityOf(aiRun, 'served-over-https')).toBe('8.0');
    expect(severityOf(securityRun, 'csp-present')).toBe('8.0');
    // An info check is a security rule without a severity: GitHub reads none as no security severity.
    expect(severityOf(securityRun, 'hsts')).toBeUndefined();
    for (const rule of securityRun.tool.driver.rules) expect(rule.properties.tags).toContain('security');
    expect(
      aiRun.tool.driver.rules.filter((rule) => rule.properties.tags.includes('security')).map((r) => r.id),
    ).toEqual(['served-over-https']);
  });

  it.each([
    ['critical', '9.5'],
    ['high', '8.0'],
    ['medium', '5.5'],
    ['low', '2.0'],
  ] as Array<[Severity, string]>)('scores a %s security check in GitHub’s band (%s)', (severity, score) => {
    const check = { ...securityFinding(1, severity), checkId: 'sec-extra' };
    const run = only(sarif(syntheticResult([{ ...securityAudit(), findings: [check] }])));
    expect(run.tool.driver.rules.find((rule) => rule.id === 'sec-extra')?.properties['security-severity']).toBe(score);
  });

  it('keeps fingerprints equal across two runs of an unchanged site, and apart across pages', () => {
    const pages = ['https://shop.example/a', 'https://shop.example/b'];
    const first = syntheticResult([syntheticAudit([syntheticFinding(1, { pages })])]);
    // The same defects found by a later run: new run and finding ids, times and links.
    const later = (finding: Finding): Finding => ({
      ...finding,
      findingId: 'f_ffffffff',
      runId: '44444444-4444-4444-8444-444444444444',
      humanUrl: 'http://127.0.0.1:8787/runs/44444444-4444-4444-8444-444444444444#f_ffffffff',
      createdAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:00:00.000Z',
    });
    const audit = syntheticAudit([syntheticFinding(1, { pages })]);
    const second = syntheticResult([
      {
        ...audit,
        run: { ...audit.run, runId: '44444444-4444-4444-8444-444444444444' },
        findings: audit.findings.map(later),
      },
    ]);
    const prints = (result: AuditResult) => only(sarif(result)).results.map((r) => r.partialFingerprints);
    expect(prints(second)).toEqual(prints(first));
    const [a, b] = prints(first) as [Record<string, string>, Record<string, string>];
    expect(a['siteauditFinding/v1']).toBe(b['siteauditFinding/v1']);
    expect(a['siteauditPage/v1']).not.toBe(b['siteauditPage/v1']);
    expect(a.primaryLocationLineHash).not.toBe(b.primaryLocationLineHash);
    expect(JSON.stringify(a)).not.toMatch(/f_0000|1111|2026/);
  });

  it('writes a result per page at the page, its element as the snippet and its selectors in properties', () => {
    const finding = syntheticFinding(1, { pages: ['https://shop.example/a?x=1', 'http://localhost:8080/b'] });
    const run = only(sarif(syntheticResult([syntheticAudit([finding])])));
    expect(run.results.map((r) => r.locations[0]?.physicalLocation.artifactLocation.uri)).toEqual([
      'localhost%3A8080/b',
      'shop.example/a?x=1',
    ]);
    const [result] = run.results as [SarifResult];
    expect(result.message.text).toBe('Images without a text alternative (1). 2 page(s) have images without alt text.');
    expect(result.locations[0]?.physicalLocation.region).toEqual({
      startLine: 1,
      snippet: { text: '<img src="/a.png">' },
    });
    expect(result.properties).toMatchObject({
      page: 'http://localhost:8080/b',
      selector: 'main > img:nth-of-type(2)',
      elements: [{ selector: 'main > img:nth-of-type(2)', snippet: '<img src="/a.png">' }],
    });
  });

  it('locates a finding without page evidence at its affected pages, else at the run’s address', () => {
    const bare = (n: number, affectedUrls: string[]) => ({ ...syntheticFinding(n), evidence: [], affectedUrls });
    const run = only(
      sarif(
        syntheticResult([syntheticAudit([bare(1, ['https://shop.example/x', 'https://shop.example/y']), bare(2, [])])]),
      ),
    );
    expect(run.results.map((r) => r.locations[0]?.physicalLocation.artifactLocation.uri)).toEqual([
      'shop.example/x',
      'shop.example/y',
      'shop.example/',
    ]);
    expect(run.results[0]?.locations[0]?.physicalLocation.region).toEqual({ startLine: 1 });
  });

  it.each([
    'https://shop.example/a b|{c}^`[d]%zz?q="<x>"&r=\\',
    'https://[::1]:8443/p',
    'https://xn--bcher-kva.example/ü?ä=ö',
    'not a url at all',
  ])('writes a relative URI without a scheme for the page %j', (url) => {
    const uri = pageUri(url);
    expect(uri).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
    const finding = { ...syntheticFinding(1), evidence: [], affectedUrls: [url] };
    const log = sarif(syntheticResult([syntheticAudit([finding])]));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(only(log).results[0]?.properties.page).toBe(url);
  });

  it('adds the source file as a second location only when locate finds one', () => {
    const findings = [syntheticFinding(1, { snippet: '<img class="hero">' }), syntheticFinding(2)];
    const located = only(sarif(syntheticResult([syntheticAudit(findings)], { locate })));
    const withSource = located.results.filter((r) => r.locations.length === 2);
    expect(withSource).toHaveLength(1);
    expect(withSource[0]?.locations[1]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'public/index.html', uriBaseId: '%SRCROOT%' },
      region: { startLine: 12 },
    });
    expect(withSource[0]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('shop.example/page-1');
    expect(located.originalUriBaseIds).toHaveProperty('%SRCROOT%');
    const plain = only(sarif(syntheticResult([syntheticAudit(findings)])));
    expect(plain.results.every((r) => r.locations.length === 1)).toBe(true);
    expect(plain.originalUriBaseIds).toBeUndefined();
  });

  it('carries the comparison as baselineState and leaves findings not found again out', () => {
    const findings = [syntheticFinding(1), syntheticFinding(2)];
    const run = only(
      sarif(syntheticResult([syntheticAudit(findings, { states: ['new', 'persisting'], notFound: 2 })])),
    );
    expect(run.results.map((r) => [r.ruleId, r.baselineState, r.properties.comparison])).toEqual([
      ['check-1', 'new', 'new'],
      ['check-2', 'unchanged', 'persisting'],
    ]);
    expect(run.properties.comparison).toMatchObject({ new: 1, persisting: 1, notFound: 2 });
    const plain = only(sarif(syntheticResult([syntheticAudit(findings)])));
    expect(plain.results.every((r) => r.baselineState === undefined)).toBe(true);
    expect(plain.properties.comparison).toBeUndefined();
  });

  it('links to the report only when the links work off this machine', () => {
    const audit = syntheticAudit([syntheticFinding(1)]);
    const remote = only(sarif(syntheticResult([audit], { localLinks: false })));
    expect(remote.results[0]?.properties.humanUrl).toMatch(/^http:\/\/127\.0\.0\.1:8787\/runs\//);
    const local = only(sarif(syntheticResult([audit], { localLinks: true })));
    expect(local.results[0]?.properties.humanUrl).toBeUndefined();
    expect(JSON.stringify(local)).not.toContain('127.0.0.1:8787');
  });

  it('orders results by severity, then check, then page', () => {
    const findings = [
      syntheticFinding(1, { severity: 'low', checkId: 'a' }),
      syntheticFinding(2, {
        severity: 'critical',
        checkId: 'b',
        pages: ['https://shop.example/2', 'https://shop.example/1'],
      }),
      syntheticFinding(3, { severity: 'critical', checkId: 'a' }),
    ];
    const run = only(sarif(syntheticResult([syntheticAudit(findings)])));
    expect(run.results.map((r) => `${r.level} ${r.ruleId} ${r.properties.page}`)).toEqual([
      'error a https://shop.example/page-3',
      'error b https://shop.example/1',
      'error b https://shop.example/2',
      'note a https://shop.example/page-1',
    ]);
  });

  it("cuts a run past GitHub's 5,000 results worst first, and says so", () => {
    const pages = Array.from({ length: 200 }, (_, i) => `https://shop.example/p${i}`);
    const findings = Array.from({ length: 26 }, (_, i) =>
      syntheticFinding(i, { pages, severity: i === 25 ? 'critical' : 'low' }),
    );
    const log = sarif(syntheticResult([syntheticAudit(findings)]));
    const run = only(log);
    expect(run.results).toHaveLength(SARIF_LIMITS.resultsPerRun);
    expect(run.results.slice(0, 200).every((r) => r.level === 'error')).toBe(true);
    expect(run.properties.resultsLeftOut).toBe(200);
    expect(run.invocations[0]?.toolExecutionNotifications?.[0]?.message.text).toMatch(/^200 of 5200 results left out/);
    expect(sarifSchemaErrors(log)).toEqual([]);
  });

  it('cuts results until the file fits the gzipped size, worst kept', () => {
    // Snippets that do not compress: a file of about a megabyte held to 100 kB gzipped.
    const noise = (n: number) =>
      Array.from({ length: 40 }, (_, i) => ((n * 7919 + i * 104729) % 1e9).toString(36)).join('');
    const findings = Array.from({ length: 1000 }, (_, n) =>
      syntheticFinding(n, { snippet: `<img src="${noise(n)}">`, severity: n < 10 ? 'critical' : 'medium' }),
    );
    const limits = { resultsPerRun: 5_000, gzipBytes: 100_000 };
    const text = sarifText(syntheticResult([syntheticAudit(findings)]), limits);
    const log = JSON.parse(text) as SarifLog;
    expect(gzipSync(text).length).toBeLessThanOrEqual(limits.gzipBytes);
    const run = only(log);
    expect(run.results.length).toBeGreaterThan(10);
    expect(run.results.length).toBeLessThan(1000);
    expect(run.results.slice(0, 10).every((r) => r.level === 'error')).toBe(true);
    expect(run.properties.resultsLeftOut).toBe(1000 - run.results.length);
  });
});
