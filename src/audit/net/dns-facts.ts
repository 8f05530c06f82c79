// The DNS facts of a domain that mail and certificate checks read (spec 2.10 `dns`): MX, SPF,
// DMARC, CAA, and the MTA-STS and TLS-RPT records.
import { getDomain } from 'tldts';
import { type AuditResolver, NO_DATA_CODES } from './resolver.ts';

export interface DnsFacts {
  domain: string;
  mx: Array<{ exchange: string; priority: number }>;
  spf: string[];
  dmarc: string[];
  /** Where the DMARC record was found: the domain, or its organizational domain (RFC 7489 6.6.3). */
  dmarcAt: string | null;
  /** The registrable domain above `domain` (Public Suffix List), or null for a bare suffix. */
  organizationalDomain: string | null;
  /** CAA records of the closest name that has any (RFC 8659 climbs the tree). */
  caa: Array<{ tag: string; value: string }>;
  caaAt: string | null;
  mtaSts: boolean;
  tlsRpt: boolean;
  errors: string[];
}

async function records<T>(lookup: () => Promise<T[]>, errors: string[], what: string): Promise<T[]> {
  try {
    return await lookup();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!NO_DATA_CODES.has(code)) errors.push(`${what}: ${code || (error as Error).message}`);
    return [];
  }
}

const joinTxt = (chunks: string[][]) => chunks.map((parts) => parts.join(''));

/** The domain whose mail records apply: the host, or its parent for a www. host. */
export function mailDomain(hostname: string): string {
  return hostname.replace(/^www\./, '');
}

export async function gatherDnsFacts(hostname: string, resolver: AuditResolver): Promise<DnsFacts> {
  const domain = mailDomain(hostname.toLowerCase().replace(/\.$/, ''));
  const errors: string[] = [];
  const [mx, txt, dmarcTxt, mtaSts, tlsRpt] = await Promise.all([
    records(() => resolver.resolveMx(domain), errors, 'MX'),
    records(() => resolver.resolveTxt(domain), errors, 'TXT'),
    records(() => resolver.resolveTxt(`_dmarc.${domain}`), errors, 'DMARC'),
    records(() => resolver.resolveTxt(`_mta-sts.${domain}`), errors, 'MTA-STS'),
    records(() => resolver.resolveTxt(`_smtp._tls.${domain}`), errors, 'TLS-RPT'),
  ]);
  let dmarc = joinTxt(dmarcTxt).filter((t) => /^v=DMARC1/i.test(t));
  let dmarcAt: string | null = dmarc.length > 0 ? domain : null;
  // RFC 7489 6.6.3: no record at the name itself, so the organizational domain's applies (its sp=, if set).
  const organizational = getDomain(domain, { allowPrivateDomains: true });
  if (dmarc.length === 0 && organizational && organizational !== domain) {
    const inherited = await records(() => resolver.resolveTxt(`_dmarc.${organizational}`), errors, 'DMARC');
    dmarc = joinTxt(inherited).filter((t) => /^v=DMARC1/i.test(t));
    if (dmarc.length > 0) dmarcAt = organizational;
  }
  let caa: DnsFacts['caa'] = [];
  let caaAt: string | null = null;
  const labels = hostname.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1 && caaAt === null; i++) {
    const name = labels.slice(i).join('.');
    const found = await records(() => resolver.resolveCaa(name), errors, 'CAA');
    if (found.length > 0) {
      caaAt = name;
      caa = found.flatMap((r) => {
        const record = r as unknown as Record<string, unknown>;
        return ['issue', 'issuewild', 'iodef']
          .filter((tag) => typeof record[tag] === 'string')
          .map((tag) => ({ tag, value: String(record[tag]) }));
      });
    }
  }
  return {
    domain,
    mx: mx.map((m) => ({ exchange: m.exchange, priority: m.priority })),
    spf: joinTxt(txt).filter((t) => /^v=spf1(\s|$)/i.test(t)),
    dmarc,
    dmarcAt,
    organizationalDomain: organizational,
    caa,
    caaAt,
    mtaSts: joinTxt(mtaSts).some((t) => /^v=STSv1/i.test(t)),
    tlsRpt: joinTxt(tlsRpt).some((t) => /^v=TLSRPTv1/i.test(t)),
    errors,
  };
}
