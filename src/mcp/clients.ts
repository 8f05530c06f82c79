// API clients by key, kept across HTTP requests so each key's immutable cache (completed runs,
// reports, findings) outlives the request that filled it. Bounded: the oldest key is dropped first.
import { createClient, type SiteAuditClient } from '../client/index.ts';
import type { PacingOptions } from '../client/pacing.ts';

const MAX_KEYS = 256;
/** A tool call waits this long at most for a 429 or 503 to clear; a longer wait goes back to the model. */
export const MCP_MAX_RETRY_WAIT_MS = 5_000;

export function clientPool(baseUrl: string, userAgent: string, pacing?: PacingOptions | false) {
  const clients = new Map<string, SiteAuditClient>();
  return (apiKey: string): SiteAuditClient => {
    let client = clients.get(apiKey);
    if (client) {
      clients.delete(apiKey); // re-inserted below as the most recently used
    } else {
      client = createClient({
        baseUrl,
        apiKey,
        userAgent,
        maxRetryWaitMs: MCP_MAX_RETRY_WAIT_MS,
        ...(pacing !== undefined ? { pacing } : {}),
      });
    }
    clients.set(apiKey, client);
    if (clients.size > MAX_KEYS) clients.delete(clients.keys().next().value as string);
    return client;
  };
}
