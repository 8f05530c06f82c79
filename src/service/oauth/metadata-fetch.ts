// What the authorization server fetches from addresses a client names (Client ID Metadata Documents,
// and any other document oidc-provider reads): through the audits' connect-time guard, so on a hosted
// service a name that resolves to a private address, or a literal private host, is refused; no
// redirect is followed, and one deadline covers connect, headers and body.
import { fetch } from 'undici';
import { literalHostRefusal } from '../../audit/net/addresses.ts';
import { guardedAgent } from '../../audit/net/lookup.ts';
import type { AuditResolver } from '../../audit/net/resolver.ts';

/** oidc-provider's own deadline for these fetches is 2.5 s; ours is the same. */
const FETCH_TIMEOUT_MS = 2_500;

export interface MetadataFetchOptions {
  resolver: AuditResolver;
  /** Loopback and private addresses are allowed (the embedded default, tests). */
  allowPrivate: boolean;
  /** Extra certificate authorities (tests' own CA). */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

export type MetadataFetch = (url: URL | string, init: Record<string, unknown>) => Promise<Response>;

export function guardedMetadataFetch(options: MetadataFetchOptions): MetadataFetch {
  const agent = guardedAgent({
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    timeoutMs: FETCH_TIMEOUT_MS,
    connections: 4,
    ca: options.ca,
  });
  return async (url, init) => {
    const target = new URL(url);
    const refusal = options.allowPrivate ? undefined : literalHostRefusal(target.hostname);
    if (refusal) throw new Error(refusal);
    // oidc-provider passes its own dispatcher; ours replaces it (it knows the tests' DNS and CA).
    const { dispatcher: _theirs, ...rest } = init;
    return (await fetch(target, { ...(rest as object), dispatcher: agent, redirect: 'manual' })) as unknown as Response;
  };
}
