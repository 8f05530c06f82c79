// Reports and findings as text for a terminal: the same order an agent reads them in.
import {
  type Finding,
  PRODUCT_LABEL,
  partialHeadline,
  partialScoreNote,
  type ReportContext,
  type Run,
} from '../contract/index.ts';

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** How a run that did not complete ended, in a site owner's words (not `failed_auto_credit`). */
const ENDED: Record<string, string> = {
  failed: 'The audit failed',
  failed_auto_credit: 'The audit failed, and its credits were returned',
  refunded: 'The audit was refunded',
};

/** One sentence for a run that ended without a report: how, why, and where to look. */
export function runEndedInWords(run: Pick<Run, 'status' | 'error' | 'humanUrl'>): string {
  const why = (run.error ?? '').replace(/^audit failed: /, '');
  return `${ENDED[run.status] ?? `The audit ended (${run.status})`}${why ? `: ${why}` : ''}. Report: ${run.humanUrl}`;
}

export function renderReport(run: Run, report: ReportContext, findings: Finding[]): string {
  const lines: string[] = [];
  const counts = SEVERITY_ORDER.map((s) => `${report.severityCounts[s]} ${s}`).join(', ');
  // A report stored before the context carried coverage has it on its run.
  const coverage = report.coverage ?? run.coverage;
  lines.push(`${PRODUCT_LABEL[report.product]} audit of ${report.url}`);
  if (report.scoreStatus === 'unverified')
    lines.push(
      `Score: unverified (${report.score}/100 from the served HTML alone is not a verdict: part of the content needs a browser to confirm)`,
    );
  // A partial score says what it stands on before the number, and gets no verdict word (issue 24).
  else if (coverage)
    lines.push(
      `${partialHeadline(coverage, report.product, report.scoreLabel)}; score ${report.score}/100 on those checks`,
    );
  else lines.push(`Score: ${report.score}/100 (${report.scoreLabel})`);
  lines.push(report.execSummary);
  lines.push(`Findings: ${report.findingsTotal} (${counts})`);
  // A partial summary names what was not evaluated; an unverified one does not, so the note does.
  if (coverage && report.scoreStatus === 'unverified') lines.push(partialScoreNote(coverage.notEvaluated));
  lines.push('');
  for (const finding of findings) {
    lines.push(`[${finding.severity}] ${finding.title}`);
    lines.push(`  ${finding.detail}`);
    lines.push(`  Fix: ${finding.remediation}`);
    if (finding.verify) lines.push(`  Verify: ${finding.verify}`);
    for (const { suggestion } of finding.agentActions) {
      if (!suggestion) continue;
      lines.push(`  Suggested ${suggestion.label} for ${suggestion.target} (review before applying):`);
      for (const line of suggestion.content.split('\n')) lines.push(`    ${line}`);
    }
    for (const url of finding.affectedUrls.slice(0, 3)) lines.push(`  - ${url}`);
    if (finding.affectedUrls.length > 3) lines.push(`  - and ${finding.affectedUrls.length - 3} more`);
    lines.push('');
  }
  lines.push(`Report: ${report.humanUrl}`);
  return lines.join('\n');
}
