// `siteaudit audit --format junit`: the audit as JUnit XML for CI test reports (GitLab
// `artifacts:reports:junit`, Jenkins, Azure Pipelines), issue 27. One suite per product, one test
// case per check of the report's ledger (and per check a finding names that the ledger does not):
// it fails with the check's findings, is skipped when the ledger could not verify it, else passes.
// Site text is hostile: everything is escaped, and characters XML 1.0 cannot hold are replaced.
import { CATALOGUE } from '../../audit/catalogue.ts';
import { type Finding, notEvaluatedText, PRODUCT_LABEL, partialHeadline, SEVERITIES } from '../../contract/index.ts';
import type { AuditResult, ProductAudit } from './audit-result.ts';

const PAGES_LISTED = 20;

/** A check as a test case: from the ledger, or named only by a finding. */
interface Case {
  id: string;
  label: string;
  category: string;
  status?: 'pass' | 'fail' | 'info' | 'unverified' | 'not_evaluated';
  detail?: string;
}

/** Whether a UTF-16 unit can stand in XML 1.0 on its own (surrogate pairs are checked by the caller). */
const allowed = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code < 0x7f) ||
  (code > 0x9f && code < 0xd800) ||
  (code >= 0xe000 && code <= 0xfffd);

/**
 * Text as XML character data or an attribute value: markup characters escaped, and what XML 1.0
 * forbids (controls, lone surrogates, U+FFFE, U+FFFF) or discourages (C1 controls) replaced by
 * U+FFFD. In an attribute, line breaks and tabs are written as references so they survive.
 */
export function escapeXml(text: string, attribute = false): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      } else out += '\uFFFD';
      continue;
    }
    if (code === 0x26) out += '&amp;';
    else if (code === 0x3c) out += '&lt;';
    else if (code === 0x3e) out += '&gt;';
    else if (code === 0x22 && attribute) out += '&quot;';
    else if (code === 0xd || (attribute && (code === 0x9 || code === 0xa))) out += `&#${code};`;
    else if (allowed(code)) out += text[i];
    else out += '\uFFFD';
  }
  return out;
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value), true)}"`)
    .join('');

/** The ledger's rows: ai_readiness and marketing_signal keep them in `checks.rows`, website_security in `checks`. */
function ledger(audit: ProductAudit): Case[] {
  const { report } = audit;
  if (report.product === 'website_security')
    return report.checks.map((check) => ({
      id: check.id,
      label: check.label,
      category: check.pillar,
      status: check.status,
      detail: check.evidence,
    }));
  return (report.checks?.rows ?? []).map((row) => ({ ...row }));
}

/** The checks a finding stands for; one recorded before findings named their check stands for itself. */
const checksOf = (finding: Finding) =>
  finding.checkId ? [finding.checkId, ...(finding.alsoChecks ?? [])] : (finding.alsoChecks ?? [finding.findingId]);

const worstFirst = (a: Finding, b: Finding) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity);

function failureBody(finding: Finding, links: boolean): string {
  const lines = [`[${finding.severity}] ${finding.title}`, finding.detail];
  const pages = finding.affectedUrls;
  if (pages.length > 0) {
    lines.push(`Pages (${pages.length}):`, ...pages.slice(0, PAGES_LISTED).map((url) => `  ${url}`));
    if (pages.length > PAGES_LISTED) lines.push(`  and ${pages.length - PAGES_LISTED} more`);
  }
  lines.push(`Fix: ${finding.remediation}`);
  if (finding.verify) lines.push(`Verify: ${finding.verify}`);
  if (links) lines.push(`Report: ${finding.humanUrl}`);
  return lines.join('\n');
}

function testCase(product: string, check: Case, findings: Finding[], links: boolean): string {
  const head = `<testcase${attributes({
    classname: `siteaudit.${product}.${check.category}`,
    name: `${check.label} (${check.id})`,
    time: 0,
  })}`;
  const [worst] = findings;
  if (worst) {
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more findings)` : '';
    const body = findings.map((finding) => failureBody(finding, links)).join('\n\n');
    return `${head}><failure${attributes({ message: `${worst.title}${more}`, type: worst.severity })}>${escapeXml(body)}</failure></testcase>`;
  }
  if (check.status === 'not_evaluated')
    return `${head}><skipped${attributes({ message: check.detail ?? 'not evaluated' })}/></testcase>`;
  if (check.status === 'unverified')
    return `${head}><skipped${attributes({ message: `unverified: ${check.detail ?? ''}` })}/></testcase>`;
  return `${head}/>`;
}

/** An instant as JUnit's schema writes it: ISO 8601 without a zone (this one is UTC) or fractions. */
const junitTimestamp = (iso: string) => new Date(iso).toISOString().slice(0, 19);

/** Seconds to the millisecond, so that sums print without binary fractions (0.30000000000000004). */
const round = (value: number) => Math.round(value * 1000) / 1000;

const seconds = (from: string | null, to: string | null) =>
  from && to ? round(Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000)) : 0;

interface Suite {
  xml: string;
  tests: number;
  failures: number;
  skipped: number;
  time: number;
}

function suite(audit: ProductAudit, index: number, result: AuditResult): Suite {
  const links = !result.localLinks;
  const { run, report, product } = audit;
  const cases = ledger(audit);
  const known = new Set(cases.map((check) => check.id));
  const byCheck = new Map<string, Finding[]>();
  for (const finding of [...audit.findings].sort(worstFirst))
    for (const id of checksOf(finding)) {
      const list = byCheck.get(id);
      if (list) list.push(finding);
      else byCheck.set(id, [finding]);
      if (known.has(id)) continue;
      known.add(id);
      cases.push({ id, label: finding.title, category: finding.category });
    }

  // A partial scan's ledger has only the checks it ran: the others of the catalogue are skipped, not
  // left out, so a CI page counts every check of the product.
  const coverage = report.coverage ?? run.coverage;
  if (coverage)
    for (const { product: of, spec } of CATALOGUE) {
      if (of !== product || known.has(spec.id)) continue;
      known.add(spec.id);
      cases.push({
        id: spec.id,
        label: spec.label,
        category: spec.category,
        status: 'not_evaluated',
        detail: `not evaluated by a local on-page scan (it leaves out ${notEvaluatedText(coverage.notEvaluated)})`,
      });
    }

  const testcases = cases.map((check) => testCase(product, check, byCheck.get(check.id) ?? [], links));
  const failures = cases.filter((check) => byCheck.has(check.id)).length;
  const skipped = cases.filter(
    (check) => !byCheck.has(check.id) && (check.status === 'unverified' || check.status === 'not_evaluated'),
  ).length;
  const time = seconds(run.startedAt, run.completedAt);

  const unverified = report.scoreStatus === 'unverified' || run.scoreStatus === 'unverified';
  const properties: Array<[string, string]> = [
    ['siteaudit.target', result.target],
    ['siteaudit.product', PRODUCT_LABEL[product]],
    ['siteaudit.runId', run.runId],
    ['siteaudit.score', unverified ? 'unverified' : String(report.score)],
  ];
  if (coverage && !unverified)
    properties.push(['siteaudit.scoreBasis', partialHeadline(coverage, product, report.scoreLabel)]);
  if (audit.comparison) {
    properties.push(['siteaudit.baselineRunId', audit.comparison.baselineRunId]);
    const change = audit.comparison.score.change;
    if (change !== null && !unverified) properties.push(['siteaudit.scoreChange', String(change)]);
  }
  if (audit.noBaseline)
    properties.push([
      'siteaudit.baseline',
      `none: ${audit.noBaselineReason ?? 'no earlier completed audit of this site'}`,
    ]);
  if (result.gate.checks.length > 0) properties.push(['siteaudit.gate', result.gate.passed ? 'passed' : 'failed']);
  // A local service's report works on the runner only: a CI page would carry a dead link.
  if (links) properties.push(['siteaudit.reportUrl', run.humanUrl]);
  properties.push(['siteaudit.version', result.tool.version]);

  const open = `<testsuite${attributes({
    name: `siteaudit.${product}`,
    tests: cases.length,
    failures,
    errors: 0,
    skipped,
    time,
    timestamp: junitTimestamp(run.startedAt ?? run.createdAt),
    id: index,
  })}>`;
  const props = properties.map(([name, value]) => `<property${attributes({ name, value })}/>`);
  const xml = [open, '<properties>', ...props, '</properties>', ...testcases, '</testsuite>'].join('\n');
  return { xml, tests: cases.length, failures, skipped, time };
}

export function toJunit(result: AuditResult): string {
  const suites = result.audits.map((audit, index) => suite(audit, index, result));
  const sum = (key: 'tests' | 'failures' | 'skipped' | 'time') => round(suites.reduce((total, s) => total + s[key], 0));
  const open = `<testsuites${attributes({
    name: 'siteaudit',
    tests: sum('tests'),
    failures: sum('failures'),
    errors: 0,
    skipped: sum('skipped'),
    time: sum('time'),
  })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', open, ...suites.map((s) => s.xml), '</testsuites>', ''].join('\n');
}
