// Client ID Metadata Documents (issue 12; the MCP authorization spec's preferred registration): a
// client whose client_id is an https URL is known by the JSON document there. The authorization
// server fetches it through the audits' guard: on a service that audits this machine the tests'
// HTTPS host on loopback is read; on a hosted service a name resolving to a private address and a
// literal private host are refused before any request is made.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { type HookReceiver, startHookReceiver } from '../support/hook-receiver.ts';
import { PASSWORD, startPeopleService } from '../support/people.ts';
import { createTestCa, type TestCa } from '../support/secure-sites.ts';
import type { TestService } from '../support/service.ts';

const REDIRECT = 'http://127.0.0.1:47005/callback';

describe('clients known by their metadata document', () => {
  let ca: TestCa;
  let dns: DnsServer;
  let apps: HookReceiver;
  let local: TestService;
  let hosted: TestService;
  let browser: TestBrowser;

  /** The document each path serves: `/client.json` is well formed; the others each break one rule. */
  function document(path: string): { status: number; body: unknown; headers?: Record<string, string> } {
    const id = `https://apps.test:${apps.port}${path}`;
    const good = {
      client_id: id,
      client_name: 'Docs Agent',
      client_uri: `https://apps.test:${apps.port}/`,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    if (path === '/client.json') return { status: 200, body: good };
    if (path === '/other-id.json')
      return { status: 200, body: { ...good, client_id: 'https://elsewhere.test/x.json' } };
    if (path === '/secret.json')
      return { status: 200, body: { ...good, token_endpoint_auth_method: 'client_secret_post' } };
    if (path === '/moved.json') return { status: 302, body: '', headers: { location: '/client.json' } };
    if (path === '/huge.json') return { status: 200, body: { ...good, padding: 'x'.repeat(8 * 1024) } };
    return { status: 404, body: {} };
  }

  /** A good document served a few bytes at a time, each pause under 2.5 s, the whole over 6 s. */
  function dripSlowly(res: ServerResponse, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    const step = Math.ceil(text.length / 20);
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(text.slice(sent, sent + step));
      sent += step;
      if (sent >= text.length) {
        clearInterval(timer);
        res.end();
      }
    }, 320);
  }

  beforeAll(async () => {
    ca = createTestCa();
    dns = await startDnsServer({ 'apps.test': { A: ['127.0.0.1'] } });
    apps = await startHookReceiver(ca, ['apps.test'], (path, res) => {
      if (path === '/slow.json') return dripSlowly(res, document('/client.json').body);
      const answer = document(path);
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
    const oauthFetch = { resolver: createResolver([dns.address]), ca: ca.caPem };
    ({ service: local } = await startPeopleService({ allowLocalTargets: true, oauthFetch }));
    ({ service: hosted } = await startPeopleService({ mcpUrls: ['https://mcp.acme.example/mcp'], oauthFetch }));
    browser = new TestBrowser(local.url);
    await browser.signIn('ann@example.com', PASSWORD);
  });
  afterAll(async () => {
    await local?.close();
    await hosted?.close();
    await apps?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const mcpOf = (service: TestService) =>
    service === local ? 'http://127.0.0.1:47006/mcp' : 'https://mcp.acme.example/mcp';

  /** The authorization request a client sends; answers the first page the browser lands on. */
  async function authorizationRequest(service: TestService, clientId: string) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${service.url}/oauth/auth`);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'projects:read offline_access',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      resource: mcpOf(service),
    }))
      url.searchParams.set(name, value);
    const visitor = service === local ? browser : new TestBrowser(service.url);
    let page = await visitor.get(url.href);
    for (let i = 0; i < 5 && page.location && !page.location.includes('/oauth/consent/'); i++)
      page = await visitor.get(new URL(page.location, service.url).href);
    return { page, verifier };
  }

  const fetchesOf = (path: string) => apps.received.filter((r) => r.path === path).length;

  it('says so in the authorization server metadata', async () => {
    const meta = (await (await fetch(`${local.url}/.well-known/oauth-authorization-server/oauth`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it('reads the document, names the client and its URL on the consent screen, and issues a token', async () => {
    const clientId = `https://apps.test:${apps.port}/client.json`;
    const { page, verifier } = await authorizationRequest(local, clientId);
    expect(page.location, page.html.slice(0, 500)).toContain('/oauth/consent/');
    const consent = await browser.get(new URL(page.location as string, local.url).pathname);
    expect(consent.html).toContain('Allow Docs Agent to use Acme?');
    expect(consent.html).toContain(`described by <code>${clientId}</code>`);
    expect(apps.received.find((r) => r.path === '/client.json')?.headers.accept).toBe('application/json');

    let answer = await browser.post(new URL(consent.url).pathname, { decision: 'allow' }, { from: consent });
    for (let i = 0; i < 5 && answer.location && !answer.location.startsWith(REDIRECT); i++)
      answer = await browser.get(new URL(answer.location, local.url).href);
    const code = new URL(answer.location as string).searchParams.get('code') as string;
    const token = await fetch(`${local.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
        resource: mcpOf(local),
      }),
    });
    const tokens = (await token.json()) as { access_token: string; refresh_token: string };
    expect(token.status, JSON.stringify(tokens)).toBe(200);
    const me = await local.request<{ keyName: string }>('/api/v1/me', { key: tokens.access_token });
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain('Docs Agent');
    // The document was read once: later requests use the copy kept for its cache lifetime.
    expect(fetchesOf('/client.json')).toBe(1);
  });

  it.each([
    ['a document naming another client_id', '/other-id.json'],
    ['a document asking for a shared secret', '/secret.json'],
    ['a redirect instead of the document', '/moved.json'],
    ['a document past 5 KiB', '/huge.json'],
    ['no document', '/absent.json'],
  ])('refuses %s, before any consent', async (_name, path) => {
    const { page } = await authorizationRequest(local, `https://apps.test:${apps.port}${path}`);
    expect(page.location ?? '').not.toContain('/oauth/consent/');
    expect(page.location ?? '').not.toContain('code=');
    expect(page.status).toBe(400);
    expect(page.html).toMatch(/Error: invalid_client/);
    expect(fetchesOf(path)).toBeGreaterThanOrEqual(1);
  });

  // Found by the attack battery: headers and body each had 2.5 s, so a document took up to 5 s.
  it('refuses a document not read whole within 2.5 s, headers and body together', async () => {
    const started = performance.now();
    const { page } = await authorizationRequest(local, `https://apps.test:${apps.port}/slow.json`);
    const elapsed = performance.now() - started;
    expect(page.status).toBe(400);
    expect(page.html).toMatch(/Error: invalid_client/);
    expect(fetchesOf('/slow.json')).toBe(1);
    // A correctness bound, not a benchmark: the deadline is 2.5 s, the drip lasts over 6 s.
    expect(elapsed).toBeGreaterThanOrEqual(2_400);
    expect(elapsed).toBeLessThan(4_000);
  });

  it('on a hosted service, fetches nothing from a private address', async () => {
    const before = apps.received.length;
    for (const clientId of [
      `https://apps.test:${apps.port}/client.json`,
      `https://127.0.0.1:${apps.port}/client.json`,
    ]) {
      const { page } = await authorizationRequest(hosted, clientId);
      expect(page.status, clientId).toBe(400);
      expect(page.html).toMatch(/Error: invalid_client/);
    }
    expect(apps.received.length).toBe(before);
  });
});
