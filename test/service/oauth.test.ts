// The service as OAuth authorization server (issue 12) on both backends, as a remote MCP client uses
// it: RFC 8414 metadata, dynamic registration (RFC 7591), authorization code with PKCE through the
// dashboard's consent screen, a token bound to one MCP resource (RFC 8707) that the API takes with
// the granted scopes, refresh with rotation, revocation, and a removed member's token refused.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { REGISTRATIONS_PER_MINUTE } from '../../src/service/oauth/provider.ts';
import { testBackends } from '../support/backends.ts';
import { type Page, TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';
const MCP = 'https://mcp.acme.example/mcp';
const REDIRECT = 'http://127.0.0.1:47001/callback';

describe.each(testBackends())('OAuth on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let organizationId: string;
  let userId: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { worker: false, deliverer: false, monitor: false, mcpUrls: [MCP] });
    organizationId = (await s.createOrg({ name: 'Acme' })).id;
    const ann = await createUser(s.store, { email: 'ann@example.com', name: 'Ann', password: PASSWORD });
    userId = ann.id;
    await addMember(s.store, ann.id, organizationId, 'owner');
    browser = new TestBrowser(s.url);
    await browser.signIn('ann@example.com', PASSWORD);
  });
  afterAll(async () => {
    await s?.close();
  });

  const form = (fields: Record<string, string>) =>
    ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    }) as const;

  async function metadata() {
    const response = await fetch(`${s.url}/.well-known/oauth-authorization-server/oauth`);
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, string>;
  }

  const registration = (meta: Record<string, string>, fields: Record<string, unknown> = {}) =>
    fetch(meta.registration_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Test MCP client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...fields,
      }),
    });

  async function register(meta: Record<string, string>) {
    const response = await registration(meta);
    const body = (await response.json()) as { client_id: string };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.client_id;
  }

  /** Pages seen that post themselves: oidc-provider's end-session confirmation, between two authorizations. */
  let selfPostingForms = 0;
  /** A page oidc-provider sends that posts itself (a form and a script): submitted, as a browser would. */
  async function submitSelfPostingForm(page: Page): Promise<Page> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.html)?.[1];
    if (!action) return page;
    selfPostingForms++;
    const fields: Record<string, string> = {};
    for (const [, name, value] of page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[name as string] = value as string;
    return browser.post(new URL(action.replaceAll('&amp;', '&'), s.url).pathname, fields, { origin: s.url });
  }

  /** Trades an authorization code (with its PKCE verifier) at the token endpoint, for the MCP resource. */
  const redeem = (meta: Record<string, string>, clientId: string, code: string, verifier: string) =>
    fetch(
      meta.token_endpoint as string,
      form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
        resource: MCP,
      }),
    );

  /** The person's part: the authorization request, the consent screen, the redirect back with a code. */
  async function authorize(
    meta: Record<string, string>,
    clientId: string,
    decision: 'allow' | 'deny',
    resource = MCP,
    { workspace = 'Acme', scope = 'projects:read runs:read offline_access' } = {},
  ) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(meta.authorization_endpoint as string);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      resource,
    }))
      url.searchParams.set(name, value);
    let page = await browser.get(url.href);
    for (let i = 0; i < 5 && page.location && !page.location.startsWith(REDIRECT); i++) {
      if (page.location.includes('/oauth/consent/')) break;
      page = await browser.get(new URL(page.location, s.url).href);
    }
    if (page.location?.startsWith(REDIRECT)) return { back: new URL(page.location), verifier };
    const consent = await browser.get(new URL(page.location as string, s.url).pathname);
    expect(consent.status, consent.html).toBe(200);
    expect(consent.html).toContain(`Allow Test MCP client to use ${workspace}?`);
    expect(consent.html).toContain(resource);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:47001");
    let answer = await browser.post(new URL(consent.url).pathname, { decision }, { from: consent });
    for (let i = 0; i < 8 && !answer.location?.startsWith(REDIRECT); i++)
      answer = answer.location
        ? await browser.get(new URL(answer.location, s.url).href)
        : await submitSelfPostingForm(answer);
    if (!answer.location)
      throw new Error(
        `no redirect: ${answer.status} ${answer.url} ${answer.html.replace(/<style>[\s\S]*?<\/style>/, '').slice(0, 1500)}`,
      );
    return { back: new URL(answer.location), verifier };
  }

  test('issues a token for the MCP resource that the API takes with the granted scopes; refresh rotates it', async () => {
    const meta = await metadata();
    expect(meta.issuer).toBe(`${s.url}/oauth`);
    expect(meta.code_challenge_methods_supported as unknown).toEqual(['S256']);
    expect(meta.revocation_endpoint).toBeDefined();
    const clientId = await register(meta);
    const { back, verifier } = await authorize(meta, clientId, 'allow');
    expect(back.searchParams.get('state')).toBe('st');
    const code = back.searchParams.get('code') as string;
    const token = await redeem(meta, clientId, code, verifier);
    const tokens = (await token.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(token.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens.scope).toBe('projects:read runs:read');
    const me = await s.request<{ organizationId: string; scopes: string[] }>('/api/v1/me', {
      key: tokens.access_token,
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ organizationId, scopes: ['projects:read', 'runs:read'] });
    // Only the granted scopes: creating a project needs projects:write.
    const create = await s.request('/api/v1/projects', {
      key: tokens.access_token,
      method: 'POST',
      json: { domain: 'x.example' },
    });
    expect(create.status).toBe(403);
    // Refresh: a new pair; the old refresh token is spent.
    const refresh = (refreshToken: string) =>
      fetch(
        meta.token_endpoint as string,
        form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, resource: MCP }),
      );
    const refreshed = await refresh(tokens.refresh_token);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(refreshed.status, JSON.stringify(next)).toBe(200);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await s.request('/api/v1/me', { key: next.access_token })).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(400);

    // Revoked: the next request with it is refused.
    const revoked = await fetch(
      meta.revocation_endpoint as string,
      form({ token: next.access_token, client_id: clientId }),
    );
    expect(revoked.status).toBe(200);
    expect((await s.request('/api/v1/me', { key: next.access_token })).status).toBe(401);

    // The code works once; a replay ends the whole grant (RFC 6749 4.1.2), its refresh token too.
    const again = await redeem(meta, clientId, code, verifier);
    expect(again.status).toBe(400);
    expect((await refresh(next.refresh_token)).status).toBe(400);
  });

  test('refuses tokens for another resource, denied requests, and a member who left', async () => {
    const meta = await metadata();
    const clientId = await register(meta);
    const denied = await authorize(meta, clientId, 'deny');
    expect(denied.back.searchParams.get('error')).toBe('access_denied');
    const foreign = await authorize(meta, clientId, 'allow', 'https://evil.example/mcp');
    expect(foreign.back.searchParams.get('error')).toBe('invalid_target');

    const { back, verifier } = await authorize(meta, clientId, 'allow');
    const token = await redeem(meta, clientId, back.searchParams.get('code') as string, verifier);
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await s.request('/api/v1/me', { key: access_token })).status).toBe(200);
    await s.store.db
      .deleteFrom('memberships')
      .where('user_id', '=', userId)
      .where('organization_id', '=', organizationId)
      .execute();
    expect((await s.request('/api/v1/me', { key: access_token })).status).toBe(401);
    await addMember(s.store, userId, organizationId, 'owner');
    expect((await s.request('/api/v1/me', { key: 'not-a-token-at-all' })).status).toBe(401);
  });

  // Found by the attack battery: an access token a client put in a path was written whole to the
  // audit log, where keys are cut to their prefix.
  test('issues codes and tokens shaped oauth_…, which the audit log cuts short like keys', async () => {
    const meta = await metadata();
    const registered = (await (await registration(meta)).json()) as { registration_access_token: string };
    const clientId = await register(meta);
    const { back, verifier } = await authorize(meta, clientId, 'allow');
    const code = back.searchParams.get('code') as string;
    const tokens = (await (await redeem(meta, clientId, code, verifier)).json()) as Record<string, string>;
    const secrets = [code, tokens.access_token, tokens.refresh_token, registered.registration_access_token];
    for (const secret of secrets) expect(secret).toMatch(/^oauth_[A-Za-z0-9_-]{40,}$/);
    const access = tokens.access_token as string;
    // Pasted into a path: with the token as the bearer (answered) and with none (refused: counted
    // into the minute's row of refusals from this address).
    expect((await s.request(`/api/v1/projects/${access}`, { key: access })).status).toBe(404);
    expect((await s.request(`/api/v1/runs/${access}`)).status).toBe(401);
    await s.service.flushAuditLog();
    const paths = (await s.store.auditLog.recent(1000)).map((row) => row.path);
    expect(paths).toContain(`/api/v1/projects/${access.slice(0, 14)}…`);
    expect(JSON.stringify(paths)).not.toContain(access.slice(14));
  });

  // Found by the attack battery: a plain-http redirect off loopback was registered, so a code could
  // cross a network in clear (RFC 8252 7.3: http only back to this machine).
  test('registers https redirects, and http ones only on a loopback address', async () => {
    const meta = await metadata();
    for (const uris of [
      ['http://evil.example/cb'],
      ['http://127.0.0.1.evil.example/cb'],
      ['http://localhost.evil.example/cb'],
      ['http://10.0.0.1/cb'],
      [REDIRECT, 'http://evil.example/cb'],
    ]) {
      const refused = await registration(meta, { redirect_uris: uris });
      const body = (await refused.json()) as { error: string; error_description: string };
      expect([refused.status, body.error], uris.join(' ')).toEqual([400, 'invalid_redirect_uri']);
      expect(body.error_description).toMatch(/https.*loopback/);
    }
    const accepted = await registration(meta, {
      redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:9/cb', 'http://localhost:9/cb', 'http://[::1]:9/cb'],
    });
    expect(accepted.status, await accepted.clone().text()).toBe(201);
  });

  // Found by a fresh-eyes run: the metadata offered the implicit grant and hybrid response types,
  // and a registration asking for them was accepted, where the docs say authorization code only.
  test('offers and registers the authorization code flow only', async () => {
    const meta = await metadata();
    const offered = meta as unknown as Record<string, unknown>;
    expect(offered.response_types_supported).toEqual(['code']);
    expect(offered.grant_types_supported).not.toContain('implicit');
    for (const extra of [
      { response_types: ['code id_token'], grant_types: ['authorization_code', 'implicit'] },
      { response_types: ['id_token'], grant_types: ['implicit'] },
    ]) {
      const refused = await registration(meta, { redirect_uris: ['https://app.example/cb'], ...extra });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
    }
  });

  // Found by the attack battery: authorizing a second host for another workspace in the same browser
  // ran oidc-provider's end-session flow, and the first workspace's token answered 401; authorizing
  // the same host again revoked its earlier grant.
  test('keeps every grant of one browser: per client and workspace, none ended by the next', async () => {
    const globex = await s.createOrg({ name: 'Globex' });
    await addMember(s.store, userId, globex.id, 'owner');
    const meta = await metadata();
    const [x, y] = [await register(meta), await register(meta)];
    const switchTo = async (id: string) =>
      expect((await browser.post('/workspace', { organizationId: id }, { from: await browser.get('/') })).status).toBe(
        303,
      );
    // As MCP SDK clients ask: the resource's scopes, no offline_access.
    const scope = 'projects:read runs:read';
    async function connect(clientId: string, workspace: string) {
      const { back, verifier } = await authorize(meta, clientId, 'allow', MCP, { workspace, scope });
      const answer = await redeem(meta, clientId, back.searchParams.get('code') as string, verifier);
      const tokens = (await answer.json()) as { access_token: string; refresh_token: string };
      expect(answer.status, JSON.stringify(tokens)).toBe(200);
      return tokens;
    }
    const workspaceOf = async (token: string) => {
      const me = await s.request<{ organizationId: string }>('/api/v1/me', { key: token });
      return me.status === 200 ? me.body.organizationId : me.status;
    };

    selfPostingForms = 0;
    const xAcme = await connect(x, 'Acme');
    await switchTo(globex.id);
    const yGlobex = await connect(y, 'Globex');
    const xGlobex = await connect(x, 'Globex');
    await switchTo(organizationId);
    const xAcmeAgain = await connect(x, 'Acme');
    // Straight from consent back to the host each time: no sign-out of the browser's last account.
    expect(selfPostingForms).toBe(0);
    // A token lives by its grant, not by the provider's browser session (which expires in minutes).
    await s.store.db.deleteFrom('oauth_records').where('model', '=', 'Session').execute();
    expect(await workspaceOf(xAcme.access_token)).toBe(organizationId);
    expect(await workspaceOf(yGlobex.access_token)).toBe(globex.id);
    expect(await workspaceOf(xGlobex.access_token)).toBe(globex.id);
    expect(await workspaceOf(xAcmeAgain.access_token)).toBe(organizationId);
    // Each grant's refresh token still works, and stays in its workspace.
    for (const [tokens, workspace] of [
      [xAcme, organizationId],
      [xGlobex, globex.id],
    ] as const) {
      const refreshed = await fetch(
        meta.token_endpoint as string,
        form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: x, resource: MCP }),
      );
      const next = (await refreshed.json()) as { access_token: string };
      expect(refreshed.status, JSON.stringify(next)).toBe(200);
      expect(await workspaceOf(next.access_token)).toBe(workspace);
    }
  });

  // Found by the attack battery: 500 unauthenticated registrations added 500 records, kept for ever.
  // Last in this suite: it spends this address's registrations for the minute.
  test('bounds registrations per address, and expires those no authorization completed', async () => {
    // The budget is per minute: start well inside one, so it cannot renew halfway.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const meta = await metadata();
    const authorized = await register(meta);
    await authorize(meta, authorized, 'allow');
    const clients = () => s.store.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute();
    const before = (await clients()).length;
    const answers = [];
    for (let i = 0; i < 2 * REGISTRATIONS_PER_MINUTE; i++) answers.push(await registration(meta));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted.length + refused.length).toBe(answers.length);
    expect(accepted.length).toBeLessThanOrEqual(REGISTRATIONS_PER_MINUTE);
    expect(refused.length).toBeGreaterThanOrEqual(REGISTRATIONS_PER_MINUTE);
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused[0]?.json()).toMatchObject({ error: 'rate_limited' });
    expect((await clients()).length - before).toBe(accepted.length);

    // A registration lives an hour unless an authorization completes with it; then for good.
    const { client_id: pending } = (await (accepted[0] as Response).json()) as { client_id: string };
    const recordsOf = (clientId: string) =>
      s.store.db
        .selectFrom('oauth_records')
        .select(['model', 'expires_at'])
        .where('client_id', '=', clientId)
        .where('model', 'in', ['Client', 'RegistrationAccessToken'])
        .orderBy('model')
        .execute();
    const waiting = await recordsOf(pending);
    expect(waiting.map((r) => r.model)).toEqual(['Client', 'RegistrationAccessToken']);
    for (const { expires_at } of waiting)
      expect(Math.abs(Date.parse(expires_at as string) - Date.now() - 3600_000)).toBeLessThan(60_000);
    const kept = await recordsOf(authorized);
    expect(kept.map((r) => [r.model, r.expires_at])).toEqual([
      ['Client', null],
      ['RegistrationAccessToken', null],
    ]);
    // Pruned once expired (the service prunes every minute): the registration and its token go.
    await s.store.oauthRecords.prune(new Date(Date.now() + 3601_000));
    expect(await recordsOf(pending)).toEqual([]);
    expect(await recordsOf(authorized)).toHaveLength(2);
  });
});
