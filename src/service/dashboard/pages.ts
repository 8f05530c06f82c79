// The run report page and the finding page that every humanUrl points to (spec 1, 2.4, 2.5).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { type Finding, foundationState, type ReportContext, type Run } from '../../contract/index.ts';
import { agentViewsSection } from './agent-views-section.ts';
import { applyFilter, type FindingFilter, filterBar, isFiltered } from './finding-filters.ts';
import { type NavLink, page } from './layout.ts';
import { reportSummary } from './score-summary.ts';
import {
  CHECK_STATUS_TEXT,
  categoryText,
  FINDING_STATUS_TEXT,
  productLabel,
  runStatusText,
  scoreStatusText,
  stageText,
  when,
} from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const badge = (kind: string, text = kind) => html`<span class="badge ${kind}">${text}</span>`;

function urlList(urls: readonly string[]): Content {
  if (urls.length === 0) return html``;
  // Addresses from the audited site are shown as text with a plain link; they never carry our referrer.
  return html`<ul class="urls">
    ${urls.map((u) => html`<li><a href="${/^https?:\/\//.test(u) ? u : '#'}" rel="nofollow noopener noreferrer">${u}</a></li>`)}
  </ul>`;
}

/** A finding's category, funnel stage and confidence, in words. */
const findingMeta = (finding: Finding) =>
  `${categoryText(finding.category)}${finding.stage ? ` · ${stageText(finding.stage)} stage` : ''} · confidence ${finding.confidence}`;

function findingCard(finding: Finding, runPath: string): Content {
  return html`<article class="card finding" id="${finding.findingId}">
    <div>${badge(finding.severity)} <span class="muted">${findingMeta(finding)}</span></div>
    <h3><a href="${runPath}/findings/${finding.findingId}">${finding.title}</a></h3>
    <p>${finding.detail}</p>
    <p><strong>Fix:</strong> ${finding.remediation}</p>
    ${urlList(finding.affectedUrls.slice(0, 5))}
    ${finding.affectedUrls.length > 5 ? html`<p class="muted">and ${finding.affectedUrls.length - 5} more</p>` : ''}
  </article>`;
}

function productDetails(report: ReportContext): Content {
  if (report.product === 'ai_readiness') {
    const f = report.foundation;
    return html`<h2>Foundation</h2>
      <div class="scroll"><table class="reflow">
        <thead><tr><th>File</th><th>Present</th><th>Notes</th></tr></thead>
        ${(
          [
            ['robots.txt', f.robotsTxt],
            ['Sitemap', f.sitemap],
            ['llms.txt', f.llmsTxt],
          ] as const
        ).map(([name, item]) => {
          const state = foundationState(item);
          const shown =
            state === 'present'
              ? badge('pass', 'yes')
              : state === 'missing'
                ? badge('fail', 'no')
                : badge('info', state === 'unknown' ? 'unknown' : 'not evaluated');
          return html`<tr><td>${name}</td><td data-label="Present">${shown}</td><td>${item.notes}</td></tr>`;
        })}
      </table></div>
      ${agentViewsSection(report.agentViews)}`;
  }
  if (report.product === 'marketing_signal') {
    return html`<h2>Funnel stages</h2>
      <div class="scroll"><table>
        <tr><th>Stage</th><th>Score</th><th>Status</th><th>Confidence</th><th>Findings</th></tr>
        ${report.stageScores.map((s) => html`<tr><td>${stageText(s.stage)}</td><td>${s.status === 'unverified' ? '—' : s.score}</td><td>${scoreStatusText(s.status)}</td><td>${s.confidence}</td><td>${s.finding_count}</td></tr>`)}
      </table></div>`;
  }
  return html`<h2>Pillars</h2>
    <div class="scroll"><table>
      <tr><th>Pillar</th><th>Score</th><th>Weight</th><th>Passed</th><th>Failed</th></tr>
      ${report.pillars.map((p) => html`<tr><td>${p.label}</td><td>${p.score ?? '—'}</td><td>${p.weight}</td><td>${p.pass}</td><td>${p.fail}</td></tr>`)}
    </table></div>`;
}

function checksTable(report: ReportContext): Content {
  const rows =
    report.product === 'website_security'
      ? report.checks.map((c) => ({ label: c.label, status: c.status, detail: c.evidence }))
      : (report.checks?.rows ?? []).map((c) => ({ label: c.label, status: c.status, detail: c.detail }));
  if (rows.length === 0) return html``;
  return html`<h2>Checks</h2>
    <div class="scroll"><table class="reflow">
      <thead><tr><th>Check</th><th>Result</th><th>Detail</th></tr></thead>
      ${rows.map((r) => html`<tr><td>${r.label}</td><td>${badge(r.status, CHECK_STATUS_TEXT[r.status] ?? r.status)}</td><td>${r.detail}</td></tr>`)}
    </table></div>`;
}

export function runPage(
  run: Run,
  report: ReportContext | null,
  findings: Finding[],
  runPath: string,
  /** What the viewer may do besides reading (an owner's share link). */
  controls: Content = html``,
  /** The findings filter the page's query asks for (?severity=&category=). */
  view: { filter?: FindingFilter; now?: Date } = {},
): Content {
  const product = productLabel(run.product);
  const host = hostOf(run.url);
  const nav = workspaceNav(run, runPath, { href: runPath, label: `${product} audit`, current: true });
  const now = view.now ? { now: view.now } : {};
  const header = html`<p class="crumb muted">${product} audit${nav ? '' : ' · shared with you by link'}</p>
    <h1>${host}</h1>
    <p class="muted">${run.url} · started ${when(run.createdAt, { relative: true, ...now })}${run.completedAt ? html` · finished ${when(run.completedAt)}` : ''}${
      // What the scan left out is named, in words, with the score below.
      run.coverage ? ' · a local on-page scan' : ''
    }</p>`;
  const options = nav ? { nav } : {};
  if (run.status === 'pending' || run.status === 'running') {
    return page(
      `${product} audit of ${host}`,
      html`${header}
        <div class="card">
          <p><strong>${run.status === 'pending' ? 'Waiting to start' : 'Running'}</strong>: ${run.currentStep ?? ''}</p>
          <progress value="${run.progressPct}" max="100">${run.progressPct}%</progress>
          <p class="muted">${run.progressPct}% · this page refreshes every 10 seconds</p>
        </div>`,
      { refreshSeconds: 10, ...options },
    );
  }
  if (!report) {
    return page(
      `${product} audit of ${host}`,
      html`${header}
        <div class="card"><p><strong>${runStatusText(run.status)}</strong>: the audit ended without results.</p><p>${run.error ?? ''}</p></div>${controls}`,
      options,
    );
  }
  const filter = view.filter ?? {};
  const shown = applyFilter(findings, filter);
  return page(
    `${product} audit of ${host}`,
    html`${header} ${reportSummary(report)} ${productDetails(report)} ${controls}
      <h2 id="findings">Findings (${findings.length})</h2>
      ${filterBar(findings, filter, runPath)}
      ${
        shown.length === 0
          ? html`<p>${isFiltered(filter) ? 'No findings match these filters.' : 'No findings.'}</p>`
          : shown.map((f) => findingCard(f, runPath))
      }
      ${checksTable(report)}`,
    options,
  );
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * The navigation bar of a member's run or finding page: the project, this page, its monitoring.
 * None under a share link (`/shared/...`): it opens one report, nothing else of the workspace.
 */
function workspaceNav(run: Run, runPath: string, here: NavLink): NavLink[] | undefined {
  if (!runPath.startsWith('/runs/')) return undefined;
  if (!run.projectId) return [here];
  return [
    { href: `/projects/${run.projectId}`, label: hostOf(run.url) },
    here,
    { href: `/projects/${run.projectId}/monitoring`, label: 'Monitoring' },
  ];
}

/** Paste-ready fixes, each with a copy button (/assets/copy.js), marked as suggestions to review. */
function suggestionCards(finding: Finding): Content | string {
  const suggestions = finding.agentActions.flatMap((a) => (a.suggestion ? [a.suggestion] : []));
  if (suggestions.length === 0) return '';
  return html`<h2>Suggested fix, ready to paste</h2>
    <p class="muted">Built from what the audit saw: review it before applying.</p>
    ${suggestions.map(
      (s, i) => html`<div class="card"><p><strong>${s.label}</strong> <span class="muted">for ${s.target}</span>
        <button type="button" data-copy="suggestion-${i}">Copy</button> <span class="muted" id="suggestion-${i}-state"></span></p>
        <pre id="suggestion-${i}">${s.content}</pre></div>`,
    )}
    <script src="/assets/copy.js"></script>`;
}

export function findingPage(run: Run, finding: Finding, runPath: string): Content {
  const product = productLabel(run.product);
  const nav = workspaceNav(run, runPath, { href: runPath, label: `${product} audit` });
  return page(
    finding.title,
    html`<p class="crumb"><a href="${runPath}">← ${product} audit of ${run.url}</a></p>
      <div>${badge(finding.severity)} <span class="muted">${findingMeta(finding)} · ${FINDING_STATUS_TEXT[finding.status] ?? finding.status}</span></div>
      <h1>${finding.title}</h1>
      <p>${finding.detail}</p>
      <h2>How to fix it</h2>
      <div class="card"><p>${finding.remediation}</p></div>
      ${finding.verify ? html`<p><strong>Check the fix:</strong> <code>${finding.verify}</code></p>` : ''}
      ${
        finding.references?.length
          ? html`<p><strong>Standard:</strong> ${finding.references.map((r, i) => html`${i > 0 ? '; ' : ''}<a href="${/^https:\/\//.test(r.url) ? r.url : '#'}" rel="noopener noreferrer">${r.title}</a>`)}</p>`
          : ''
      }
      ${finding.agentActions.filter((a) => !a.suggestion).map((a) => html`<div class="card"><p class="muted">For a coding agent</p><pre>${a.description}</pre></div>`)}
      ${suggestionCards(finding)}
      <h2>Affected pages</h2>
      ${urlList(finding.affectedUrls)}
      ${
        finding.evidence.length > 0
          ? html`<h2>Evidence</h2>
              <div class="scroll"><table class="reflow">
                <thead><tr><th>Kind</th><th>Where</th><th>What we saw</th></tr></thead>
                ${finding.evidence.map(
                  (e) =>
                    html`<tr><td>${EVIDENCE_KIND[e.type] ?? e.type}</td><td>${e.url ?? ''}</td><td>${e.summary}${
                      e.elements?.length
                        ? html`<ul class="elements">${e.elements.map((el) => html`<li><code>${el.selector}</code><br><code>${el.snippet}</code></li>`)}</ul>`
                        : ''
                    }</td></tr>`,
                )}
              </table></div>`
          : ''
      }
      <p class="muted">Finding ${finding.findingId} · run ${run.runId}</p>`,
    nav ? { nav } : {},
  );
}

const EVIDENCE_KIND: Record<string, string> = { page: 'Page', file: 'File', check: 'Check' };
