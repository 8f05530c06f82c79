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
  SEVERITY_WEIGHT,
  scoreLabel,
  severityCounts,
  weightedScore,
} from './checks.ts';
import { citationFor, type Reference } from './citations.ts';
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
 * (`partial`), or served HTML that a browser still has to confirm (`unverified`). A label such as
 * "Good" is given only to a full score (issue 10: a local scan was "100/100 Excellent" from 4 checks).
 */
export type ScoreBasis =
  | { kind: 'full' }
  | { kind: 'partial'; product: Product; evaluated: number; total: number; notEvaluated: readonly string[] }
  | { kind: 'unverified' };

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
 * How many checks a score stands on, of how many a full scan of the product would weigh: the
 * catalogue's weighted checks, plus any evaluated here that it does not list (axe rules made at run
 * time), so evaluated never exceeds total.
 */
export function checkCounts(product: Product, rows: readonly CheckResult[]): { evaluated: number; total: number } {
  const evaluated = new Set(rows.filter(weighs).map((row) => row.id));
  const total = new Set([...(WEIGHTED_CHECKS.get(product) ?? []), ...evaluated]);
  return { evaluated: evaluated.size, total: total.size };
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
}): AuditOutcome<Details> {
  const score = input.score ?? weightedScore(input.checks);
  const unverified = input.unverified ?? input.checks.some((c) => c.status === 'unverified');
  const { evaluated, total } = checkCounts(input.product, input.checks);
  const basis: ScoreBasis = unverified
    ? { kind: 'unverified' }
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
    execSummary: execSummary(input.productLabel, score, label, findings, basis),
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
