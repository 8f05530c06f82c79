// The service as OAuth authorization server (issue 12) on both backends, as a remote MCP client uses
// it: RFC 8414 metadata, dynamic registration (RFC 7591), authorization code with PKCE through the
// dashboard's consent screen, a token bound to one MCP resource (RFC 8707) that the API takes with
// the granted scopes, refresh with rotation, revocation, and a removed member's token refused.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { testBackends } from '../support/backends.ts';
import { TestBrowser } from '../support/form-browser.ts';
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

  async function register(meta: Record<string, string>) {
    const response = await fetch(meta.registration_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Test MCP client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    });
    const body = (await response.json()) as { client_id: string };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.client_id;
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
  async function authorize(meta: Record<string, string>, clientId: string, decision: 'allow' | 'deny', resource = MCP) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(meta.authorization_endpoint as string);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'projects:read runs:read offline_access',
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
    expect(consent.html).toContain('Allow Test MCP client to use Acme?');
    expect(consent.html).toContain(resource);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:47001");
    let answer = await browser.post(new URL(consent.url).pathname, { decision }, { from: consent });
    for (let i = 0; i < 5 && answer.location && !answer.location.startsWith(REDIRECT); i++)
      answer = await browser.get(new URL(answer.location, s.url).href);
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
});
