// The Access section of a project's page (issue 29): the names of the headers, cookies and basic
// auth that audits send to a site behind a login or a preview wall, when they changed, and the form
// that replaces or clears them. Write-only like the API: no value is ever put in the page, not even
// back into the form after a refusal.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ProjectAccess } from '../../contract/index.ts';
import { when } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface AccessSectionInput {
  projectId: string;
  domain: string;
  access: ProjectAccess;
  /** The CSRF token of the forms; absent when this person may not change the settings. */
  csrf?: string;
  /** Said after a change: what happened. */
  notice?: string;
  /** Why the last change was refused, in the API's words. */
  error?: string;
  /** The names typed before a refusal, given back (never a value). */
  typed?: { headerName?: string; cookieName?: string };
}

const isEmpty = (access: ProjectAccess) =>
  access.headers.length === 0 && access.cookies.length === 0 && !access.basicAuth;

const names = (list: readonly string[]) =>
  list.length === 0
    ? html`<span class="muted">none</span>`
    : html`${list.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`)}`;

/** One line near the top of the project page: whether anything is set, linking to the section. */
export function accessSummary(access: ProjectAccess): Content {
  const parts = [
    access.headers.length ? `${access.headers.length} header${access.headers.length === 1 ? '' : 's'}` : '',
    access.basicAuth ? 'basic auth' : '',
    access.cookies.length ? `${access.cookies.length} cookie${access.cookies.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return html`<p>Access: <a href="#access">${parts.length ? parts.join(', ') : 'as any visitor'}</a></p>`;
}

function changeForm(input: AccessSectionInput, csrf: string): Content {
  const typed = input.typed ?? {};
  return html`<form method="post" action="/projects/${input.projectId}/access" class="form" id="access-form">
      <input type="hidden" name="csrf" value="${csrf}">
      <p class="muted">Saving replaces all of this project’s access settings with what you fill in here: give again anything that should stay. For more than one header or cookie, use <code>siteaudit project access</code> or the API.</p>
      <fieldset class="form"><legend>Header</legend>
        <label>Header name <input name="headerName" maxlength="100" autocomplete="off" spellcheck="false" placeholder="x-preview-token" value="${typed.headerName ?? ''}"></label>
        <label>Header value <input type="password" name="headerValue" maxlength="4096" autocomplete="off"></label>
      </fieldset>
      <fieldset class="form"><legend>Basic auth</legend>
        <label>Username <input name="username" maxlength="256" autocomplete="off" spellcheck="false"></label>
        <label>Password <input type="password" name="password" maxlength="1024" autocomplete="new-password"></label>
      </fieldset>
      <fieldset class="form"><legend>Cookie</legend>
        <label>Cookie name <input name="cookieName" maxlength="100" autocomplete="off" spellcheck="false" value="${typed.cookieName ?? ''}"></label>
        <label>Cookie value <input type="password" name="cookieValue" maxlength="4096" autocomplete="off"></label>
      </fieldset>
      <p><button type="submit" name="action" value="save">Save access settings</button></p>
    </form>`;
}

/** The section: what is set (by name), when it changed, and the forms for those who may change it. */
export function accessSection(input: AccessSectionInput): Content {
  const { access } = input;
  return html`<h2 id="access">Access</h2>
    <div class="card">
      ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
      ${input.error ? html`<p class="notice" role="alert">${input.error}</p>` : ''}
      <p>For a site behind a login or a preview wall: audits of ${input.domain} send these headers, basic auth and cookies to the site’s own address only, never to another site.</p>
      <div class="scroll"><table class="reflow" id="access-names">
        <thead><tr><th>Headers</th><th>Basic auth</th><th>Cookies</th><th>Changed</th></tr></thead>
        <tbody><tr>
          <td data-label="Headers">${names(access.headers)}</td>
          <td data-label="Basic auth">${access.basicAuth ? 'set' : 'not set'}</td>
          <td data-label="Cookies">${names(access.cookies)}</td>
          <td data-label="Changed">${access.updatedAt ? when(access.updatedAt, { relative: true }) : html`<span class="muted">never set</span>`}</td>
        </tr></tbody>
      </table></div>
      <p class="muted">Values are never shown, here or through the API: only their names.</p>
      ${
        input.csrf
          ? html`${changeForm(input, input.csrf)}${
              isEmpty(access)
                ? ''
                : html`<form method="post" action="/projects/${input.projectId}/access" class="inline">
                    <input type="hidden" name="csrf" value="${input.csrf}">
                    <button type="submit" name="action" value="clear">Clear access settings</button>
                  </form>`
            }`
          : html`<p class="muted">Members of this workspace can change the access settings.</p>`
      }
    </div>`;
}
