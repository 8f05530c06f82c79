// What runAudit and a recheck share: the engine's fetcher (the SSRF guard, bounds, the tests' DNS,
// CA and ports), the TLS and DNS probes of a security audit, and the product's judgement of a site.
import type { AuditOptions, EngineProduct } from './index.ts';
import { type DnsFacts, gatherDnsFacts } from './net/dns-facts.ts';
import { createFetcher, type Fetcher } from './net/fetcher.ts';
import type { PortMap } from './net/lookup.ts';
import type { AuditResolver } from './net/resolver.ts';
import { probeLegacyTls, probeTls, type TlsProbe } from './net/tls.ts';
import type { AuditOutcome } from './outcome.ts';
import { type AiReadinessDetails, auditAiReadiness } from './products/ai-readiness.ts';
import { auditMarketingSignal, type MarketingSignalDetails } from './products/marketing-signal.ts';
import {
  auditWebsiteSecurity,
  collectSecurityExtras,
  type WebsiteSecurityDetails,
} from './products/website-security.ts';
import type { SiteSnapshot } from './site.ts';

/** The engine's fetcher. */
export function engineFetcher(
  options: AuditOptions & { resolver: AuditResolver; ports: PortMap },
  allowPrivate: boolean,
) {
  return createFetcher({
    resolver: options.resolver,
    allowPrivate,
    ports: options.ports,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.fetchDeadlineMs ? { deadlineMs: options.fetchDeadlineMs } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.access ? { access: options.access } : {}),
  });
}

/** TLS and DNS probes of a host, each run once per host however often asked (a recheck's URLs share them). */
export function transportProbes(options: AuditOptions, resolver: AuditResolver, ports: PortMap, allowPrivate: boolean) {
  const tls = new Map<string, Promise<TlsProbe>>();
  const dns = new Map<string, Promise<DnsFacts>>();
  const once = <T>(memo: Map<string, Promise<T>>, host: string, probe: () => Promise<T>) => {
    const known = memo.get(host);
    if (known) return known;
    const started = probe();
    memo.set(host, started);
    return started;
  };
  const tlsOptions = {
    resolver,
    allowPrivate,
    ports,
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  };
  return (hostname: string) => ({
    tls: () =>
      once(tls, hostname, async () => {
        const [probe, legacy] = await Promise.all([
          probeTls(hostname, tlsOptions),
          probeLegacyTls(hostname, tlsOptions),
        ]);
        return legacy === null ? probe : { ...probe, legacyVersions: legacy };
      }),
    dns: () => once(dns, hostname, () => gatherDnsFacts(hostname, resolver)),
  });
}

export type AnyDetails = AiReadinessDetails | MarketingSignalDetails | WebsiteSecurityDetails;

/** The product's checks on a collected site; a security audit first probes TLS, DNS and well-known paths. */
export async function judgeSite(
  product: EngineProduct,
  site: SiteSnapshot,
  fetcher: Fetcher,
  probes: ReturnType<typeof transportProbes>,
  signal: AbortSignal | undefined,
): Promise<AuditOutcome<AnyDetails>> {
  switch (product) {
    case 'ai_readiness':
      return auditAiReadiness(site);
    case 'marketing_signal':
      return auditMarketingSignal(site);
    case 'website_security': {
      const extras = await collectSecurityExtras(site, fetcher, probes(new URL(site.origin).hostname), signal);
      return auditWebsiteSecurity(site, extras);
    }
  }
}
