// A remote MCP client that connects to `mcp --http` only through OAuth (issue 12), with the SDK
// clients' own OAuth support (the 2.x and 1.x lines): the 401 names the protected resource metadata (RFC 9728), which names
// the service as authorization server; the client registers itself (RFC 7591), sends the person to
// the consent screen with PKCE and the resource (RFC 8707), and calls tools with the token.
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as UnauthorizedErrorV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { SCOPES } from '../../src/contract/index.ts';
import { type McpHttpServer, RESOURCE_METADATA_PATH } from '../../src/mcp/http.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { type HookReceiver, startHookReceiver } from '../support/hook-receiver.ts';
import { startLoopbackMcp } from '../support/mcp.ts';
import { PASSWORD, startPeopleService } from '../support/people.ts';
import { createTestCa, type TestCa } from '../support/secure-sites.ts';
import type { TestService } from '../support/service.ts';

const REDIRECT = 'http://127.0.0.1:47003/callback';

/** The host's side of OAuth, kept in memory; the authorization URL is handed to the test (the person). */
function memoryProvider(clientMetadataUrl?: string) {
  const state: {
    client?: Awaited<ReturnType<NonNullable<OAuthClientProvider['clientInformation']>>>;
    tokens?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
    verifier?: string;
    authorizationUrl?: URL;
  } = {};
  const provider: OAuthClientProvider = {
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'SDK test host',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => state.client,
    saveClientInformation: (info) => {
      state.client = info;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      state.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier as string,
  };
  return { provider, state };
}

/** Acme's whoami through a client connected on OAuth, then the connection closed. */
async function expectAcme(client: { callTool: Client['callTool']; close(): Promise<void> }): Promise<void> {
  try {
    const me = await client.callTool({ name: 'whoami', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ organizationName: 'Acme' });
    const projects = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(projects.isError).toBeFalsy();
  } finally {
    await client.close();
  }
}

describe('an MCP client on OAuth alone', () => {
  let s: TestService;
  let mcp: McpHttpServer;
  let browser: TestBrowser;

  let ca: TestCa;
  let dns: DnsServer;
  let apps: HookReceiver;

  beforeAll(async () => {
    // A host that is known by its Client ID Metadata Document serves it over HTTPS as apps.test.
    ca = createTestCa();
    dns = await startDnsServer({ 'apps.test': { A: ['127.0.0.1'] } });
    apps = await startHookReceiver(ca, ['apps.test'], (path, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: `https://apps.test:${apps.port}${path}`,
          client_name: 'SDK test host',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      ),
    );
    // A service that audits this machine accepts an MCP server on a loopback port as a resource.
    ({ service: s } = await startPeopleService({
      allowLocalTargets: true,
      oauthFetch: { resolver: createResolver([dns.address]), ca: ca.caPem },
    }));
    mcp = await startLoopbackMcp(s.url);
    browser = new TestBrowser(s.url);
    await browser.signIn('ann@example.com', PASSWORD);
  });
  afterAll(async () => {
    await mcp.close();
    await s.close();
    await apps.close();
    await dns.close();
    ca.cleanup();
  });

  /** The person: the consent screen, Allow, and the browser goes back to the host with a code. */
  async function allow(authorizationUrl: URL): Promise<URL> {
    let page = await browser.get(authorizationUrl.href);
    for (let i = 0; i < 5 && page.location && !page.location.includes('/oauth/consent/'); i++)
      page = await browser.get(new URL(page.location, s.url).href);
    const consent = await browser.get(new URL(page.location as string, s.url).pathname);
    expect(consent.html).toContain('Allow SDK test host to use Acme?');
    let answer = await browser.post(new URL(consent.url).pathname, { decision: 'allow' }, { from: consent });
    for (let i = 0; i < 5 && answer.location && !answer.location.startsWith(REDIRECT); i++)
      answer = await browser.get(new URL(answer.location, s.url).href);
    return new URL(answer.location as string);
  }

  it('answers 401 with the protected resource metadata, which names the service', async () => {
    const refused = await fetch(mcp.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const origin = new URL(mcp.url).origin;
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}${RESOURCE_METADATA_PATH}"`);
    const metadata = await (await fetch(`${origin}${RESOURCE_METADATA_PATH}`)).json();
    expect(metadata).toEqual({
      resource: mcp.url,
      authorization_servers: [`${s.url}/oauth`],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'siteaudit',
      resource_documentation: `${s.url}/openapi.json`,
    });
  });

  it('connects through the SDK client’s OAuth flow with no key, and calls tools', async () => {
    const { provider, state } = memoryProvider();
    const first = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider })),
    ).rejects.toSatisfy((error: Error) => {
      if (!(error instanceof UnauthorizedError))
        throw new Error(`${error.name}: ${error.message} ${JSON.stringify(error)}`);
      return true;
    });
    // The client registered itself and sent the person to authorize, for this MCP server.
    expect(state.client?.client_id).toBeDefined();
    const authorizationUrl = state.authorizationUrl as URL;
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcp.url);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = await allow(authorizationUrl);

    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider });
    await transport.finishAuth(callback.searchParams);
    expect(state.tokens?.access_token).toBeDefined();
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(transport);
    await expectAcme(client);
  });

  it('connects through the 1.x SDK client’s OAuth flow too', async () => {
    const { provider, state } = memoryProvider();
    const first = new ClientV1({ name: 'oauth-test-v1', version: '1.0.0' });
    await expect(
      first.connect(new TransportV1(new URL(mcp.url), { authProvider: provider as never })),
    ).rejects.toBeInstanceOf(UnauthorizedErrorV1);
    const callback = await allow(state.authorizationUrl as URL);
    const transport = new TransportV1(new URL(mcp.url), { authProvider: provider as never });
    await transport.finishAuth(callback.searchParams.get('code') as string);
    const client = new ClientV1({ name: 'oauth-test-v1', version: '1.0.0' });
    await client.connect(transport);
    await expectAcme(client as never);
  });

  it.each([
    ['2.x', 2],
    ['1.x', 1],
  ] as const)(
    'connects with the %s SDK client known by its metadata document, with no registration',
    async (_line, major) => {
      const clientMetadataUrl = `https://apps.test:${apps.port}/sdk-${major}.json`;
      const { provider, state } = memoryProvider(clientMetadataUrl);
      const registered = async () =>
        (await s.store.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute()).length;
      const before = await registered();
      const transport = () =>
        major === 2
          ? new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider })
          : new TransportV1(new URL(mcp.url), { authProvider: provider as never });
      const first =
        major === 2 ? new Client({ name: 'cimd', version: '1.0.0' }) : new ClientV1({ name: 'cimd', version: '1.0.0' });
      await expect(first.connect(transport() as never)).rejects.toThrow(/unauthorized/i);
      // The client's id is its document's address: it registered nothing.
      expect(state.client?.client_id).toBe(clientMetadataUrl);
      expect(await registered()).toBe(before);
      const authorizationUrl = state.authorizationUrl as URL;
      expect(authorizationUrl.searchParams.get('client_id')).toBe(clientMetadataUrl);
      expect(apps.received.some((r) => r.path === `/sdk-${major}.json`)).toBe(false);

      const callback = await allow(authorizationUrl);
      expect(apps.received.filter((r) => r.path === `/sdk-${major}.json`)).toHaveLength(1);
      const second = transport();
      if (second instanceof StreamableHTTPClientTransport) await second.finishAuth(callback.searchParams);
      else await second.finishAuth(callback.searchParams.get('code') as string);
      const client =
        major === 2 ? new Client({ name: 'cimd', version: '1.0.0' }) : new ClientV1({ name: 'cimd', version: '1.0.0' });
      await client.connect(second as never);
      await expectAcme(client as never);
    },
  );
});
