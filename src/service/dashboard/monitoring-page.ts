// A project's monitoring page (issue 11): each watched page's state and the history of checks, the
// ones that emitted a monitoring.changed event marked, and the switch that turns monitoring on and
// off (a form, issue 24). Refreshes itself while monitoring is on.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { MonitorCheck, Monitoring } from '../../contract/index.ts';
import { page } from './layout.ts';
import { MONITOR_KIND_TEXT, MONITOR_STATE_TEXT, pageChangeText, when } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const STATE_BADGE = { up: 'pass', down: 'fail', unknown: 'info' } as const;
const KIND_BADGE = { changed: 'medium', failed: 'fail', recovered: 'pass' } as const;

const pageLink = (url: string) =>
  html`<a href="${/^https?:\/\//.test(url) ? url : '#'}" rel="nofollow noopener noreferrer">${url}</a>`;

function historyRow(check: MonitorCheck): Content {
  return html`<tr>
    <td data-label="Checked">${when(check.checkedAt)}</td>
    <td data-label="Page">${pageLink(check.url)}</td>
    <td data-label="Status">${check.httpStatus ?? '—'}</td>
    <td data-label="Event">${check.kind ? html`<span class="badge ${KIND_BADGE[check.kind]}">${MONITOR_KIND_TEXT[check.kind]}</span>` : html`<span class="muted">${check.up ? 'no change' : 'still down'}</span>`}</td>
    <td data-label="What changed">${check.changes.map(pageChangeText).join(', ')}${check.error ? html`<br><span class="muted">${check.error}</span>` : ''}</td>
    <td data-label="Took">${check.durationMs} ms</td>
  </tr>`;
}

export interface MonitoringPageInput {
  project: { id: string; domain: string };
  monitoring: Monitoring;
  checks: MonitorCheck[];
  /** The CSRF token of the switch; absent when this person may not change monitoring. */
  csrf?: string;
  /** Why the last switch did not happen. */
  error?: string;
  now?: Date;
}

/** On or off, with a button that flips it (posts back here; the form carries the CSRF token). */
function switchForm(projectId: string, enabled: boolean, csrf: string): Content {
  return html`<form method="post" action="/projects/${projectId}/monitoring" class="inline">
    <input type="hidden" name="csrf" value="${csrf}">
    <input type="hidden" name="enabled" value="${enabled ? 'off' : 'on'}">
    <button type="submit">${enabled ? 'Switch monitoring off' : 'Switch monitoring on'}</button>
  </form>`;
}

export function monitoringPage(input: MonitoringPageInput): Content {
  const { project, monitoring, checks } = input;
  const now = input.now ? { now: input.now } : {};
  const status = monitoring.enabled
    ? html`<p><strong>On</strong>: every ${monitoring.effectiveIntervalMinutes} minutes${
        monitoring.intervalMinutes === null ? ' (the service’s default)' : ''
      } · next check ${monitoring.nextCheckAt ? when(monitoring.nextCheckAt, { relative: true, ...now }) : 'when the project is active'}</p>`
    : html`<p><strong>Off.</strong> The site’s pages are not being checked.</p>`;
  return page(
    `Monitoring of ${project.domain}`,
    html`<h1>Monitoring of ${project.domain}</h1>
      ${input.error ? html`<p class="notice" role="alert">${input.error}</p>` : ''}
      <div class="card" id="switch">${status}
        ${input.csrf ? switchForm(project.id, monitoring.enabled, input.csrf) : html`<p class="muted">Members of this workspace can switch monitoring on and off.</p>`}
        <p class="muted">Last check: ${monitoring.lastCheckedAt ? when(monitoring.lastCheckedAt, { relative: true, ...now }) : 'none yet'}. When a page goes down, comes back or changes, your webhooks that listen for <code>monitoring.changed</code> are told.</p>
      </div>
      <h2>Pages</h2>
      <div class="scroll"><table class="reflow">
        <thead><tr><th>Page</th><th>State</th><th>Status</th><th>Since</th></tr></thead>
        <tbody>${monitoring.pages.map(
          (p) =>
            html`<tr><td data-label="Page">${pageLink(p.url)}</td><td data-label="State"><span class="badge ${STATE_BADGE[p.state]}">${MONITOR_STATE_TEXT[p.state]}</span></td><td data-label="Status">${p.httpStatus ?? '—'}</td><td data-label="Since">${p.since ? when(p.since) : '—'}</td></tr>`,
        )}</tbody>
      </table></div>
      <h2>History</h2>
      ${
        checks.length === 0
          ? html`<p>No checks yet.</p>`
          : html`<div class="scroll"><table class="reflow">
              <thead><tr><th>Checked</th><th>Page</th><th>Status</th><th>Event</th><th>What changed</th><th>Took</th></tr></thead>
              <tbody>${checks.map(historyRow)}</tbody>
            </table></div>
            <p class="muted">The newest ${checks.length} checks; older ones are kept and can be read through the API.</p>`
      }`,
    {
      ...(monitoring.enabled ? { refreshSeconds: 60 } : {}),
      nav: [
        { href: `/projects/${project.id}`, label: project.domain },
        { href: `/projects/${project.id}/monitoring`, label: 'Monitoring', current: true },
      ],
    },
  );
}
