// Concise markdown for hosts that show the model text rather than structuredContent. Every run and
// report carries its humanUrl; quoted site text is already marked by the views, and what the views
// keep raw (site URLs, names members chose) is made inert here. A page of findings has a module of
// its own (finding-text.ts).
import { type Project, partialHeadline, partialScoreNote } from '../contract/index.ts';
import { untrustedName } from './page-content.ts';
import type { ReportView, RunView } from './views.ts';

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'] as const;

export function severityLine(counts: Record<(typeof SEVERITY_ORDER)[number], number>): string {
  return SEVERITY_ORDER.map((severity) => `${counts[severity]} ${severity}`).join(', ');
}

export function scoreText(score: number | undefined, scoreStatus: 'unverified' | undefined, label?: string): string {
  if (scoreStatus === 'unverified') return 'unverified (the site renders in the browser; no score is given)';
  if (score === undefined) return 'not scored yet';
  return `${score}/100${label ? ` (${label})` : ''}`;
}

export function projectLine(project: Project): string {
  return `- **${untrustedName(project.name)}** \`${project.domain}\`: ${project.status}, projectId \`${project.projectId}\``;
}

export function runMarkdown(run: RunView): string {
  const lines = [`**Run \`${run.runId}\`** (${run.product}) of ${run.url}: **${run.status}**`];
  if (!run.done) lines.push(`Progress ${run.progressPct}%${run.currentStep ? `: ${run.currentStep}` : ''}.`);
  if (run.status === 'completed') {
    // A partial score says what it stands on before the number (issue 24).
    lines.push(
      run.notEvaluated && run.scoreStatus !== 'unverified'
        ? `${partialHeadline(run, run.product)}; score ${scoreText(run.score, run.scoreStatus)} on those checks; ${run.findingsTotal ?? 0} findings.`
        : `Score ${scoreText(run.score, run.scoreStatus)}; ${run.findingsTotal ?? 0} findings.`,
    );
    if (run.severityCounts) lines.push(`Severity: ${severityLine(run.severityCounts)}.`);
    if (run.notEvaluated?.length) lines.push(`${partialScoreNote(run.notEvaluated.slice(0, 8))}.`);
  }
  if (run.error) lines.push(`Error: ${run.error}`);
  lines.push(`Dashboard: ${run.humanUrl}`);
  return lines.join('\n');
}

/** `sections`: more lines before the closing "Next:" (get_report's agent views, agent-views-text.ts). */
export function reportMarkdown(report: ReportView, sections: readonly string[] = []): string {
  const partial = report.notEvaluated !== undefined && report.scoreStatus !== 'unverified';
  const lines = [
    `## ${report.product} report for ${report.url}`,
    partial
      ? `**${partialHeadline(report, report.product, report.scoreLabel)}**; score ${scoreText(report.score, report.scoreStatus)} on those checks. ${report.execSummary}`
      : `Score **${scoreText(report.score, report.scoreStatus, report.scoreLabel)}**. ${report.execSummary}`,
    `Findings: ${report.findingsTotal} (${severityLine(report.severityCounts)}). Dashboard: ${report.humanUrl}`,
  ];
  const origin = new URL(report.humanUrl).origin;
  lines.push(
    `To be told when the next audit ends instead of polling: webhooks at ${origin}/api/v1/webhooks (scope webhooks:manage).`,
  );
  if (report.projectId)
    lines.push(
      `To watch this site between audits (monitoring.changed events when a page fails, recovers or changes): PUT ${origin}/api/v1/projects/${report.projectId}/monitoring {"enabled": true} (scope projects:write), or \`siteaudit monitor on\`.`,
    );
  // A partial summary names what was not evaluated; an unverified one does not, so the note does.
  if (report.notEvaluated && !partial) lines.push(`${partialScoreNote(report.notEvaluated)}.`);
  const mark = (state: string) => state.replace('_', ' ');
  const yes = (present: boolean) => (present ? 'yes' : 'no');
  if (report.foundation) {
    const { foundation } = report;
    lines.push(
      `Pages crawled: ${report.pagesCrawled}. sitemap ${mark(foundation.sitemap)}, robots.txt ${mark(foundation.robotsTxt)}, llms.txt ${mark(foundation.llmsTxt)}.`,
    );
  }
  if (report.stageScores) {
    lines.push(
      `Pages crawled: ${report.pagesCrawled}; sources: ${report.sourceCoverage}.`,
      '',
      '| stage | score | confidence |',
      '|---|---|---|',
    );
    for (const stage of report.stageScores)
      lines.push(
        `| ${stage.stage} | ${stage.status === 'scored' ? stage.score : 'unverified'} | ${stage.confidence} |`,
      );
  }
  if (report.pillars) {
    lines.push(
      `Scope: ${report.scope}, ${report.pagesCrawled} page(s). ${report.disclaimer}`,
      '',
      '| pillar | score | weight | fail |',
      '|---|---|---|---|',
    );
    for (const pillar of report.pillars)
      lines.push(`| ${pillar.label} | ${pillar.score ?? 'n/a'} | ${pillar.weight} | ${pillar.fail} |`);
    if (report.tls)
      lines.push(
        '',
        `TLS: ${report.tls.valid ? 'valid' : 'invalid'}${report.tls.daysUntilExpiry !== undefined ? `, expires in ${Math.floor(report.tls.daysUntilExpiry)} days` : ''}.`,
      );
    if (report.dns)
      lines.push(
        `DNS: MX ${yes(report.dns.hasMx)}, SPF ${yes(report.dns.hasSpf)}, DMARC ${yes(report.dns.hasDmarc)}, CAA ${yes(report.dns.hasCaa)}.`,
      );
  }
  if (report.topFindings.length > 0) {
    lines.push('', '### Top findings');
    // Each with its fix and evidence in page_findings (the structured result keeps the remediation).
    for (const finding of report.topFindings)
      lines.push(`- **${finding.severity}** ${finding.title} (\`${finding.findingId}\`)`);
  }
  lines.push(...sections);
  lines.push('', `Next: page_findings with runId \`${report.runId}\` for every finding with its remediation.`);
  return lines.join('\n');
}

// A page of findings as text is built from the API's findings themselves (finding-text.ts).
export { findingMarkdown, findingsPageMarkdown } from './finding-text.ts';
