// The DNS facts of a domain that mail and certificate checks read (spec 2.10 `dns`): MX, SPF,
// DMARC, CAA, the MTA-STS and TLS-RPT records, DKIM keys at the common selectors, and DNSSEC.
import { getDomain } from 'tldts';
import { type AuditResolver, type DnssecAnswer, NO_DATA_CODES } from './resolver.ts';
import { type SpfWalk, walkSpf } from './spf-walk.ts';

export interface DnsFacts {
  domain: string;
  mx: Array<{ exchange: string; priority: number }>;
  spf: string[];
  /** The one SPF record's includes and lookups, walked as a receiver does (RFC 7208 4.6.4); absent with none or several. */
  spfWalk?: SpfWalk;
  dmarc: string[];
  /** Where the DMARC record was found: the domain, or its organizational domain (RFC 7489 6.6.3). */
  dmarcAt: string | null;
  /** The registrable domain above `domain` (Public Suffix List), or null for a bare suffix. */
  organizationalDomain: string | null;
  /** CAA records of the closest name that has any (RFC 8659 climbs the tree). */
  caa: Array<{ tag: string; value: string }>;
  caaAt: string | null;
  /** `v=STSv1` TXT records at `_mta-sts.<domain>` (RFC 8461 3.1: exactly one is valid). */
  mtaSts: string[];
  /** `v=TLSRPTv1` TXT records at `_smtp._tls.<domain>` (RFC 8460 3). */
  tlsRpt: string[];
  /** DKIM key records found at the common selectors (none found proves nothing: selectors are not listed). */
  dkim: Array<{ selector: string; record: string }>;
  /** The selectors asked, so a finding can say where it looked. */
  dkimSelectorsAsked: string[];
  /** DNSSEC of the zone (the organizational domain); null when the resolver gave no answer. */
  dnssec: (DnssecAnswer & { zone: string }) | null;
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

/**
 * Selectors the large senders publish under (their own documentation): Google Workspace, Microsoft
 * 365, Mailchimp/Mandrill, SendGrid, Zoho, Proton, Fastmail, iCloud, Postmark, Resend, Brevo, and
 * the generic names control panels use. Senders with per-domain random selectors (Amazon SES) are
 * not found this way.
 */
export const DKIM_SELECTORS = [
  'google',
  'selector1',
  'selector2',
  'k1',
  'k2',
  's1',
  's2',
  'mandrill',
  'zoho',
  'protonmail',
  'fm1',
  'sig1',
  'pm',
  'resend',
  'mta',
  'mail',
  'brevo',
  'default',
  'dkim',
  'smtp',
];

/** RFC 7505: an MX whose exchange is the root (".", or "" as resolvers give it) says "no mail here". */
export const isNullExchange = (m: DnsFacts['mx'][number]) => m.exchange === '' || m.exchange === '.';

/** The mail exchangers that take mail: every MX but a null one. */
export const realMx = (mx: DnsFacts['mx']) => mx.filter((m) => !isNullExchange(m));

/** Whether the domain sends mail, by its own records: a real MX, or an SPF that authorizes someone. */
export function mayUseMail(mx: DnsFacts['mx'], spf: string[]): boolean {
  const hasRealMx = realMx(mx).length > 0;
  const authorizes = spf.some((r) =>
    r
      .trim()
      .split(/\s+/)
      .slice(1)
      .some((term) => !/^[+?~-]?all$/i.test(term)),
  );
  return hasRealMx || authorizes;
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
  const spf = joinTxt(txt).filter((t) => /^v=spf1(\s|$)/i.test(t));
  const zone = organizational ?? domain;
  const usesMail = mayUseMail(mx, spf);
  const [dkim, dnssec, spfWalk] = await Promise.all([
    usesMail ? findDkim(domain, resolver, errors) : Promise.resolve([]),
    resolver.dnssec(zone).catch(() => null),
    spf.length === 1 ? walkSpf(domain, spf[0] as string, resolver) : Promise.resolve(undefined),
  ]);
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
    spf,
    ...(spfWalk ? { spfWalk } : {}),
    dmarc,
    dmarcAt,
    organizationalDomain: organizational,
    caa,
    caaAt,
    mtaSts: joinTxt(mtaSts).filter((t) => /^v=STSv1\s*(;|$)/i.test(t)),
    tlsRpt: joinTxt(tlsRpt).filter((t) => /^v=TLSRPTv1\s*(;|$)/i.test(t)),
    dkim,
    dkimSelectorsAsked: usesMail ? DKIM_SELECTORS : [],
    dnssec: dnssec ? { ...dnssec, zone } : null,
    errors,
  };
}

async function findDkim(domain: string, resolver: AuditResolver, errors: string[]): Promise<DnsFacts['dkim']> {
  const found = await Promise.all(
    DKIM_SELECTORS.map(async (selector) => {
      const txt = await records(() => resolver.resolveTxt(`${selector}._domainkey.${domain}`), errors, 'DKIM');
      // RFC 6376 3.6.1: v= is optional but first when present; a key record always has p=.
      const record = joinTxt(txt).find((t) => /^v=DKIM1\s*(;|$)/i.test(t) || /(^|;)\s*p\s*=/i.test(t));
      return record ? { selector, record } : undefined;
    }),
  );
  return found.filter((f): f is { selector: string; record: string } => f !== undefined);
}
