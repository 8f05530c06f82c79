// The rules of a SARIF run (issue 27): a reportingDescriptor per check the product ran (its report's
// ledger) and per check a finding names outside it (axe rules), with the properties GitHub code
// scanning reads (https://docs.github.com/en/code-security/reference/code-scanning/sarif-files/sarif-support-for-code-scanning).
import { CATALOGUE, citationById } from '../../audit/catalogue.ts';
import type { Finding, Severity } from '../../contract/index.ts';
import type { ProductAudit } from './audit-result.ts';

export type Level = 'error' | 'warning' | 'note';

export const LEVEL: Record<Severity, Level> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

// GitHub reads `security-severity` as over 9.0 critical, 7.0 to 8.9 high, 4.0 to 6.9 medium, 0.1 to
// 3.9 low: each severity sits inside its band. Info has none, so it is never a security alert.
export const SECURITY_SEVERITY: Partial<Record<Severity, string>> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '2.0',
};

// GitHub's `problem.severity`, for rules that are not security rules.
const PROBLEM_SEVERITY: Record<Severity, string> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'recommendation',
  info: 'recommendation',
};

/** GitHub shows these at most this long (name 255, descriptions 1024 characters). */
const NAME_MAX = 255;
const DESCRIPTION_MAX = 1024;
const SLUG_MAX = 60;

const SPECS = new Map(CATALOGUE.map(({ spec }) => [spec.id, spec]));

export interface Reference {
  title: string;
  url: string;
}

export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: Level };
  helpUri?: string;
  help: { text: string; markdown: string };
  properties: Record<string, unknown>;
}

/** A check as its report's ledger lists it. */
interface LedgerCheck {
  id: string;
  label: string;
  severity?: Severity;
  /** Its category, or its pillar for a security check. */
  group: string;
  security: boolean;
  recommendation?: string;
}

export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A finding's rule: its check, or (for findings stored without one) a stable id from its title. */
export function ruleIdOf(finding: Finding): string {
  if (finding.checkId) return finding.checkId;
  let slug = '';
  for (const c of finding.title.toLowerCase()) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) slug += c;
    else if (slug !== '' && !slug.endsWith('-')) slug += '-';
    if (slug.length >= SLUG_MAX) break;
  }
  while (slug.endsWith('-')) slug = slug.slice(0, -1);
  return `finding/${slug || 'untitled'}`;
}

/** `single-h1` -> `SingleH1`: a readable name that is not the id (SARIF 3.49.7). */
function ruleName(id: string): string {
  let name = '';
  let upper = true;
  for (const c of id) {
    const alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) upper = true;
    else {
      name += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return bounded(name || id, NAME_MAX);
}

function ledgerOf(audit: ProductAudit): LedgerCheck[] {
  const report = audit.report;
  if (report.product === 'website_security')
    return report.checks.map((c) => ({
      id: c.id,
      label: c.label,
      severity: c.severity,
      group: c.pillar,
      security: true,
      recommendation: c.recommendation,
    }));
  return (report.checks?.rows ?? []).map((r) => ({
    id: r.id,
    label: r.label,
    group: r.category,
    security: r.category === 'security',
  }));
}

/** Markdown's special characters escaped: text from findings must not become links or markup. */
function markdownText(text: string): string {
  let out = '';
  for (const c of text) out += '\\`*_{}[]()#<>|~'.includes(c) ? `\\${c}` : c;
  return out;
}

/** A code block whose fence is longer than any run of backticks in the code. */
function codeBlock(code: string): string {
  let longest = 0;
  let run = 0;
  for (const c of code) {
    run = c === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${code}\n${fence}`;
}

const URI_SAFE = /^https?:\/\/[\w.~:/?#@!$&'()*+,;=%-]+$/;

/** A reference's address when the schema's `uri` format and a markdown link can both hold it. */
const linkable = (url: string) => URI_SAFE.test(url) && URL.canParse(url);

function help(fix: string, verify: string | undefined, references: readonly Reference[]) {
  const text = [fix];
  const markdown = [markdownText(fix)];
  if (verify) {
    text.push(`Verify the fix: ${verify}`);
    markdown.push(`Verify the fix:\n\n${codeBlock(verify)}`);
  }
  if (references.length > 0) {
    text.push(['References:', ...references.map((r) => `- ${r.title}: ${r.url}`)].join('\n'));
    markdown.push(
      [
        'References:',
        '',
        ...references.map((r) =>
          linkable(r.url) ? `- [${markdownText(r.title)}](${r.url})` : `- ${markdownText(`${r.title}: ${r.url}`)}`,
        ),
      ].join('\n'),
    );
  }
  return { text: text.join('\n\n'), markdown: markdown.join('\n\n') };
}

function ruleOf(audit: ProductAudit, check: LedgerCheck, first: Finding | undefined): SarifRule {
  const spec = SPECS.get(check.id);
  const severity = check.severity ?? spec?.severity ?? first?.severity ?? 'medium';
  const citation = citationById(check.id, { url: audit.run.url });
  const references: Reference[] = first?.references?.length ? first.references : (citation?.references ?? []);
  const verify = citation?.verify ?? first?.verify;
  const fix = check.recommendation || first?.remediation || check.label;
  const security = check.security || spec?.category === 'security' || audit.product === 'website_security';
  const securitySeverity = security ? SECURITY_SEVERITY[severity] : undefined;
  const helpUri = references.find((r) => linkable(r.url))?.url;
  const tags = [...new Set([...(security ? ['security'] : []), check.group, audit.product])];
  return {
    id: check.id,
    name: ruleName(check.id),
    shortDescription: { text: bounded(check.label, DESCRIPTION_MAX) },
    fullDescription: { text: bounded(fix, DESCRIPTION_MAX) },
    defaultConfiguration: { level: LEVEL[severity] },
    ...(helpUri ? { helpUri } : {}),
    help: help(fix, verify, references),
    properties: {
      tags,
      references,
      ...(securitySeverity ? { 'security-severity': securitySeverity } : {}),
      ...(security ? {} : { 'problem.severity': PROBLEM_SEVERITY[severity] }),
    },
  };
}

/**
 * The run's rules, in the ledger's order and then the other checks its findings name (by id), with
 * each rule's index for `result.ruleIndex`.
 */
export function runRules(audit: ProductAudit): { rules: SarifRule[]; index: Map<string, number> } {
  const firstFinding = new Map<string, Finding>();
  for (const finding of audit.findings) {
    const id = ruleIdOf(finding);
    if (!firstFinding.has(id)) firstFinding.set(id, finding);
  }
  const checks = new Map<string, LedgerCheck>();
  for (const check of ledgerOf(audit)) if (!checks.has(check.id)) checks.set(check.id, check);
  const others = [...firstFinding.keys()].filter((id) => !checks.has(id)).sort();
  for (const id of others) {
    const finding = firstFinding.get(id) as Finding;
    const spec = SPECS.get(id);
    checks.set(id, {
      id,
      label: spec?.label ?? finding.title,
      group: spec?.category ?? finding.category,
      security: (spec?.category ?? finding.category) === 'security',
    });
  }
  const rules = [...checks.values()].map((check) => ruleOf(audit, check, firstFinding.get(check.id)));
  return { rules, index: new Map(rules.map((rule, i) => [rule.id, i])) };
}
