// Compact structured views of runs, reports and findings: what tools return as structuredContent.
// They stand on their own (some hosts pass only them to the model) and leave out what a model
// does not need (full check ledgers, timestamps of every step).

import { z } from 'zod';
import type { Finding, ReportContext, Run } from '../contract/index.ts';
import { Confidence, foundationState, Product, RunStatus, Severity, TERMINAL_RUN_STATUSES } from '../contract/index.ts';
import type { ElementLocator } from './finding-text.ts';
import { ADVERTISE_AS_OBJECT } from './host-schema.ts';
import {
  commandLine,
  markQuotes,
  PAGE_CONTENT_NOTICE,
  pageBlock,
  pageContent,
  pageText,
  siteUrl,
} from './page-content.ts';

/**
 * What a structured result keeps of a finding's lists, and says so where it cuts (`…Total`, the
 * length before the cut). A finding keeps the engine's own bounds (src/audit/checks.ts: 25 affected
 * URLs, 10 evidence items, 5 elements each), so nothing the API has is dropped; the report's top
 * findings keep the first 5 affected URLs (page_findings has them all).
 */
export const VIEW_BOUNDS = { affectedUrls: 25, evidence: 10, elements: 5, topFindingUrls: 5 } as const;

/** The first `max` items, and the length before the cut under `totalKey` when there was one. */
function bounded<Item, Key extends string>(items: readonly Item[], max: number, totalKey: Key) {
  return {
    items: items.slice(0, max),
    total: (items.length > max ? { [totalKey]: items.length } : {}) as { [K in Key]?: number },
  };
}

// Advertised as an object: its keys are the five severities page_findings' input lists (issue 30's room).
export const SeverityCountsView = z
  .object({
    critical: z.int(),
    high: z.int(),
    medium: z.int(),
    low: z.int(),
    info: z.int(),
  })
  .meta(ADVERTISE_AS_OBJECT);

/** A partial score's footing (issue 24): read "4 of 36 checks", never the score alone. */
const partialCounts = {
  evaluatedChecks: z.int().optional().describe('set when the score is partial: checks that weigh in it and were run'),
  totalChecks: z.int().optional().describe('set when the score is partial: checks a full scan of the product weighs'),
};

/** The coverage's counts, when the run has them (runs stored before issue 24 do not). */
function countsOf(coverage: Run['coverage'] | undefined) {
  return {
    ...some('evaluatedChecks', coverage?.evaluatedChecks),
    ...some('totalChecks', coverage?.totalChecks),
  };
}

export const RunView = z.object({
  runId: z.string(),
  projectId: z.string().optional(),
  product: Product,
  status: RunStatus,
  done: z.boolean().describe('status is terminal'),
  progressPct: z.int(),
  currentStep: z.string().optional(),
  url: z.string(),
  score: z.int().optional(),
  scoreStatus: z.literal('unverified').optional(),
  severityCounts: SeverityCountsView.optional(),
  findingsTotal: z.int().optional(),
  error: z.string().optional(),
  createdAt: z.string(),
  completedAt: z.string().optional(),
  notEvaluated: z.array(z.string()).optional().describe('checks a local on-page scan could not run'),
  ...partialCounts,
  humanUrl: z.string(),
});
export type RunView = z.infer<typeof RunView>;

export function isTerminal(run: Pick<Run, 'status'>): boolean {
  return TERMINAL_RUN_STATUSES.includes(run.status);
}

/** `{key: value}` when value is neither null nor undefined, else nothing: results carry no null noise. */
function some<Key extends string, Value>(key: Key, value: Value | null | undefined): { [K in Key]?: Value } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value };
}

export function runView(run: Run): RunView {
  const counts = run.severityCounts;
  return {
    runId: run.runId,
    ...some('projectId', run.projectId),
    product: run.product,
    status: run.status,
    done: isTerminal(run),
    progressPct: run.progressPct,
    ...some('currentStep', run.currentStep && markQuotes(run.currentStep)),
    url: run.url,
    ...some('score', run.score),
    ...some('scoreStatus', run.scoreStatus),
    ...some(
      'severityCounts',
      counts && {
        critical: counts.critical ?? 0,
        high: counts.high ?? 0,
        medium: counts.medium ?? 0,
        low: counts.low ?? 0,
        info: counts.info ?? 0,
      },
    ),
    ...some('findingsTotal', run.findingsTotal),
    ...some('error', run.error && markQuotes(run.error)),
    createdAt: run.createdAt,
    ...some('completedAt', run.completedAt),
    ...some('notEvaluated', run.coverage?.notEvaluated),
    ...countsOf(run.coverage),
    humanUrl: run.humanUrl,
  };
}

const cutTotal = (what: string) => z.int().optional().describe(`set when ${what} was cut: the count before the cut`);

const TopFindingView = z.object({
  findingId: z.string(),
  severity: Severity,
  title: z.string(),
  remediation: z.string(),
  affectedUrls: z.array(z.string()),
  affectedUrlsTotal: cutTotal('affectedUrls'),
});

/** A failing check of any product: group is its category (AI readiness, marketing) or pillar (security). */
const FailingCheck = z.object({
  id: z.string(),
  label: z.string(),
  group: z.string(),
  detail: z.string(),
  severity: Severity.optional(),
  fix: z.string().optional(),
});

/** present, missing, not_evaluated (a local scan does not read it) or unknown (it could not be fetched). */
const FoundationStateView = z.string();

// One flat shape for the three products: the sections a product does not have are absent.
export const ReportView = z.object({
  runId: z.string(),
  projectId: z.string().optional(),
  product: Product,
  url: z.string(),
  score: z.int().optional().describe('absent when unverified'),
  scoreStatus: z.literal('unverified').optional(),
  scoreLabel: z.string(),
  notEvaluated: z.array(z.string()).optional().describe('set when the score is partial'),
  ...partialCounts,
  execSummary: z.string(),
  severityCounts: SeverityCountsView,
  findingsTotal: z.int(),
  pagesCrawled: z.int(),
  topFindings: z.array(TopFindingView),
  failingChecks: z.array(FailingCheck),
  foundation: z
    .object({ sitemap: FoundationStateView, robotsTxt: FoundationStateView, llmsTxt: FoundationStateView })
    .optional()
    .describe('each present, missing, not_evaluated or unknown'),
  sourceCoverage: z.string().optional(),
  stageScores: z
    .array(
      z.object({
        stage: z.string(),
        status: z.string(),
        score: z.int(),
        confidence: z.string(),
        topFinding: z.string().optional(),
      }),
    )
    .optional(),
  scope: z.string().optional(),
  disclaimer: z.string().optional(),
  pillars: z
    .array(
      z.object({
        label: z.string(),
        score: z.int().optional(),
        weight: z.number(),
        pass: z.int(),
        fail: z.int(),
      }),
    )
    .optional(),
  tls: z
    .object({ valid: z.boolean(), issuer: z.string().optional(), daysUntilExpiry: z.number().optional() })
    .optional(),
  dns: z.object({ hasMx: z.boolean(), hasSpf: z.boolean(), hasDmarc: z.boolean(), hasCaa: z.boolean() }).optional(),
  completedAt: z.string().optional(),
  humanUrl: z.string(),
  contentNotice: z.string(),
});
export type ReportView = z.infer<typeof ReportView>;

type Ledger = {
  rows: { id: string; label: string; category: string; status: string; detail: string }[];
};

/** The failing rows of a check ledger (its totals stay in the API's report context). */
function ledgerViews(ledger: Ledger | undefined) {
  return {
    failingChecks: (ledger?.rows ?? [])
      .filter((row) => row.status === 'fail')
      .map((row) => ({ id: row.id, label: markQuotes(row.label), group: row.category, detail: pageText(row.detail) })),
  };
}

export function reportView(report: ReportContext): ReportView {
  const base = {
    runId: report.runId,
    ...some('projectId', report.projectId),
    product: report.product,
    url: report.url,
    ...some('score', report.scoreStatus === 'unverified' ? null : report.score),
    ...some('scoreStatus', report.scoreStatus),
    scoreLabel: report.scoreLabel,
    ...(report.coverage ? { notEvaluated: report.coverage.notEvaluated } : {}),
    ...countsOf(report.coverage),
    execSummary: markQuotes(report.execSummary),
    severityCounts: report.severityCounts,
    findingsTotal: report.findingsTotal,
    topFindings: report.topFindings.map((finding) => {
      const urls = bounded(finding.affectedUrls, VIEW_BOUNDS.topFindingUrls, 'affectedUrlsTotal');
      return {
        findingId: finding.findingId,
        severity: finding.severity,
        title: markQuotes(finding.title),
        remediation: markQuotes(finding.remediation),
        affectedUrls: urls.items.map(siteUrl),
        ...urls.total,
      };
    }),
    ...some('completedAt', report.completedAt),
    humanUrl: report.humanUrl,
    contentNotice: PAGE_CONTENT_NOTICE,
  };
  switch (report.product) {
    case 'ai_readiness':
      return {
        ...base,
        pagesCrawled: report.pagesCrawled,
        ...ledgerViews(report.checks),
        foundation: {
          sitemap: foundationState(report.foundation.sitemap),
          robotsTxt: foundationState(report.foundation.robotsTxt),
          llmsTxt: foundationState(report.foundation.llmsTxt),
        },
      };
    case 'marketing_signal':
      return {
        ...base,
        pagesCrawled: report.pagesCrawled,
        ...ledgerViews(report.checks),
        sourceCoverage: report.sourceCoverage,
        stageScores: report.stageScores.map((stage) => ({
          stage: stage.stage,
          status: stage.status,
          score: stage.score,
          confidence: stage.confidence,
          ...some('topFinding', stage.top_finding && markQuotes(stage.top_finding)),
        })),
      };
    case 'website_security':
      return {
        ...base,
        pagesCrawled: report.pagesScanned,
        failingChecks: report.checks
          .filter((check) => check.status === 'fail')
          .map((check) => ({
            id: check.id,
            label: markQuotes(check.label),
            group: check.pillar,
            severity: check.severity,
            detail: pageText(check.evidence),
            fix: markQuotes(check.recommendation),
          })),
        scope: markQuotes(report.scope.label),
        disclaimer: markQuotes(report.scope.disclaimer),
        pillars: report.pillars.map(({ label, score, weight, pass, fail }) => ({
          label,
          ...some('score', score),
          weight,
          pass,
          fail,
        })),
        ...some(
          'tls',
          report.tls && {
            valid: report.tls.valid,
            // The certificate's issuer is whatever the site's certificate says.
            ...some('issuer', report.tls.issuer && pageContent(report.tls.issuer)),
            ...some('daysUntilExpiry', report.tls.daysUntilExpiry),
          },
        ),
        ...some('dns', report.dns),
      };
  }
}

export const FindingView = z.object({
  findingId: z.string(),
  /** Equal across runs while the defect is there: for compare_runs and recheck. */
  fingerprint: z.string().optional(),
  severity: Severity,
  category: z.string(),
  stage: z.string().optional(),
  confidence: Confidence,
  title: z.string(),
  detail: z.string(),
  remediation: z.string(),
  agentActions: z.array(z.string()).describe('changes for a coding agent'),
  affectedUrls: z.array(z.string()),
  affectedUrlsTotal: cutTotal('affectedUrls'),
  evidence: z.array(
    z.object({
      type: z.string(),
      url: z.string().optional(),
      summary: z.string(),
      elements: z
        .array(
          z.object({
            selector: z.string(),
            snippet: z.string(),
            /** Where it is written in the site's source, best first (when the server knows the source). */
            locations: z.array(z.object({ file: z.string(), line: z.int(), confidence: z.string() })).optional(),
          }),
        )
        .optional(),
      elementsTotal: cutTotal('elements'),
    }),
  ),
  evidenceTotal: cutTotal('evidence'),
  references: z
    .array(z.object({ title: z.string(), url: z.string() }))
    .optional()
    .describe('the standards the check follows'),
  verify: z.string().optional().describe('one line that shows whether the fix worked'),
  humanUrl: z.string(),
});
export type FindingView = z.infer<typeof FindingView>;

/**
 * An agent action as text: the engine's words, and a suggestion's text (built from the site: its
 * description, og:image, titles, DNS records) marked whole after its first line, kept verbatim to paste.
 */
export function actionText(action: Finding['agentActions'][number]): string {
  if (!action.suggestion) return markQuotes(action.description);
  const newline = action.description.indexOf('\n');
  const head = newline === -1 ? action.description : action.description.slice(0, newline);
  return `${markQuotes(head)}\n${pageBlock(action.suggestion.content)}`;
}

export function findingView(finding: Finding, locate?: ElementLocator): FindingView {
  const urls = bounded(finding.affectedUrls, VIEW_BOUNDS.affectedUrls, 'affectedUrlsTotal');
  const evidence = bounded(finding.evidence, VIEW_BOUNDS.evidence, 'evidenceTotal');
  return {
    findingId: finding.findingId,
    ...(finding.fingerprint ? { fingerprint: finding.fingerprint } : {}),
    severity: finding.severity,
    category: finding.category,
    ...(finding.stage ? { stage: finding.stage } : {}),
    confidence: finding.confidence,
    title: markQuotes(finding.title),
    detail: pageText(finding.detail),
    remediation: markQuotes(finding.remediation),
    agentActions: finding.agentActions.map(actionText),
    affectedUrls: urls.items.map(siteUrl),
    ...urls.total,
    evidence: evidence.items.map((item) => {
      const elements = bounded(item.elements ?? [], VIEW_BOUNDS.elements, 'elementsTotal');
      return {
        type: item.type,
        ...(item.url ? { url: siteUrl(item.url) } : {}),
        // The engine bounds a summary at 300 characters.
        summary: pageText(item.summary, 300),
        ...(elements.items.length > 0
          ? {
              elements: elements.items.map((element) => {
                const locations = locate?.(element) ?? [];
                return {
                  selector: pageContent(element.selector, 'selector'),
                  snippet: pageContent(element.snippet),
                  ...(locations.length > 0
                    ? { locations: locations.map(({ file, line, confidence }) => ({ file, line, confidence })) }
                    : {}),
                };
              }),
            }
          : {}),
        ...elements.total,
      };
    }),
    ...evidence.total,
    ...(finding.references?.length ? { references: finding.references } : {}),
    ...(finding.verify ? { verify: commandLine(finding.verify) } : {}),
    humanUrl: finding.humanUrl,
  };
}
