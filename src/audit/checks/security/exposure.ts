// exposure_reputation: what the site gives away: security.txt (RFC 9116), version banners,
// repository and environment files, directory listings, and outdated libraries named in script URLs.
import { type CheckResult, type CheckSpec, fail, pass } from '../../checks.ts';
import type { CrawledPage } from '../../crawler.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import { quote, quoteAll } from '../../quote.ts';
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
    label: 'No outdated JavaScript libraries',
    category: 'security',
    pillar: 'exposure_reputation',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'OWASP Top 10 A06: Vulnerable and Outdated Components',
          'https://owasp.org/Top10/A06_2021-Vulnerable_and_Outdated_Components/',
        ),
      ],
      verify: grepMarkup(
        `<script[^>]*[[:space:]]src=${Q}${V}(jquery|angular(js)?|bootstrap|lodash)[/.-]?[0-9]+\\.[0-9]+(\\.[0-9]+)?${V}`,
      ),
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

// Major versions with known, unfixed vulnerabilities (as named in script URLs).
const OUTDATED: Array<{ name: string; pattern: RegExp; below: number[] }> = [
  { name: 'jQuery', pattern: /jquery[.-]?(\d+)\.(\d+)(?:\.(\d+))?/i, below: [3, 5, 0] },
  { name: 'AngularJS', pattern: /angular(?:js)?[/.-]?(1)\.(\d+)(?:\.(\d+))?/i, below: [2, 0, 0] },
  { name: 'Bootstrap', pattern: /bootstrap[/.-]?(\d+)\.(\d+)(?:\.(\d+))?/i, below: [3, 4, 1] },
  { name: 'Lodash', pattern: /lodash[/.-]?(\d+)\.(\d+)(?:\.(\d+))?/i, below: [4, 17, 21] },
];

const older = (version: number[], than: number[]) => {
  for (let i = 0; i < 3; i++) {
    if ((version[i] ?? 0) !== (than[i] ?? 0)) return (version[i] ?? 0) < (than[i] ?? 0);
  }
  return false;
};

export interface ExposureInput {
  home: CrawledPage;
  pages: CrawledPage[];
  securityTxt: { url: string; page?: FetchedPage };
  files: Array<{ url: string; page?: FetchedPage }>;
  now?: Date;
}

export function exposureChecks({ home, pages, securityTxt, files, now = new Date() }: ExposureInput): CheckResult[] {
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
  const outdated: Array<{ page: string; name: string; version: string }> = [];
  for (const page of pages) {
    for (const script of page.facts?.scripts ?? []) {
      for (const library of OUTDATED) {
        const match = script.src ? library.pattern.exec(script.src) : null;
        if (!match) continue;
        const version = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
        if (older(version, library.below))
          outdated.push({ page: page.url, name: library.name, version: version.join('.') });
      }
    }
  }
  rows.push(
    outdated.length === 0
      ? pass(S.libraries, 'no outdated libraries named in script URLs')
      : fail(S.libraries, {
          detail: `outdated: ${[...new Set(outdated.map((o) => `${o.name} ${o.version}`))].join(', ')}`,
          title: 'Outdated JavaScript libraries with known vulnerabilities',
          remediation:
            'Upgrade these libraries to a supported version (jQuery 3.5+, Bootstrap 3.4.1+ or 5, Lodash 4.17.21+; replace AngularJS).',
          agentAction: `Upgrade: ${[...new Set(outdated.map((o) => `${o.name} ${o.version}`))].join(', ')}; update the script URLs and test.`,
          affectedUrls: [...new Set(outdated.map((o) => o.page))],
        }),
  );
  return rows;
}
