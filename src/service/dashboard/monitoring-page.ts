// A project's monitoring page (issue 11): each watched page's state and the history of checks, the
// ones that emitted a monitoring.changed event marked. Refreshes itself while monitoring is on.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { MonitorCheck, Monitoring } from '../../contract/index.ts';
import { page } from './layout.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const STATE_BADGE = { up: 'pass', down: 'fail', unknown: 'info' } as const;
const KIND_BADGE = { changed: 'medium', failed: 'fail', recovered: 'pass' } as const;

const pageLink = (url: string) =>
  html`<a href="${/^https?:\/\//.test(url) ? url : '#'}" rel="nofollow noopener noreferrer">${url}</a>`;

function historyRow(check: MonitorCheck): Content {
  return html`<tr>
    <td>${check.checkedAt}</td>
    <td>${pageLink(check.url)}</td>
    <td>${check.httpStatus ?? '—'}</td>
    <td>${check.kind ? html`<span class="badge ${KIND_BADGE[check.kind]}">${check.kind}</span>` : html`<span class="muted">${check.up ? 'no change' : 'still down'}</span>`}</td>
    <td>${check.changes.join(', ')}${check.error ? html`<br><span class="muted">${check.error}</span>` : ''}</td>
    <td>${check.durationMs} ms</td>
  </tr>`;
}

export function monitoringPage(domain: string, monitoring: Monitoring, checks: MonitorCheck[]): Content {
  const status = monitoring.enabled
    ? html`<p><strong>On</strong>: every ${monitoring.effectiveIntervalMinutes} minutes${
        monitoring.intervalMinutes === null ? ' (the service’s default)' : ''
      } · next check ${monitoring.nextCheckAt ?? 'when the project is active'}</p>`
    : html`<p><strong>Off.</strong> Switch it on with <code>PUT /api/v1/projects/${monitoring.projectId}/monitoring</code> and <code>{"enabled": true}</code>, or <code>siteaudit monitor on ${domain}</code>.</p>`;
  return page(
    `Monitoring of ${domain}`,
    html`<p class="crumb muted">siteaudit · monitoring</p>
      <h1>${domain}</h1>
      <div class="card">${status}<p class="muted">Last check: ${monitoring.lastCheckedAt ?? 'none yet'}. Changes are sent to webhook endpoints subscribed to <code>monitoring.changed</code>.</p></div>
      <h2>Pages</h2>
      <table>
        <tr><th>Page</th><th>State</th><th>Status</th><th>Since</th></tr>
        ${monitoring.pages.map(
          (p) =>
            html`<tr><td>${pageLink(p.url)}</td><td><span class="badge ${STATE_BADGE[p.state]}">${p.state}</span></td><td>${p.httpStatus ?? '—'}</td><td>${p.since ?? '—'}</td></tr>`,
        )}
      </table>
      <h2>History</h2>
      ${
        checks.length === 0
          ? html`<p>No checks yet.</p>`
          : html`<table>
              <tr><th>Checked</th><th>Page</th><th>Status</th><th>Event</th><th>What changed</th><th>Took</th></tr>
              ${checks.map(historyRow)}
            </table>
            <p class="muted">The newest ${checks.length} checks; the API pages through all of them.</p>`
      }`,
    monitoring.enabled ? { refreshSeconds: 60 } : {},
  );
}
