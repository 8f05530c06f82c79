// The head of a report page: the score, what it stands on, the summary and the severity counts.
// A partial score (a local on-page scan) is never a large plain verdict: the page says first how
// many of the product's checks it covers, and shows the number small (issue 24).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { notEvaluatedText, partialHeadline, type ReportContext } from '../../contract/index.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

const badge = (kind: string, text = kind) => html`<span class="badge ${kind}">${text}</span>`;

/**
 * Whether the score stands on part of the checks. A report context stored before it carried its
 * coverage still says so in its label (`Partial: ...`).
 */
export function isPartialScore(report: Pick<ReportContext, 'coverage' | 'scoreLabel' | 'scoreStatus'>): boolean {
  return report.scoreStatus !== 'unverified' && (Boolean(report.coverage) || report.scoreLabel.startsWith('Partial'));
}

function scoreBlock(report: ReportContext): Content {
  const counts = html`<div class="counts">${SEVERITIES.map((s) => badge(s, `${report.severityCounts[s]} ${s}`))}</div>`;
  if (isPartialScore(report)) {
    // The heading is the partial fact; the number follows in running text, the size of its words.
    // Not the summary: written to be read alone, it says the partial fact and what was left out
    // again, which the heading and the notice below already say on this page.
    const first = report.topFindings[0];
    return html`<h2 id="score-basis">${partialHeadline(report.coverage ?? {}, report.product, report.scoreLabel)}</h2>
      <div class="card">
        <p class="muted">Score on those checks: <strong>${report.score}</strong>/100 (a local on-page scan, not a verdict on the site)</p>
        ${first && first.severity !== 'info' ? html`<p>Fix first: ${first.title}.</p>` : ''}
        ${counts}
      </div>`;
  }
  return html`<div class="card hero">
      ${
        report.scoreStatus === 'unverified'
          ? html`<div class="score" aria-label="score">?<small>/100</small></div>`
          : html`<div class="score" aria-label="score">${report.score}<small>/100</small></div>`
      }
      <div>
        <div><strong>${report.scoreLabel}</strong> ${report.scoreStatus === 'unverified' ? badge('unverified') : ''}</div>
        <p>${report.execSummary}</p>
        ${counts}
      </div>
    </div>`;
}

type RenderedPage = NonNullable<ReportContext['rendering']>['pages'][number];

/** What became of one rendered page, beside its address: not rendered, not built, or axe not finished. */
function renderedPageNote(page: RenderedPage): string {
  if (page.error) return ` (not rendered: ${page.error})`;
  const failed = page.failedScripts?.length
    ? `; did not load: ${page.failedScripts.map((s) => `${s.url} (${s.reason})`).join(', ')}`
    : '';
  if (page.unbuilt) return ` (loaded, but its scripts did not build the content${failed})`;
  if (page.axeError) return ` (axe did not finish: ${page.axeError})`;
  return failed ? ` (${failed.slice(2)})` : '';
}

export function reportSummary(report: ReportContext): Content {
  // Issue 25: a page Chromium loaded but its scripts did not build is not passed off as rendered.
  const unbuilt = report.rendering?.pages.some((p) => p.unbuilt && !p.error);
  return html`${scoreBlock(report)}
    ${
      report.scoreStatus === 'unverified'
        ? unbuilt
          ? html`<p class="notice">No score could be confirmed: Chromium loaded the page, but its scripts did not build its content (below, the scripts that did not load), so the number is not authoritative.</p>`
          : html`<p class="notice">The served HTML could not support a score: part of the content only appears after JavaScript runs, so the number is not authoritative until rendered evidence confirms it.</p>`
        : ''
    }
    ${
      report.coverage
        ? html`<p class="notice">A partial score: this local on-page scan does not evaluate ${notEvaluatedText(report.coverage.notEvaluated)}. Audit the deployed site for a full score.</p>`
        : ''
    }
    ${
      report.rendering?.pages.length
        ? html`<p class="muted">Rendered in Chromium and checked as a browser shows them: ${report.rendering.pages.map((p, i) => html`${i > 0 ? ', ' : ''}<code>${p.url}</code>${renderedPageNote(p)}`)}</p>`
        : ''
    }
    ${
      // Issue 25: the pages past the render limit are named, not left to guess.
      report.rendering?.pages.length && report.rendering.judgedAsServed?.length
        ? html`<p class="muted">Judged on their served HTML only, without CSS or scripts: ${report.rendering.judgedAsServed.map((url, i) => html`${i > 0 ? ', ' : ''}<code>${url}</code>`)}</p>`
        : ''
    }`;
}
