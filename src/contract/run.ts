// spec 2.4 and 4.11: runs, run list items and the start-run body.
import { z } from 'zod';
import { DateTime, Pagination, SEVERITIES, Uuid } from './common.ts';

export const PRODUCTS = ['ai_readiness', 'marketing_signal', 'website_security'] as const;
export const Product = z.enum(PRODUCTS);
export type Product = z.infer<typeof Product>;

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'failed_auto_credit', 'refunded'] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

// ARCHITECTURE.md: all statuses but pending and running are terminal; pollers stop there (spec 3.2).
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'failed_auto_credit', 'refunded'];

/** The longest long poll of GET /runs/{runId}?waitSeconds (an extension of spec 4.11), under common proxy timeouts. */
export const RUN_WAIT_SECONDS_MAX = 25;

export const ScoreStatus = z.literal('unverified').nullable();

// spec 2.4: a map of severity name to integer.
export const RunSeverityCounts = z.partialRecord(z.enum(SEVERITIES), z.int().min(0));

// spec 2.4: present for a local on-page scan, listing the checks not run. The two counts are an
// addition (issue 24), optional so runs stored before them still parse: a partial score is read as
// "4 of 36 checks", never as a verdict.
export const Coverage = z
  .object({
    mode: z.literal('local_on_page'),
    notEvaluated: z.array(z.string()),
    evaluatedChecks: z
      .int()
      .min(0)
      .optional()
      .describe('checks that weigh in the score and were evaluated by this scan'),
    totalChecks: z
      .int()
      .min(0)
      .optional()
      .describe('checks that weigh in the product\'s score on a full scan (docs/scoring.md, "Catalogue")'),
  })
  .refine((c) => c.evaluatedChecks === undefined || c.totalChecks === undefined || c.evaluatedChecks <= c.totalChecks, {
    message: 'evaluatedChecks is at most totalChecks',
    path: ['evaluatedChecks'],
  });
export type Coverage = z.infer<typeof Coverage>;

/** What each `notEvaluated` entry leaves out, in a site owner's words. */
export const NOT_EVALUATED_LABELS: Readonly<Record<string, string>> = {
  dns: 'DNS',
  tls: 'TLS (HTTPS)',
  redirects: 'redirects',
  foundation_files: 'foundation files (robots.txt, sitemap, llms.txt)',
  email_authentication: 'email authentication (SPF, DKIM, DMARC)',
  response_header_security: 'response headers (security headers, cookies)',
};

/** What a partial score leaves out, for people: `DNS, TLS (HTTPS), redirects, ... and response headers (...)`. */
export function notEvaluatedText(notEvaluated: readonly string[]): string {
  const words = notEvaluated.map((key) => NOT_EVALUATED_LABELS[key] ?? key.replaceAll('_', ' '));
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The checks of each product, as a partial score names them ("4 of 36 security checks"). */
export const PRODUCT_CHECKS: Readonly<Record<Product, string>> = {
  ai_readiness: 'AI readiness checks',
  marketing_signal: 'marketing checks',
  website_security: 'security checks',
};

/** `Partial: 4 of 36 security checks evaluated`: what a local scan's score stands on, said before the number. */
export const partialLabel = (evaluated: number, total: number, product: Product) =>
  `Partial: ${evaluated} of ${total} ${PRODUCT_CHECKS[product]} evaluated`;

/**
 * The partial statement every surface leads with: from the counts, or for a run stored before them
 * (issue 24), its own label when that already says "Partial", else the plain fact.
 */
export function partialHeadline(
  coverage: Pick<Coverage, 'evaluatedChecks' | 'totalChecks'>,
  product: Product,
  scoreLabel?: string,
): string {
  if (coverage.evaluatedChecks !== undefined && coverage.totalChecks !== undefined)
    return partialLabel(coverage.evaluatedChecks, coverage.totalChecks, product);
  return scoreLabel?.startsWith('Partial') ? scoreLabel : 'Partial: a local on-page scan';
}

/** The line every surface shows beside a local scan's score (docs/scoring.md, "Honest labels"). */
export const partialScoreNote = (notEvaluated: readonly string[]) =>
  `Partial score: a local on-page scan; not evaluated: ${notEvaluatedText(notEvaluated)}`;

export const RunLinks = z.object({ self: z.string(), findings: z.string(), report: z.string() });

export const Run = z
  .object({
    schemaVersion: z.literal(2),
    product: Product,
    runId: Uuid,
    projectId: Uuid.nullable(),
    status: RunStatus,
    progressPct: z.int().min(0).max(100),
    currentStep: z.string().nullable(),
    url: z.string(),
    scanMode: z.string().nullable(),
    model: z.string().nullable(),
    costUsd: z.number(),
    error: z.string().nullable(),
    createdAt: DateTime,
    startedAt: DateTime.nullable(),
    completedAt: DateTime.nullable(),
    score: z.int().min(0).max(100).nullable(),
    scoreStatus: ScoreStatus,
    severityCounts: RunSeverityCounts.nullable(),
    findingsTotal: z.int().min(0).nullable(),
    coverage: Coverage.nullable(),
    humanUrl: z.string(),
    links: RunLinks.optional(),
  })
  .superRefine((run, ctx) => {
    // spec 2.4: score and severity counts stay null until the run is completed.
    if (run.status !== 'completed' && (run.score !== null || run.severityCounts !== null)) {
      ctx.addIssue({ code: 'custom', message: 'score and severityCounts are null until completed', path: ['score'] });
    }
    if (run.scoreStatus === 'unverified' && run.score !== null) {
      ctx.addIssue({ code: 'custom', message: 'score is null when scoreStatus is unverified', path: ['score'] });
    }
  });
export type Run = z.infer<typeof Run>;

// spec 2.4: compact list items carrying the score state and finishedAt.
export const RunListItem = z.object({
  runId: Uuid,
  projectId: Uuid.nullable(),
  product: Product,
  status: RunStatus,
  url: z.string(),
  scanMode: z.string().nullable(),
  progressPct: z.int().min(0).max(100),
  score: z.int().min(0).max(100).nullable(),
  scoreStatus: ScoreStatus,
  findingsTotal: z.int().min(0).nullable(),
  createdAt: DateTime,
  finishedAt: DateTime.nullable(),
  humanUrl: z.string(),
});
export type RunListItem = z.infer<typeof RunListItem>;

export const RunList = z.object({ runs: z.array(RunListItem), pagination: Pagination });

export const StartRunBody = z.object({
  projectId: Uuid,
  scanMode: z.string().min(1).max(64).optional(),
});
export type StartRunBody = z.infer<typeof StartRunBody>;
