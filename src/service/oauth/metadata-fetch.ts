// What the authorization server fetches from addresses a client names (Client ID Metadata Documents,
// and any other document oidc-provider reads): through the audits' connect-time guard, so on a hosted
// service a name that resolves to a private address, or a literal private host, is refused; no
// redirect is followed, and one deadline covers connect, headers and body.
import { fetch } from 'undici';
import { literalHostRefusal } from '../../audit/net/addresses.ts';
import type { AuditResolver } from '../../audit/net/resolver.ts';
import { guardedAgents } from '../guarded-agents.ts';
import type { Allowance } from '../local-targets.ts';

/** oidc-provider's own deadline for these fetches is 2.5 s; ours is the same. */
const FETCH_TIMEOUT_MS = 2_500;

export interface MetadataFetchOptions {
  resolver: AuditResolver;
  /** Loopback and private addresses are allowed (the single-user local service, tests); asked at each fetch. */
  allowPrivate: Allowance;
  /** Extra certificate authorities (tests' own CA). */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

export type MetadataFetch = (url: URL | string, init: Record<string, unknown>) => Promise<Response>;

export function guardedMetadataFetch(options: MetadataFetchOptions): MetadataFetch {
  const agents = guardedAgents({
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    timeoutMs: FETCH_TIMEOUT_MS,
    connections: 4,
    ca: options.ca,
  });
  return async (url, init) => {
    const target = new URL(url);
    const allowPrivate = agents.allowPrivate();
    const refusal = allowPrivate ? undefined : literalHostRefusal(target.hostname);
    if (refusal) throw new Error(refusal);
    // oidc-provider passes its own dispatcher; ours replaces it (it knows the tests' DNS and CA).
    const { dispatcher: _theirs, ...rest } = init;
    return (await fetch(target, {
      ...(rest as object),
      dispatcher: agents.agent(allowPrivate),
      redirect: 'manual',
    })) as unknown as Response;
  };
}
