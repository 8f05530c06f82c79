// What the engine answers for one audit, before the service gives it ids and links.
import {
  type Category,
  type Pillar,
  type Product,
  partialLabel,
  type Severity,
  type Stage,
} from '../contract/index.ts';
import { CATALOGUE } from './catalogue.ts';
import {
  type CheckResult,
  execSummary,
  type FindingDraft,
  findingRows,
  SEVERITY_ORDER,
  SEVERITY_WEIGHT,
  scoreLabel,
  severityCounts,
  weightedScore,
} from './checks.ts';
import { citationFor, type Reference } from './citations.ts';
import { bound } from './html.ts';
import { mergeFindings } from './merge-findings.ts';
import type { RenderingSummary } from './render/render-site.ts';

export interface EngineFinding extends FindingDraft {
  checkId: string;
  /** The check's standards and the line that verifies a fix (its spec's `cite`). */
  references: Reference[];
  verify: string;
  category: Category;
  stage?: Stage;
  pillar?: Pillar;
  /** Checks whose findings on the same defects were merged into this one (merge-findings.ts). */
  alsoChecks?: string[];
}

export interface Coverage {
  mode: 'local_on_page';
  notEvaluated: string[];
  /** Checks that weigh in the score and were evaluated (issue 24). */
  evaluatedChecks: number;
  /** Checks that weigh in the product's score on a full scan. */
  totalChecks: number;
}

// spec 2.4: what a local on-page scan does not run.
export const LOCAL_NOT_EVALUATED = [
  'dns',
  'tls',
  'redirects',
  'foundation_files',
  'email_authentication',
  'response_header_security',
];

export interface AuditOutcome<Details = unknown> {
  product: Product;
  startUrl: string;
  score: number;
  scoreLabel: string;
  execSummary: string;
  scoreStatus: 'unverified' | null;
  checks: CheckResult[];
  findings: EngineFinding[];
  severityCounts: Record<Severity, number>;
  pagesCrawled: number;
  coverage: Coverage | null;
  details: Details;
  /** The pages most linked within the site besides the start page (monitoring watches them too). */
  keyPages?: string[];
  /** Which pages were rendered in Chromium, or why none were (issue 14). */
  rendering?: RenderingSummary;
}

/**
 * What a score stands on: every check of the product (`full`), only those a local scan can run
 * (`partial`), or content a browser still has to confirm (`unverified`): served HTML not rendered,
 * or a page Chromium loaded but its scripts did not build (`notBuilt` says why). A label such as
 * "Good" is given only to a full score (issue 10: a local scan was "100/100 Excellent" from 4 checks).
 */
export type ScoreBasis =
  | { kind: 'full' }
  | { kind: 'partial'; product: Product; evaluated: number; total: number; notEvaluated: readonly string[] }
  | { kind: 'unverified'; notBuilt?: string };

/**
 * The summary of a score unverified because the page did not build in the browser: "from the served
 * HTML" would be untrue there (it was rendered), and so would a plain verdict (its content was not seen).
 */
function notBuiltSummary(
  product: string,
  score: number,
  findings: readonly Pick<FindingDraft, 'severity' | 'title'>[],
  notBuilt: string,
): string {
  const counts = severityCounts(findings);
  const parts = SEVERITY_ORDER.filter((s) => s !== 'info' && counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  const worst = findings[0];
  const issues = parts.length > 0 ? ` Issues in what it showed: ${parts.join(', ')}.` : '';
  const top = worst && worst.severity !== 'info' ? ` Fix first: ${worst.title}.` : '';
  return bound(`${product} score unverified: ${notBuilt}, so ${score}/100 is not a verdict.${issues}${top}`, 600);
}

/**
 * A partial score gets no word of the scale: "Excellent" from 4 of 36 checks read as a verdict on a
 * server that sent no security header at all (issue 24). It says what it stands on instead.
 */
export function labelOf(score: number, basis: ScoreBasis): string {
  if (basis.kind === 'unverified') return 'Unverified';
  if (basis.kind === 'partial') return partialLabel(basis.evaluated, basis.total, basis.product);
  return scoreLabel(score);
}

/** Whether a row counts in the score: it passed or failed, with a severity that weighs. */
const weighs = (row: Pick<CheckResult, 'status' | 'severity'>) =>
  (row.status === 'pass' || row.status === 'fail') && SEVERITY_WEIGHT[row.severity] > 0;

/** The catalogue's checks of each product that weigh in its score (informational ones never do). */
const WEIGHTED_CHECKS = new Map<Product, ReadonlySet<string>>();
for (const { product, spec } of CATALOGUE) {
  if (SEVERITY_WEIGHT[spec.severity] === 0) continue;
  const ids = (WEIGHTED_CHECKS.get(product) as Set<string> | undefined) ?? new Set<string>();
  ids.add(spec.id);
  WEIGHTED_CHECKS.set(product, ids);
}

/**
 * How many of the catalogue's weighted checks of the product a score stands on, of how many a full
 * scan weighs. axe-core's rules on rendered pages weigh in the score too, but a passing rule has no
 * row, so counting them would make the total of the same site change with what axe found (56, 57,
 * 59): they are not counted here, and the total is the catalogue's, the same on every run.
 */
export function checkCounts(product: Product, rows: readonly CheckResult[]): { evaluated: number; total: number } {
  const catalogue = WEIGHTED_CHECKS.get(product) ?? new Set<string>();
  const evaluated = new Set(rows.filter((row) => weighs(row) && catalogue.has(row.id)).map((row) => row.id));
  return { evaluated: evaluated.size, total: catalogue.size };
}

export function buildOutcome<Details>(input: {
  product: Product;
  productLabel: string;
  startUrl: string;
  checks: CheckResult[];
  pagesCrawled: number;
  local: boolean;
  details: Details;
  /** Overrides the weighted score (products that blend sub-scores). */
  score?: number;
  unverified?: boolean;
  /** Why the score is unverified though the page was rendered: its scripts did not build it (app-shell.ts). */
  notBuilt?: string;
}): AuditOutcome<Details> {
  const score = input.score ?? weightedScore(input.checks);
  const unverified =
    input.notBuilt !== undefined || (input.unverified ?? input.checks.some((c) => c.status === 'unverified'));
  const { evaluated, total } = checkCounts(input.product, input.checks);
  const basis: ScoreBasis = unverified
    ? { kind: 'unverified', ...(input.notBuilt ? { notBuilt: input.notBuilt } : {}) }
    : input.local
      ? { kind: 'partial', product: input.product, evaluated, total, notEvaluated: LOCAL_NOT_EVALUATED }
      : { kind: 'full' };
  const label = labelOf(score, basis);
  // One defect, one finding: the rows stand as judged (the score is theirs), the findings presented merge.
  const findings: EngineFinding[] = mergeFindings(
    findingRows(input.checks).map((row) => ({
      ...citationFor(row.cite, { url: row.finding?.affectedUrls[0] ?? input.startUrl }),
      ...(row.finding as FindingDraft),
      checkId: row.id,
      category: row.category,
      ...(row.stage ? { stage: row.stage } : {}),
      ...(row.pillar ? { pillar: row.pillar } : {}),
    })),
  );
  return {
    product: input.product,
    startUrl: input.startUrl,
    score,
    scoreLabel: label,
    execSummary:
      basis.kind === 'unverified' && basis.notBuilt
        ? notBuiltSummary(input.productLabel, score, findings, basis.notBuilt)
        : execSummary(input.productLabel, score, label, findings, basis),
    scoreStatus: unverified ? 'unverified' : null,
    checks: input.checks,
    findings,
    severityCounts: severityCounts(findings),
    pagesCrawled: input.pagesCrawled,
    coverage: input.local
      ? { mode: 'local_on_page', notEvaluated: LOCAL_NOT_EVALUATED, evaluatedChecks: evaluated, totalChecks: total }
      : null,
    details: input.details,
  };
}
