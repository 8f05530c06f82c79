// The service as an OAuth 2.1 authorization server for remote MCP clients (issue 12; docs/decisions.md,
// "OAuth"), on oidc-provider: authorization code with PKCE (S256 only), clients registered
// dynamically (RFC 7591) or known by their Client ID Metadata Document, resource indicators
// (RFC 8707) binding every access token to one MCP resource, refresh tokens rotated on use,
// revocation (RFC 7009). Tokens are opaque, stored through the store so every process answers for
// them. Consent is the dashboard's (routes/oauth-consent.ts).
import { generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES, trimTrailingSlashes } from '../../contract/index.ts';
import { clientAddress } from '../client-address.ts';
import type { SocketHolder } from '../context.ts';
import { messagePage } from '../dashboard/account-pages.ts';
import { type Allowance, isAllowed } from '../local-targets.ts';
import { minuteWindow } from '../middleware/rate-limit.ts';
import type { Store } from '../store/index.ts';
import { clientSecretHash } from '../store/oauth-records.ts';
import { oauthAdapterFactory } from './adapter.ts';
import type { MetadataFetch } from './metadata-fetch.ts';

export const OAUTH_PATH = '/oauth';
export const CONSENT_PATH = '/oauth/consent';
/** Access tokens live an hour; refresh tokens a month, each used once (rotation). */
export const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 30 * 86_400;
/**
 * Every bearer secret the authorization server hands out (codes, access, refresh and registration
 * tokens) starts with this, so that logs and the audit log cut one short as they do a key (issue 23).
 */
export const OAUTH_TOKEN_PREFIX = 'oauth_';
/** Dynamic registrations per client address per minute (issue 23: unauthenticated writes are bounded). */
export const REGISTRATIONS_PER_MINUTE = 10;

/** RFC 8252 7.3: plain http only back to this machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Refuses a redirect address that would send a code in clear across a network: http off loopback.
 * Native apps' own schemes (RFC 8252 7.1) and everything malformed are oidc-provider's to judge.
 */
function checkRedirectUris(uris: unknown): void {
  if (!Array.isArray(uris)) return;
  for (const uri of uris) {
    const url = typeof uri === 'string' ? URL.parse(uri) : null;
    if (url?.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
      throw new errors.InvalidClientMetadata(
        'redirect_uris must use https, or http only on a loopback address (127.0.0.1, [::1] or localhost)',
      );
  }
}

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
  /** Take the client address from X-Forwarded-For's last hop (`serve --trust-proxy`), for the registration limit. */
  trustProxy?: boolean;
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
    // The authorization code flow only: no implicit or hybrid response types (an id_token in a
    // front channel is nothing an MCP client asks for), so the metadata offers none either.
    responseTypes: ['code'],
    // A confidential client's secret is stored hashed (compareClientSecret below), so no method may
    // need the secret itself: client_secret_jwt (an HMAC key) is not offered.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    // Checked wherever a client's metadata is read: registrations, metadata documents, stored clients.
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (_ctx, key, value) => {
        if (key === 'redirect_uris') checkRedirectUris(value);
      },
    },
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
      // RFC 7009 2.1: a client revokes only its own tokens; another's is answered as an unknown one.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      // No browser session is kept across authorizations (withoutBrowserSession), so none to end.
      rpInitiatedLogout: { enabled: false },
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
    // oidc-provider ties a token asked for without offline_access to the browser's provider session,
    // which holds one account and one grant per client: a person authorizing another workspace (a
    // new account here) or the same client again ended the earlier grants. Ours live by their grant.
    expiresWithSession: () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Grant: REFRESH_TOKEN_SECONDS,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      // Never read back (withoutBrowserSession): kept only as long as an interaction.
      Session: 600,
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
  prefixTokens(provider);
  provider.Client.prototype.compareClientSecret = function compareHashed(this: { clientSecret?: string }, actual) {
    const stored = Buffer.from(String(this.clientSecret ?? ''));
    const presented = Buffer.from(clientSecretHash(actual));
    return stored.length === presented.length && timingSafeEqual(stored, presented);
  };
  provider.use(withoutBrowserSession);
  provider.use(limitRegistrations(store, options.trustProxy ?? false));
  return provider;
}

const BROWSER_SESSION_COOKIES = new Set(['_session', '_session.sig']);

/**
 * oidc-provider remembers one signed-in account per browser (its `_session` cookie) for single
 * sign-on, and ends that session, revoking its grants, when the next authorization is for another
 * account. Here the person is known by the dashboard's session, an account is a person in one
 * workspace, and consent is asked every time: nothing of one authorization may carry into the next,
 * so the provider never reads its session cookie back (issue 23).
 */
function withoutBrowserSession(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  const cookie = ctx.req.headers.cookie;
  if (cookie) {
    const kept = cookie.split(';').filter((pair) => !BROWSER_SESSION_COOKIES.has(pair.split('=')[0]?.trim() ?? ''));
    if (kept.length > 0) ctx.req.headers.cookie = kept.join(';');
    else delete ctx.req.headers.cookie;
  }
  return next();
}

/** oidc-provider has no setting for its tokens' form: each model's id maker is wrapped to add the prefix. */
function prefixTokens(provider: Provider): void {
  for (const model of [
    provider.AccessToken,
    provider.AuthorizationCode,
    provider.RefreshToken,
    provider.RegistrationAccessToken,
  ]) {
    const prototype = model.prototype as unknown as { generateTokenId(this: unknown): string };
    const random = prototype.generateTokenId;
    prototype.generateTokenId = function prefixed() {
      return `${OAUTH_TOKEN_PREFIX}${random.call(this)}`;
    };
  }
}

/**
 * Dynamic registration is open to anyone, so each address gets REGISTRATIONS_PER_MINUTE (a refused
 * registration, which writes nothing, is given back); a registration no authorization completes
 * expires within the hour (adapter.ts). The read answer of RFC 7592 leaves out the client's secret,
 * which is stored only as its hash.
 */
function limitRegistrations(store: Store, trustProxy: boolean) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path.startsWith('/reg/')) {
      await next();
      if (ctx.body && typeof ctx.body === 'object') delete (ctx.body as Record<string, unknown>).client_secret;
      return;
    }
    if (ctx.method !== 'POST' || ctx.path !== '/reg') return next();
    const address = clientAddress(ctx.req as SocketHolder, ctx.get('x-forwarded-for') || undefined, trustProxy);
    const key = `oauth-registration|${address}`;
    const { start, resetIn } = minuteWindow();
    if ((await store.rateLimits.take(key, start, REGISTRATIONS_PER_MINUTE)) === null) {
      ctx.status = 429;
      ctx.set('Retry-After', String(resetIn));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: 'rate_limited',
        error_description: `too many client registrations from this address; retry in ${resetIn} s`,
      };
      return;
    }
    try {
      await next();
    } finally {
      if (ctx.status !== 201) await store.rateLimits.giveBack(key, start).catch(() => {});
    }
  };
}
