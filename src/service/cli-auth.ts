// The command-line client's browser sign-in (spec 4.2, RFC 8252 loopback + RFC 7636 PKCE S256):
// authorization codes are issued at the consent screen and exchanged once for a new key.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CliTokenRequest, CliTokenResponse, Scope } from '../contract/index.ts';
import { hashSecret, issueKey } from './api-keys.ts';
import { ApiError } from './errors.ts';
import type { Store } from './store/index.ts';

export const CODE_TTL_SECONDS = 120;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** RFC 8252 7.3: the redirect must be http on a loopback IP literal (or localhost) with a port. */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) && url.port !== '';
  } catch {
    return false;
  }
}

export interface NewAuthorizationCode {
  organizationId: string;
  codeChallenge: string;
  redirectUri: string;
  keyName: string;
  scopes: readonly Scope[];
  /** The person who approved it. */
  userId?: string | null;
}

/** Issues a single-use code bound to the redirect and the PKCE challenge; answers the code itself. */
export async function createAuthorizationCode(
  store: Store,
  input: NewAuthorizationCode,
  now = new Date(),
): Promise<string> {
  if (!isLoopbackRedirect(input.redirectUri))
    throw new Error('redirect_uri must be an http loopback address with a port');
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.codeChallenge)) throw new Error('code_challenge must be an S256 challenge');
  const code = randomBytes(32).toString('base64url');
  await store.cliCodes.insert({
    code_hash: hashSecret(code),
    organization_id: input.organizationId,
    code_challenge: input.codeChallenge,
    redirect_uri: input.redirectUri,
    key_name: input.keyName,
    scopes: JSON.stringify(input.scopes),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
    used_at: null,
    user_id: input.userId ?? null,
  });
  return code;
}

const invalidGrant = () =>
  new ApiError(400, 'invalid_grant', 'the authorization code is unknown, expired, already used, or does not match');

/** spec 4.2: exchanges a code for a newly minted key. The code is spent even when the check fails. */
export async function exchangeAuthorizationCode(
  store: Store,
  kek: Buffer,
  request: CliTokenRequest,
): Promise<CliTokenResponse> {
  const row = await store.cliCodes.consume(hashSecret(request.code), new Date().toISOString());
  if (!row) throw invalidGrant();
  const expected = Buffer.from(row.code_challenge);
  const actual = Buffer.from(s256(request.code_verifier));
  const pkceOk = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!pkceOk || row.redirect_uri !== request.redirect_uri) throw invalidGrant();
  const organization = await store.organizations.get(row.organization_id);
  if (!organization) throw invalidGrant();
  let issued: Awaited<ReturnType<typeof issueKey>>;
  try {
    issued = await issueKey(store, kek, {
      organizationId: organization.id,
      name: row.key_name,
      scopes: JSON.parse(row.scopes) as Scope[],
      source: 'cli',
      createdBy: row.user_id,
    });
  } catch {
    throw new ApiError(500, 'internal_error', 'the credential could not be issued; sign in again');
  }
  return {
    secret: issued.secret,
    keyPrefix: issued.row.prefix,
    keyName: issued.row.name,
    scopes: JSON.parse(issued.row.scopes) as Scope[],
    organizationId: organization.id,
    organizationSlug: organization.slug,
  };
}
