// exposure_reputation: what the site gives away: security.txt (RFC 9116), version banners,
// repository and environment files, directory listings, and outdated libraries named in script URLs.
import { type CheckResult, type CheckSpec, fail, pass } from '../../checks.ts';
import type { CrawledPage } from '../../crawler.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import { quote, quoteAll } from '../../quote.ts';
import {
  type DetectedLibrary,
  type LibraryVerdict,
  librariesFromGlobals,
  type ScriptUrlScan,
  scanScriptUrls,
  scriptUrlsOf,
  vulnerabilitiesOf,
} from '../../retire.ts';
import { parseSecurityTxt, starterSecurityTxt } from '../../security-txt.ts';
import { grepMarkup, Q, RFC, ref, V } from '../../standards.ts';

export const EXPOSURE_SPECS = {
  securityTxt: {
    id: 'security-txt',
    label: 'security.txt over HTTPS with a Contact URI and one future Expires (RFC 9116)',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'low',
    cite: {
      references: [
        RFC(9116, '2.5', 'Field Definitions (Contact, Expires)'),
        RFC(9116, '3', 'Location of the security.txt file (HTTPS)'),
      ],
      verify: 'curl -sSf https://{host}/.well-known/security.txt',
      anchors: ['internet.nl'],
    },
  },
  banners: {
    id: 'version-banners',
    label: 'No software versions in Server or X-Powered-By',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'low',
    cite: {
      references: [
        RFC(9110, '10.2.4', 'Server'),
        ref(
          'OWASP WSTG: Fingerprint Web Server',
          'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/02-Fingerprint_Web_Server',
        ),
      ],
      verify: 'curl -sSI {url} | grep -i -E "^(server|x-powered-by):"',
      anchors: [],
    },
  },
  files: {
    id: 'exposed-files',
    label: 'No exposed .git or .env files',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'critical',
    cite: {
      references: [
        ref(
          'OWASP WSTG: Review Old Backup and Unreferenced Files',
          'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
        ),
      ],
      verify:
        'for p in .git/HEAD .git/config .env; do curl -sS {origin}/$p | grep -qE "^(ref: refs/|[0-9a-f]{40}|\\[core\\]|[A-Z][A-Z0-9_]*=)" && echo "served: /$p"; done',
      anchors: [],
    },
  },
  listing: {
    id: 'directory-listing',
    label: 'No directory listings',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'OWASP WSTG: Test File Extensions Handling / directory listing',
          'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/',
        ),
      ],
      verify: grepMarkup('<title([[:space:]][^>]*)?>[[:space:]]*index of /[^<]*'),
      anchors: [],
    },
  },
  libraries: {
    id: 'outdated-libraries',
    label: 'No JavaScript libraries with known vulnerabilities (retire.js)',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'OWASP Top 10 A06: Vulnerable and Outdated Components',
          'https://owasp.org/Top10/A06_2021-Vulnerable_and_Outdated_Components/',
        ),
        ref('retire.js vulnerability repository', 'https://github.com/RetireJS/retire.js/tree/master/repository'),
      ],
      // The page's scripts whose URL carries a version number (what retire's URL patterns read).
      verify: grepMarkup(`<script[^>]*[[:space:]]src=${Q}${V}[0-9]+[.][0-9]+${V}`),
      anchors: [],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = EXPOSURE_SPECS;

// A small fixed list, GET only, each with the content that proves the file is really there.
export const SENSITIVE_FILES: Array<{ path: string; proof: RegExp }> = [
  { path: '/.git/HEAD', proof: /^ref: refs\/|^[0-9a-f]{40}\s*$/m },
  { path: '/.git/config', proof: /^\[core\]/m },
  { path: '/.env', proof: /^[A-Z][A-Z0-9_]*=/m },
];

export interface ExposureInput {
  home: CrawledPage;
  pages: CrawledPage[];
  securityTxt: { url: string; page?: FetchedPage };
  files: Array<{ url: string; page?: FetchedPage }>;
  now?: Date;
  /** The run's script URLs matched against retire.js's patterns (on the CPU pool); matched here when absent. */
  libraries?: ScriptUrlScan;
}

export function exposureChecks({
  home,
  pages,
  securityTxt,
  files,
  now = new Date(),
  libraries,
}: ExposureInput): CheckResult[] {
  const rows: CheckResult[] = [];
  const headers = home.fetched?.headers ?? {};
  const body =
    securityTxt.page?.status === 200 && !/text\/html/i.test(securityTxt.page.headers['content-type'] ?? '')
      ? securityTxt.page.body
      : undefined;
  const parsed = body ? parseSecurityTxt(body, securityTxt.page?.url ?? securityTxt.url, now) : undefined;
  const expired = parsed?.problems.some((p) => p.startsWith('expired')) ?? false;
  const domain = new URL(securityTxt.url).hostname.replace(/^www\./, '');
  rows.push(
    parsed && parsed.problems.length === 0
      ? pass(
          S.securityTxt,
          [`Contact ${quoteAll(parsed.contacts)}, Expires ${parsed.expires?.toISOString()}`, ...parsed.advice].join(
            '; ',
          ),
        )
      : fail(S.securityTxt, {
          severity: expired ? 'medium' : 'low',
          detail: parsed ? `security.txt: ${parsed.problems.join('; ')}` : `no security.txt at ${securityTxt.url}`,
          title: !parsed
            ? 'No security.txt for reporting vulnerabilities'
            : expired
              ? 'security.txt has expired'
              : 'security.txt is not valid',
          remediation:
            'Publish /.well-known/security.txt over HTTPS with a Contact URI (mailto:, https:) and one Expires date-time less than a year ahead (RFC 9116); renew Expires before it passes.',
          agentAction: `Write /.well-known/security.txt (served as text/plain over HTTPS) from the suggested file, with a contact address that is read, and set a reminder to renew Expires.`,
          affectedUrls: [securityTxt.url],
          evidence: [
            {
              type: 'file',
              url: securityTxt.url,
              summary: body ? quote(body.slice(0, 280)) : `HTTP ${securityTxt.page?.status ?? 'no answer'}`,
            },
          ],
          suggestions: [
            {
              label: 'security.txt',
              target: `${securityTxt.url} (text/plain)`,
              format: 'text',
              content: starterSecurityTxt(domain, securityTxt.url, now),
            },
          ],
        }),
  );
  const banner = [headers.server, headers['x-powered-by']].filter((h): h is string => h !== undefined && /\d/.test(h));
  rows.push(
    banner.length === 0
      ? pass(S.banners, 'no version numbers in Server or X-Powered-By')
      : fail(S.banners, {
          detail: `version banners: ${quoteAll(banner, '; ')}`,
          title: 'Server software versions are advertised',
          remediation:
            'Remove version numbers from Server and drop X-Powered-By; they tell attackers which exploits to try.',
          agentAction:
            'Disable version tokens in the server (e.g. server_tokens off in nginx) and remove the X-Powered-By header.',
          affectedUrls: [home.url],
          evidence: banner.map((b) => ({ type: 'page' as const, url: home.url, summary: b })),
        }),
  );
  const exposed = files.filter((f) => {
    const proof = SENSITIVE_FILES.find((s) => f.url.endsWith(s.path))?.proof;
    return f.page?.status === 200 && proof !== undefined && proof.test(f.page.body);
  });
  rows.push(
    exposed.length === 0
      ? pass(S.files, `${files.length} sensitive paths checked, none served`)
      : fail(S.files, {
          detail: `served publicly: ${exposed.map((f) => new URL(f.url).pathname).join(', ')}`,
          title: 'Repository or secrets files are publicly readable',
          remediation:
            'Block these paths at the server now, remove them from the web root, and rotate any secret they held.',
          agentAction:
            'Deny access to /.git/ and /.env in the server configuration, remove them from the deployed files, and rotate the credentials in .env.',
          affectedUrls: exposed.map((f) => f.url),
          evidence: exposed.map((f) => ({
            type: 'file' as const,
            url: f.url,
            summary: `status 200, ${f.page?.bytes ?? 0} bytes`,
          })),
        }),
  );
  const listings = pages.filter((p) => p.facts?.titles.some((t) => /^index of \//i.test(t)));
  rows.push(
    listings.length === 0
      ? pass(S.listing, 'no directory listings among the crawled pages')
      : fail(S.listing, {
          detail: `${listings.length} directory listing(s)`,
          title: 'Directory listings are enabled',
          remediation: 'Turn off automatic directory indexes so file names are not exposed.',
          agentAction: 'Disable directory listings (autoindex off in nginx, Options -Indexes in Apache).',
          affectedUrls: listings.map((p) => p.url),
        }),
  );
  rows.push(vulnerableLibraries(pages, libraries));
  return rows;
}

const SEVERITY_RANK = ['low', 'medium', 'high', 'critical'] as const;

/** An advisory's names: its CVE ids, else its GitHub advisory id, else its summary. */
const advisoryNames = (verdict: LibraryVerdict) => [
  ...new Set(
    verdict.advisories.flatMap((a) => (a.cves.length > 0 ? a.cves : a.ghsa ? [a.ghsa] : [a.summary ?? 'an advisory'])),
  ),
];

const upgrade = (verdict: LibraryVerdict) =>
  verdict.fixedIn ? `upgrade to ${verdict.fixedIn} or later` : 'no fixed version is known: replace it';

/**
 * Libraries with known vulnerabilities, as retire.js finds them (retire.ts): named by their script
 * URLs, or reported by the page itself where it was rendered (`jQuery.fn.jquery`), judged against
 * retire.js's advisories. The finding names each library, its version, the advisories (CVE ids and
 * retire's severity) and the version to upgrade to.
 */
function vulnerableLibraries(pages: CrawledPage[], scanned: ScriptUrlScan | undefined): CheckResult {
  const { urls, pagesOf } = scriptUrlsOf(pages);
  const scan = scanned ?? scanScriptUrls(urls);
  const found: Array<DetectedLibrary & { pages: string[] }> = scan.found.map((d) => ({
    ...d,
    pages: pagesOf.get(d.where) ?? [],
  }));
  for (const page of pages) {
    const reported = page.rendered?.libraryVersions;
    if (reported) for (const d of librariesFromGlobals(reported)) found.push({ ...d, pages: [page.url] });
  }
  // One entry per library and version, with every page and source that showed it.
  const byVersion = new Map<string, { verdict: LibraryVerdict; pages: Set<string>; sources: Set<string> }>();
  const clean = new Set<string>();
  for (const d of found) {
    const key = `${d.library} ${d.version}`;
    const verdict = vulnerabilitiesOf(d.library, d.version);
    if (!verdict) {
      clean.add(key);
      continue;
    }
    const entry = byVersion.get(key) ?? { verdict, pages: new Set<string>(), sources: new Set<string>() };
    for (const page of d.pages) entry.pages.add(page);
    entry.sources.add(d.via === 'global' ? `the page reports ${d.where} = ${quote(d.version)}` : d.where);
    byVersion.set(key, entry);
  }
  const skipped = scan.skipped > 0 ? ` (${scan.skipped} script URLs past the first ${scan.judged} not matched)` : '';
  if (byVersion.size === 0)
    return pass(
      S.libraries,
      clean.size > 0
        ? `no known vulnerabilities in ${[...clean].slice(0, 10).join(', ')} (retire.js)${skipped}`
        : `no library retire.js knows is named in ${scan.judged} script URL(s) or reported by a rendered page${skipped}`,
    );
  const entries = [...byVersion.values()];
  const worst = entries
    .flatMap((e) => e.verdict.advisories.map((a) => SEVERITY_RANK.indexOf(a.severity)))
    .reduce((a, b) => Math.max(a, b), 0);
  const line = (e: (typeof entries)[number]) =>
    `${e.verdict.library} ${e.verdict.version} (${advisoryNames(e.verdict).slice(0, 6).join(', ')}; ${
      SEVERITY_RANK[Math.max(...e.verdict.advisories.map((a) => SEVERITY_RANK.indexOf(a.severity)))]
    }): ${upgrade(e.verdict)}`;
  return fail(S.libraries, {
    severity: SEVERITY_RANK[worst] ?? 'medium',
    detail: `${entries.length} librar${entries.length === 1 ? 'y' : 'ies'} with known vulnerabilities: ${entries
      .slice(0, 5)
      .map(line)
      .join('; ')}${skipped}`,
    title: 'JavaScript libraries with known vulnerabilities',
    remediation:
      'Upgrade each library to the version named (or later) and test the pages that use it; a library with no fixed version has to be replaced. Where a CDN URL names the version, change it there; where the library is bundled, update the dependency and rebuild.',
    agentAction: `Upgrade: ${entries
      .slice(0, 5)
      .map(
        (e) =>
          `${e.verdict.library} ${e.verdict.version}${e.verdict.npm ? ` (npm ${e.verdict.npm})` : ''} ${e.verdict.fixedIn ? `to ${e.verdict.fixedIn} or later` : 'to a maintained replacement (no fixed version is known)'}`,
      )
      .join('; ')}; update the script URLs or the bundled dependency, then test the pages that use them.`,
    affectedUrls: entries.flatMap((e) => [...e.pages]),
    evidence: entries.slice(0, 10).map((e) => ({
      type: 'page' as const,
      url: [...e.pages][0] ?? '',
      summary: `${line(e)}; seen in ${[...e.sources].slice(0, 2).join(', ')}`,
    })),
  });
}
