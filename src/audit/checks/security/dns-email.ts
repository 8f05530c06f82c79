// dns_email_trust: mail exchangers, SPF, DMARC and CAA (after internet.nl's mail tests).
import { type CheckResult, type CheckSpec, fail, info, pass } from '../../checks.ts';
import { type DnsFacts, isNullExchange, realMx } from '../../net/dns-facts.ts';
import { lookupTerms } from '../../net/spf-walk.ts';
import { quote, quoteAll } from '../../quote.ts';
import { dig, RFC } from '../../standards.ts';
import { dnsSuggestion } from '../../suggestions.ts';
import { SPF_LOOKUPS_SPEC, spfLookupsRow } from './spf-lookups.ts';

export const DNS_SPECS = {
  mx: {
    id: 'mx-records',
    label: 'Mail exchangers (or a null MX) are published',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'low',
    cite: {
      references: [
        RFC(5321, '5.1', 'Locating the Target Host'),
        RFC(7505, '', 'A "Null MX" No Service Resource Record'),
      ],
      verify: dig('MX', '{domain}'),
      anchors: ['internet.nl'],
    },
  },
  spf: {
    id: 'spf',
    label: 'One SPF record that ends strictly',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'medium',
    cite: {
      references: [RFC(7208, '4.6', 'Record Evaluation (all mechanism)')],
      verify: `${dig('TXT', '{domain}')} | grep -i spf1`,
      anchors: ['internet.nl'],
    },
  },
  spfLookups: SPF_LOOKUPS_SPEC,
  dmarc: {
    id: 'dmarc',
    label: 'DMARC with an enforcing policy',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'medium',
    cite: {
      references: [RFC(7489, '6.3', 'General Record Format (p=, sp=)')],
      verify: dig('TXT', '_dmarc.{domain}'),
      anchors: ['internet.nl'],
    },
  },
  caa: {
    id: 'caa',
    label: 'CAA names the certificate authorities allowed',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'low',
    cite: {
      references: [RFC(8659, '4', 'Mechanism (CAA record)')],
      verify: dig('CAA', '{domain}'),
      anchors: ['internet.nl'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = DNS_SPECS;

/** SPF includes of the mail hosts MX records most often name (each provider's setup guide). */
const SPF_BY_MX: Array<[RegExp, string]> = [
  [/\.(google|googlemail)\.com\.?$/i, 'include:_spf.google.com'],
  [/\.mail\.protection\.outlook\.com\.?$/i, 'include:spf.protection.outlook.com'],
  [/\.zoho\.(com|eu)\.?$/i, 'include:zohomail.com'],
  [/\.messagingengine\.com\.?$/i, 'include:spf.messagingengine.com'],
  [/\.protonmail\.ch\.?$/i, 'include:_spf.protonmail.ch'],
  [/\.mailgun\.org\.?$/i, 'include:mailgun.org'],
];

/** The SPF record to start from: the provider's include for the MX hosts, else "mx", else none. */
export function suggestedSpf(mx: DnsFacts['mx']): string {
  const real = realMx(mx);
  if (real.length === 0) return 'v=spf1 -all';
  const includes = [
    ...new Set(real.flatMap((m) => SPF_BY_MX.filter(([host]) => host.test(m.exchange)).map(([, term]) => term))),
  ];
  return `v=spf1 ${includes.length > 0 ? includes.join(' ') : 'mx'} -all`;
}

/** CAA issuer domains by the names CAs give their issuing certificates (their CPS documents). */
const CAA_BY_ISSUER: Array<[RegExp, string]> = [
  [/^(R|E)\d+$|let'?s encrypt/i, 'letsencrypt.org'],
  [/^W[ER]\d|GTS|Google Trust/i, 'pki.goog'],
  [/DigiCert|GeoTrust|RapidSSL|Thawte/i, 'digicert.com'],
  [/Sectigo|ZeroSSL|COMODO/i, 'sectigo.com'],
  [/Amazon/i, 'amazon.com'],
  [/GlobalSign|AlphaSSL/i, 'globalsign.com'],
  [/SSL\.com/i, 'ssl.com'],
  [/Entrust/i, 'entrust.net'],
];

export const caaIssuer = (issuer: string | undefined) =>
  issuer ? CAA_BY_ISSUER.find(([name]) => name.test(issuer))?.[1] : undefined;

function caaAction(domain: string, issuer: string | undefined): string {
  const known = caaIssuer(issuer);
  const which = known
    ? `${known} issued the current certificate`
    : issuer
      ? `the current certificate comes from ${quote(issuer)}: use that CA's CAA domain in place of letsencrypt.org`
      : 'letsencrypt.org is an example: use your CA’s CAA domain';
  return `Add CAA records to ${domain} naming the CA in use (${which}) and an iodef address for reports.`;
}

/** RFC 7208 4.6.4: the terms of this record alone that a receiver evaluates and that cost a DNS lookup. */
export function spfLookups(record: string): number {
  return lookupTerms(record).length;
}

/** The qualifier of the record's `all` term (a bare `all` is `+all`), or undefined without one. */
export function spfAll(record: string): string | undefined {
  const match = /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record);
  return match ? match[1] || '+' : undefined;
}

/**
 * A subdomain that publishes no MX and no SPF serves the web, not mail: demanding mail records of it
 * is noise (issue 10). Its organizational domain's DMARC (sp=) is what guards its name in From:.
 */
function webOnlySubdomain(dns: DnsFacts): boolean {
  const subdomain = dns.organizationalDomain !== null && dns.organizationalDomain !== dns.domain;
  return subdomain && dns.mx.length === 0 && dns.spf.length === 0;
}

function notMailRows(dns: DnsFacts): CheckResult[] {
  const detail = `${dns.domain} is a web-only subdomain of ${dns.organizationalDomain} (no MX, no SPF): it needs no mail records of its own`;
  const none = { detail, title: '', remediation: '', agentAction: '', finding: false };
  return [info(S.mx, none), info(S.spf, none), info(S.spfLookups, none)];
}

/** `issuer`: the name of the certificate's issuer, for the CAA record to suggest. */
export function dnsEmailChecks(dns: DnsFacts, siteUrl: string, issuer?: string): CheckResult[] {
  const rows: CheckResult[] = [];
  if (webOnlySubdomain(dns)) return [...notMailRows(dns), ...dmarcAndBeyond(dns, siteUrl, issuer)];
  const nulls = dns.mx.filter(isNullExchange).length;
  const nullMx = nulls === 1 && dns.mx.length === 1;
  rows.push(
    nulls > 0 && !nullMx
      ? fail(S.mx, {
          detail: `a null MX beside ${dns.mx.length - 1} other record(s): RFC 7505 3 forbids mixing them, and senders may treat the domain as taking no mail`,
          title: 'A null MX is mixed with real mail exchangers',
          remediation: 'Publish either the real mail exchangers or one null MX ("0 ."), not both (RFC 7505).',
          agentAction: `Delete the MX record "0 ." of ${dns.domain} if it takes mail, or every other MX record if it does not.`,
          affectedUrls: [siteUrl],
          evidence: [{ type: 'check', summary: `MX: ${quoteAll(dns.mx.map((m) => m.exchange || '.'))}` }],
        })
      : dns.mx.length > 0
        ? pass(
            S.mx,
            nullMx ? 'null MX: the domain says it takes no mail' : `MX: ${quoteAll(dns.mx.map((m) => m.exchange))}`,
          )
        : fail(S.mx, {
            detail: `${dns.domain} publishes no MX record`,
            title: 'No MX record (not even a null MX)',
            remediation:
              'Publish the mail exchangers, or a null MX ("0 .") if the domain sends and receives no mail (RFC 7505).',
            agentAction: `Add an MX record for ${dns.domain}, or "${dns.domain}. MX 0 ." if it takes no mail.`,
            affectedUrls: [siteUrl],
            evidence: [{ type: 'check', summary: `no MX for ${dns.domain}` }],
          }),
  );

  const spfTitle = (text: string) => `SPF: ${text}`;
  if (dns.spf.length === 0) {
    rows.push(
      fail(S.spf, {
        detail: `${dns.domain} has no SPF record`,
        title: spfTitle('none published, so anyone can send mail as the domain'),
        remediation:
          'Publish an SPF TXT record listing who may send mail for the domain, ending in -all (or "v=spf1 -all" if it sends none).',
        agentAction: `Add a TXT record to ${dns.domain}: "v=spf1 include:<your mail provider> -all" (or "v=spf1 -all" if it sends no mail).`,
        affectedUrls: [siteUrl],
        suggestions: [dnsSuggestion(dns.domain, [{ name: dns.domain, type: 'TXT', value: suggestedSpf(dns.mx) }])],
        evidence: [{ type: 'check', summary: 'no v=spf1 TXT record' }],
      }),
    );
  } else if (dns.spf.length > 1) {
    rows.push(
      fail(S.spf, {
        severity: 'high',
        detail: `${dns.spf.length} SPF records; receivers treat that as a permanent error`,
        title: spfTitle('more than one record'),
        remediation: 'Merge the SPF records into one TXT record (RFC 7208 3.2).',
        agentAction: `Merge these into one TXT record: ${quoteAll(dns.spf, ' | ')}`,
        affectedUrls: [siteUrl],
        evidence: dns.spf.map((r) => ({ type: 'check' as const, summary: quote(r) })),
      }),
    );
  } else {
    const record = dns.spf[0] as string;
    const all = spfAll(record);
    if (all === '+') {
      rows.push(
        fail(S.spf, {
          severity: 'high',
          detail: 'SPF ends in +all: every server may send as the domain',
          title: spfTitle('+all allows anyone'),
          remediation: 'End SPF with -all (or ~all while testing).',
          agentAction: `Change "+all" to "-all" in the SPF record of ${dns.domain}.`,
          affectedUrls: [siteUrl],
          evidence: [{ type: 'check', summary: quote(record) }],
        }),
      );
    } else if (all === undefined || all === '?') {
      rows.push(
        fail(S.spf, {
          severity: 'low',
          detail: all === '?' ? 'SPF ends in ?all (neutral)' : 'SPF has no all term',
          title: spfTitle('ends weakly'),
          remediation: 'End SPF with -all (or ~all) so receivers know other senders are not allowed.',
          agentAction: `Append "-all" to the SPF record of ${dns.domain}.`,
          affectedUrls: [siteUrl],
          evidence: [{ type: 'check', summary: quote(record) }],
        }),
      );
    } else {
      rows.push(pass(S.spf, record));
    }
  }
  rows.push(spfLookupsRow(dns, siteUrl));

  rows.push(...dmarcAndBeyond(dns, siteUrl, issuer));
  return rows;
}

// The policy tags of a DMARC record, and their value none for the suggested change. Literal
// patterns, one per tag, so the ReDoS gate (test/audit/regex-safety.test.ts) reads each.
type DmarcPolicyTag = 'p' | 'sp';
const DMARC_TAG: Record<DmarcPolicyTag, RegExp> = {
  p: /(?:^|;)\s*p\s*=\s*(\w+)/i,
  sp: /(?:^|;)\s*sp\s*=\s*(\w+)/i,
};
const DMARC_NONE: Record<DmarcPolicyTag, RegExp> = {
  p: /((?:^|;)\s*p\s*=\s*)none/i,
  sp: /((?:^|;)\s*sp\s*=\s*)none/i,
};

/** DMARC and CAA: asked of every name, mail or not. */
function dmarcAndBeyond(dns: DnsFacts, siteUrl: string, issuer: string | undefined): CheckResult[] {
  const rows: CheckResult[] = [];
  const dmarc = dns.dmarc[0];
  const dmarcAt = dns.dmarcAt ?? dns.domain;
  // Inherited from the organizational domain (RFC 7489 6.6.3): its sp= governs subdomains, else its p=.
  const inherited = dmarcAt !== dns.domain;
  const tag = (name: DmarcPolicyTag) => (dmarc ? DMARC_TAG[name].exec(dmarc)?.[1]?.toLowerCase() : undefined);
  const policy = inherited ? (tag('sp') ?? tag('p')) : tag('p');
  const source = inherited ? ` (from _dmarc.${dmarcAt}, the organizational domain, which covers ${dns.domain})` : '';
  rows.push(
    !dmarc
      ? fail(S.dmarc, {
          detail: `_dmarc.${dns.domain} has no DMARC record`,
          title: 'No DMARC: spoofed mail from the domain is not rejected',
          remediation: 'Publish a DMARC record, start with p=none and reporting, then move to quarantine or reject.',
          agentAction: `Add a TXT record at _dmarc.${dns.domain}: "v=DMARC1; p=quarantine; rua=mailto:dmarc@${dns.domain}".`,
          affectedUrls: [siteUrl],
          suggestions: [
            dnsSuggestion(dns.domain, [
              {
                name: `_dmarc.${dns.domain}`,
                type: 'TXT',
                value: `v=DMARC1; p=quarantine; rua=mailto:dmarc@${dns.domain}`,
              },
            ]),
          ],
          evidence: [{ type: 'check', summary: 'no v=DMARC1 record' }],
        })
      : policy === 'none' || policy === undefined
        ? fail(S.dmarc, {
            severity: 'low',
            detail: `DMARC policy is ${policy === undefined ? 'missing' : quote(policy)}${source}: spoofed mail is only reported`,
            title: 'DMARC only monitors (p=none)',
            remediation: 'Once reports look clean, raise the policy to p=quarantine, then p=reject.',
            agentAction: `Change ${inherited && tag('sp') ? 'sp' : 'p'}=none to quarantine in the DMARC record at _dmarc.${dmarcAt}.`,
            affectedUrls: [siteUrl],
            suggestions: [
              dnsSuggestion(dmarcAt, [
                {
                  name: `_dmarc.${dmarcAt}`,
                  type: 'TXT',
                  value:
                    policy === undefined
                      ? dmarc.replace(/^v=DMARC1\s*;?\s*/i, 'v=DMARC1; p=quarantine; ')
                      : dmarc.replace(DMARC_NONE[inherited && tag('sp') ? 'sp' : 'p'], '$1quarantine'),
                },
              ]),
            ],
            evidence: [{ type: 'check', summary: dmarc }],
          })
        : pass(S.dmarc, `${dmarc}${source}`),
  );
  rows.push(
    dns.caa.length > 0
      ? pass(S.caa, `CAA at ${dns.caaAt}: ${quoteAll(dns.caa.map((c) => `${c.tag} ${c.value}`))}`)
      : fail(S.caa, {
          detail: 'no CAA record: any certificate authority may issue for the domain',
          title: 'No CAA record',
          remediation: 'Publish CAA records naming the CAs you use, so no other CA issues certificates for the domain.',
          agentAction: caaAction(dns.domain, issuer),
          affectedUrls: [siteUrl],
          suggestions: [
            dnsSuggestion(dns.domain, [
              { name: dns.domain, type: 'CAA', value: `0 issue "${caaIssuer(issuer) ?? 'letsencrypt.org'}"` },
              { name: dns.domain, type: 'CAA', value: `0 iodef "mailto:security@${dns.domain}"` },
            ]),
          ],
          evidence: [{ type: 'check', summary: 'no CAA' }],
        }),
  );
  return rows;
}
