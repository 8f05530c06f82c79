// Name resolution for audits: the system resolver by default, or the DNS servers named in
// SITEAUDIT_DNS_SERVERS (comma-separated `ip` or `ip:port`), which tests point at their own server.
import { type CaaRecord, promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { askDnssec } from './dnssec-query.ts';

export interface AuditResolver {
  /** A and AAAA answers for a host name (IP literals answer themselves). */
  addresses(hostname: string): Promise<LookupAddress[]>;
  resolveMx(hostname: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolveTxt(hostname: string): Promise<string[][]>;
  resolveCaa(hostname: string): Promise<CaaRecord[]>;
  /** DS and DNSKEY of a zone, asked with the AD bit (RFC 6840 5.7); null when no server answered. */
  dnssec(zone: string): Promise<DnssecAnswer | null>;
}

export interface DnssecAnswer {
  /** DS records at the parent: the delegation is signed. */
  ds: number;
  /** DNSKEY records at the zone apex. */
  dnskey: number;
  /** The resolver validated the answer (AD set); only a validating resolver says so. */
  authenticated: boolean;
  /** The resolver answered SERVFAIL, and answered with checking disabled: the signatures do not validate. */
  bogus: boolean;
}

export function parseDnsServers(text: string | undefined): string[] | undefined {
  const servers = text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return servers && servers.length > 0 ? servers : undefined;
}

/** Codes that mean "no such record", which a check reads as absence rather than failure. */
export const NO_DATA_CODES = new Set([dns.NODATA, dns.NOTFOUND, 'ENODATA', 'ENOTFOUND']);

export function createResolver(
  servers: string[] | undefined = parseDnsServers(process.env.SITEAUDIT_DNS_SERVERS),
): AuditResolver {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  if (servers) resolver.setServers(servers);

  async function records(hostname: string, type: 'A' | 'AAAA'): Promise<string[]> {
    try {
      return type === 'A' ? await resolver.resolve4(hostname) : await resolver.resolve6(hostname);
    } catch (error) {
      if (NO_DATA_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  }

  return {
    async addresses(hostname) {
      const bare = hostname.replace(/^\[|\]$/g, '');
      const family = isIP(bare);
      if (family !== 0) return [{ address: bare, family }];
      if (!servers) return dns.lookup(hostname, { all: true, verbatim: true });
      const [v4, v6] = await Promise.all([records(hostname, 'A'), records(hostname, 'AAAA')]);
      const found = [
        ...v4.map((address) => ({ address, family: 4 })),
        ...v6.map((address) => ({ address, family: 6 })),
      ];
      if (found.length === 0) {
        throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND', hostname });
      }
      return found;
    },
    dnssec: (zone) => askDnssec(zone, servers ?? dns.getServers()),
    resolveMx: (hostname) => resolver.resolveMx(hostname),
    resolveTxt: (hostname) => resolver.resolveTxt(hostname),
    resolveCaa: (hostname) => resolver.resolveCaa(hostname),
  };
}
