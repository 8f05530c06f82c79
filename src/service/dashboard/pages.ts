// The run report page and the finding page that every humanUrl points to (spec 1, 2.4, 2.5).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { type Finding, foundationState, notEvaluatedText, type ReportContext, type Run } from '../../contract/index.ts';
import { page } from './layout.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const PRODUCT_LABEL: Record<string, string> = {
  ai_readiness: 'AI readiness',
  marketing_signal: 'Marketing signal',
  website_security: 'Website security',
};

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

const badge = (kind: string, text = kind) => html`<span class="badge ${kind}">${text}</span>`;

function urlList(urls: readonly string[]): Content {
  if (urls.length === 0) return html``;
  // Addresses from the audited site are shown as text with a plain link; they never carry our referrer.
  return html`<ul class="urls">
    ${urls.map((u) => html`<li><a href="${/^https?:\/\//.test(u) ? u : '#'}" rel="nofollow noopener noreferrer">${u}</a></li>`)}
  </ul>`;
}

function findingCard(finding: Finding, runPath: string): Content {
  return html`<article class="card finding" id="${finding.findingId}">
    <div>${badge(finding.severity)} <span class="muted">${finding.category}${finding.stage ? ` · ${finding.stage}` : ''} · confidence ${finding.confidence}</span></div>
    <h3><a href="${runPath}/findings/${finding.findingId}">${finding.title}</a></h3>
    <p>${finding.detail}</p>
    <p><strong>Fix:</strong> ${finding.remediation}</p>
    ${urlList(finding.affectedUrls.slice(0, 5))}
    ${finding.affectedUrls.length > 5 ? html`<p class="muted">and ${finding.affectedUrls.length - 5} more</p>` : ''}
  </article>`;
}

function reportSummary(report: ReportContext): Content {
  const counts = report.severityCounts;
  return html`<div class="card hero">
      ${
        report.scoreStatus === 'unverified'
          ? html`<div class="score" aria-label="score">?<small>/100</small></div>`
          : html`<div class="score" aria-label="score">${report.score}<small>/100</small></div>`
      }
      <div>
        <div><strong>${report.scoreLabel}</strong> ${report.scoreStatus === 'unverified' ? badge('unverified') : ''}</div>
        <p>${report.execSummary}</p>
        <div class="counts">${SEVERITIES.map((s) => badge(s, `${counts[s]} ${s}`))}</div>
      </div>
    </div>
    ${
      report.scoreStatus === 'unverified'
        ? html`<p class="notice">The served HTML could not support a score: part of the content only appears after JavaScript runs, so the number is not authoritative until rendered evidence confirms it.</p>`
        : ''
    }
    ${
      report.coverage
        ? html`<p class="notice">A partial score: this local on-page scan does not evaluate ${notEvaluatedText(report.coverage.notEvaluated)}. Audit the deployed site for a full score.</p>`
        : ''
    }
    ${
      report.rendering?.pages.length
        ? html`<p class="muted">Rendered in Chromium and checked as a browser shows them: ${report.rendering.pages.map((p, i) => html`${i > 0 ? ', ' : ''}<code>${p.url}</code>${p.error ? ` (not rendered: ${p.error})` : ''}`)}</p>`
        : ''
    }`;
}

function productDetails(report: ReportContext): Content {
  if (report.product === 'ai_readiness') {
    const f = report.foundation;
    return html`<h2>Foundation</h2>
      <table>
        <tr><th>File</th><th>Present</th><th>Notes</th></tr>
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
          return html`<tr><td>${name}</td><td>${shown}</td><td>${item.notes}</td></tr>`;
        })}
      </table>`;
  }
  if (report.product === 'marketing_signal') {
    return html`<h2>Funnel stages</h2>
      <table>
        <tr><th>Stage</th><th>Score</th><th>Status</th><th>Confidence</th><th>Findings</th></tr>
        ${report.stageScores.map((s) => html`<tr><td>${s.stage}</td><td>${s.status === 'unverified' ? '—' : s.score}</td><td>${s.status}</td><td>${s.confidence}</td><td>${s.finding_count}</td></tr>`)}
      </table>`;
  }
  return html`<h2>Pillars</h2>
    <table>
      <tr><th>Pillar</th><th>Score</th><th>Weight</th><th>Pass</th><th>Fail</th></tr>
      ${report.pillars.map((p) => html`<tr><td>${p.label}</td><td>${p.score ?? '—'}</td><td>${p.weight}</td><td>${p.pass}</td><td>${p.fail}</td></tr>`)}
    </table>`;
}

function checksTable(report: ReportContext): Content {
  const rows =
    report.product === 'website_security'
      ? report.checks.map((c) => ({ label: c.label, status: c.status, detail: c.evidence }))
      : (report.checks?.rows ?? []).map((c) => ({ label: c.label, status: c.status, detail: c.detail }));
  if (rows.length === 0) return html``;
  return html`<h2>Checks</h2>
    <table>
      <tr><th>Check</th><th>Result</th><th>Detail</th></tr>
      ${rows.map((r) => html`<tr><td>${r.label}</td><td>${badge(r.status)}</td><td>${r.detail}</td></tr>`)}
    </table>`;
}

export function runPage(
  run: Run,
  report: ReportContext | null,
  findings: Finding[],
  runPath: string,
  /** What the viewer may do besides reading (an owner's share link). */
  controls: Content = html``,
): Content {
  const product = PRODUCT_LABEL[run.product] ?? run.product;
  const host = (() => {
    try {
      return new URL(run.url).host;
    } catch {
      return run.url;
    }
  })();
  const header = html`<p class="crumb muted">siteaudit · ${product} audit${
    // A shared report opens nothing else of the workspace.
    run.projectId && runPath.startsWith('/runs/')
      ? html` · <a href="/projects/${run.projectId}/monitoring">monitoring of this site</a>`
      : ''
  }</p>
    <h1>${host}</h1>
    <p class="muted">${run.url} · started ${run.createdAt}${run.completedAt ? html` · finished ${run.completedAt}` : ''}${
      run.coverage ? html` · local on-page scan (not evaluated: ${run.coverage.notEvaluated.join(', ')})` : ''
    }</p>`;
  if (run.status === 'pending' || run.status === 'running') {
    return page(
      `${product} audit of ${host}`,
      html`${header}
        <div class="card">
          <p><strong>${run.status === 'pending' ? 'Waiting to start' : 'Running'}</strong>: ${run.currentStep ?? ''}</p>
          <progress value="${run.progressPct}" max="100">${run.progressPct}%</progress>
          <p class="muted">${run.progressPct}% · this page refreshes every 10 seconds</p>
        </div>`,
      { refreshSeconds: 10 },
    );
  }
  if (!report) {
    return page(
      `${product} audit of ${host}`,
      html`${header}
        <div class="card"><p><strong>The audit ended without results</strong> (${run.status}).</p><p>${run.error ?? ''}</p></div>${controls}`,
    );
  }
  return page(
    `${product} audit of ${host}`,
    html`${header} ${reportSummary(report)} ${productDetails(report)} ${controls}
      <h2>Findings (${findings.length})</h2>
      ${findings.length === 0 ? html`<p>No findings.</p>` : findings.map((f) => findingCard(f, runPath))}
      ${checksTable(report)}`,
  );
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
  const product = PRODUCT_LABEL[run.product] ?? run.product;
  return page(
    finding.title,
    html`<p class="crumb"><a href="${runPath}">← ${product} audit of ${run.url}</a></p>
      <div>${badge(finding.severity)} <span class="muted">${finding.category}${finding.stage ? ` · ${finding.stage}` : ''} · confidence ${finding.confidence} · ${finding.status}</span></div>
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
              <table>
                <tr><th>Kind</th><th>Where</th><th>What we saw</th></tr>
                ${finding.evidence.map(
                  (e) =>
                    html`<tr><td>${e.type}</td><td>${e.url ?? ''}</td><td>${e.summary}${
                      e.elements?.length
                        ? html`<ul class="elements">${e.elements.map((el) => html`<li><code>${el.selector}</code><br><code>${el.snippet}</code></li>`)}</ul>`
                        : ''
                    }</td></tr>`,
                )}
              </table>`
          : ''
      }
      <p class="muted">Finding ${finding.findingId} · run ${run.runId}</p>`,
  );
}
