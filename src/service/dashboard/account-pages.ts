// The pages of people (issue 12): sign-in, the workspace home with its switcher, members and
// invitations, the consent screen of `siteaudit login`, and the API Keys page (spec 5.2.1). Forms
// post back to the service with a CSRF token; nothing here runs a script but the keys page's copy
// button (/assets/copy.js).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Scope } from '../../contract/index.ts';
import type { SignedIn } from '../sessions.ts';
import type { ApiKeyRow, PasskeyRow, ProjectRow, UserRow } from '../store/index.ts';
import { page } from './layout.ts';
import { when } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** The bar of a signed-in page: the workspace switcher, the sections and sign-out. */
function nav(who: SignedIn, csrf: string): Content {
  const current = who.current?.organization.id;
  return html`<nav class="card bar">
    <form method="post" action="/workspace" class="inline">
      ${csrfField(csrf)}
      <label>Workspace
        <select name="organizationId">
          ${who.workspaces.map(
            (w) =>
              html`<option value="${w.organization.id}" ${w.organization.id === current ? 'selected' : ''}>${w.organization.name} (${w.role})</option>`,
          )}
        </select>
      </label>
      <button type="submit">Switch</button>
    </form>
    <a href="/">Projects</a> <a href="/keys">API keys</a> <a href="/members">Members</a> <a href="/account">Account</a>
    <form method="post" action="/sign-out" class="inline">${csrfField(csrf)}<span class="muted">${who.user.email}</span> <button type="submit">Sign out</button></form>
  </nav>`;
}

export function signedInPage(title: string, who: SignedIn, csrf: string, body: Content): Content {
  return page(title, html`${nav(who, csrf)}${body}`, { nav: [] });
}

export function messagePage(title: string, message: string, status?: string): Content {
  return page(title, html`<h1>${title}</h1><p>${message}</p>${status ? html`<p class="muted">${status}</p>` : ''}`);
}

export function signInPage(input: {
  csrf: string;
  next: string;
  error?: string;
  email?: string;
  /** This machine's own service: the command that signs its person in at this page. */
  localCommand?: string;
  /** Whether this service can offer passkeys (it is reached at a host name). */
  passkeys?: boolean;
}): Content {
  return page(
    'Sign in',
    html`<h1>Sign in to siteaudit</h1>
      ${input.error ? html`<p class="notice" role="alert">${input.error}</p>` : ''}
      <form method="post" action="/sign-in" class="card form">
        ${csrfField(input.csrf)}
        <input type="hidden" name="next" value="${input.next}">
        <label>Email <input type="email" name="email" autocomplete="username" required value="${input.email ?? ''}"></label>
        <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
        <button type="submit">Sign in</button>
      </form>
      ${
        input.passkeys
          ? html`<p><button type="button" id="passkey-sign-in" data-csrf="${input.csrf}" data-next="${input.next}">Sign in with a passkey</button> <span class="muted" id="passkey-state" role="status"></span></p>
              <script src="/assets/passkeys.js"></script>`
          : ''
      }
      ${
        input.localCommand
          ? html`<p>This is the service on your own computer. Report links that your agent or the command line gave you open signed in: open one of them again (they work only in a browser on this computer). Or run <code>${input.localCommand}</code> in a terminal to open this page signed in.</p>`
          : html`<p class="muted">No account? Ask an owner of your workspace for an invitation link.</p>`
      }`,
  );
}

export function homePage(who: SignedIn, csrf: string, projects: ProjectRow[]): Content {
  const workspace = who.current;
  return signedInPage(
    'Projects',
    who,
    csrf,
    workspace
      ? html`<h1>${workspace.organization.name}</h1>
          <p class="muted">Plan ${workspace.organization.plan} · ${workspace.organization.credits_remaining} credits left · you are ${workspace.role === 'owner' ? 'an owner' : 'a member'}</p>
          <h2>Projects</h2>
          ${
            projects.length === 0
              ? html`<p>No projects yet. Start one with <code>siteaudit audit example.com</code> or an agent's <code>create_project</code>.</p>`
              : html`<div class="scroll"><table><tr><th>Site</th><th>Status</th><th>Monitoring</th></tr>${projects.map(
                  (p) =>
                    html`<tr><td><a href="/projects/${p.id}">${p.domain}</a></td><td>${p.status === 'archived' ? 'archived' : 'active'}</td><td><a href="/projects/${p.id}/monitoring">monitoring</a></td></tr>`,
                )}</table></div>`
          }`
      : html`<h1>No workspace</h1><p>You do not belong to a workspace yet; ask an owner for an invitation link.</p>`,
  );
}

export function membersPage(
  who: SignedIn,
  csrf: string,
  members: Array<{ user: UserRow; role: string; since: string }>,
  invitations: Array<{ id: string; email: string | null; role: string; expiresAt: string }>,
  shown: { link?: string; error?: string } = {},
): Content {
  const isOwner = who.current?.role === 'owner';
  return signedInPage(
    'Members',
    who,
    csrf,
    html`<h1>Members of ${who.current?.organization.name ?? ''}</h1>
      <div class="scroll"><table><tr><th>Name</th><th>Email</th><th>Role</th><th>Since</th></tr>${members.map(
        (m) =>
          html`<tr><td>${m.user.name}</td><td>${m.user.email}</td><td>${m.role}</td><td>${when(m.since)}</td></tr>`,
      )}</table></div>
      ${shown.error ? html`<p class="notice" role="alert">${shown.error}</p>` : ''}
      ${
        shown.link
          ? html`<div class="card" role="status"><p><strong>Invitation link</strong> (shown once; send it to the person yourself, it works once within 7 days, for their email address only):</p>
              <p><input readonly class="secret" id="invitation-link" value="${shown.link}"></p></div>`
          : ''
      }
      ${
        isOwner
          ? html`<h2>Invite someone</h2>
              <form method="post" action="/members/invitations" class="card form">
                ${csrfField(csrf)}
                <label>Their email address <input type="email" name="email" autocomplete="off" required maxlength="254"></label>
                <label>Role <select name="role"><option value="member">member</option><option value="owner">owner</option></select></label>
                <button type="submit">Make an invitation link</button>
              </form>
              ${
                invitations.length > 0
                  ? html`<h2>Open invitations</h2><div class="scroll"><table><tr><th>Invitation</th><th>For</th><th>Role</th><th>Expires</th></tr>${invitations.map(
                      (i) =>
                        html`<tr><td>${i.id}</td><td>${i.email ?? 'anyone with the link'}</td><td>${i.role}</td><td>${when(i.expiresAt, { relative: true })}</td></tr>`,
                    )}</table></div>`
                  : ''
              }`
          : html`<p class="muted">Owners invite members.</p>`
      }`,
  );
}

/**
 * The invitation page. Signed out, it is the same for every invited address (whether it has an
 * account is not the page's to tell): sign in to accept, or make a new account. Signed in, the
 * person accepts as themself, and only when the invitation was made for their address.
 */
export function invitationPage(input: {
  csrf: string;
  token: string;
  workspace: string;
  role: string;
  signedInAs?: string;
  /** Whether the signed-in person is the one it was made for. */
  invited?: boolean;
  error?: string;
}): Content {
  const here = `/invitations/${input.token}`;
  const join = html`<button type="submit">Join ${input.workspace}</button>`;
  return page(
    'Invitation',
    html`<h1>Join ${input.workspace}</h1>
      <p>You are invited as ${input.role === 'owner' ? 'an owner' : 'a member'}.</p>
      ${input.error ? html`<p class="notice" role="alert">${input.error}</p>` : ''}
      ${
        input.signedInAs
          ? input.invited
            ? html`<form method="post" action="${here}" class="card form">
                ${csrfField(input.csrf)}
                <p>Signed in as ${input.signedInAs}.</p>
                ${join}
              </form>`
            : html`<div class="card"><p>You are signed in as ${input.signedInAs}, and this invitation was made for another email address. Sign out, then open this link again.</p>
                <form method="post" action="/sign-out" class="inline">${csrfField(input.csrf)}<button type="submit">Sign out</button></form></div>`
          : html`<p>This invitation is for one email address, the one it was sent to.</p>
              <div class="card"><p>If you have a siteaudit account with that address, <a href="/sign-in?next=${encodeURIComponent(here)}">sign in</a>, then accept here.</p></div>
              <form method="post" action="${here}" class="card form">
                ${csrfField(input.csrf)}
                <p>New to siteaudit? Make your account:</p>
                <label>Name <input name="name" autocomplete="name" required></label>
                <label>Email <input type="email" name="email" autocomplete="username" required></label>
                <label>Password (12 characters or more) <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
                ${join}
              </form>`
      }`,
  );
}

const SCOPE_TEXT: Record<Scope, string> = {
  'projects:read': 'read projects',
  'runs:read': 'read runs',
  'findings:read': 'read findings',
  'reports:read': 'read reports',
  'runs:write': 'start audits, which spend credits',
  'projects:write': 'create and restore projects',
  'projects:delete': 'archive projects',
  'webhooks:manage': 'manage webhook endpoints',
};

export function consentPage(input: {
  who: SignedIn;
  csrf: string;
  clientName: string;
  redirectHost: string;
  scopes: readonly Scope[];
  hidden: Record<string, string>;
}): Content {
  return signedInPage(
    'Allow access',
    input.who,
    input.csrf,
    html`<h1>Allow ${input.clientName} to use ${input.who.current?.organization.name ?? ''}?</h1>
      <div class="card">
        <p><strong>${input.clientName}</strong> on this computer (it answers at ${input.redirectHost}) asks for a new API key of the workspace <strong>${input.who.current?.organization.name ?? ''}</strong>, made for ${input.who.user.email}. It will be able to:</p>
        <ul>${input.scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s]}</li>`)}</ul>
        <p class="muted">Pick another workspace with the switcher above first if this is not the right one. You can revoke the key on the API keys page at any time.</p>
      </div>
      <form method="post" action="/cli/authorize" class="inline">
        ${csrfField(input.csrf)}
        ${Object.entries(input.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>`,
  );
}

export function oauthConsentPage(input: {
  who: SignedIn;
  csrf: string;
  uid: string;
  clientName: string;
  /** The client's own URL, when it is known by its Client ID Metadata Document. */
  metadataDocument?: string | undefined;
  redirectUri: string;
  resource: string;
  scopes: readonly Scope[];
}): Content {
  const workspace = input.who.current?.organization.name ?? '';
  return signedInPage(
    'Allow access',
    input.who,
    input.csrf,
    html`<h1>Allow ${input.clientName} to use ${workspace}?</h1>
      <div class="card">
        <p><strong>${input.clientName}</strong>${input.metadataDocument ? html` (described by <code>${input.metadataDocument}</code>)` : ''} (it returns to <code>${input.redirectUri}</code>) asks for access to the workspace <strong>${workspace}</strong> as ${input.who.user.email}, through the MCP server <code>${input.resource || 'none named'}</code>. It will be able to:</p>
        <ul>${input.scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s]}</li>`)}</ul>
        <p class="muted">Pick another workspace with the switcher above first if this is not the right one. Access lasts until you sign it out; its tokens live an hour and renew while the application is in use.</p>
      </div>
      <form method="post" action="/oauth/consent/${input.uid}" class="inline">
        ${csrfField(input.csrf)}
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>`,
  );
}

export interface KeyListItem {
  row: ApiKeyRow;
  masked: string;
  scopes: string[];
  createdBy: string | null;
  /** Whether this person may reveal and revoke it (an owner, or its maker). */
  manageable: boolean;
}

export function keysPage(input: {
  who: SignedIn;
  csrf: string;
  keys: KeyListItem[];
  projects: ProjectRow[];
  scopes: readonly Scope[];
  shown?: { name: string; secret: string; note: string };
  error?: string;
}): Content {
  return signedInPage(
    'API keys',
    input.who,
    input.csrf,
    html`<h1>API keys of ${input.who.current?.organization.name ?? ''}</h1>
      ${input.error ? html`<p class="notice" role="alert">${input.error}</p>` : ''}
      ${
        input.shown
          ? html`<div class="card" role="status" id="shown-key">
              <p><strong>${input.shown.name}</strong>: ${input.shown.note}</p>
              <p><input readonly class="secret" id="key-secret" value="${input.shown.secret}"> <button type="button" data-copy="key-secret" id="copy-key">Copy</button> <span class="muted" id="copy-state"></span></p>
            </div>`
          : ''
      }
      <div class="scroll"><table>
        <tr><th>Name</th><th>Key</th><th>Scopes</th><th>Project</th><th>Created</th><th>Last used</th><th></th></tr>
        ${input.keys.map(
          (k) => html`<tr id="key-${k.row.prefix}">
            <td>${k.row.name}</td>
            <td><code>${k.masked}</code></td>
            <td>${k.scopes.length === input.scopes.length ? 'all' : k.scopes.join(', ')}</td>
            <td>${k.row.project_id ?? 'any'}</td>
            <td>${when(k.row.created_at)}${k.createdBy ? html`<br><span class="muted">by ${k.createdBy}</span>` : ''}</td>
            <td>${k.row.last_used_at ? when(k.row.last_used_at, { relative: true }) : 'never'}</td>
            <td>${
              k.row.revoked_at
                ? html`revoked ${when(k.row.revoked_at)}`
                : !k.manageable
                  ? html`<span class="muted">an owner or its maker manages it</span>`
                  : html`<form method="post" action="/keys/${k.row.id}/reveal" class="inline">${csrfField(input.csrf)}<input type="password" name="password" placeholder="your password" aria-label="Your password, to reveal ${k.row.name}" autocomplete="current-password"><button type="submit">Reveal</button></form>
                  <form method="post" action="/keys/${k.row.id}/revoke" class="inline">${csrfField(input.csrf)}<button type="submit">Revoke</button></form>`
            }</td>
          </tr>`,
        )}
      </table></div>
      <h2>Create a key</h2>
      <form method="post" action="/keys" class="card form">
        ${csrfField(input.csrf)}
        <label>Name <input name="name" required maxlength="100"></label>
        <fieldset><legend>Scopes</legend>${input.scopes.map(
          (s) =>
            html`<label class="check"><input type="checkbox" name="scopes" value="${s}" checked> <code>${s}</code></label>`,
        )}</fieldset>
        <label>Pinned to project <select name="projectId"><option value="">any project</option>${input.projects.map(
          (p) => html`<option value="${p.id}">${p.domain}</option>`,
        )}</select></label>
        <button type="submit">Create key</button>
      </form>
      <script src="/assets/copy.js"></script>`,
  );
}

/** The copy buttons of the keys page (an input) and the finding pages' suggestions (a pre). */
export const COPY_SCRIPT = `for (const button of document.querySelectorAll('[data-copy]')) {
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    const state = document.getElementById(button.dataset.copy + '-state') || document.getElementById('copy-state');
    try {
      await navigator.clipboard.writeText('value' in field ? field.value : field.textContent);
      if (state) state.textContent = 'Copied';
    } catch {
      if ('select' in field) field.select();
      else getSelection().selectAllChildren(field);
      if (state) state.textContent = 'Press Ctrl+C (or Cmd+C) to copy';
    }
  });
}
`;

export function accountPage(input: {
  who: SignedIn;
  csrf: string;
  passkeys: PasskeyRow[];
  available: boolean;
}): Content {
  return signedInPage(
    'Account',
    input.who,
    input.csrf,
    html`<h1>${input.who.user.name}</h1>
      <p class="muted">${input.who.user.email}</p>
      <h2>Passkeys</h2>
      ${
        input.passkeys.length === 0
          ? html`<p>No passkeys yet.</p>`
          : html`<div class="scroll"><table><tr><th>Name</th><th>Added</th><th>Last used</th><th></th></tr>${input.passkeys.map(
              (
                p,
              ) => html`<tr class="passkey"><td>${p.name}</td><td>${when(p.created_at)}</td><td>${p.last_used_at ? when(p.last_used_at, { relative: true }) : 'never'}</td><td>
                <form method="post" action="/account/passkeys/${p.id}/delete" class="inline"><input type="hidden" name="csrf" value="${input.csrf}"><button type="submit">Remove</button></form></td></tr>`,
            )}</table></div>`
      }
      ${
        input.available
          ? html`<p class="inline"><label>Name <input id="passkey-name" value="passkey" maxlength="60"></label>
              <button type="button" id="passkey-add" data-csrf="${input.csrf}">Add a passkey</button> <span class="muted" id="passkey-state" role="status"></span></p>
              <script src="/assets/passkeys.js"></script>`
          : html`<p class="muted">Passkeys need the service at a host name (its public address is an IP address).</p>`
      }`,
  );
}

/** The passkey buttons of the sign-in and Account pages (/assets/passkeys.js). */
export const PASSKEYS_SCRIPT = `(() => {
  const enc = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const dec = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)), (ch) => ch.charCodeAt(0));
  const state = document.getElementById('passkey-state');
  const say = (text) => { if (state) state.textContent = text; };
  const post = async (path, csrf, body) => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body ?? {}),
      credentials: 'same-origin',
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error?.message ?? 'the service refused');
    return answer;
  };
  const add = document.getElementById('passkey-add');
  if (add) add.addEventListener('click', async () => {
    const csrf = add.dataset.csrf;
    try {
      const options = await post('/account/passkeys/options', csrf);
      options.challenge = dec(options.challenge);
      options.user.id = dec(options.user.id);
      options.excludeCredentials = (options.excludeCredentials ?? []).map((c) => ({ ...c, id: dec(c.id) }));
      const credential = await navigator.credentials.create({ publicKey: options });
      const response = credential.response;
      await post('/account/passkeys', csrf, {
        name: document.getElementById('passkey-name')?.value ?? 'passkey',
        response: {
          id: credential.id,
          rawId: enc(credential.rawId),
          type: credential.type,
          authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
          clientExtensionResults: credential.getClientExtensionResults(),
          response: {
            clientDataJSON: enc(response.clientDataJSON),
            attestationObject: enc(response.attestationObject),
            transports: response.getTransports ? response.getTransports() : [],
          },
        },
      });
      location.reload();
    } catch (error) {
      say('The passkey was not added: ' + error.message);
    }
  });
  const signIn = document.getElementById('passkey-sign-in');
  if (signIn) signIn.addEventListener('click', async () => {
    const csrf = signIn.dataset.csrf;
    try {
      const options = await post('/account/sign-in/options', csrf);
      options.challenge = dec(options.challenge);
      options.allowCredentials = (options.allowCredentials ?? []).map((c) => ({ ...c, id: dec(c.id) }));
      const credential = await navigator.credentials.get({ publicKey: options });
      const response = credential.response;
      const answer = await post('/account/sign-in', csrf, {
        next: signIn.dataset.next,
        response: {
          id: credential.id,
          rawId: enc(credential.rawId),
          type: credential.type,
          clientExtensionResults: credential.getClientExtensionResults(),
          response: {
            clientDataJSON: enc(response.clientDataJSON),
            authenticatorData: enc(response.authenticatorData),
            signature: enc(response.signature),
            userHandle: response.userHandle ? enc(response.userHandle) : undefined,
          },
        },
      });
      location.assign(answer.redirect);
    } catch (error) {
      say('Not signed in: ' + error.message);
    }
  });
})();
`;
