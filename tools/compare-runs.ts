// compare_runs: a completed run against a baseline run of the same project and product, finding by
// finding (fingerprints): what is new, what persists, what was not found again (issue 26).
import { z } from 'zod';
import { COMPARISON_STATES, type RunComparison, Severity, Uuid } from '../src/contract/index.ts';
import { REPORT_APP_URI } from '../src/mcp/app/report-resource.ts';
import { pageText } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

/** Findings listed in the text per state; the structured result keeps them all. */
const TEXT_MAX = 15;

const Counts = z.object({ new: z.int(), persisting: z.int(), notFound: z.int() });
const Compared = z.object({
  comparison: z.enum(COMPARISON_STATES),
  fingerprint: z.string(),
  /** In the later run (new, persisting) or the baseline (notFound). */
  findingId: z.string(),
  severity: Severity,
  title: z.string(),
  /** Its pages and elements, matched the same way: one of two images fixed is 1 persisting, 1 notFound. */
  instances: Counts,
});

export const compareRuns = defineTool({
  name: 'compare_runs',
  title: 'Compare runs',
  description:
    'Compares a completed run with a baseline (default: the previous completed run of its project and product): findings new, persisting or notFound by fingerprint, with the score change. notFound is not "fixed": recheck confirms. Reads only.',
  inputSchema: z.object({
    runId: Uuid.describe('the later run'),
    baselineRunId: Uuid.optional().describe('default: the previous completed run'),
  }),
  outputSchema: z.object({
    runId: z.string(),
    baselineRunId: z.string(),
    score: z.object({ current: z.int().optional(), baseline: z.int().optional(), change: z.int().optional() }),
    counts: Counts,
    findings: z.array(Compared),
    humanUrl: z.string(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: REPORT_APP_URI,
  async run(args, { client }) {
    const comparison = await client.runs.compare(args.runId, args.baselineRunId);
    const findings = comparison.findings.map((f) => ({
      comparison: f.comparison,
      fingerprint: f.fingerprint,
      findingId: f.findingId,
      severity: f.severity,
      title: pageText(f.title, 200),
      instances: f.instances,
    }));
    const { current, baseline, change } = comparison.score;
    return {
      structured: {
        runId: comparison.runId,
        baselineRunId: comparison.baselineRunId,
        score: {
          ...(current !== null ? { current } : {}),
          ...(baseline !== null ? { baseline } : {}),
          ...(change !== null ? { change } : {}),
        },
        counts: comparison.counts,
        findings,
        humanUrl: comparison.humanUrl,
      },
      markdown: comparisonMarkdown(comparison, findings),
    };
  },
});

/** A persisting finding's pages and elements, when some changed: fixed on one page, new on another. */
function instancesText(f: z.infer<typeof Compared>): string {
  const { new: added, persisting, notFound } = f.instances;
  if (f.comparison !== 'persisting' || (added === 0 && notFound === 0)) return '';
  return `; its pages and elements: ${persisting} persisting, ${added} new, ${notFound} not found`;
}

function comparisonMarkdown(c: RunComparison, findings: ReadonlyArray<z.infer<typeof Compared>>): string {
  const { current, baseline, change } = c.score;
  const score =
    current !== null && baseline !== null
      ? `score ${baseline} → ${current} (${change !== null && change >= 0 ? '+' : ''}${change})`
      : 'no score to compare';
  const lines = [
    `**Run \`${c.runId}\`** against \`${c.baselineRunId}\` (${c.product}): ${score}; ${c.counts.new} new, ${c.counts.persisting} persisting, ${c.counts.notFound} not found.`,
  ];
  for (const state of COMPARISON_STATES) {
    const group = findings.filter((f) => f.comparison === state);
    if (group.length === 0) continue;
    lines.push(`${state}:`);
    for (const f of group.slice(0, TEXT_MAX))
      lines.push(
        `- ${f.severity} · ${f.title} · \`${f.fingerprint}\` (findingId \`${f.findingId}\`)${instancesText(f)}`,
      );
    if (group.length > TEXT_MAX) lines.push(`- and ${group.length - TEXT_MAX} more (all in the structured result)`);
  }
  lines.push(c.note, `Report: ${c.humanUrl}`);
  return lines.join('\n');
}
