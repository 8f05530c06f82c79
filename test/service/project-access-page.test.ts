// The Access section of a project's page (issue 29) as people use it: a member sets a header, basic
// auth and a cookie through the form, sees their names (never a value) and when they changed,
// replaces and clears them; bad input is refused in the API's words without the value; the form
// needs the page's CSRF token and a role that may change the project. Then Chromium at 1280 and 390 px.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectAccess } from '../../src/contract/index.ts';
import { addMember, createUser, type Role } from '../../src/service/accounts.ts';
import { siteAccessOf } from '../../src/service/project-access.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type Page, signedInOwner, TestBrowser } from '../support/form-browser.ts';
import { ANN, PASSWORD, startPeopleService } from '../support/people.ts';
import type { TestService } from '../support/service.ts';

const secret = (what: string) => `${what}-${randomBytes(12).toString('hex')}`;
const HEADER_VALUE = secret('hdr');
const PASSWORD_VALUE = secret('pw');
const COOKIE_VALUE = secret('ck');
const LATER_VALUE = secret('later');
const REFUSED_VALUE = secret('refused');
const SECRETS = [HEADER_VALUE, PASSWORD_VALUE, COOKIE_VALUE, LATER_VALUE, REFUSED_VALUE];
/** A header name no line of a phone holds: the page must wrap it. */
const LONG_NAME = `x-${'preview-bypass-token-'.repeat(4)}end`;

describe('the Access section of the project page', () => {
  let s: TestService;
  let organizationId: string;
  let key: string;
  let projectId: string;
  let ann: TestBrowser;
  /** Every page any test saw, checked at the end for any value. */
  const seen: Page[] = [];

  const look = async (browser: TestBrowser, path = `/projects/${projectId}`) => {
    const page = await browser.open(path);
    seen.push(page);
    return page;
  };
  const post = async (browser: TestBrowser, fields: Record<string, string>, from?: Page, origin?: string) => {
    const page = await browser.post(`/projects/${projectId}/access`, fields, {
      ...(from ? { from } : {}),
      ...(origin ? { origin } : {}),
    });
    seen.push(page);
    return page;
  };
  const stored = async () => {
    const row = await s.store.projectAccess.get(projectId);
    return row && siteAccessOf(s.kek, row, 'https://preview.example/').headers;
  };
  const person = async (role: string) => {
    const email = `${role}-${randomBytes(4).toString('hex')}@example.com`;
    const user = await createUser(s.store, { email, name: role, password: PASSWORD });
    // A role the service may add (a read-only "viewer") is stored like the others.
    await addMember(s.store, user.id, organizationId, role as Role);
    const browser = new TestBrowser(s.url);
    expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
    return browser;
  };

  beforeAll(async () => {
    ({ service: s, organizationId } = await startPeopleService());
    key = await s.createKey(organizationId);
    projectId = await s.createProject(key, 'preview.example');
    ann = new TestBrowser(s.url);
    expect((await ann.signIn(ANN, PASSWORD)).status).toBe(303);
  });
  afterAll(async () => {
    const pages = seen.map((p) => p.html).join('\n');
    for (const value of SECRETS) expect(pages, 'a value in a page').not.toContain(value);
    await s?.close();
  });

  it('sets a header, basic auth and a cookie through the form; the page names them, the service holds the values', async () => {
    const before = await look(ann);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(before.html).toContain('<h2 id="access">Access</h2>');
    expect(before.html).toContain('<a href="#access">as any visitor</a>');
    expect(before.html).toContain('never set');
    expect(before.html).toContain('<input type="password" name="headerValue"');
    expect(before.html).toContain('<input type="password" name="password"');
    expect(before.html).toContain('<input type="password" name="cookieValue"');
    expect(before.html).not.toContain('Clear access settings');

    const saved = await post(
      ann,
      {
        action: 'save',
        headerName: 'x-preview-token',
        headerValue: HEADER_VALUE,
        username: 'ann',
        password: PASSWORD_VALUE,
        cookieName: 'session',
        cookieValue: COOKIE_VALUE,
      },
      before,
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/projects/${projectId}?access=saved#access`);
    expect(await stored()).toEqual({
      'x-preview-token': HEADER_VALUE,
      authorization: `Basic ${Buffer.from(`ann:${PASSWORD_VALUE}`).toString('base64')}`,
      cookie: `session=${COOKIE_VALUE}`,
    });

    const after = await look(ann, saved.location as string);
    expect(after.html).toContain('<p class="notice" role="status">Access settings saved.');
    expect(after.html).toContain('<td data-label="Headers"><code>x-preview-token</code></td>');
    expect(after.html).toContain('<td data-label="Basic auth">set</td>');
    expect(after.html).toContain('<td data-label="Cookies"><code>session</code></td>');
    expect(after.html).toMatch(/<td data-label="Changed"><time datetime="[^"]+">/);
    expect(after.html).toContain('<a href="#access">1 header, basic auth, 1 cookie</a>');
    expect(after.html).toContain('Clear access settings');
    // The API says the same names.
    const api = await s.request<ProjectAccess>(`/api/v1/projects/${projectId}/access`, { key });
    expect(ProjectAccess.parse(api.body)).toMatchObject({
      headers: ['x-preview-token'],
      cookies: ['session'],
      basicAuth: true,
    });
    // A notice is only said after a change.
    expect((await look(ann)).html).not.toContain('role="status"');
  });

  it('replaces the whole settings on save, refuses bad input in the API’s words without the value, and clears', async () => {
    const page = await look(ann);
    const replaced = await post(ann, { action: 'save', headerName: LONG_NAME, headerValue: LATER_VALUE }, page);
    expect(replaced.status).toBe(303);
    expect(await stored()).toEqual({ [LONG_NAME]: LATER_VALUE });
    const after = await look(ann);
    expect(after.html).toContain(`<td data-label="Headers"><code>${LONG_NAME}</code></td>`);
    expect(after.html).toContain('<td data-label="Basic auth">not set</td>');

    const refusals: Array<[Record<string, string>, string]> = [
      [
        { headerName: 'User-Agent', headerValue: REFUSED_VALUE },
        "Not saved: headers: these headers are the audit's own or frame the request, and cannot be set:",
      ],
      [
        { headerName: 'x-token', headerValue: `${REFUSED_VALUE} ` },
        'Not saved: headers.x-token: a header value is visible ASCII, with no line break and no space at either end.',
      ],
      [{ headerName: 'x-token', headerValue: '' }, 'Not saved: headers.x-token: a header value may not be empty.'],
      [
        { cookieName: 'sid', cookieValue: `${REFUSED_VALUE};x=y` },
        'Not saved: cookies.sid: a cookie value is visible ASCII without spaces, quotes, commas, semicolons or backslashes.',
      ],
      [{ username: '', password: REFUSED_VALUE }, 'Not saved: basicAuth.username: the username may not be empty.'],
      [{}, 'Not saved: fill in a header, basic auth or a cookie, or clear the settings with the button.'],
    ];
    for (const [fields, message] of refusals) {
      const refused = await post(ann, { action: 'save', ...fields }, page);
      expect(refused.status, message).toBe(400);
      expect(refused.html).toContain(`<p class="notice" role="alert">${message.replaceAll("'", '&#39;')}`);
      // The name is given back to correct; no value is.
      if (fields.headerName) expect(refused.html).toContain(`name="headerName" maxlength="100"`);
      if (fields.headerName === 'x-token') expect(refused.html).toContain('value="x-token"');
    }
    // Nothing refused was stored.
    expect(await stored()).toEqual({ [LONG_NAME]: LATER_VALUE });

    const cleared = await post(ann, { action: 'clear' }, page);
    expect(cleared.status).toBe(303);
    expect(cleared.location).toBe(`/projects/${projectId}?access=cleared#access`);
    expect(await stored()).toBeUndefined();
    const empty = await look(ann, cleared.location as string);
    expect(empty.html).toContain('<p class="notice" role="status">Access settings cleared.');
    expect(empty.html).toContain('<td data-label="Headers"><span class="muted">none</span></td>');
  });

  it('refuses a form without the page’s CSRF token, from another site, from outside the workspace and from a role that may not change it', async () => {
    const page = await look(ann);
    await post(ann, { action: 'save', headerName: 'x-kept', headerValue: LATER_VALUE }, page);
    const kept = { 'x-kept': LATER_VALUE };
    const attempt = { action: 'save', headerName: 'x-evil', headerValue: REFUSED_VALUE };

    const noToken = await post(ann, attempt);
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain('This form has expired or came from another site.');
    expect((await post(ann, { ...attempt, csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await post(ann, attempt, page, 'https://evil.example')).status).toBe(403);
    expect((await post(ann, { action: 'clear' })).status).toBe(403);

    // Signed in to another workspace: the project is not there.
    const other = await s.createOrg({ name: 'Other' });
    const stranger = await signedInOwner(s, other.id);
    const strangerPage = await look(stranger);
    expect(strangerPage.status).toBe(404);
    const sameOrigin = await look(stranger, '/sign-in');
    expect((await post(stranger, attempt, sameOrigin)).status).toBe(404);
    expect((await post(stranger, { action: 'clear' }, sameOrigin)).status).toBe(404);

    // Signed out: to the sign-in page.
    const nobody = new TestBrowser(s.url);
    const signIn = await look(nobody, '/sign-in');
    const signedOut = await post(nobody, attempt, signIn);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toContain('/sign-in');

    // A role without projects:write (a read-only viewer) sees the names, no form, and is refused.
    const viewer = await person('viewer');
    const viewed = await look(viewer);
    expect(viewed.status).toBe(200);
    expect(viewed.html).toContain('<code>x-kept</code>');
    expect(viewed.html).not.toContain('name="headerValue"');
    expect(viewed.html).toContain('Members of this workspace can change the access settings.');
    const refused = await post(viewer, attempt, await look(viewer, '/sign-in'));
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Your role cannot change the access settings.');
    expect((await post(viewer, { action: 'clear' }, await look(viewer, '/sign-in'))).status).toBe(403);

    expect(await stored()).toEqual(kept);

    // A member (not an owner) may change them, as through the API with a projects:write key.
    const member = await person('member');
    const memberPage = await look(member);
    expect(memberPage.html).toContain('name="headerValue"');
    expect((await post(member, { action: 'clear' }, memberPage)).status).toBe(303);
    expect(await stored()).toBeUndefined();
  });

  it.skipIf(!hasChromium)(
    'fits at 1280 and 390 px wide with no sideways scroll, in Chromium, and saves as a person does',
    async () => {
      const browser = await launchChromium();
      try {
        const context = await browser.newContext();
        await context.addCookies([...ann.cookies].map(([name, value]) => ({ name, value, url: s.url })));
        const tab = await context.newPage();
        const violations: string[] = [];
        tab.on('console', (message) => {
          if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
        });
        await tab.setViewportSize({ width: 390, height: 900 });
        await tab.goto(`${s.url}/projects/${projectId}`);
        await tab.getByLabel('Header name').fill(LONG_NAME);
        await tab.getByLabel('Header value').fill(HEADER_VALUE);
        await tab.getByLabel('Username').fill('ann');
        await tab.getByLabel('Password').fill(PASSWORD_VALUE);
        await tab.getByRole('button', { name: 'Save access settings' }).click();
        await tab.waitForURL(/access=saved/);
        await expect(tab.getByRole('status').innerText()).resolves.toContain('Access settings saved.');
        expect(await stored()).toEqual({
          [LONG_NAME]: HEADER_VALUE,
          authorization: `Basic ${Buffer.from(`ann:${PASSWORD_VALUE}`).toString('base64')}`,
        });
        seen.push({ status: 200, url: tab.url(), location: null, headers: new Headers(), html: await tab.content() });
        // With a refusal shown too.
        await tab.getByLabel('Cookie name').fill('sid');
        await tab.getByLabel('Cookie value').fill(`${REFUSED_VALUE} x`);
        await tab.getByRole('button', { name: 'Save access settings' }).click();
        await expect(tab.getByRole('alert').innerText()).resolves.toContain('cookies.sid: a cookie value is');
        expect(await tab.getByLabel('Cookie value').inputValue()).toBe('');
        seen.push({ status: 400, url: tab.url(), location: null, headers: new Headers(), html: await tab.content() });
        const fits = async (what: string) => {
          for (const width of [1280, 390]) {
            await tab.setViewportSize({ width, height: 900 });
            const [scrollWidth, innerWidth] = (await tab.evaluate(
              '[document.documentElement.scrollWidth, window.innerWidth]',
            )) as [number, number];
            expect(scrollWidth, `${what} at ${width} px`).toBeLessThanOrEqual(innerWidth);
          }
        };
        await fits('the page with a refusal');
        await tab.goto(`${s.url}/projects/${projectId}?access=saved`);
        await fits('the page with the names set');
        expect(violations).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
