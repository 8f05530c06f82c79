// get_report's result as a view: the product and its score with the label (or unverified, or the
// partial fact first and the number small, as the dashboard shows it: issue 24), the severity
// counts, the stage or pillar bars, the top findings with a "Show details" button each, and the
// report's page on the service.
import { notEvaluatedText, partialHeadline } from '../../src/contract/run.ts';
import { PRODUCT_LABEL } from '../../src/contract/words.ts';
import { band, bar, h, plainText, severityBadge, siteText } from './dom.ts';
import type { HostActions } from './host-actions.ts';
import type { ReportInput, Severity } from './view-types.ts';

const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

const FOUNDATION_FILES = [
  ['sitemap', 'Sitemap'],
  ['robotsTxt', 'robots.txt'],
  ['llmsTxt', 'llms.txt'],
] as const;

const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`.replaceAll('_', ' ');

function scoreBlock(report: ReportInput): HTMLElement {
  const partial =
    report.scoreStatus !== 'unverified' &&
    (report.notEvaluated !== undefined || report.scoreLabel.startsWith('Partial'));
  if (partial) {
    return h(
      'div',
      { class: 'score-block partial' },
      h('p', { class: 'score-basis' }, partialHeadline(report, report.product, report.scoreLabel)),
      h(
        'p',
        { class: 'muted' },
        'Score on those checks: ',
        h('strong', {}, `${report.score ?? '?'}`),
        '/100 (a local on-page scan, not a verdict on the site)',
      ),
      report.notEvaluated?.length
        ? h('p', { class: 'notice' }, `Not evaluated: ${notEvaluatedText(report.notEvaluated)}.`)
        : null,
    );
  }
  const unverified = report.scoreStatus === 'unverified';
  return h(
    'div',
    { class: `score-block ${band(unverified ? undefined : report.score)}` },
    h(
      'p',
      { class: 'score' },
      h('span', { class: 'score-number' }, unverified ? '?' : `${report.score ?? '?'}`),
      h('span', { class: 'score-max' }, '/100'),
    ),
    h(
      'div',
      { class: 'score-words' },
      h(
        'p',
        { class: 'score-label' },
        report.scoreLabel,
        unverified ? h('span', { class: 'badge' }, 'Unverified') : null,
      ),
      unverified
        ? h(
            'p',
            { class: 'notice' },
            'No score could be confirmed: the site builds its content in the browser, so the number is not authoritative.',
          )
        : null,
    ),
  );
}

function severityCounts(report: ReportInput): HTMLElement {
  return h(
    'section',
    { attrs: { 'aria-labelledby': 'counts-heading' } },
    h('h2', { attrs: { id: 'counts-heading' } }, `Findings: ${report.findingsTotal}`),
    h(
      'ul',
      { class: 'counts' },
      ...SEVERITIES.map((severity) =>
        h('li', {}, severityBadge(severity), h('span', { class: 'count' }, String(report.severityCounts[severity]))),
      ),
    ),
  );
}

/** Stage bars (marketing signal), pillar bars (website security), or the foundation files (AI readiness). */
function breakdown(report: ReportInput): HTMLElement | null {
  if (report.stageScores?.length) {
    return h(
      'section',
      { attrs: { 'aria-labelledby': 'bars-heading' } },
      h('h2', { attrs: { id: 'bars-heading' } }, 'Funnel stages'),
      h(
        'ul',
        { class: 'bars' },
        ...report.stageScores.map((stage) =>
          stage.status === 'unverified'
            ? bar(capitalized(stage.stage), undefined, 'unverified', `confidence ${stage.confidence}`)
            : bar(capitalized(stage.stage), stage.score, `${stage.score}/100`, `confidence ${stage.confidence}`),
        ),
      ),
    );
  }
  if (report.pillars?.length) {
    return h(
      'section',
      { attrs: { 'aria-labelledby': 'bars-heading' } },
      h('h2', { attrs: { id: 'bars-heading' } }, 'Pillars'),
      h(
        'ul',
        { class: 'bars' },
        ...report.pillars.map((pillar) =>
          bar(
            pillar.label,
            pillar.score,
            pillar.score === undefined ? 'not scored' : `${pillar.score}/100`,
            `${pillar.pass} passed, ${pillar.fail} failed`,
          ),
        ),
      ),
    );
  }
  if (report.foundation) {
    const foundation = report.foundation;
    return h(
      'section',
      { attrs: { 'aria-labelledby': 'bars-heading' } },
      h('h2', { attrs: { id: 'bars-heading' } }, 'Foundation files'),
      h(
        'ul',
        { class: 'foundation' },
        ...FOUNDATION_FILES.map(([key, name]) =>
          h(
            'li',
            {},
            h('span', { class: 'file' }, name),
            h('span', { class: `state state-${foundation[key]}` }, foundation[key].replaceAll('_', ' ')),
          ),
        ),
      ),
    );
  }
  return null;
}

function topFindings(report: ReportInput, actions: HostActions): HTMLElement {
  return h(
    'section',
    { attrs: { 'aria-labelledby': 'top-heading' } },
    h('h2', { attrs: { id: 'top-heading' } }, 'Top findings'),
    report.topFindings.length === 0
      ? h('p', { class: 'muted' }, 'No findings.')
      : h(
          'ol',
          { class: 'findings' },
          ...report.topFindings.map((finding) =>
            h(
              'li',
              { class: 'finding' },
              h(
                'div',
                { class: 'finding-head' },
                severityBadge(finding.severity),
                h('h3', {}, siteText(finding.title)),
              ),
              h('p', { class: 'fix' }, h('span', { class: 'fix-label' }, 'Fix: '), siteText(finding.remediation)),
              actions.detailsToggle(
                { runId: report.runId, findingId: finding.findingId, severity: finding.severity },
                plainText(finding.title),
              ),
            ),
          ),
        ),
  );
}

export function reportView(report: ReportInput, actions: HostActions): HTMLElement {
  const product = PRODUCT_LABEL[report.product] ?? report.product;
  return h(
    'article',
    { class: 'report' },
    h(
      'header',
      { class: 'report-head' },
      h('p', { class: 'eyebrow' }, 'Site audit'),
      h('h1', {}, `${product} report`),
      h('p', { class: 'site-url' }, report.url),
    ),
    scoreBlock(report),
    h('p', { class: 'summary' }, siteText(report.execSummary)),
    severityCounts(report),
    breakdown(report),
    topFindings(report, actions),
    h('footer', { class: 'report-foot' }, actions.serviceLink(report.humanUrl, 'Open the full report')),
  );
}
