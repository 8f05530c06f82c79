// spec 5.1: the bearer key, looked up by hash on every request so a revocation is effective at once.
import type { MiddlewareHandler } from 'hono';
import { hashSecret, parseScopes } from '../api-keys.ts';
import type { AppEnv, AuthContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Store } from '../store/index.ts';

const QUERY_KEY_NAMES = new Set(['api_key', 'apikey', 'key', 'access_token', 'token', 'authorization']);
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="siteaudit"' };
const LAST_USE_EVERY_MS = 60_000;

const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message, { headers: CHALLENGE });

/** The token of `Authorization: Bearer <token>`, or undefined when the header is not of that form. */
function bearerToken(header: string): string | undefined {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1];
}

/** Whether a token is shaped like one of our keys; anything else is never looked up. */
const isKeyShaped = (secret: string) => secret.startsWith('svc_') && secret.length <= 200;

/** Longest bearer the throttle remembers; no key or OAuth access token of ours comes near it. */
const MAX_REMEMBERED_BEARER = 512;

/**
 * The hash of the key or OAuth access token an Authorization header presents, for the address
 * throttle's memory of accepted ones (so an accepted token, like a key, passes a throttled address).
 */
export function presentedKeyHash(header: string | undefined): string | undefined {
  const secret = header ? bearerToken(header) : undefined;
  return secret && secret.length <= MAX_REMEMBERED_BEARER ? hashSecret(secret) : undefined;
}

export function authenticate(
  store: Store,
  /** OAuth access tokens of the authorization server (issue 12), for requests through an MCP server. */
  oauthToken?: (token: string) => Promise<AuthContext | undefined>,
): MiddlewareHandler<AppEnv> {
  return async function authenticateKey(c, next) {
    // spec 5.1: a key in the query string is rejected by design, even next to a valid header.
    const query = new URL(c.req.url).searchParams;
    for (const [name, value] of query) {
      if (QUERY_KEY_NAMES.has(name.toLowerCase()) || value.startsWith('svc_')) {
        throw unauthorized('API keys are accepted only in the Authorization header, never in the query string');
      }
    }
    const header = c.req.header('authorization');
    if (!header) throw unauthorized('missing Authorization header; send Authorization: Bearer svc_...');
    const secret = bearerToken(header);
    if (!secret) throw unauthorized('the Authorization header must be Bearer svc_...');
    if (!isKeyShaped(secret)) {
      const granted = oauthToken ? await oauthToken(secret) : undefined;
      if (!granted) throw unauthorized('unknown, expired or revoked API key or access token');
      c.set('auth', granted);
      await next();
      return;
    }
    const found = await store.apiKeys.findActiveByHash(hashSecret(secret));
    if (!found) throw unauthorized('unknown or revoked API key');
    c.set('auth', { key: found.key, organization: found.organization, scopes: parseScopes(found.key.scopes) });
    // The keys page shows each key's last use; written at most once a minute per key, never waited for.
    const now = Date.now();
    if (!found.key.last_used_at || now - Date.parse(found.key.last_used_at) > LAST_USE_EVERY_MS)
      store.apiKeys.markUsed(found.key.id, new Date(now).toISOString()).catch(() => {});
    await next();
  };
}
