// compare_runs' result as a view: the score change, the counts, and the findings of each state with a
// "Show details" button (page_findings on the later run, or on the baseline for a finding not found).
import { h, plainText, severityBadge, siteText } from './dom.ts';
import type { HostActions } from './host-actions.ts';
import type { ComparisonInput } from './view-types.ts';

/** Findings listed per state; the rest are counted. */
const LIST_MAX = 25;

const STATES = [
  ['new', 'New', 'In this run, not in the baseline.'],
  ['persisting', 'Persisting', 'In both runs.'],
  ['notFound', 'Not found', 'In the baseline, not found in this run: not the same as fixed (recheck confirms).'],
] as const;

function scoreChange(score: ComparisonInput['score']): HTMLElement {
  if (score.current === undefined || score.baseline === undefined)
    return h('p', { class: 'score-change' }, 'No score to compare.');
  const change = score.change ?? score.current - score.baseline;
  return h(
    'p',
    { class: 'score-change' },
    'Score ',
    h('strong', {}, String(score.baseline)),
    ' → ',
    h('strong', {}, String(score.current)),
    ` (${change >= 0 ? '+' : '−'}${Math.abs(change)})`,
  );
}

export function comparisonView(comparison: ComparisonInput, actions: HostActions): HTMLElement {
  const sections = STATES.map(([state, title, meaning]) => {
    const group = comparison.findings.filter((f) => f.comparison === state);
    if (group.length === 0) return null;
    const headingId = `state-${state}`;
    return h(
      'section',
      { attrs: { 'aria-labelledby': headingId } },
      h('h2', { attrs: { id: headingId } }, `${title}: ${group.length}`),
      h('p', { class: 'muted' }, meaning),
      h(
        'ol',
        { class: 'findings' },
        ...group.slice(0, LIST_MAX).map((finding) =>
          h(
            'li',
            { class: 'finding' },
            h('div', { class: 'finding-head' }, severityBadge(finding.severity), h('h3', {}, siteText(finding.title))),
            actions.detailsToggle(
              {
                runId: state === 'notFound' ? comparison.baselineRunId : comparison.runId,
                findingId: finding.findingId,
                severity: finding.severity,
              },
              plainText(finding.title),
            ),
          ),
        ),
      ),
      group.length > LIST_MAX ? h('p', { class: 'muted' }, `And ${group.length - LIST_MAX} more.`) : null,
    );
  });
  const { counts } = comparison;
  return h(
    'article',
    { class: 'report' },
    h(
      'header',
      { class: 'report-head' },
      h('p', { class: 'eyebrow' }, 'Site audit'),
      h('h1', {}, 'Run compared with its baseline'),
    ),
    scoreChange(comparison.score),
    h(
      'ul',
      { class: 'counts', attrs: { 'aria-label': 'Findings by state' } },
      h('li', {}, h('span', { class: 'count' }, String(counts.new)), ' new'),
      h('li', {}, h('span', { class: 'count' }, String(counts.persisting)), ' persisting'),
      h('li', {}, h('span', { class: 'count' }, String(counts.notFound)), ' not found'),
    ),
    ...sections,
    h('footer', { class: 'report-foot' }, actions.serviceLink(comparison.humanUrl, 'Open this run’s report')),
  );
}
