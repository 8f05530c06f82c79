// A site whose start page could not be fetched at all has nothing to audit: the run fails and its
// credits go back, with the reason, instead of verdicts inferred from files that were never read
// (issue 10: `no-such-host.invalid` scored 0 with "robots.txt blocks search engines").
import type { SiteSnapshot } from './site.ts';

export type UnreachableReason = 'dns' | 'refused' | 'tls' | 'blocked' | 'timeout' | 'redirects' | 'network';

const EXPLAIN: Record<UnreachableReason, string> = {
  dns: 'its name has no address in DNS',
  refused: 'the connection was refused',
  tls: 'the TLS handshake failed',
  blocked:
    'it, or a redirect from it, leads to an address this service does not audit (this machine or a private network)',
  timeout: 'it did not answer in time',
  redirects: 'it redirects too many times',
  network: 'the connection failed',
};

/** Trying again soon can help only where the cause may pass. */
const RETRYABLE: ReadonlySet<UnreachableReason> = new Set(['refused', 'timeout', 'network']);

export class SiteUnreachable extends Error {
  override readonly name = 'SiteUnreachable';
  readonly reason: UnreachableReason;
  readonly retryable: boolean;
  constructor(reason: UnreachableReason, url: string, cause: string) {
    super(`the site could not be reached: ${url}: ${EXPLAIN[reason]} (${cause.slice(0, 200)})`);
    this.reason = reason;
    this.retryable = RETRYABLE.has(reason);
  }
}

function reasonOf(code: string | undefined, message: string): UnreachableReason {
  if (code === 'blocked' || /^refused: /.test(message)) return 'blocked';
  if (code === 'timeout') return 'timeout';
  if (code === 'too_many_redirects') return 'redirects';
  if (/ENOTFOUND|ENODATA|EAI_AGAIN|EAI_NONAME|NXDOMAIN|SERVFAIL|queryA|no address/i.test(message)) return 'dns';
  if (/ECONNREFUSED/.test(message)) return 'refused';
  if (/CERT|SSL|TLS|self.signed|certificate|handshake/i.test(message)) return 'tls';
  if (/timed out|ETIMEDOUT/i.test(message)) return 'timeout';
  return 'network';
}

/** The reason the start page could not be fetched, when no page of the site was fetched at all. */
export function unreachableSite(site: SiteSnapshot): SiteUnreachable | undefined {
  if (site.pages.some((page) => page.fetched)) return undefined;
  const start = site.pages.find((page) => page.error);
  if (start?.error)
    return new SiteUnreachable(reasonOf(start.error.code, start.error.message), start.url, start.error.message);
  // robots.txt failed on the network and its "disallow all" kept the crawler off the start page.
  if (site.robots?.status === 'unreachable') {
    const message = site.robots.error ?? 'robots.txt could not be fetched';
    return new SiteUnreachable(reasonOf(undefined, message), site.startUrl, message);
  }
  return undefined;
}
