// API clients by key, kept across HTTP requests so each key's immutable cache (completed runs,
// reports, findings) outlives the request that filled it. Bounded: the least recently used key goes.
// With the secret shared with the service, every request names the address of the MCP client it is
// for (contract/forwarded-address.ts), so the service throttles refused keys per client, not the
// MCP server's own address for all of them (issue 23).

import type { ClientOptions } from '../client/http.ts';
import { createClient, type SiteAuditClient } from '../client/index.ts';
import { CLIENT_ADDRESS_HEADER, vouchForAddress } from '../contract/forwarded-address.ts';

const MAX_KEYS = 256;
/** A tool call waits this long at most for a 429 or 503 to clear; a longer wait goes back to the model. */
export const MCP_MAX_RETRY_WAIT_MS = 5_000;

export function clientPool(
  baseUrl: string,
  userAgent: string,
  tuning: Pick<ClientOptions, 'pacing' | 'reconnect'> = {},
  /** The secret shared with the service; without it requests name no client address. */
  forwardSecret?: string,
) {
  const clients = new Map<string, { client: SiteAuditClient; address: { current: string } }>();
  const make = (apiKey: string, address: { current: string }) =>
    createClient({
      baseUrl,
      apiKey,
      userAgent,
      maxRetryWaitMs: MCP_MAX_RETRY_WAIT_MS,
      ...tuning,
      ...(forwardSecret
        ? {
            headers: (authorization: string) => ({
              [CLIENT_ADDRESS_HEADER]: vouchForAddress(forwardSecret, address.current, authorization),
            }),
          }
        : {}),
    });
  return {
    /**
     * The pooled client of a key already verified, naming `address` from now on: a key's requests
     * are vouched for as coming from the latest client address that presented it.
     */
    get(apiKey: string, address: string): SiteAuditClient {
      let entry = clients.get(apiKey);
      if (!entry) {
        const current = { current: address };
        entry = { client: make(apiKey, current), address: current };
      }
      entry.address.current = address;
      clients.delete(apiKey); // re-inserted as the most recently used
      clients.set(apiKey, entry);
      if (clients.size > MAX_KEYS) clients.delete(clients.keys().next().value as string);
      return entry.client;
    },
    /** A client outside the pool, for checking a key that may be junk without evicting good ones. */
    unpooled: (apiKey: string, address: string) => make(apiKey, { current: address }),
  };
}
