// transport_trust: HTTPS, the redirect from http, HSTS, the certificate, and mixed content.
import { getDomain } from 'tldts';
import { type CheckResult, type CheckSpec, fail, note, pageEvidence, pass } from '../../checks.ts';
import type { CrawledPage } from '../../crawler.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import type { TlsProbe } from '../../net/tls.ts';
import { quote } from '../../quote.ts';
import { HTTPS_CITE, header, MIXED_CONTENT_CITE, RFC, ref } from '../../standards.ts';
import { headerSuggestions } from '../../suggestions.ts';

export const TRANSPORT_SPECS = {
  https: {
    id: 'https-available',
    label: 'The site answers over HTTPS',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'critical',
    cite: HTTPS_CITE,
  },
  redirect: {
    id: 'http-redirects-to-https',
    label: 'http:// redirects to https:// on the same host',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'high',
    cite: {
      references: [RFC(6797, '7.2', 'HTTP Request Type (redirect to HTTPS)')],
      verify: 'curl -sSI http://{host}/ | grep -i -E "^(HTTP|location)"',
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  hsts: {
    id: 'hsts',
    label: 'Strict-Transport-Security for at least 6 months',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'high',
    cite: {
      references: [RFC(6797, '6.1', 'Strict-Transport-Security Response Header Field')],
      verify: header('strict-transport-security'),
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  hstsPreload: {
    id: 'hsts-preload',
    label: 'An HSTS preload request meets the preload list’s requirements',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'medium',
    cite: {
      references: [ref('hstspreload.org: submission requirements', 'https://hstspreload.org/#submission-requirements')],
      verify: `${header('strict-transport-security')}; curl -sSI http://{host}/ | grep -i -E "^(HTTP|location)"`,
      anchors: ['Observatory'],
    },
  },
  cert: {
    id: 'certificate-valid',
    label: 'The certificate is valid for the host',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'critical',
    cite: {
      references: [RFC(9525, '', 'Service Identity in TLS'), RFC(5280, '6', 'Certification Path Validation')],
      verify:
        'openssl s_client -connect {host}:443 -servername {host} -verify_hostname {host} -verify_return_error </dev/null 2>&1 | grep -E "Verify return code|verify error"',
      anchors: ['internet.nl'],
    },
  },
  expiry: {
    id: 'certificate-expiry',
    label: 'The certificate is not about to expire',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'medium',
    cite: {
      references: [RFC(5280, '4.1.2.5', 'Validity')],
      verify:
        'openssl s_client -connect {host}:443 -servername {host} </dev/null 2>/dev/null | openssl x509 -noout -enddate',
      anchors: ['internet.nl'],
    },
  },
  mixed: {
    id: 'no-mixed-content-security',
    label: 'HTTPS pages load nothing over http',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'medium',
    cite: MIXED_CONTENT_CITE,
  },
  legacyTls: {
    id: 'tls-legacy-versions-refused',
    label: 'TLS 1.0 and 1.1 are refused',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'medium',
    cite: {
      references: [RFC(8996, '', 'Deprecating TLS 1.0 and TLS 1.1')],
      verify:
        'openssl s_client -connect {host}:443 -servername {host} -tls1_1 -cipher DEFAULT@SECLEVEL=0 </dev/null 2>&1 | grep -E "Protocol|alert"',
      anchors: ['internet.nl'],
    },
  },
  keyStrength: {
    id: 'certificate-key-strength',
    label: 'The certificate key is strong (RSA 2048 bits or more, EC 256 bits or more)',
    category: 'security',
    pillar: 'transport_trust',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'CA/Browser Forum Baseline Requirements §6.1.5: Key sizes',
          'https://cabforum.org/working-groups/server/baseline-requirements/requirements/',
        ),
        ref('NIST SP 800-57 Part 1 Rev. 5: key strengths', 'https://csrc.nist.gov/pubs/sp/800/57/pt1/r5/final'),
      ],
      verify:
        'openssl s_client -connect {host}:443 -servername {host} -cipher DEFAULT@SECLEVEL=0 </dev/null 2>/dev/null | openssl x509 -noout -text | grep "Public-Key"',
      anchors: ['internet.nl'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = TRANSPORT_SPECS;
const SIX_MONTHS = 15_552_000;
const ONE_YEAR = 31_536_000;

/**
 * The directives of a Strict-Transport-Security header, or undefined when it is invalid. RFC 6797
 * 6.1: each directive appears at most once, so a header sent twice (joined by a comma) is invalid.
 */
export function parseHsts(
  header: string | undefined,
): { maxAge: number; includeSubDomains: boolean; preload: boolean } | undefined {
  if (!header) return undefined;
  const names = header
    .split(/[;,]/)
    .map((d) => d.split('=')[0]?.trim().toLowerCase())
    .filter(Boolean);
  if (new Set(names).size !== names.length) return undefined;
  const maxAge = /max-age\s*=\s*"?(\d+)"?/i.exec(header);
  if (!maxAge) return undefined;
  return {
    maxAge: Number(maxAge[1]),
    includeSubDomains: /includesubdomains/i.test(header),
    preload: /preload/i.test(header),
  };
}

export interface TransportInput {
  home: CrawledPage;
  pages: CrawledPage[];
  /** The fetch of http://host/ (or its error). */
  plain: { page?: FetchedPage; error?: string };
  tls: TlsProbe;
}

/** RFC 8996 deprecates TLS 1.0 and 1.1; internet.nl calls them "phase out". */
function legacyTls(tls: TlsProbe, url: string): CheckResult | undefined {
  const versions = tls.legacyVersions;
  if (versions === undefined) return undefined;
  if (versions.length === 0) return pass(S.legacyTls, 'the server refuses TLS 1.0 and TLS 1.1 handshakes');
  const named = versions.map((v) => (v === 'TLSv1' ? 'TLS 1.0' : 'TLS 1.1')).join(' and ');
  return fail(S.legacyTls, {
    detail: `the server completes a handshake with ${named}`,
    title: 'The server still accepts TLS 1.0 or 1.1',
    remediation:
      'TLS 1.0 and 1.1 are deprecated (RFC 8996): no current browser needs them, and they weaken what a downgrade can reach. Offer TLS 1.2 and 1.3 only.',
    agentAction:
      'Set the server’s protocols to TLS 1.2 and 1.3 only: nginx "ssl_protocols TLSv1.2 TLSv1.3;", Apache "SSLProtocol -all +TLSv1.2 +TLSv1.3", Caddy and most CDNs: set the minimum TLS version to 1.2.',
    affectedUrls: [url],
    evidence: [{ type: 'check', url, summary: `accepted: ${named}` }],
  });
}

/** NIST SP 800-57 and the CA/Browser Forum baseline: RSA at least 2048 bits, EC at least 256. */
function keyStrength(tls: TlsProbe, url: string): CheckResult | undefined {
  const key = tls.key;
  if (!key || key.bits === null) return undefined;
  const minimum = key.type === 'RSA' ? 2048 : key.type === 'EC' ? 256 : 0;
  if (key.bits >= minimum) return pass(S.keyStrength, `${key.type} ${key.bits}-bit key`);
  return fail(S.keyStrength, {
    detail: `the certificate has a ${key.type} ${key.bits}-bit key (at least ${minimum} bits expected)`,
    title: 'The certificate key is too weak',
    remediation:
      'Reissue the certificate with an RSA key of 2048 bits or more, or an EC P-256 key; keys below that can be broken and public CAs no longer issue them.',
    agentAction:
      'Generate a new key (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256) and reissue the certificate with it.',
    affectedUrls: [url],
    evidence: [{ type: 'check', url, summary: `${key.type} ${key.bits} bits` }],
  });
}

/**
 * hstspreload.org's submission rules: a valid certificate, http:// redirecting to https:// on the
 * same host, and on the registrable domain a header of at least a year with includeSubDomains and
 * preload. Asking for preload without meeting them is refused (or removed) and is a finding;
 * not asking is a choice, shown with what is missing.
 */
function hstsPreload(input: {
  hsts: ReturnType<typeof parseHsts>;
  host: string;
  url: string;
  validCertificate: boolean;
  redirects: boolean;
}): CheckResult {
  const { hsts, host } = input;
  const base = getDomain(host, { allowPrivateDomains: true });
  if (base !== host)
    return note(
      S.hstsPreload,
      `the preload list takes registrable domains: ${base ?? host} is submitted, with includeSubDomains covering ${host}${hsts?.preload ? ' (the preload directive here has no effect)' : ''}`,
    );
  const unmet = [
    ...(input.validCertificate ? [] : ['a valid certificate']),
    ...(input.redirects ? [] : ['http:// redirecting to https:// on the same host']),
    ...(!hsts ? ['a Strict-Transport-Security header'] : []),
    ...(hsts && hsts.maxAge < ONE_YEAR ? [`max-age of at least ${ONE_YEAR} (now ${hsts.maxAge})`] : []),
    ...(hsts && !hsts.includeSubDomains ? ['includeSubDomains'] : []),
  ];
  if (!hsts?.preload)
    return note(
      S.hstsPreload,
      unmet.length === 0
        ? 'not requested; the site meets the rules: add preload and submit at https://hstspreload.org once every subdomain serves HTTPS'
        : `not requested; preload would also need ${unmet.join(', ')}`,
    );
  if (unmet.length === 0)
    return pass(
      S.hstsPreload,
      `preload requested and the rules are met (every subdomain must serve HTTPS too; not checked here)`,
    );
  const header = `max-age=${Math.max(hsts.maxAge, ONE_YEAR)}; includeSubDomains; preload`;
  return fail(S.hstsPreload, {
    detail: `preload is requested, but the preload list also needs ${unmet.join(', ')}`,
    title: 'HSTS preload is requested but the site does not qualify',
    remediation:
      'hstspreload.org refuses (and later removes) domains that ask for preload without meeting its rules: a valid certificate, a same-host redirect from http://, and a header of at least a year with includeSubDomains and preload. Meet them, or drop preload until you can.',
    agentAction: `Send Strict-Transport-Security: ${header} on HTTPS responses of ${host}${input.redirects ? '' : `, redirect http://${host}/ to https://${host}/ first`}, then check https://hstspreload.org/?domain=${host}.`,
    affectedUrls: [input.url],
    evidence: [
      {
        type: 'page',
        url: input.url,
        summary: `Strict-Transport-Security: max-age=${hsts.maxAge}${hsts.includeSubDomains ? '; includeSubDomains' : ''}; preload`,
      },
    ],
    suggestions: headerSuggestions([['Strict-Transport-Security', header]]),
  });
}

export function transportChecks({ home, pages, plain, tls }: TransportInput): CheckResult[] {
  const rows: CheckResult[] = [];
  const url = home.url;
  const host = new URL(url).hostname;
  const overHttps = home.fetched !== undefined && new URL(home.fetched.url).protocol === 'https:';
  rows.push(
    overHttps
      ? pass(S.https, `https://${host}/ answered ${home.fetched?.status}`)
      : fail(S.https, {
          detail: home.error
            ? `https://${host}/ failed: ${home.error.message}`
            : `https://${host}/ ended on ${home.fetched?.url}`,
          title: 'The site does not answer over HTTPS',
          remediation: 'Serve the site over HTTPS with a certificate from a public CA (Let’s Encrypt is free).',
          agentAction: 'Configure TLS on the web server or CDN for this host, with automatic certificate renewal.',
          affectedUrls: [url],
        }),
  );
  const location = plain.page?.redirects[0] ? plain.page.url : undefined;
  const toHttps =
    location !== undefined && new URL(location).protocol === 'https:' && new URL(location).hostname === host;
  rows.push(
    toHttps
      ? pass(S.redirect, `http://${host}/ redirects to ${location}`)
      : fail(S.redirect, {
          detail: plain.error
            ? `http://${host}/ failed: ${plain.error}`
            : `http://${host}/ ${location ? `redirects to ${location}` : `answers ${plain.page?.status} without redirecting`}`,
          title: 'Plain HTTP does not redirect to HTTPS',
          remediation: 'Redirect every http:// request to the same path on https:// with a 301, on the same host.',
          agentAction:
            'Add a permanent redirect from http:// to https:// (same host and path) in the server or CDN configuration.',
          affectedUrls: [`http://${host}/`],
        }),
  );
  const hsts = overHttps ? parseHsts(home.fetched?.headers['strict-transport-security']) : undefined;
  if (!hsts || hsts.maxAge < SIX_MONTHS) {
    rows.push(
      fail(S.hsts, {
        severity: hsts ? 'medium' : 'high',
        detail: hsts ? `max-age=${hsts.maxAge} is under six months` : 'no Strict-Transport-Security header',
        title: hsts ? 'HSTS lasts less than six months' : 'No HSTS: browsers may still try plain HTTP',
        remediation:
          'Send Strict-Transport-Security: max-age=31536000; includeSubDomains once every subdomain serves HTTPS.',
        agentAction:
          'Add the response header Strict-Transport-Security: max-age=31536000; includeSubDomains on HTTPS responses.',
        affectedUrls: [url],
        suggestions: headerSuggestions([['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']]),
      }),
    );
  } else {
    rows.push(
      pass(
        S.hsts,
        `max-age=${hsts.maxAge}${hsts.maxAge < ONE_YEAR ? ' (under a year)' : ''}${hsts.includeSubDomains ? '; includeSubDomains' : ''}`,
      ),
    );
  }
  rows.push(hstsPreload({ hsts, host, url, validCertificate: tls.valid, redirects: toHttps }));
  rows.push(
    tls.valid
      ? pass(
          S.cert,
          `issued by ${tls.issuer ? quote(tls.issuer) : 'unknown'} to ${tls.subject ? quote(tls.subject) : 'unknown'}`,
        )
      : fail(S.cert, {
          detail: `the certificate does not verify: ${tls.error ?? 'unknown reason'}`,
          title: 'The TLS certificate is not valid for this host',
          remediation:
            'Install a certificate from a public CA that covers this exact host name, with its full chain, and renew it automatically.',
          agentAction:
            'Reissue the certificate for this host name (SAN entry) and configure the full chain on the server.',
          affectedUrls: [url],
          evidence: [{ type: 'check', url, summary: tls.error ?? 'not valid' }],
        }),
  );
  const days = tls.daysUntilExpiry;
  if (days !== undefined) {
    rows.push(
      days >= 30
        ? pass(S.expiry, `expires in ${days} days`)
        : fail(S.expiry, {
            severity: days < 14 ? 'high' : 'medium',
            detail: days < 0 ? `expired ${-days} days ago` : `expires in ${days} days`,
            title: days < 0 ? 'The TLS certificate has expired' : 'The TLS certificate expires soon',
            remediation: 'Renew the certificate now and automate renewal (ACME) so it never gets this close again.',
            agentAction:
              'Renew the certificate and set up automatic renewal (e.g. certbot or the CDN’s managed certificates).',
            affectedUrls: [url],
          }),
    );
  }
  const legacy = legacyTls(tls, url);
  if (legacy) rows.push(legacy);
  const strength = keyStrength(tls, url);
  if (strength) rows.push(strength);
  const mixed = pages.filter((p) => p.fetched?.url.startsWith('https:') && (p.facts?.mixedContent.length ?? 0) > 0);
  rows.push(
    mixed.length === 0
      ? pass(S.mixed, 'no http:// subresources on HTTPS pages')
      : fail(S.mixed, {
          detail: `${mixed.length} HTTPS page(s) load or submit to http:// URLs (scripts, styles, images, frames, media, forms)`,
          title: 'Mixed content on HTTPS pages',
          remediation: 'Load every subresource over HTTPS; browsers block or warn on http:// content in HTTPS pages.',
          agentAction:
            'Change the http:// URLs on these pages (src, srcset, poster, data, href of stylesheets, form action) to https://.',
          affectedUrls: mixed.map((p) => p.url),
          evidence: mixed.map((p) =>
            pageEvidence(
              p.url,
              'http:// URLs',
              (p.facts?.mixedContent ?? []).map((m) => ({ what: quote(m.url), element: m.element })),
            ),
          ),
        }),
  );
  return rows;
}
