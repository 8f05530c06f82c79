// Runs as the service sees them: which product a scanMode asks for, where the audit starts, and the
// wire shapes of a run (spec 2.4), its list item and its events (spec 6.3).
import type { CreditCosts, Product, Run, RunEventData, RunListItem, RunStatus, Severity } from '../contract/index.ts';
import type { ProjectRow, RunRow } from './store/index.ts';
import type { RunListRow } from './store/runs.ts';

// ARCHITECTURE.md: the product comes from scanMode; unknown values are a 400.
/** The scan modes this service accepts (spec 4.11 names the marketing and security ones), exactly. */
const SCAN_MODE_PRODUCTS: Readonly<Record<string, Product>> = {
  paid_ai_readiness: 'ai_readiness',
  paid_marketing_signal: 'marketing_signal',
  paid_marketing_signal_v2: 'marketing_signal',
  paid_website_security: 'website_security',
};
export const SCAN_MODES = Object.keys(SCAN_MODE_PRODUCTS);

export function productFromScanMode(scanMode: string | undefined): Product | undefined {
  if (scanMode === undefined) return 'ai_readiness';
  return Object.hasOwn(SCAN_MODE_PRODUCTS, scanMode) ? SCAN_MODE_PRODUCTS[scanMode] : undefined;
}

/** spec 2.2: the creditCosts key of a product. */
export function creditKey(product: Product): keyof CreditCosts {
  return product === 'marketing_signal' ? 'marketing' : product;
}

const LOOPBACK = /^(localhost|[^:]+\.localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;

/** Where a project's audit starts: https on its domain, or http for a target on this machine. */
export function startUrlFor(project: ProjectRow): { url: string; local: boolean } {
  const local = LOOPBACK.test(project.domain);
  return { url: `${local ? 'http' : 'https'}://${project.domain}/`, local };
}

export const runHumanUrl = (publicUrl: string, runId: string) => `${publicUrl}/runs/${runId}`;
export const runApiUrl = (publicUrl: string, runId: string) => `${publicUrl}/api/v1/runs/${runId}`;

const parseJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** spec 2.4: score and severity counts only once completed; the score null when unverified. */
function scoreState(row: Pick<RunRow, 'status' | 'score' | 'score_status'>) {
  const completed = row.status === 'completed';
  return {
    score: completed && row.score_status !== 'unverified' ? row.score : null,
    scoreStatus: completed && row.score_status === 'unverified' ? ('unverified' as const) : null,
  };
}

export function toRun(row: RunRow, publicUrl: string): Run {
  const completed = row.status === 'completed';
  const api = runApiUrl(publicUrl, row.id);
  return {
    schemaVersion: 2,
    product: row.product as Product,
    runId: row.id,
    projectId: row.project_id,
    status: row.status as RunStatus,
    progressPct: row.progress_pct,
    currentStep: row.current_step,
    url: row.url,
    scanMode: row.scan_mode,
    model: null,
    costUsd: 0,
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    ...scoreState(row),
    severityCounts: completed ? parseJson<Record<Severity, number>>(row.severity_counts) : null,
    findingsTotal: completed ? row.findings_total : null,
    coverage: parseJson(row.coverage),
    humanUrl: runHumanUrl(publicUrl, row.id),
    links: { self: api, findings: `${api}/findings`, report: `${api}/report` },
  };
}

export function toRunListItem(row: RunListRow, publicUrl: string): RunListItem {
  return {
    runId: row.id,
    projectId: row.project_id,
    product: row.product as Product,
    status: row.status as RunStatus,
    url: row.url,
    scanMode: row.scan_mode,
    progressPct: row.progress_pct,
    ...scoreState(row),
    findingsTotal: row.status === 'completed' ? row.findings_total : null,
    createdAt: row.created_at,
    finishedAt: row.completed_at,
    humanUrl: runHumanUrl(publicUrl, row.id),
  };
}

/** spec 6.3: the data of run.completed and run.failed. */
export function runEventData(row: RunRow, publicUrl: string): RunEventData {
  const completed = row.status === 'completed';
  return {
    runId: row.id,
    projectId: row.project_id,
    status: completed ? 'completed' : 'failed',
    url: row.url,
    ...scoreState(row),
    severityCounts: completed ? parseJson<Record<Severity, number>>(row.severity_counts) : null,
    findingsTotal: completed ? row.findings_total : null,
    error: row.error,
    humanUrl: runHumanUrl(publicUrl, row.id),
    apiUrl: runApiUrl(publicUrl, row.id),
  };
}
