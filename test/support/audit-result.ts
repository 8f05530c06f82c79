// Synthetic audit results for the output formats' unit tests (issue 27): findings, reports and
// comparisons that parse under the contract's schemas, in any number. The formats' end-to-end tests
// use real runs (test/cli/audit-gate.test.ts); these cover sizes and shapes a fixture site cannot.
import type { AuditResult, ProductAudit } from '../../src/cli/ci/audit-result.ts';
import {
  AiReadinessReport,
  Finding,
  type Product,
  Run,
  RunComparison,
  SEVERITIES,
  type Severity,
} from '../../src/contract/index.ts';
import { aiReadinessReport } from '../contract/fixtures.ts';

const RUN_ID = '11111111-1111-4111-8111-111111111111';
const BASELINE_ID = '22222222-2222-4222-8222-222222222222';
const PROJECT_ID = '33333333-3333-4333-8333-333333333333';
const AT = '2026-11-28T10:00:00.000Z';

export interface SyntheticFindingOptions {
  checkId?: string;
  severity?: Severity;
  title?: string;
  pages?: string[];
  snippet?: string;
}

/** One finding of run RUN_ID; `n` makes its id, fingerprint and default check unique. */
export function syntheticFinding(n: number, options: SyntheticFindingOptions = {}): Finding {
  const hex = n.toString(16).padStart(8, '0');
  const pages = options.pages ?? [`https://shop.example/page-${n}`];
  const checkId = options.checkId ?? `check-${n}`;
  return Finding.parse({
    findingId: `f_${hex}`,
    fingerprint: `fp_${hex}${hex}`,
    checkId,
    runId: RUN_ID,
    projectId: PROJECT_ID,
    category: 'accessibility',
    status: 'open',
    severity: options.severity ?? SEVERITIES[n % SEVERITIES.length],
    confidence: 'high',
    title: options.title ?? `Images without a text alternative (${n})`,
    detail: `${pages.length} page(s) have images without alt text.`,
    evidence: pages.map((url, i) => ({
      type: 'page',
      url,
      summary: 'img without alt',
      fingerprint: `fp_${hex}p${i.toString(16).padStart(7, '0')}`,
      elements: [
        {
          selector: `main > img:nth-of-type(${i + 1})`,
          snippet: options.snippet ?? '<img src="/a.png">',
          fingerprint: `fp_${hex}e${i.toString(16).padStart(7, '0')}`,
        },
      ],
    })),
    affectedUrls: pages,
    remediation: 'Give each image an alt attribute that says what it shows.',
    agentActions: [{ type: 'remediation', description: 'Add alt text.' }],
    humanUrl: `http://127.0.0.1:8787/runs/${RUN_ID}#f_${hex}`,
    references: [{ title: 'WCAG 2.2 SC 1.1.1', url: 'https://www.w3.org/TR/WCAG22/#non-text-content' }],
    verify: `curl -s https://shop.example/ | grep -c '<img'`,
    createdAt: AT,
    updatedAt: AT,
  });
}

/** An AI readiness audit of https://shop.example/ with these findings, and a comparison when `states` is given. */
export function syntheticAudit(
  findings: Finding[],
  options: { score?: number; baselineScore?: number; states?: Array<'new' | 'persisting'>; notFound?: number } = {},
): ProductAudit {
  const product: Product = 'ai_readiness';
  const score = options.score ?? 72;
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length]));
  const run = Run.parse({
    schemaVersion: 2,
    product,
    runId: RUN_ID,
    projectId: PROJECT_ID,
    status: 'completed',
    progressPct: 100,
    currentStep: null,
    url: 'https://shop.example/',
    scanMode: null,
    model: null,
    costUsd: 0,
    error: null,
    createdAt: AT,
    startedAt: AT,
    completedAt: AT,
    score,
    scoreStatus: null,
    severityCounts: counts,
    findingsTotal: findings.length,
    coverage: null,
    humanUrl: `http://127.0.0.1:8787/runs/${RUN_ID}`,
  });
  const checkIds = [...new Set(findings.map((f) => f.checkId as string))];
  const report = AiReadinessReport.parse({
    ...aiReadinessReport,
    runId: RUN_ID,
    projectId: PROJECT_ID,
    url: 'https://shop.example/',
    score,
    execSummary: 'A synthetic audit.',
    severityCounts: counts,
    findingsTotal: findings.length,
    createdAt: AT,
    completedAt: AT,
    humanUrl: run.humanUrl,
    topFindings: [],
    checks: {
      pass: 1,
      fail: checkIds.length,
      info: 0,
      unverified: 0,
      rows: [
        { id: 'single-h1', label: 'One H1 per page', category: 'content_structure', status: 'pass', detail: 'ok' },
        ...checkIds.map((id) => ({
          id,
          label: `Check ${id}`,
          category: 'accessibility' as const,
          status: 'fail' as const,
          detail: 'failed',
        })),
      ],
    },
  });
  const audit: ProductAudit = { product, run, report, findings };
  if (options.states) {
    const states = options.states;
    const stateOf = (i: number) => states[i % states.length] as 'new' | 'persisting';
    const compared = findings.map((f, i) => ({
      comparison: stateOf(i),
      fingerprint: f.fingerprint as string,
      checkId: f.checkId,
      findingId: f.findingId,
      runId: RUN_ID,
      severity: f.severity,
      title: f.title,
      humanUrl: f.humanUrl,
      // A persisting finding on the same pages; a new one on pages of its own.
      instances: stateOf(i) === 'new' ? { new: 1, persisting: 0, notFound: 0 } : { new: 0, persisting: 1, notFound: 0 },
    }));
    const gone = Array.from({ length: options.notFound ?? 0 }, (_, i) => {
      const old = syntheticFinding(1_000_000 + i);
      return {
        comparison: 'notFound' as const,
        fingerprint: old.fingerprint as string,
        checkId: old.checkId,
        findingId: old.findingId,
        runId: BASELINE_ID,
        severity: old.severity,
        title: old.title,
        humanUrl: old.humanUrl,
        instances: { new: 0, persisting: 0, notFound: 1 },
      };
    });
    const baselineScore = options.baselineScore ?? 70;
    audit.comparison = RunComparison.parse({
      runId: RUN_ID,
      baselineRunId: BASELINE_ID,
      projectId: PROJECT_ID,
      product,
      createdAt: AT,
      baselineCreatedAt: '2026-11-27T10:00:00.000Z',
      score: { current: score, baseline: baselineScore, change: score - baselineScore },
      counts: {
        new: compared.filter((c) => c.comparison === 'new').length,
        persisting: compared.filter((c) => c.comparison === 'persisting').length,
        notFound: gone.length,
      },
      findings: [...compared, ...gone],
      note: 'notFound is not a resolution.',
      humanUrl: `http://127.0.0.1:8787/runs/${RUN_ID}`,
    });
  }
  return audit;
}

/** A whole result around these audits; the gate passed unless checks say otherwise. */
export function syntheticResult(audits: ProductAudit[], overrides: Partial<AuditResult> = {}): AuditResult {
  return {
    target: 'https://shop.example/',
    audits,
    gate: { checks: [], passed: true },
    localLinks: false,
    tool: { name: 'siteaudit', version: '0.1.0', informationUri: 'https://github.com/siteaudit/siteaudit' },
    ...overrides,
  };
}
