// dns_email_trust past internet.nl: MTA-STS (DNS record and policy file), TLS-RPT, DKIM keys at the
// selectors large senders use, the lock-down of a domain that takes no mail, and DNSSEC.
import { type CheckResult, type CheckSpec, fail, note, pass } from '../../checks.ts';
import { dkimKey, mtaStsRecordProblem, mxMatches, parseMtaStsPolicy, tlsRptRecordProblem } from '../../mail-records.ts';
import { DKIM_SELECTORS, type DnsFacts, isNullExchange, mayUseMail, realMx } from '../../net/dns-facts.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import { quote, quoteAll } from '../../quote.ts';
import { dig, RFC } from '../../standards.ts';
import { dnsSuggestion } from '../../suggestions.ts';

export const MAIL_SPECS = {
  mtaSts: {
    id: 'mta-sts',
    label: 'MTA-STS makes senders require TLS to the MX hosts',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'medium',
    cite: {
      references: [RFC(8461, '3', 'Policy Discovery (record and policy file)'), RFC(8461, '4.1', 'MX Host Validation')],
      verify: `${dig('TXT', '_mta-sts.{domain}')}; curl -sSi https://mta-sts.{domain}/.well-known/mta-sts.txt`,
      anchors: [],
    },
  },
  tlsRpt: {
    id: 'tls-rpt',
    label: 'TLS-RPT asks senders to report TLS failures',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'low',
    cite: {
      references: [RFC(8460, '3', 'Reporting Policy')],
      verify: dig('TXT', '_smtp._tls.{domain}'),
      anchors: [],
    },
  },
  dkim: {
    id: 'dkim',
    label: 'DKIM keys are published and strong',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'medium',
    cite: {
      references: [RFC(6376, '3.6.1', 'Textual Representation (key records)'), RFC(8301, '3.2', 'Key Sizes')],
      verify: `for s in ${DKIM_SELECTORS.join(' ')}; do ${dig('TXT', '$s._domainkey.{domain}')} | tr -d '" ' | sed -n 's|.*p=\\([A-Za-z0-9+/=]*\\).*|\\1|p' | base64 -d 2>/dev/null | openssl pkey -pubin -inform DER -noout -text 2>/dev/null | sed -n "s/^.*Public-Key: /$s: /p"; done`,
      anchors: ['internet.nl'],
    },
  },
  noMail: {
    id: 'no-mail-domain-locked',
    label: 'A domain that takes no mail says so (null MX and SPF -all)',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'medium',
    cite: {
      references: [
        RFC(7505, '3', 'Null MX for domains that do not accept mail'),
        RFC(7208, '4.6', 'Record Evaluation (all mechanism)'),
      ],
      verify: `${dig('MX', '{domain}')}; ${dig('TXT', '{domain}')} | grep -i spf1`,
      anchors: ['internet.nl'],
    },
  },
  dnssec: {
    id: 'dnssec',
    label: 'The DNS zone is signed (DNSSEC)',
    category: 'security',
    pillar: 'dns_email_trust',
    severity: 'low',
    cite: {
      references: [RFC(4033, '3', 'Services Provided by DNS Security'), RFC(4035, '5', 'Authenticating DNS Responses')],
      verify: `${dig('DS', '{domain}')}; ${dig('DNSKEY', '{domain}')}`,
      anchors: ['internet.nl'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = MAIL_SPECS;

export interface MailPolicyFetch {
  url: string;
  page?: FetchedPage;
  error?: string;
}

const isNullMx = (mx: DnsFacts['mx']) => mx.length > 0 && mx.every(isNullExchange);

export function mailHardeningChecks(
  dns: DnsFacts,
  policy: MailPolicyFetch | undefined,
  siteUrl: string,
): CheckResult[] {
  const receives = realMx(dns.mx).length > 0;
  return [
    receives ? mtaSts(dns, policy, siteUrl) : note(S.mtaSts, `${dns.domain} receives no mail (no MX host)`),
    receives ? tlsRpt(dns, siteUrl) : note(S.tlsRpt, `${dns.domain} receives no mail (no MX host)`),
    dkim(dns, siteUrl),
    noMailLockdown(dns, siteUrl),
    ...(dns.dnssec ? [dnssec(dns.dnssec, siteUrl)] : []),
  ];
}

function mtaSts(dns: DnsFacts, policy: MailPolicyFetch | undefined, siteUrl: string): CheckResult {
  const where = `_mta-sts.${dns.domain}`;
  const policyUrl = policy?.url ?? `https://mta-sts.${dns.domain}/.well-known/mta-sts.txt`;
  const served = policy?.page?.status === 200 ? policy.page : undefined;
  const mxHosts = realMx(dns.mx).map((m) => m.exchange.replace(/\.$/, ''));
  // One id for the record the action names and the one the suggestion writes.
  const id = stsId();
  const broken = (detail: string, title: string, severity: 'high' | 'medium' | 'low' = 'medium') =>
    fail(S.mtaSts, {
      severity,
      detail,
      title: `MTA-STS: ${title}`,
      remediation:
        'Publish one TXT record "v=STSv1; id=<date-time>" at _mta-sts.<domain> and serve the policy at https://mta-sts.<domain>/.well-known/mta-sts.txt as text/plain, with no redirect, listing every MX host (RFC 8461). Change the id whenever the policy changes.',
      agentAction: `Serve the suggested policy at ${policyUrl} (text/plain, HTTPS with a valid certificate for mta-sts.${dns.domain}, no redirect) and publish the TXT record ${where} "v=STSv1; id=${id}"; start with mode: testing if unsure, then enforce.`,
      suggestions: [
        {
          label: 'MTA-STS policy',
          target: policyUrl,
          format: 'text',
          content: ['version: STSv1', 'mode: enforce', ...mxHosts.map((h) => `mx: ${h}`), 'max_age: 604800'].join('\n'),
        },
        dnsSuggestion(dns.domain, [{ name: where, type: 'TXT', value: `v=STSv1; id=${id}` }]),
      ],
      affectedUrls: [siteUrl],
      evidence: [
        { type: 'check', summary: dns.mtaSts.length > 0 ? `${where}: ${quoteAll(dns.mtaSts, ' | ')}` : `no ${where}` },
        {
          type: 'check',
          url: policyUrl,
          summary: served ? quote(served.body.slice(0, 300)) : (policy?.error ?? `HTTP ${policy?.page?.status}`),
        },
      ],
    });
  if (dns.mtaSts.length === 0)
    return served
      ? broken(
          `a policy is served at ${policyUrl}, but ${where} has no v=STSv1 record`,
          'the DNS record is missing, so senders never read the policy',
        )
      : broken(
          `no v=STSv1 record at ${where}: a sender cannot tell that ${dns.domain} requires TLS, so mail can be downgraded to plain text`,
          'not published',
          'low',
        );
  if (dns.mtaSts.length > 1)
    return broken(
      `${dns.mtaSts.length} v=STSv1 records at ${where}; senders then ignore the policy (RFC 8461 3.1)`,
      'more than one DNS record',
    );
  const recordProblem = mtaStsRecordProblem(dns.mtaSts[0] as string);
  if (recordProblem) return broken(`${where}: ${recordProblem}`, 'the DNS record is malformed');
  if (!served)
    return broken(
      `the policy at ${policyUrl} could not be read: ${policy?.error ?? `HTTP ${policy?.page?.status}`}`,
      'the policy file is not served',
    );
  if (served.redirects.length > 0)
    return broken(
      `${policyUrl} redirects to ${served.url}; senders do not follow redirects (RFC 8461 3.3)`,
      'the policy is behind a redirect',
    );
  const type = served.headers['content-type'] ?? '';
  if (!/^text\/plain\b/i.test(type))
    return broken(
      `the policy is served as ${quote(type || 'no content type')}, not text/plain (RFC 8461 3.3)`,
      'the policy has the wrong media type',
    );
  const parsed = parseMtaStsPolicy(served.body);
  if (parsed.problems.length > 0)
    return broken(`the policy is invalid: ${parsed.problems.join('; ')}`, 'the policy is invalid');
  const uncovered = mxHosts.filter((host) => !parsed.mx.some((pattern) => mxMatches(pattern, host)));
  if (uncovered.length > 0 && parsed.mode !== 'none')
    return broken(
      `the policy's mx lines (${parsed.mx.join(', ')}) do not cover ${uncovered.join(', ')}${parsed.mode === 'enforce' ? ': senders that enforce the policy refuse to deliver there' : ''}`,
      'the policy does not match the MX hosts',
      parsed.mode === 'enforce' ? 'high' : 'medium',
    );
  if (parsed.mode === 'none')
    return broken('the policy says mode: none, so senders apply no policy', 'switched off', 'low');
  return pass(
    S.mtaSts,
    `mode ${parsed.mode}, max_age ${parsed.maxAge}, mx ${parsed.mx.join(', ')}${parsed.mode === 'testing' ? ' (testing: failures are reported, not enforced)' : ''}`,
  );
}

/** An MTA-STS id from the current time, as the RFC's example does (20160831085700Z). */
const stsId = () => `${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

function tlsRpt(dns: DnsFacts, siteUrl: string): CheckResult {
  const where = `_smtp._tls.${dns.domain}`;
  const problem =
    dns.tlsRpt.length === 0
      ? `no v=TLSRPTv1 record at ${where}: failed TLS deliveries to ${dns.domain} go unreported`
      : dns.tlsRpt.length > 1
        ? `${dns.tlsRpt.length} v=TLSRPTv1 records at ${where}; senders then send no reports (RFC 8460 3)`
        : tlsRptRecordProblem(dns.tlsRpt[0] as string);
  if (!problem) return pass(S.tlsRpt, dns.tlsRpt[0] as string);
  return fail(S.tlsRpt, {
    detail: problem,
    title:
      dns.tlsRpt.length === 0 ? 'No TLS-RPT: nobody hears about failed TLS deliveries' : 'TLS-RPT record is invalid',
    remediation:
      'Publish one TXT record "v=TLSRPTv1; rua=mailto:<address>" at _smtp._tls.<domain>, so senders report TLS and MTA-STS failures daily (RFC 8460).',
    agentAction: `Add the TXT record ${where} "v=TLSRPTv1; rua=mailto:tls-reports@${dns.domain}".`,
    suggestions: [
      dnsSuggestion(dns.domain, [
        { name: where, type: 'TXT', value: `v=TLSRPTv1; rua=mailto:tls-reports@${dns.domain}` },
      ]),
    ],
    affectedUrls: [siteUrl],
    evidence: [{ type: 'check', summary: dns.tlsRpt.length > 0 ? quoteAll(dns.tlsRpt, ' | ') : `no ${where}` }],
  });
}

function dkim(dns: DnsFacts, siteUrl: string): CheckResult {
  if (!mayUseMail(dns.mx, dns.spf)) return note(S.dkim, `${dns.domain} sends no mail by its MX and SPF records`);
  const asked = dns.dkimSelectorsAsked.length;
  if (dns.dkim.length === 0)
    return note(
      S.dkim,
      `no DKIM key at the ${asked} common selectors (${dns.dkimSelectorsAsked.join(', ')}); selectors cannot be listed from DNS, so read s= in the DKIM-Signature of a message the domain sent`,
    );
  const keys = dns.dkim.map((found) => ({ ...found, key: dkimKey(found.record) }));
  const live = keys.filter((k) => !k.key.revoked);
  const describe = (k: (typeof keys)[number]) =>
    `${k.selector}: ${k.key.revoked ? 'revoked (empty p=)' : k.key.bits === null ? `${k.key.type} key that does not parse` : `${k.key.type} ${k.key.bits} bits`}`;
  const found = keys.map(describe).join('; ');
  if (live.length === 0) return note(S.dkim, `only revoked keys found (${found})`);
  const unreadable = live.filter((k) => k.key.bits === null);
  const weak = live.filter((k) => k.key.type === 'rsa' && k.key.bits !== null && k.key.bits < 2048);
  if (unreadable.length === 0 && weak.length === 0) return pass(S.dkim, found);
  const broken = unreadable.length > 0 || weak.some((k) => (k.key.bits as number) < 1024);
  return fail(S.dkim, {
    severity: broken ? 'medium' : 'low',
    detail: broken
      ? `keys receivers cannot use (RSA under 1024 bits is refused by RFC 8301, or the key does not parse): ${found}`
      : `1024-bit RSA keys, below the 2048 bits RFC 8301 recommends: ${found}`,
    title: broken ? 'DKIM keys that receivers refuse' : 'DKIM keys of 1024 bits',
    remediation:
      'Generate a 2048-bit RSA (or Ed25519, with RSA beside it) DKIM key in the mail provider, publish it under a new selector, switch signing to it, then revoke the old selector with an empty p=.',
    agentAction: `Rotate the DKIM key(s) ${[...unreadable, ...weak].map((k) => `${k.selector}._domainkey.${dns.domain}`).join(', ')} to 2048-bit RSA under a new selector in the mail provider's settings; after a week publish "v=DKIM1; p=" at the old selector.`,
    affectedUrls: [siteUrl],
    evidence: [...unreadable, ...weak].map((k) => ({
      type: 'check' as const,
      summary: `${k.selector}._domainkey.${dns.domain}: ${describe(k)}`,
    })),
  });
}

/**
 * RFC 7505 and M3AAWG's parked-domain advice: a domain that takes and sends no mail publishes a null
 * MX and "v=spf1 -all" (and DMARC p=reject), so nobody can send as it and nobody tries to deliver.
 */
function noMailLockdown(dns: DnsFacts, siteUrl: string): CheckResult {
  const nullMx = isNullMx(dns.mx);
  const saysNoSpf = dns.spf.length > 0 && !mayUseMail([], dns.spf);
  const usesMail = mayUseMail(dns.mx, dns.spf);
  if (usesMail || (!nullMx && !saysNoSpf))
    return note(S.noMail, usesMail ? `${dns.domain} uses mail` : `no sign that ${dns.domain} is mail-free`);
  const strictSpf = dns.spf.length === 1 && /^v=spf1\s+-all\s*$/i.test(dns.spf[0] as string);
  const missing = [
    ...(nullMx ? [] : [`a null MX ("${dns.domain}. MX 0 .")`]),
    ...(strictSpf ? [] : [`SPF "v=spf1 -all" (now ${quoteAll(dns.spf, ' | ')})`]),
  ];
  if (missing.length === 0) return pass(S.noMail, 'null MX and "v=spf1 -all": the domain takes and sends no mail');
  return fail(S.noMail, {
    detail: `${dns.domain} looks mail-free but lacks ${missing.join(' and ')}`,
    title: 'A mail-free domain is not locked down',
    remediation:
      'A domain that neither sends nor receives mail should publish a null MX (RFC 7505) and the SPF record "v=spf1 -all", and DMARC p=reject, so no one can send mail in its name and no sender queues mail for it.',
    agentAction: `Publish for ${dns.domain}: MX "0 ." and TXT "v=spf1 -all" (replacing any other SPF record), plus TXT at _dmarc.${dns.domain} "v=DMARC1; p=reject".`,
    suggestions: [
      dnsSuggestion(dns.domain, [
        { name: dns.domain, type: 'MX', value: '0 .' },
        { name: dns.domain, type: 'TXT', value: 'v=spf1 -all' },
        { name: `_dmarc.${dns.domain}`, type: 'TXT', value: 'v=DMARC1; p=reject' },
      ]),
    ],
    affectedUrls: [siteUrl],
    evidence: [
      { type: 'check', summary: `MX: ${dns.mx.length > 0 ? quoteAll(dns.mx.map((m) => m.exchange || '.')) : 'none'}` },
      { type: 'check', summary: `SPF: ${dns.spf.length > 0 ? quoteAll(dns.spf, ' | ') : 'none'}` },
    ],
  });
}

function dnssec(answer: NonNullable<DnsFacts['dnssec']>, siteUrl: string): CheckResult {
  const zone = answer.zone;
  const failure = (severity: 'high' | 'low', detail: string, title: string) =>
    fail(S.dnssec, {
      severity,
      detail,
      title,
      remediation:
        severity === 'high'
          ? 'Fix the signing at the DNS host or remove the DS record at the registrar until it is fixed: validating resolvers (used by a large share of users) cannot resolve the domain at all while its signatures fail.'
          : 'Turn on DNSSEC signing at the DNS host, then publish the DS record it gives at the registrar, so resolvers can detect forged answers (RFC 4033).',
      agentAction:
        severity === 'high'
          ? `Check ${zone} at https://dnsviz.net/d/${zone}/dnssec/ and fix the signing or the DS record at the registrar.`
          : `Enable DNSSEC for ${zone} at the DNS host and add its DS record at the registrar.`,
      affectedUrls: [siteUrl],
      evidence: [
        {
          type: 'check',
          summary: `${zone}: DS ${answer.ds}, DNSKEY ${answer.dnskey}${answer.bogus ? ', SERVFAIL unless checking is disabled' : ''}`,
        },
      ],
    });
  if (answer.bogus || (answer.ds > 0 && answer.dnskey === 0))
    return failure(
      'high',
      `${zone} has a DS record but its answers do not validate`,
      'DNSSEC is broken: validating resolvers cannot resolve the domain',
    );
  if (answer.ds > 0)
    return pass(
      S.dnssec,
      `${zone} is signed (DS at the parent, ${answer.dnskey} DNSKEY)${answer.authenticated ? ' and the resolver validated it' : ''}`,
    );
  if (answer.dnskey > 0)
    return failure(
      'low',
      `${zone} publishes DNSKEY but the parent has no DS record, so no resolver validates it`,
      'DNSSEC: the chain of trust is not linked',
    );
  return failure('low', `${zone} is not signed (no DS, no DNSKEY)`, 'DNS answers for the domain are not signed');
}
