// spec 2.5: a finding of the agent result contract v2, and the findings page.
import { z } from 'zod';
import { Category, Confidence, DateTime, Pagination, Severity, Uuid } from './common.ts';

export const FINDING_ID_PATTERN = /^f_[0-9a-f]+$/;
export const FindingId = z.string().regex(FINDING_ID_PATTERN, 'a finding id is f_ followed by hex characters');

export const STAGES = ['find', 'trust', 'act', 'measure', 'improve'] as const;
export const Stage = z.enum(STAGES);
export type Stage = z.infer<typeof Stage>;

/** Where an offending element is on its page (an addition to spec 2.5, docs/decisions.md). */
export const EvidenceElement = z.object({
  selector: z.string().describe('a short CSS selector path to the element'),
  snippet: z.string().describe("the element's start tag with its attributes, bounded; page content"),
  /** The element's identity across runs (an addition, issue 26; docs/decisions.md "Fingerprints"). */
  fingerprint: z.string().optional(),
});

export const Evidence = z.object({
  type: z.enum(['page', 'file', 'check']),
  url: z.string().optional(),
  summary: z.string(),
  elements: z.array(EvidenceElement).optional(),
  /** The page's (or file's) identity across runs for this finding (an addition, issue 26). */
  fingerprint: z.string().optional(),
});

/** The standard a finding rests on (an addition to spec 2.5, docs/decisions.md). */
export const Reference = z.object({ title: z.string(), url: z.string() });

/** Paste-ready text for a fix, to review before applying (an addition to spec 2.5, docs/decisions.md). */
export const Suggestion = z.object({
  label: z.string().describe('what it is: "DNS records", "nginx", "robots.txt"'),
  target: z.string().describe('where it goes: a file, a configuration block, a DNS zone'),
  format: z
    .string()
    .describe('dns, text, nginx, apache, caddy, netlify, vercel, cloudflare, json-ld, robots, markdown'),
  content: z.string(),
  review: z.literal(true).describe('a suggestion built from what the audit saw: review it before applying'),
});

export const AgentAction = z.object({
  type: z.literal('remediation'),
  description: z.string(),
  suggestion: Suggestion.optional(),
});

export const Finding = z.object({
  findingId: FindingId,
  /** Equal across runs while the defect is there (an addition, issue 26); absent on findings stored before. */
  fingerprint: z.string().optional(),
  /** The check that found it, as docs/scoring.md's catalogue names it (an addition, issue 26). */
  checkId: z.string().optional(),
  /** Checks whose findings on the same defect were merged into this one. */
  alsoChecks: z.array(z.string()).optional(),
  runId: Uuid,
  projectId: Uuid.nullable().optional(),
  category: Category,
  // spec 3.3: scan output emits only `open`; the rest of the enum is kept for compatibility.
  status: z.enum(['open', 'acknowledged', 'resolved', 'wont_fix']),
  severity: Severity,
  confidence: Confidence,
  title: z.string(),
  detail: z.string(),
  evidence: z.array(Evidence),
  affectedUrls: z.array(z.string()),
  remediation: z.string(),
  agentActions: z.array(AgentAction),
  humanUrl: z.string(),
  /** The standards the check follows: RFC sections, WHATWG and W3C specs, WCAG criteria, MDN pages. */
  references: z.array(Reference).optional(),
  /** One line that shows whether the fix worked: a command to run or an address to open. */
  verify: z.string().optional(),
  source: z.object({ scanMode: z.string().nullable(), model: z.string().nullable() }).optional(),
  createdAt: DateTime,
  updatedAt: DateTime,
  stage: Stage.optional(),
});
export type Finding = z.infer<typeof Finding>;

// spec 4.11 leaves the envelope open; it mirrors the other lists (docs/decisions.md).
export const FindingPage = z.object({ findings: z.array(Finding), pagination: Pagination });
export type FindingPage = z.infer<typeof FindingPage>;
