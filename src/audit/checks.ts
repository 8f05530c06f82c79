// The engine's unit of judgement: a check gives a ledger row and, when it fails (or informs with
// something to act on), one finding draft. Scores are deterministic functions of the rows.
import {
  type Category,
  notEvaluatedText,
  type Pillar,
  PRODUCT_CHECKS,
  type Severity,
  type Stage,
} from '../contract/index.ts';
import { withAxeVerdict } from './checks/axe-verdicts.ts';
import type { Citation } from './citations.ts';
import type { CrawledPage } from './crawler.ts';
import { elementDefect, roleDefect } from './defects.ts';
import { bound, type ElementRef, type PageFacts } from './html.ts';
import type { ScoreBasis } from './outcome.ts';
import { boundSuggestion, type Suggestion } from './suggestions.ts';

export type CheckStatus = 'pass' | 'fail' | 'info' | 'unverified';

export interface Evidence {
  type: 'page' | 'file' | 'check';
  url?: string;
  summary: string;
  /** The offending elements on that page, bounded: a coding agent finds them without re-auditing. */
  elements?: ElementRef[];
}

/** Elements kept per evidence item. */
export const EVIDENCE_ELEMENTS_MAX = 5;

export interface FindingDraft {
  severity: Severity;
  confidence: 'high' | 'medium' | 'low';
  title: string;
  detail: string;
  evidence: Evidence[];
  affectedUrls: string[];
  remediation: string;
  /** What a coding agent should change, concretely. */
  agentAction: string;
  /** Paste-ready text for the fix (DNS records, header snippets, files), to review before applying. */
  suggestions?: Suggestion[];
  /** In place of the spec's verify line (outcome.ts). */
  verify?: string;
  /** What the finding is about, as keys other findings can share (defects.ts); never on the wire. */
  defects?: string[];
}

export interface CheckResult {
  id: string;
  label: string;
  category: Category;
  status: CheckStatus;
  /** The severity the check carries when it fails; it sets the check's weight in the score. */
  severity: Severity;
  detail: string;
  stage?: Stage;
  pillar?: Pillar;
  /** The spec's citation, carried so that the finding cites it (outcome.ts). */
  cite: Citation;
  finding?: FindingDraft;
}

// Weights by severity, after axe's impact weights (critical 10, serious 7, moderate 3, minor 1).
export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 10, high: 7, medium: 3, low: 1, info: 0 };
export const SEVERITY_ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
const AFFECTED_MAX = 25;
/** Defect keys kept per finding: enough for every element a page check lists (LIST_MAX per page, most pages far fewer). */
const DEFECTS_MAX = 2000;

/** 0 to 100: the weighted share of passing checks among those that pass or fail. Info and unverified weigh 0. */
export function weightedScore(rows: readonly CheckResult[]): number {
  let passed = 0;
  let total = 0;
  for (const row of rows) {
    if (row.status !== 'pass' && row.status !== 'fail') continue;
    const weight = SEVERITY_WEIGHT[row.severity];
    total += weight;
    if (row.status === 'pass') passed += weight;
  }
  return total === 0 ? 100 : Math.round((100 * passed) / total);
}

export function scoreLabel(score: number): string {
  if (score >= 90) return 'Excellent';
  if (score >= 75) return 'Good';
  if (score >= 50) return 'Needs work';
  return 'Poor';
}

export interface CheckSpec {
  id: string;
  label: string;
  category: Category;
  severity: Severity;
  stage?: Stage;
  pillar?: Pillar;
  /** The standards the check follows and the line that verifies a fix, beside the check (standards.ts). */
  cite: Citation;
}

export const pass = (spec: CheckSpec, detail: string): CheckResult => ({
  ...spec,
  status: 'pass',
  detail: bound(detail, 500),
});

export const unverified = (spec: CheckSpec, detail: string): CheckResult => ({
  ...spec,
  status: 'unverified',
  detail: bound(detail, 500),
});

export interface FailInput {
  detail: string;
  title: string;
  remediation: string;
  agentAction: string;
  affectedUrls?: string[];
  evidence?: Evidence[];
  confidence?: FindingDraft['confidence'];
  /** Overrides the spec's severity for this result (for example critical on the home page). */
  severity?: Severity;
  suggestions?: Suggestion[];
  /** In place of the spec's verify line, for one finding (an axe rule's worst page). */
  verify?: string;
  /** What the finding is about (defects.ts), so that one defect found by two checks is one finding. */
  defects?: string[];
}

function draft(input: FailInput, severity: Severity): FindingDraft {
  const affected = [...new Set(input.affectedUrls ?? [])];
  return {
    severity,
    confidence: input.confidence ?? 'high',
    title: bound(input.title, 200),
    detail: bound(input.detail, 1000),
    evidence: (input.evidence ?? []).slice(0, 10).map((e) => ({
      ...e,
      summary: bound(e.summary, 300),
      ...(e.elements ? { elements: e.elements.slice(0, EVIDENCE_ELEMENTS_MAX) } : {}),
    })),
    affectedUrls: affected.slice(0, AFFECTED_MAX),
    remediation: bound(input.remediation, 1000),
    agentAction: bound(input.agentAction, 1000),
    ...(input.suggestions?.length ? { suggestions: input.suggestions.map(boundSuggestion) } : {}),
    ...(input.verify ? { verify: input.verify } : {}),
    ...(input.defects?.length ? { defects: [...new Set(input.defects)].slice(0, DEFECTS_MAX) } : {}),
  };
}

/** One thing wrong on a page: what it is, and the element when there is one to point at. */
export interface Offence {
  what: string;
  element?: ElementRef;
  /** The kind of defect, where other checks report the same one (`name`: no accessible name). */
  defect?: string;
  /** The element's role in the accessibility tree, where a check counts the defect by role (the agent view). */
  role?: string;
}

/** The defect keys of a page's offences (defects.ts). */
function offenceDefects(url: string, offences: readonly Offence[]): string[] {
  const keys: string[] = [];
  for (const { defect, element, role } of offences) {
    if (!defect) continue;
    if (element) keys.push(elementDefect(defect, url, element));
    if (role) keys.push(roleDefect(defect, url, role));
  }
  return keys;
}

const OFFENCES_NAMED = 3;

/** A page's offences as one evidence item: the first few named, their elements listed. */
export function pageEvidence(url: string, problem: string, offences: readonly Offence[]): Evidence {
  const named = offences.slice(0, OFFENCES_NAMED).map((o) => o.what);
  const more = offences.length > OFFENCES_NAMED ? `; and ${offences.length - OFFENCES_NAMED} more` : '';
  const elements = offences.flatMap((o) => (o.element ? [o.element] : [])).slice(0, EVIDENCE_ELEMENTS_MAX);
  return {
    type: 'page',
    url,
    summary: `${problem}: ${named.join('; ')}${more}`,
    ...(elements.length > 0 ? { elements } : {}),
  };
}

type PageJudge = (facts: PageFacts, page: CrawledPage) => Offence[];

/** A page check: each page's offences, one finding listing the pages that have any. */
export function perPage(
  spec: CheckSpec,
  pages: CrawledPage[],
  judge: PageJudge,
  what: { ok: string; problem: string; title: string; remediation: string; agentAction: string },
): CheckResult {
  const affected = pages
    // On a page axe judged, axe decides the rules this check shares with it (checks/axe-verdicts.ts).
    .map((page) => ({ page, offences: withAxeVerdict(spec.id, page, () => judge(page.facts as PageFacts, page)) }))
    .filter(({ offences }) => offences.length > 0);
  if (affected.length === 0) return pass(spec, `${what.ok} (${pages.length} page(s))`);
  return fail(spec, {
    detail: `${affected.length} of ${pages.length} page(s): ${what.problem}`,
    title: what.title,
    remediation: what.remediation,
    agentAction: what.agentAction,
    affectedUrls: affected.map(({ page }) => page.url),
    evidence: affected.map(({ page, offences }) => pageEvidence(page.url, what.problem, offences)),
    defects: affected.flatMap(({ page, offences }) => offenceDefects(page.url, offences)),
  });
}

export function fail(spec: CheckSpec, input: FailInput): CheckResult {
  const severity = input.severity ?? spec.severity;
  return { ...spec, severity, status: 'fail', detail: bound(input.detail, 500), finding: draft(input, severity) };
}

/** An informational row (emerging standards, choices): no score weight, a finding of severity info. */
export function info(spec: CheckSpec, input: Omit<FailInput, 'severity'> & { finding?: boolean }): CheckResult {
  const row: CheckResult = { ...spec, severity: 'info', status: 'info', detail: bound(input.detail, 500) };
  if (input.finding !== false) row.finding = draft(input, 'info');
  return row;
}

/** An informational row with no finding: a fact worth showing, nothing to fix (or nothing decidable). */
export const note = (spec: CheckSpec, detail: string): CheckResult =>
  info(spec, { finding: false, detail, title: '', remediation: '', agentAction: '' });

/** Findings by severity: of the findings presented (after merging), or of the rows' own findings. */
export function severityCounts(findings: readonly Pick<FindingDraft, 'severity'>[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

/** Failing and informational rows with findings, worst first, ties in check order. */
export function findingRows(rows: readonly CheckResult[]): CheckResult[] {
  return rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => row.finding)
    .sort(
      (a, b) =>
        SEVERITY_ORDER.indexOf((a.row.finding as FindingDraft).severity) -
          SEVERITY_ORDER.indexOf((b.row.finding as FindingDraft).severity) || a.index - b.index,
    )
    .map(({ row }) => row);
}

/** The summary every client shows; `findings` are those presented, worst first (outcome.ts). */
export function execSummary(
  product: string,
  score: number,
  label: string,
  findings: readonly Pick<FindingDraft, 'severity' | 'title'>[],
  basis: ScoreBasis = { kind: 'full' },
): string {
  const counts = severityCounts(findings);
  const worst = findings[0];
  const parts = SEVERITY_ORDER.filter((s) => s !== 'info' && counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  const top = worst && worst.severity !== 'info' ? ` Fix first: ${worst.title}.` : '';
  if (basis.kind === 'unverified') {
    const issues = parts.length > 0 ? ` Issues in the served HTML: ${parts.join(', ')}.` : '';
    return bound(
      `${product} score unverified: part of the content only appears after JavaScript runs, so ${score}/100 from the served HTML is not a verdict.${issues}${top}`,
      600,
    );
  }
  if (basis.kind === 'partial') {
    // The partial fact first, then what was left out, and only then the number (issue 24).
    const issues =
      parts.length > 0 ? `Issues: ${parts.join(', ')}.` : `No issues in the ${basis.evaluated} checks evaluated.`;
    return bound(
      `Partial: a local on-page scan evaluated ${basis.evaluated} of the ${basis.total} ${PRODUCT_CHECKS[basis.product]}; not evaluated: ${notEvaluatedText(basis.notEvaluated)}. ${product} score on those checks: ${score}/100. ${issues}${top}`,
      600,
    );
  }
  const issues = parts.length > 0 ? `Issues: ${parts.join(', ')}.` : 'No issues found.';
  return bound(`${product} score ${score}/100 (${label}). ${issues}${top}`, 600);
}
