// spec 2.6 to 2.10: severity counts, check rows and the three report contexts.
import { z } from 'zod';
import { Category, DateTime, Severity, Uuid } from './common.ts';
import { FindingId, STAGES, Stage } from './finding.ts';
import { Coverage } from './run.ts';

// spec 2.6: every severity present, each an integer of at least 0.
export const SeverityCounts = z.object({
  critical: z.int().min(0),
  high: z.int().min(0),
  medium: z.int().min(0),
  low: z.int().min(0),
  info: z.int().min(0),
});
export type SeverityCounts = z.infer<typeof SeverityCounts>;

export const CheckStatus = z.enum(['pass', 'fail', 'info', 'unverified']);

// spec 2.7
export const CheckRow = z.object({
  id: z.string(),
  label: z.string(),
  category: Category,
  status: CheckStatus,
  detail: z.string(),
});

// spec 2.8: the checks ledger of the ai_readiness and marketing_signal contexts.
export const ChecksLedger = z.object({
  pass: z.int().min(0),
  fail: z.int().min(0),
  info: z.int().min(0),
  unverified: z.int().min(0),
  rows: z.array(CheckRow),
});

export const TOP_FINDINGS_MAX = 10;

export const TopFinding = z.object({
  findingId: FindingId,
  severity: Severity,
  category: Category,
  title: z.string(),
  remediation: z.string(),
  affectedUrls: z.array(z.string()),
});

const FoundationItem = z.object({ present: z.boolean(), notes: z.string() });
type FoundationItem = z.infer<typeof FoundationItem>;

/**
 * What a foundation item says, in one word: `present` is false both when the file is missing and
 * when nothing could be learned, and the notes tell which (docs/decisions.md, "Honest labels").
 */
export type FoundationState = 'present' | 'missing' | 'not_evaluated' | 'unknown';

export function foundationState(item: FoundationItem): FoundationState {
  if (item.present) return 'present';
  if (item.notes.startsWith('not evaluated')) return 'not_evaluated';
  if (item.notes.startsWith('unknown')) return 'unknown';
  return 'missing';
}

/** Rendered evidence of a run: the mode, whether a browser was there, and the pages it rendered. */
export const Rendering = z.object({
  mode: z.enum(['auto', 'always', 'never']),
  available: z.boolean(),
  reason: z.string().optional().describe('why no page was rendered'),
  pages: z.array(
    z.object({
      url: z.string(),
      ms: z.int().min(0),
      requests: z.int().min(0),
      refused: z.int().min(0).describe('requests the SSRF guard or the request policy refused'),
      // Additions (issue 25): a page whose framework did not load is not passed off as rendered.
      failed: z
        .int()
        .min(0)
        .optional()
        .describe('requests let through that got no answer (a host that does not resolve, a refused connection)'),
      failedScripts: z
        .array(z.object({ url: z.string(), reason: z.string() }))
        .optional()
        .describe('the scripts the page asked for and did not get (the first few), with why'),
      unbuilt: z
        .literal(true)
        .optional()
        .describe('loaded, but its scripts did not build the content: judged as an app shell, the score unverified'),
      error: z.string().optional(),
      // An addition (issue 25): a page rendered but not checked by axe is judged by our checks alone.
      axeError: z
        .string()
        .optional()
        .describe('why axe-core did not finish on the page: its rules were not judged there'),
    }),
  ),
  // An addition (issue 25): the coverage of rendering is said, never left to guess.
  judgedAsServed: z
    .array(z.string())
    .optional()
    .describe(
      'the pages judged on their served HTML only while a browser was there: past the render limit of the mode, or not rendered (their error is in pages)',
    ),
});

// An addition (issue 29, "What each agent gets"): what a browser shows of a few pages, what each AI
// agent is served and what a request for markdown answers, in words and (estimated) tokens.
export const AGENT_ANSWERS = [
  'served',
  'app_shell',
  'refused',
  'challenge',
  'payment_required',
  'error',
  'no_answer',
  'unread',
] as const;

export const AgentViewRow = z.object({
  agent: z.string().describe('the agent, by the name its user agent gives (GPTBot, ClaudeBot, ...)'),
  purpose: z.enum(['training', 'search', 'user']),
  answer: z
    .enum(AGENT_ANSWERS)
    .describe(
      'served; app_shell (served a page only scripts would fill, which the agent does not run); refused, challenge (a bot challenge), payment_required (402) or error; no_answer; unread (its text could not be read in time)',
    ),
  status: z.int().nullable(),
  robotsAllowed: z.boolean().describe('robots.txt lets the agent fetch the page; a refused agent is not judged'),
  words: z.int().min(0).optional().describe('words of the text it was served'),
  tokens: z.int().min(0).optional().describe('the whole answer (markup included), estimated'),
  short: z.literal(true).optional().describe('it gets far less than a browser (the agent-text-parity finding)'),
  vsBrowser: z.string().max(300).describe('what it gets beside a browser, in words'),
});

export const PageAgentViews = z.object({
  url: z.string(),
  browser: z.object({
    words: z.int().min(0),
    tokens: z.int().min(0).describe('of the text alone, estimated'),
    source: z.enum(['rendered', 'served']).describe('rendered in Chromium, or the served HTML when not rendered'),
  }),
  html: z.object({
    tokens: z.int().min(0).describe('the served HTML read whole (markup, inline scripts and styles), estimated'),
    truncated: z.literal(true).optional().describe('cut at the size limit: at least this many'),
  }),
  markdown: z
    .object({
      url: z.string(),
      via: z
        .enum(['accept', 'link'])
        .describe('Accept: text/markdown, or a <link rel="alternate" type="text/markdown">'),
      words: z.int().min(0),
      tokens: z.int().min(0),
    })
    .optional(),
  agents: z.array(AgentViewRow).max(10),
});

export const AgentViews = z.object({
  tokens: z.string().describe('how the token counts are made (an estimate, not a tokenizer)'),
  agentsAsked: z
    .boolean()
    .describe('false on a local scan or when the home page did not answer: browser and HTML only'),
  pages: z.array(PageAgentViews).max(10),
});
export type AgentViews = z.infer<typeof AgentViews>;

// The fields every report context shares (spec 2.8, reused by 2.9 and 2.10).
const reportBase = {
  schemaVersion: z.literal(2),
  runId: Uuid,
  projectId: Uuid.nullable(),
  url: z.url(),
  score: z.int().min(0).max(100),
  scoreLabel: z.string(),
  execSummary: z.string(),
  severityCounts: SeverityCounts,
  findingsTotal: z.int().min(0),
  scanMode: z.string().nullable(),
  model: z.string().nullable(),
  costUsd: z.number().min(0),
  createdAt: DateTime,
  completedAt: DateTime.nullable(),
  humanUrl: z.string(),
  scoreStatus: z.literal('unverified').optional(),
  // An addition to 2.8 to 2.10: the run's coverage (2.4), so a partial score is told where it is read.
  coverage: Coverage.nullable().optional(),
  // An addition (issue 14): which pages were rendered in Chromium and checked as a browser shows them.
  rendering: Rendering.optional(),
};

export const AiReadinessReport = z.object({
  ...reportBase,
  product: z.literal('ai_readiness'),
  topFindings: z.array(TopFinding).max(TOP_FINDINGS_MAX),
  foundation: z.object({ sitemap: FoundationItem, robotsTxt: FoundationItem, llmsTxt: FoundationItem }),
  pagesCrawled: z.int().min(0),
  checks: ChecksLedger.optional(),
  // An addition (issue 29): what each agent gets of a few pages.
  agentViews: AgentViews.optional(),
});
export type AiReadinessReport = z.infer<typeof AiReadinessReport>;

// spec 2.9
export const StageScore = z.object({
  stage: Stage,
  status: z.enum(['scored', 'unverified']),
  score: z.int().min(0).max(100),
  checks_pass: z.int().min(0),
  checks_fail: z.int().min(0),
  finding_count: z.int().min(0),
  top_finding: z.string().nullable(),
  confidence: z.enum(['high', 'medium', 'low']),
});

export const ConnectedSource = z.object({
  provider: z.string(),
  account_label: z.string(),
  last_synced_at: DateTime.nullable(),
  freshness: z.enum(['fresh', 'stale', 'error']),
});

export const SourceCoverage = z.enum(['public_only', 'connected']);

/** The kinds of site marketing_signal tells apart, asking each only what fits it (issue 25). */
export const SITE_KINDS = ['business', 'shop', 'documentation', 'blog', 'portal'] as const;

// An addition to 2.9: what kind of site the audit read, and the strongest signals that decided it.
export const SiteKindReport = z.object({
  kind: z.enum(SITE_KINDS),
  signals: z.array(z.string().max(300)).max(10),
});

export const MarketingSignalReport = z
  .object({
    ...reportBase,
    product: z.literal('marketing_signal'),
    topFindings: z.array(TopFinding.extend({ stage: Stage })).max(TOP_FINDINGS_MAX),
    pagesCrawled: z.int().min(0),
    stageScores: z.array(StageScore),
    sourceCoverage: SourceCoverage,
    connectedSources: z.array(ConnectedSource),
    templatesAudited: z.int().min(0),
    siteKind: SiteKindReport.optional(),
    checks: ChecksLedger.optional(),
  })
  .superRefine((report, ctx) => {
    // spec 2.9: one entry per funnel stage.
    const stages = report.stageScores.map((s) => s.stage);
    if (stages.length !== STAGES.length || STAGES.some((stage) => !stages.includes(stage))) {
      ctx.addIssue({ code: 'custom', message: 'stageScores needs exactly one entry per stage', path: ['stageScores'] });
    }
    // spec 2.9: measure confidence is capped at medium under public_only coverage.
    const measure = report.stageScores.find((s) => s.stage === 'measure');
    if (report.sourceCoverage === 'public_only' && measure?.confidence === 'high') {
      ctx.addIssue({
        code: 'custom',
        message: 'measure confidence is at most medium under public_only coverage',
        path: ['stageScores'],
      });
    }
  });
export type MarketingSignalReport = z.infer<typeof MarketingSignalReport>;

// spec 2.10
export const PILLARS = [
  'browser_defenses',
  'transport_trust',
  'dns_email_trust',
  'cookies_sessions',
  'exposure_reputation',
] as const;
export const Pillar = z.enum(PILLARS);
export type Pillar = z.infer<typeof Pillar>;

export const SecurityCheck = z.object({
  id: z.string(),
  label: z.string(),
  pillar: Pillar,
  status: CheckStatus,
  severity: Severity,
  evidence: z.string(),
  recommendation: z.string(),
});

export const TlsFacts = z.object({
  valid: z.boolean(),
  issuer: z.string().optional(),
  subject: z.string().optional(),
  validTo: DateTime.optional(),
  daysUntilExpiry: z.number().optional(),
  error: z.string().optional(),
});

export const DnsFacts = z.object({
  hasMx: z.boolean(),
  hasSpf: z.boolean(),
  hasDmarc: z.boolean(),
  hasCaa: z.boolean(),
});

export const WebsiteSecurityReport = z.object({
  ...reportBase,
  product: z.literal('website_security'),
  topFindings: z.array(TopFinding.extend({ category: z.literal('security'), pillar: Pillar })).max(TOP_FINDINGS_MAX),
  scope: z.object({ label: z.string(), disclaimer: z.string(), pagesScanned: z.int().min(0) }),
  pillars: z.array(
    z.object({
      key: Pillar,
      label: z.string(),
      score: z.int().min(0).max(100).nullable(),
      weight: z.number().min(0).max(100),
      pass: z.int().min(0),
      fail: z.int().min(0),
    }),
  ),
  checks: z.array(SecurityCheck),
  pagesScanned: z.int().min(0),
  tls: TlsFacts.optional(),
  dns: DnsFacts.optional(),
});
export type WebsiteSecurityReport = z.infer<typeof WebsiteSecurityReport>;

export const ReportContext = z.union([AiReadinessReport, MarketingSignalReport, WebsiteSecurityReport]);
export type ReportContext = z.infer<typeof ReportContext>;
