// A client whose connection is still being made: every call waits for it, then goes through. An MCP
// host's `initialize` must not wait for the local service to start (issue 26), while the first tool
// call may.
import type { SiteAuditClient } from './index.ts';

type Callable = (...args: unknown[]) => Promise<unknown>;

/**
 * `connect` is started at once and makes the real client. A call made while it runs waits for it;
 * when it failed, the call rejects with its error, and the next call tries again (the person may
 * have fixed what stopped it).
 */
export function deferredClient(connect: () => Promise<SiteAuditClient>): SiteAuditClient {
  let pending = connect();
  // Nobody may be waiting yet: a failed connection is reported by the calls, not as unhandled.
  pending.catch(() => {});
  let failed = false;
  const ready = (): Promise<SiteAuditClient> => {
    if (failed) {
      failed = false;
      pending = connect();
    }
    return pending.catch((error: unknown) => {
      failed = true;
      throw error;
    });
  };
  const at = (path: readonly string[]): unknown =>
    new Proxy(() => {}, {
      // `then` stays undefined, so the client is never mistaken for a promise.
      get: (_target, name) => (typeof name === 'string' && name !== 'then' ? at([...path, name]) : undefined),
      apply: async (_target, _self, args: unknown[]) => {
        let owner: unknown = await ready();
        for (const key of path.slice(0, -1)) owner = (owner as Record<string, unknown>)[key];
        const method = (owner as Record<string, Callable | undefined>)[path.at(-1) ?? ''];
        if (typeof method !== 'function') throw new TypeError(`the API client has no ${path.join('.')}`);
        return method.apply(owner, args);
      },
    });
  return at([]) as SiteAuditClient;
}
