// What the engine answers for one audit, before the service gives it ids and links.
import type { Category, Pillar, Product, Severity, Stage } from '../contract/index.ts';
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
import type { RenderingSummary } from './render/render-site.ts';

/** A check without a catalogue entry still says where to look (a test holds that every check has one). */
function citedAt(checkId: string, url: string): { references: Reference[]; verify: string } {
  return citationFor(checkId, { url }) ?? { references: [], verify: `siteaudit audit ${url}` };
}

export interface EngineFinding extends FindingDraft {
  checkId: string;
  /** The check's standards and the line that verifies a fix (citations.ts). */
  references: Reference[];
  verify: string;
  category: Category;
  stage?: Stage;
  pillar?: Pillar;
}

export interface Coverage {
  mode: 'local_on_page';
  notEvaluated: string[];
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
  | { kind: 'partial'; evaluated: number; notEvaluated: readonly string[] }
  | { kind: 'unverified' };

export function labelOf(score: number, basis: ScoreBasis): string {
  if (basis.kind === 'unverified') return 'Unverified';
  if (basis.kind === 'partial') return `Partial: ${scoreLabel(score)} on ${basis.evaluated} evaluated checks`;
  return scoreLabel(score);
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
  const evaluated = input.checks.filter(
    (c) => (c.status === 'pass' || c.status === 'fail') && SEVERITY_WEIGHT[c.severity] > 0,
  ).length;
  const basis: ScoreBasis = unverified
    ? { kind: 'unverified' }
    : input.local
      ? { kind: 'partial', evaluated, notEvaluated: LOCAL_NOT_EVALUATED }
      : { kind: 'full' };
  const label = labelOf(score, basis);
  const findings = findingRows(input.checks).map((row) => ({
    ...citedAt(row.id, row.finding?.affectedUrls[0] ?? input.startUrl),
    ...(row.finding as FindingDraft),
    checkId: row.id,
    category: row.category,
    ...(row.stage ? { stage: row.stage } : {}),
    ...(row.pillar ? { pillar: row.pillar } : {}),
  }));
  return {
    product: input.product,
    startUrl: input.startUrl,
    score,
    scoreLabel: label,
    execSummary: execSummary(input.productLabel, score, label, input.checks, basis),
    scoreStatus: unverified ? 'unverified' : null,
    checks: input.checks,
    findings,
    severityCounts: severityCounts(input.checks),
    pagesCrawled: input.pagesCrawled,
    coverage: input.local ? { mode: 'local_on_page', notEvaluated: LOCAL_NOT_EVALUATED } : null,
    details: input.details,
  };
}
