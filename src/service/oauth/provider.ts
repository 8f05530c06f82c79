// The service as an OAuth 2.1 authorization server for remote MCP clients (issue 12; docs/decisions.md,
// "OAuth"), on oidc-provider: authorization code with PKCE (S256 only), clients registered
// dynamically (RFC 7591) or known by their Client ID Metadata Document, resource indicators
// (RFC 8707) binding every access token to one MCP resource, refresh tokens rotated on use,
// revocation (RFC 7009). Tokens are opaque, stored through the store so every process answers for
// them. Consent is the dashboard's (routes/oauth-consent.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES, trimTrailingSlashes } from '../../contract/index.ts';
import { messagePage } from '../dashboard/account-pages.ts';
import { type Allowance, isAllowed } from '../local-targets.ts';
import type { Store } from '../store/index.ts';
import { oauthAdapterFactory } from './adapter.ts';
import type { MetadataFetch } from './metadata-fetch.ts';

export const OAUTH_PATH = '/oauth';
export const CONSENT_PATH = '/oauth/consent';
/** Access tokens live an hour; refresh tokens a month, each used once (rotation). */
export const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 30 * 86_400;

/** Which resources (MCP server URLs) tokens may be issued for. */
export type ResourcePolicy = (resource: string) => boolean;

/**
 * The resources of a deployment: the MCP server URLs the operator names (`serve --mcp-url`), and,
 * while the service audits this machine (asked at each request), an MCP server on a loopback port of it.
 */
export function resourcePolicy(mcpUrls: readonly string[], allowLoopback: Allowance): ResourcePolicy {
  const named = new Set(mcpUrls.map(trimTrailingSlashes));
  return (resource) => {
    if (named.has(trimTrailingSlashes(resource))) return true;
    if (!isAllowed(allowLoopback)) return false;
    try {
      const url = new URL(resource);
      return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && !url.search;
    } catch {
      return false;
    }
  };
}

/** The account of a grant: one person in one workspace (`<userId>.<organizationId>`). */
export const accountIdOf = (userId: string, organizationId: string) => `${userId}.${organizationId}`;
export function parseAccountId(accountId: string): { userId: string; organizationId: string } | undefined {
  const [userId, organizationId, extra] = accountId.split('.');
  return userId && organizationId && extra === undefined ? { userId, organizationId } : undefined;
}

async function signingKey(store: Store): Promise<Record<string, unknown>> {
  const stored = await store.settings.getOrCreate('oauth_signing_jwk', () =>
    JSON.stringify({
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
      kid: randomBytes(8).toString('hex'),
      use: 'sig',
      alg: 'ES256',
    }),
  );
  return JSON.parse(stored) as Record<string, unknown>;
}

export async function createOAuthProvider(options: {
  store: Store;
  publicUrl: string;
  resources: ResourcePolicy;
  /** How documents a client names are fetched (its Client ID Metadata Document). */
  fetch: MetadataFetch;
}): Promise<Provider> {
  const { store } = options;
  const cookieKey = await store.settings.getOrCreate('oauth_cookie_key', () => randomBytes(32).toString('base64url'));
  const provider = new Provider(`${options.publicUrl}${OAUTH_PATH}`, {
    adapter: oauthAdapterFactory(store) as never,
    jwks: { keys: [(await signingKey(store)) as never] },
    cookies: { keys: [cookieKey], long: { signed: true }, short: { signed: true } },
    // The key scopes are the resource's (getResourceServerInfo) and also listed here, because clients
    // register with every scope the protected resource metadata names; offline_access asks for refresh.
    scopes: ['offline_access', ...SCOPES],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The one signing key is an EC key (no ID tokens are asked for here, but the default must be signable).
      id_token_signed_response_alg: 'ES256',
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client may be its own https URL, whose JSON document holds its metadata (the MCP
      // authorization spec's preferred registration); draft 02 is the version acknowledged here.
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token no API accepts (MCP clients send `resource`).
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (!options.resources(resource))
            throw new errors.InvalidTarget('this service issues tokens only for its own MCP servers');
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // oidc-provider's own error page loads a web font and logs a notice: ours is the dashboard's.
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = String(
        await messagePage(
          'This sign-in cannot go on',
          String(out.error_description ?? 'The application sent a request this service cannot accept.'),
          `Error: ${String(out.error ?? 'invalid_request')}. Go back to the application and try again.`,
        ),
      );
    },
    // Browser-based public clients may call the token endpoint from their redirect address's origin.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' &&
      client.clientAuthMethod === 'none' &&
      (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    fetch: options.fetch as never,
    // Nothing a client names is read without bound (oidc-provider leaves key sets unbounded).
    fetchResponseBodyLimits: {
      'client_id metadata document': 5 * 1024,
      jwks_uri: 64 * 1024,
      sector_identifier_uri: 64 * 1024,
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Grant: REFRESH_TOKEN_SECONDS,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      Session: 14 * 86_400,
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    // No consent is remembered across authorizations: each request is shown to the person, and only the
    // grant they just made on the consent screen is used.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
  });
  provider.proxy = options.publicUrl.startsWith('https:');
  return provider;
}
