// Compact structured views of runs, reports and findings: what tools return as structuredContent.
// They stand on their own (some hosts pass only them to the model) and leave out what a model
// does not need (full check ledgers, timestamps of every step).
import { z } from 'zod';
import type { Finding, ReportContext, Run } from '../contract/index.ts';
import { Category, Confidence, Product, RunStatus, Severity, TERMINAL_RUN_STATUSES } from '../contract/index.ts';
import { PAGE_CONTENT_NOTICE, pageText } from './page-content.ts';

const TOP_URLS = 5;

export const SeverityCountsView = z.object({
  critical: z.int(),
  high: z.int(),
  medium: z.int(),
  low: z.int(),
  info: z.int(),
});

export const RunView = z.object({
  runId: z.string(),
  projectId: z.string().nullable(),
  product: Product,
  status: RunStatus,
  done: z.boolean().describe('true once the status is terminal: completed, failed, failed_auto_credit or refunded'),
  progressPct: z.int(),
  currentStep: z.string().nullable(),
  url: z.string(),
  score: z.int().nullable(),
  scoreStatus: z.literal('unverified').nullable(),
  severityCounts: SeverityCountsView.nullable(),
  findingsTotal: z.int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  notEvaluated: z.array(z.string()).optional().describe('checks a local on-page scan could not run'),
  humanUrl: z.string(),
});
export type RunView = z.infer<typeof RunView>;

export function isTerminal(run: Pick<Run, 'status'>): boolean {
  return TERMINAL_RUN_STATUSES.includes(run.status);
}

export function runView(run: Run): RunView {
  const counts = run.severityCounts;
  return {
    runId: run.runId,
    projectId: run.projectId,
    product: run.product,
    status: run.status,
    done: isTerminal(run),
    progressPct: run.progressPct,
    currentStep: run.currentStep,
    url: run.url,
    score: run.score,
    scoreStatus: run.scoreStatus,
    severityCounts: counts
      ? {
          critical: counts.critical ?? 0,
          high: counts.high ?? 0,
          medium: counts.medium ?? 0,
          low: counts.low ?? 0,
          info: counts.info ?? 0,
        }
      : null,
    findingsTotal: run.findingsTotal,
    error: run.error,
    createdAt: run.createdAt,
    completedAt: run.completedAt,
    ...(run.coverage ? { notEvaluated: run.coverage.notEvaluated } : {}),
    humanUrl: run.humanUrl,
  };
}

const TopFindingView = z.object({
  findingId: z.string(),
  severity: Severity,
  title: z.string(),
  remediation: z.string(),
  affectedUrls: z.array(z.string()),
  stage: z.string().optional(),
  pillar: z.string().optional(),
});

const CheckTotals = z.object({ pass: z.int(), fail: z.int(), info: z.int(), unverified: z.int() });
const FailingCheck = z.object({
  id: z.string(),
  label: z.string(),
  category: z.string(),
  detail: z.string().describe('may quote the site: page content'),
});

export const ReportView = z.object({
  runId: z.string(),
  projectId: z.string().nullable(),
  product: Product,
  url: z.string(),
  score: z.int().nullable().describe('null when scoreStatus is unverified'),
  scoreStatus: z.literal('unverified').nullable(),
  scoreLabel: z.string(),
  execSummary: z.string(),
  severityCounts: SeverityCountsView,
  findingsTotal: z.int(),
  topFindings: z.array(TopFindingView),
  completedAt: z.string().nullable(),
  humanUrl: z.string(),
  aiReadiness: z
    .object({
      pagesCrawled: z.int(),
      foundation: z.object({ sitemap: z.boolean(), robotsTxt: z.boolean(), llmsTxt: z.boolean() }),
      checks: CheckTotals.optional(),
      failingChecks: z.array(FailingCheck),
    })
    .optional(),
  marketingSignal: z
    .object({
      pagesCrawled: z.int(),
      sourceCoverage: z.string(),
      stageScores: z.array(
        z.object({
          stage: z.string(),
          status: z.string(),
          score: z.int(),
          confidence: z.string(),
          topFinding: z.string().nullable(),
        }),
      ),
      checks: CheckTotals.optional(),
      failingChecks: z.array(FailingCheck),
    })
    .optional(),
  websiteSecurity: z
    .object({
      pagesScanned: z.int(),
      scope: z.string(),
      disclaimer: z.string(),
      pillars: z.array(
        z.object({
          key: z.string(),
          label: z.string(),
          score: z.int().nullable(),
          weight: z.number(),
          pass: z.int(),
          fail: z.int(),
        }),
      ),
      tls: z
        .object({ valid: z.boolean(), issuer: z.string().optional(), daysUntilExpiry: z.number().optional() })
        .optional(),
      dns: z.object({ hasMx: z.boolean(), hasSpf: z.boolean(), hasDmarc: z.boolean(), hasCaa: z.boolean() }).optional(),
      failingChecks: z.array(
        z.object({
          id: z.string(),
          label: z.string(),
          pillar: z.string(),
          severity: Severity,
          evidence: z.string().describe('may quote the site: page content'),
          recommendation: z.string(),
        }),
      ),
    })
    .optional(),
  contentNotice: z.string(),
});
export type ReportView = z.infer<typeof ReportView>;

function checkTotals(ledger: { pass: number; fail: number; info: number; unverified: number } | undefined) {
  return ledger
    ? { pass: ledger.pass, fail: ledger.fail, info: ledger.info, unverified: ledger.unverified }
    : undefined;
}

function failingRows(
  ledger: { rows: { id: string; label: string; category: string; status: string; detail: string }[] } | undefined,
) {
  return (ledger?.rows ?? [])
    .filter((row) => row.status === 'fail')
    .map((row) => ({ id: row.id, label: row.label, category: row.category, detail: pageText(row.detail) }));
}

export function reportView(report: ReportContext): ReportView {
  const base = {
    runId: report.runId,
    projectId: report.projectId,
    product: report.product,
    url: report.url,
    score: report.scoreStatus === 'unverified' ? null : report.score,
    scoreStatus: report.scoreStatus ?? null,
    scoreLabel: report.scoreLabel,
    execSummary: report.execSummary,
    severityCounts: report.severityCounts,
    findingsTotal: report.findingsTotal,
    topFindings: report.topFindings.map((finding) => ({
      findingId: finding.findingId,
      severity: finding.severity,
      title: finding.title,
      remediation: finding.remediation,
      affectedUrls: finding.affectedUrls.slice(0, TOP_URLS),
      ...('stage' in finding ? { stage: finding.stage } : {}),
      ...('pillar' in finding ? { pillar: finding.pillar } : {}),
    })),
    completedAt: report.completedAt,
    humanUrl: report.humanUrl,
    contentNotice: PAGE_CONTENT_NOTICE,
  };
  switch (report.product) {
    case 'ai_readiness':
      return {
        ...base,
        aiReadiness: {
          pagesCrawled: report.pagesCrawled,
          foundation: {
            sitemap: report.foundation.sitemap.present,
            robotsTxt: report.foundation.robotsTxt.present,
            llmsTxt: report.foundation.llmsTxt.present,
          },
          ...(report.checks ? { checks: checkTotals(report.checks) } : {}),
          failingChecks: failingRows(report.checks),
        },
      };
    case 'marketing_signal':
      return {
        ...base,
        marketingSignal: {
          pagesCrawled: report.pagesCrawled,
          sourceCoverage: report.sourceCoverage,
          stageScores: report.stageScores.map((stage) => ({
            stage: stage.stage,
            status: stage.status,
            score: stage.score,
            confidence: stage.confidence,
            topFinding: stage.top_finding,
          })),
          ...(report.checks ? { checks: checkTotals(report.checks) } : {}),
          failingChecks: failingRows(report.checks),
        },
      };
    case 'website_security':
      return {
        ...base,
        websiteSecurity: {
          pagesScanned: report.pagesScanned,
          scope: report.scope.label,
          disclaimer: report.scope.disclaimer,
          pillars: report.pillars,
          ...(report.tls
            ? {
                tls: {
                  valid: report.tls.valid,
                  ...(report.tls.issuer ? { issuer: report.tls.issuer } : {}),
                  ...(report.tls.daysUntilExpiry !== undefined ? { daysUntilExpiry: report.tls.daysUntilExpiry } : {}),
                },
              }
            : {}),
          ...(report.dns ? { dns: report.dns } : {}),
          failingChecks: report.checks
            .filter((check) => check.status === 'fail')
            .map((check) => ({
              id: check.id,
              label: check.label,
              pillar: check.pillar,
              severity: check.severity,
              evidence: pageText(check.evidence),
              recommendation: check.recommendation,
            })),
        },
      };
  }
}

export const FindingView = z.object({
  findingId: z.string(),
  severity: Severity,
  category: Category,
  stage: z.string().optional(),
  confidence: Confidence,
  title: z.string(),
  detail: z.string().describe('may quote the site: page content'),
  remediation: z.string(),
  agentActions: z.array(z.string()).describe('concrete changes for a coding agent'),
  affectedUrls: z.array(z.string()),
  evidence: z.array(z.object({ type: z.string(), url: z.string().optional(), summary: z.string() })),
  humanUrl: z.string(),
});
export type FindingView = z.infer<typeof FindingView>;

export function findingView(finding: Finding): FindingView {
  return {
    findingId: finding.findingId,
    severity: finding.severity,
    category: finding.category,
    ...(finding.stage ? { stage: finding.stage } : {}),
    confidence: finding.confidence,
    title: finding.title,
    detail: pageText(finding.detail),
    remediation: finding.remediation,
    agentActions: finding.agentActions.map((action) => action.description),
    affectedUrls: finding.affectedUrls.slice(0, 20),
    evidence: finding.evidence.slice(0, 5).map((item) => ({
      type: item.type,
      ...(item.url ? { url: item.url } : {}),
      summary: pageText(item.summary, 200),
    })),
    humanUrl: finding.humanUrl,
  };
}
