// What the authorization server fetches from addresses a client names (Client ID Metadata Documents,
// and any other document oidc-provider reads): through the audits' connect-time guard, so on a hosted
// service a name that resolves to a private address, or a literal private host, is refused; no
// redirect is followed, and one deadline covers connect, headers and body.
import { fetch } from 'undici';
import { literalHostRefusal } from '../../audit/net/addresses.ts';
import type { AuditResolver } from '../../audit/net/resolver.ts';
import { guardedAgents } from '../guarded-agents.ts';
import type { Allowance } from '../local-targets.ts';

/** The whole fetch, first connect to last byte: 2.5 s, as documented (docs/decisions.md, "OAuth"). */
const FETCH_TIMEOUT_MS = 2_500;
/** No document is read past this (oidc-provider's own limit per kind of document is at most this). */
const MAX_BODY_BYTES = 64 * 1024;
/**
 * A document that could not be read is refused at once for a while: oidc-provider looks a client
 * up again to answer with an error, and a slow document fetched twice took 5 s (issue 23).
 */
const FAILURE_KEPT_MS = 10_000;
const FAILURES_KEPT = 1000;
/** Statuses whose answer has no body. */
const NO_BODY = new Set([204, 205, 304]);

export interface MetadataFetchOptions {
  resolver: AuditResolver;
  /** Loopback and private addresses are allowed (the single-user local service, tests); asked at each fetch. */
  allowPrivate: Allowance;
  /** Extra certificate authorities (tests' own CA). */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

export type MetadataFetch = (url: URL | string, init: Record<string, unknown>) => Promise<Response>;

/** The body whole, within the fetch's deadline and MAX_BODY_BYTES. */
async function readBody(body: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`document over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function guardedMetadataFetch(options: MetadataFetchOptions): MetadataFetch {
  const agents = guardedAgents({
    resolver: options.resolver,
    allowPrivate: options.allowPrivate,
    timeoutMs: FETCH_TIMEOUT_MS,
    connections: 4,
    ca: options.ca,
  });
  const failures = new Map<string, number>();
  return async (url, init) => {
    const target = new URL(url);
    if ((failures.get(target.href) ?? 0) > Date.now()) throw new Error('the document could not be read moments ago');
    const allowPrivate = agents.allowPrivate();
    const refusal = allowPrivate ? undefined : literalHostRefusal(target.hostname);
    if (refusal) throw new Error(refusal);
    // oidc-provider passes its own dispatcher; ours replaces it (it knows the tests' DNS and CA).
    const { dispatcher: _theirs, signal: theirs, ...rest } = init;
    const deadline = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    try {
      const response = await fetch(target, {
        ...(rest as object),
        signal: theirs instanceof AbortSignal ? AbortSignal.any([theirs, deadline]) : deadline,
        dispatcher: agents.agent(allowPrivate),
        redirect: 'manual',
      });
      // Read here, under the same deadline: the caller gets a document already whole.
      const body = await readBody(response.body);
      return new Response(NO_BODY.has(response.status) ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
      });
    } catch (error) {
      if (failures.size >= FAILURES_KEPT) failures.delete(failures.keys().next().value as string);
      failures.set(target.href, Date.now() + FAILURE_KEPT_MS);
      throw error;
    }
  };
}
