// website_security: the public security posture of a site in five pillars (spec 2.10), judged from
// response headers, cookies, the TLS handshake, DNS, and a few well-known paths. Passive: GET only.
import { type Pillar, PRODUCT_LABEL } from '../../contract/index.ts';
import { browserDefenseChecks, CORS_PROBE_ORIGIN } from '../checks/security/browser-defenses.ts';
import { cookieChecks } from '../checks/security/cookies.ts';
import { dnsEmailChecks } from '../checks/security/dns-email.ts';
import { exposureChecks, SENSITIVE_FILES } from '../checks/security/exposure.ts';
import { type MailPolicyFetch, mailHardeningChecks } from '../checks/security/mail-hardening.ts';
import { transportChecks } from '../checks/security/transport.ts';
import { type CheckResult, weightedScore } from '../checks.ts';
import { cpuPool } from '../cpu/pool.ts';
import { type CspEvaluation, evaluateCsp, policiesOf } from '../csp-evaluation.ts';
import { type DnsFacts, realMx } from '../net/dns-facts.ts';
import { type FetchedPage, type Fetcher, tryFetch } from '../net/fetcher.ts';
import type { TlsProbe } from '../net/tls.ts';
import { type AuditOutcome, buildOutcome } from '../outcome.ts';
import { type ScriptUrlScan, scriptUrlsOf } from '../retire.ts';
import { homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { inTurns } from '../turns.ts';

// Weights of the pillars in the overall score (docs/scoring.md).
export const PILLAR_WEIGHTS: Record<Pillar, { label: string; weight: number }> = {
  browser_defenses: { label: 'Browser defenses', weight: 30 },
  transport_trust: { label: 'Transport trust', weight: 25 },
  dns_email_trust: { label: 'DNS and email trust', weight: 15 },
  cookies_sessions: { label: 'Cookies and sessions', weight: 15 },
  exposure_reputation: { label: 'Exposure and reputation', weight: 15 },
};

// What a local on-page scan can judge: the page's own content and the files its server gives away.
const LOCAL_CHECKS = new Set(['subresource-integrity', 'exposed-files', 'directory-listing', 'outdated-libraries']);

export interface SecurityExtras {
  plain?: { page?: FetchedPage; error?: string };
  /** The home page asked again with a stranger's Origin header (a full scan only). */
  corsProbe?: FetchedPage;
  tls?: TlsProbe;
  dns?: DnsFacts;
  /** The MTA-STS policy file, fetched when the domain has MX hosts. */
  mtaStsPolicy?: MailPolicyFetch;
  securityTxt: { url: string; page?: FetchedPage };
  files: Array<{ url: string; page?: FetchedPage }>;
  /** The home page's Content-Security-Policy judged by the CSP Evaluator, on the CPU pool. */
  csp?: CspEvaluation;
  /** The pages' script URLs matched against retire.js's patterns, on the CPU pool. */
  libraries?: ScriptUrlScan;
}

export interface WebsiteSecurityDetails {
  scope: { label: string; disclaimer: string; pagesScanned: number };
  pillars: Array<{ key: Pillar; label: string; score: number | null; weight: number; pass: number; fail: number }>;
  tls?: TlsProbe;
  dns?: { hasMx: boolean; hasSpf: boolean; hasDmarc: boolean; hasCaa: boolean };
}

/** The fetches beyond the crawl: the well-known paths (always) and, on a full scan, plain http. */
export async function collectSecurityExtras(
  site: SiteSnapshot,
  fetcher: Fetcher,
  probes: { tls: () => Promise<TlsProbe>; dns: () => Promise<DnsFacts> },
  signal?: AbortSignal,
): Promise<SecurityExtras> {
  const origin = site.origin;
  const host = new URL(origin).host;
  const securityTxtUrl = `${origin}/.well-known/security.txt`;
  const [securityTxt, ...files] = await Promise.all([
    tryFetch(fetcher, securityTxtUrl, signal),
    ...SENSITIVE_FILES.map((f) => tryFetch(fetcher, `${origin}${f.path}`, signal)),
  ]);
  const extras: SecurityExtras = {
    securityTxt: { url: securityTxtUrl, ...(securityTxt?.page ? { page: securityTxt.page } : {}) },
    files: SENSITIVE_FILES.map((f, i) => ({
      url: `${origin}${f.path}`,
      ...(files[i]?.page ? { page: files[i]?.page } : {}),
    })),
  };
  const home = homePage(site);
  if (home?.fetched) {
    // Off the event loop: a long policy of many hosts costs the evaluator up to a second (csp-evaluation.ts).
    const policies = policiesOf(home.fetched.headers, home.facts);
    extras.csp = await cpuPool()
      .run('evaluateCsp', [policies])
      .catch(() => evaluateCsp(policies));
  }
  // retire.js's URL patterns over bounded URLs, on a CPU thread (retire.ts). A thread that fails
  // leaves them unmatched (said in the check), never matched again on the event loop.
  const urls = scriptUrlsOf(htmlPages(site)).urls;
  extras.libraries = await cpuPool()
    .run('scanScriptUrls', [urls])
    .catch(() => ({ found: [], judged: 0, skipped: new Set(urls).size }));
  if (!site.local) {
    const [plain, tls, dns, cors] = await Promise.all([
      tryFetch(fetcher, `http://${host}/`, signal),
      probes.tls(),
      probes.dns(),
      tryFetch(fetcher, homePage(site)?.url ?? site.startUrl, signal, { origin: CORS_PROBE_ORIGIN }),
    ]);
    Object.assign(extras, { plain, tls, dns, ...(cors.page ? { corsProbe: cors.page } : {}) });
    if (realMx(dns.mx).length > 0) {
      const url = `https://mta-sts.${dns.domain}/.well-known/mta-sts.txt`;
      extras.mtaStsPolicy = { url, ...(await tryFetch(fetcher, url, signal)) };
    }
  }
  return extras;
}

function pillarSummary(rows: CheckResult[]): WebsiteSecurityDetails['pillars'] {
  return (Object.keys(PILLAR_WEIGHTS) as Pillar[]).map((key) => {
    const own = rows.filter((r) => r.pillar === key);
    const judged = own.some((r) => r.status === 'pass' || r.status === 'fail');
    return {
      key,
      label: PILLAR_WEIGHTS[key].label,
      score: judged ? weightedScore(own) : null,
      weight: PILLAR_WEIGHTS[key].weight,
      pass: own.filter((r) => r.status === 'pass').length,
      fail: own.filter((r) => r.status === 'fail').length,
    };
  });
}

/** The pillars blended by weight; pillars without a judged check are left out and the rest renormalized. */
export function blendPillars(pillars: WebsiteSecurityDetails['pillars']): number {
  let total = 0;
  let weights = 0;
  for (const pillar of pillars) {
    if (pillar.score === null) continue;
    total += pillar.score * pillar.weight;
    weights += pillar.weight;
  }
  return weights === 0 ? 100 : Math.round(total / weights);
}

export async function auditWebsiteSecurity(
  site: SiteSnapshot,
  extras: SecurityExtras,
): Promise<AuditOutcome<WebsiteSecurityDetails>> {
  const home = homePage(site);
  const pages = htmlPages(site);
  const { tls, plain, dns } = extras;
  const parts: Array<() => CheckResult[]> = [];
  if (home) {
    // Headers and cookies are judged only when the home page answered; otherwise the transport
    // checks say why it did not, and nothing is claimed about headers never seen.
    if (home.fetched) {
      const https = home.fetched.url.startsWith('https:');
      parts.push(() => browserDefenseChecks(home, pages, site.origin, extras.corsProbe, extras.csp));
      parts.push(() =>
        cookieChecks(
          site.pages.flatMap((p) => p.fetched?.setCookies ?? []),
          home.url,
          https,
        ),
      );
    }
    if (tls && plain) parts.push(() => transportChecks({ home, pages, plain, tls }));
    if (dns) {
      parts.push(() => dnsEmailChecks(dns, home.url, tls?.issuer));
      parts.push(() => mailHardeningChecks(dns, extras.mtaStsPolicy, home.url));
    }
    if (home.fetched)
      parts.push(() =>
        exposureChecks({
          home,
          pages,
          securityTxt: extras.securityTxt,
          files: extras.files,
          ...(extras.libraries ? { libraries: extras.libraries } : {}),
        }),
      );
  }
  // Each family in a turn of the event loop of its own (turns.ts).
  let rows = await inTurns(parts);
  if (site.local) rows = rows.filter((r) => LOCAL_CHECKS.has(r.id));
  const pillars = pillarSummary(rows);
  return buildOutcome({
    product: 'website_security',
    productLabel: PRODUCT_LABEL.website_security,
    startUrl: site.startUrl,
    checks: rows,
    pagesCrawled: site.pages.length,
    local: site.local,
    score: blendPillars(pillars),
    details: {
      scope: {
        label: site.local ? `Local on-page scan of ${site.origin}` : `Public surface of ${new URL(site.origin).host}`,
        disclaimer:
          'Passive checks of what the public site shows (headers, cookies, TLS, DNS, well-known paths), with GET requests only. Not a penetration test: it does not log in, submit forms or probe for vulnerabilities.',
        pagesScanned: site.pages.length,
      },
      pillars,
      ...(tls ? { tls } : {}),
      ...(dns
        ? {
            dns: {
              hasMx: dns.mx.length > 0,
              hasSpf: dns.spf.length > 0,
              hasDmarc: dns.dmarc.length > 0,
              hasCaa: dns.caa.length > 0,
            },
          }
        : {}),
    },
  });
}
