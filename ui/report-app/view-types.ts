// What the app reads of the tools' structuredContent: the fields of src/mcp/views.ts and
// tools/compare-runs.ts it shows, written here because the server's modules need Node's types and
// the app's program has the DOM's. test/mcp/report-app-html.test.ts holds them to the server's
// schemas (a field renamed there fails `npm run check`).

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type Product = 'ai_readiness' | 'marketing_signal' | 'website_security';

export type SeverityCounts = Record<Severity, number>;

/** get_report's result (ReportView). */
export interface ReportInput {
  runId: string;
  product: Product;
  url: string;
  score?: number;
  scoreStatus?: 'unverified';
  scoreLabel: string;
  notEvaluated?: string[];
  evaluatedChecks?: number;
  totalChecks?: number;
  execSummary: string;
  severityCounts: SeverityCounts;
  findingsTotal: number;
  topFindings: { findingId: string; severity: Severity; title: string; remediation: string }[];
  foundation?: { sitemap: string; robotsTxt: string; llmsTxt: string };
  stageScores?: { stage: string; status: string; score: number; confidence: string }[];
  pillars?: { label: string; score?: number; pass: number; fail: number }[];
  humanUrl: string;
}

/** compare_runs' result. */
export interface ComparisonInput {
  runId: string;
  baselineRunId: string;
  score: { current?: number; baseline?: number; change?: number };
  counts: { new: number; persisting: number; notFound: number };
  findings: {
    comparison: 'new' | 'persisting' | 'notFound';
    findingId: string;
    severity: Severity;
    title: string;
  }[];
  humanUrl: string;
}

/** One finding of page_findings' result (FindingView). */
export interface FindingInput {
  findingId: string;
  severity: Severity;
  category: string;
  confidence: string;
  title: string;
  detail: string;
  remediation: string;
  agentActions: string[];
  affectedUrls: string[];
  affectedUrlsTotal?: number;
  verify?: string;
  humanUrl: string;
}

/** page_findings' result. */
export interface FindingsPageInput {
  runId: string;
  findings: FindingInput[];
  nextCursor?: string;
  hasMore: boolean;
}
