// API clients by key, kept across HTTP requests so each key's immutable cache (completed runs,
// reports, findings) outlives the request that filled it. Bounded: the least recently used key goes.

import type { ClientOptions } from '../client/http.ts';
import { createClient, type SiteAuditClient } from '../client/index.ts';

const MAX_KEYS = 256;
/** A tool call waits this long at most for a 429 or 503 to clear; a longer wait goes back to the model. */
export const MCP_MAX_RETRY_WAIT_MS = 5_000;

export function clientPool(
  baseUrl: string,
  userAgent: string,
  tuning: Pick<ClientOptions, 'pacing' | 'reconnect'> = {},
) {
  const clients = new Map<string, SiteAuditClient>();
  const make = (apiKey: string) =>
    createClient({ baseUrl, apiKey, userAgent, maxRetryWaitMs: MCP_MAX_RETRY_WAIT_MS, ...tuning });
  return {
    /** The pooled client of a key already verified. */
    get(apiKey: string): SiteAuditClient {
      const client = clients.get(apiKey) ?? make(apiKey);
      clients.delete(apiKey); // re-inserted as the most recently used
      clients.set(apiKey, client);
      if (clients.size > MAX_KEYS) clients.delete(clients.keys().next().value as string);
      return client;
    },
    /** A client outside the pool, for checking a key that may be junk without evicting good ones. */
    unpooled: make,
  };
}
