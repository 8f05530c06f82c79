// spec 4.2: the token exchange of the command-line client's browser sign-in.
import { z } from 'zod';
import { Uuid } from './common.ts';
import { Scope } from './scopes.ts';

export const CliTokenRequest = z.object({
  code: z.string().min(1).max(512),
  // RFC 7636 4.1: a verifier is 43 to 128 unreserved characters.
  code_verifier: z.string().min(1).max(512),
  redirect_uri: z.string().min(1).max(2048),
});
export type CliTokenRequest = z.infer<typeof CliTokenRequest>;

export const CliTokenResponse = z.object({
  secret: z.string().startsWith('svc_'),
  keyPrefix: z.string(),
  keyName: z.string(),
  scopes: z.array(Scope),
  organizationId: Uuid,
  organizationSlug: z.string(),
});
export type CliTokenResponse = z.infer<typeof CliTokenResponse>;

// RFC 7009 for the command line's own key: `siteaudit logout` revokes what it saved. Holding a key is
// the right to revoke it, so no other authentication is asked; the answer is the same for any token.
export const CliRevokeRequest = z.strictObject({ token: z.string().min(1).max(512) });
