// What the engine answers for one audit, before the service gives it ids and links.
import type { Category, Pillar, Product, Severity, Stage } from '../contract/index.ts';
import {
  type CheckResult,
  execSummary,
  type FindingDraft,
  findingRows,
  scoreLabel,
  severityCounts,
  weightedScore,
} from './checks.ts';

export interface EngineFinding extends FindingDraft {
  checkId: string;
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
  const label = scoreLabel(score);
  const findings = findingRows(input.checks).map((row) => ({
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
    execSummary: execSummary(input.productLabel, score, label, input.checks),
    scoreStatus: (input.unverified ?? input.checks.some((c) => c.status === 'unverified')) ? 'unverified' : null,
    checks: input.checks,
    findings,
    severityCounts: severityCounts(input.checks),
    pagesCrawled: input.pagesCrawled,
    coverage: input.local ? { mode: 'local_on_page', notEvaluated: LOCAL_NOT_EVALUATED } : null,
    details: input.details,
  };
}
