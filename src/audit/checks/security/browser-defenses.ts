// browser_defenses: the response headers and markup that make the browser defend the page (after
// the MDN HTTP Observatory's tests): CSP, framing, MIME sniffing, referrers, SRI, CORS, isolation.
import { type CheckResult, type CheckSpec, fail, note, pass } from '../../checks.ts';
import type { CrawledPage } from '../../crawler.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import { quote, quoteAll } from '../../quote.ts';
import { header, MARKUP, MDN, Q, RFC, ref } from '../../standards.ts';
import { headerSuggestions } from '../../suggestions.ts';

export const BROWSER_SPECS = {
  csp: {
    id: 'csp-present',
    label: 'Content-Security-Policy restricts scripts',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'high',
    cite: {
      references: [
        ref('W3C Content Security Policy Level 3', 'https://www.w3.org/TR/CSP3/'),
        MDN('Web/HTTP/Guides/CSP', 'Content Security Policy'),
      ],
      verify: header('content-security-policy'),
      anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
    },
  },
  cspInline: {
    id: 'csp-no-unsafe-inline',
    label: "CSP script-src without 'unsafe-inline'",
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'high',
    cite: {
      references: [
        ref('W3C CSP Level 3 §6.1.1 script-src (unsafe-inline)', 'https://www.w3.org/TR/CSP3/#directive-script-src'),
      ],
      verify: header('content-security-policy'),
      anchors: ['Lighthouse', 'Observatory'],
    },
  },
  cspEval: {
    id: 'csp-no-unsafe-eval',
    label: "CSP script-src without 'unsafe-eval'",
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'medium',
    cite: {
      references: [
        ref('W3C CSP Level 3 §6.1.1 script-src (unsafe-eval)', 'https://www.w3.org/TR/CSP3/#directive-script-src'),
      ],
      verify: header('content-security-policy'),
      anchors: ['Observatory'],
    },
  },
  framing: {
    id: 'clickjacking-protection',
    label: 'Framing restricted (frame-ancestors or X-Frame-Options)',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'medium',
    cite: {
      references: [
        ref('W3C CSP Level 3: frame-ancestors', 'https://www.w3.org/TR/CSP3/#directive-frame-ancestors'),
        RFC(7034, '', 'HTTP Header Field X-Frame-Options'),
      ],
      verify: 'curl -sSI {url} | grep -i -E "^(x-frame-options|content-security-policy):"',
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  nosniff: {
    id: 'x-content-type-options',
    label: 'X-Content-Type-Options: nosniff',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'low',
    cite: {
      references: [
        ref('WHATWG Fetch §X-Content-Type-Options', 'https://fetch.spec.whatwg.org/#x-content-type-options-header'),
      ],
      verify: header('x-content-type-options'),
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  referrer: {
    id: 'referrer-policy',
    label: 'A private Referrer-Policy',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'low',
    cite: {
      references: [ref('W3C Referrer Policy', 'https://www.w3.org/TR/referrer-policy/')],
      verify: header('referrer-policy'),
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  sri: {
    id: 'subresource-integrity',
    label: 'Cross-origin scripts carry integrity',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'medium',
    cite: {
      references: [ref('W3C Subresource Integrity', 'https://www.w3.org/TR/SRI/')],
      verify: `${MARKUP} | grep -ioE "<script[^>]*[[:space:]]src=${Q}(https?:)?//[^>]*>" | grep -iv "integrity=" | grep -ivF //{host}`,
      anchors: ['Observatory'],
    },
  },
  cors: {
    id: 'cors-not-permissive',
    label: 'CORS does not open credentials to every origin',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'high',
    cite: {
      references: [
        ref('WHATWG Fetch §3.2 CORS protocol (credentials and *)', 'https://fetch.spec.whatwg.org/#http-cors-protocol'),
      ],
      verify: 'curl -sSI -H "Origin: https://cors-probe.siteaudit.invalid" {url} | grep -i "^access-control-allow"',
      anchors: ['Observatory'],
    },
  },
  coop: {
    id: 'cross-origin-opener-policy',
    label: 'Cross-Origin-Opener-Policy keeps other sites’ windows out',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'low',
    cite: {
      references: [
        ref(
          'WHATWG HTML §7.1.3 Cross-origin opener policies',
          'https://html.spec.whatwg.org/multipage/browsers.html#cross-origin-opener-policies',
        ),
        MDN('Web/HTTP/Reference/Headers/Cross-Origin-Opener-Policy', 'Cross-Origin-Opener-Policy'),
      ],
      verify: 'curl -sSI {url} | grep -i "^cross-origin-opener-policy:"',
      anchors: ['Lighthouse'],
    },
  },
  isolation: {
    id: 'cross-origin-isolation',
    label: 'Cross-origin isolation headers (CORP, COEP)',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'info',
    cite: {
      references: [
        MDN('Web/HTTP/Reference/Headers/Cross-Origin-Resource-Policy', 'Cross-Origin-Resource-Policy'),
        MDN('Web/HTTP/Reference/Headers/Cross-Origin-Embedder-Policy', 'Cross-Origin-Embedder-Policy'),
      ],
      verify: 'curl -sSI {url} | grep -i -E "^cross-origin-(resource|embedder)-policy:"',
      anchors: ['Observatory'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = BROWSER_SPECS;

export type Csp = Map<string, string[]>;

/**
 * A first policy to review: scripts, frames and plugins locked to the site, images and styles from it
 * and data: URLs. A site using other origins adds them before enforcing (or ships it Report-Only first).
 */
const STARTER_CSP =
  "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'; img-src 'self' data:; upgrade-insecure-requests";

/** Directives of a CSP header (several policies joined by commas count as one, the first wins). */
export function parseCsp(header: string | undefined): Csp | undefined {
  if (!header) return undefined;
  const csp: Csp = new Map();
  for (const part of header.split(/[;,]/)) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    const directive = name.toLowerCase();
    if (!csp.has(directive)) csp.set(directive, values);
  }
  return csp.size > 0 ? csp : undefined;
}

/** The sources that govern scripts: script-src, else default-src. */
export function scriptSources(csp: Csp): string[] | undefined {
  return csp.get('script-src') ?? csp.get('default-src');
}

/** CSP2: a nonce or a hash makes browsers ignore 'unsafe-inline'; 'strict-dynamic' does too. */
export function allowsInlineScript(sources: string[]): boolean {
  const lower = sources.map((s) => s.toLowerCase());
  if (!lower.includes("'unsafe-inline'")) return false;
  return !lower.some((s) => s.startsWith("'nonce-") || /^'sha(256|384|512)-/.test(s) || s === "'strict-dynamic'");
}

const PRIVATE_REFERRER = new Set(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']);
const ALL_REFERRER = new Set([
  ...PRIVATE_REFERRER,
  'origin',
  'origin-when-cross-origin',
  'no-referrer-when-downgrade',
  'unsafe-url',
]);

/** The policy a browser applies: the last value it recognises in the list (Referrer Policy spec 8.1). */
export function effectiveReferrerPolicy(header: string | undefined): string | undefined {
  return header
    ?.split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => ALL_REFERRER.has(v))
    .at(-1);
}

export const referrerIsPrivate = (header: string | undefined): boolean =>
  PRIVATE_REFERRER.has(effectiveReferrerPolicy(header) ?? '');

/** nosniff exactly (surrounding white space aside). */
export const nosniffValid = (header: string | undefined): boolean => header?.trim().toLowerCase() === 'nosniff';

/**
 * Framing is restricted by CSP frame-ancestors (any value but a wildcard or a bare scheme), or by
 * X-Frame-Options DENY or SAMEORIGIN. ALLOW-FROM is ignored by current browsers, so it does not count.
 */
export function framingProtected(xFrameOptions: string | undefined, csp: Csp | undefined): boolean {
  const ancestors = csp?.get('frame-ancestors');
  if (ancestors && ancestors.length > 0 && !ancestors.some((s) => s === '*' || /^(https?|data):?$/i.test(s)))
    return true;
  const xfo = xFrameOptions?.trim().toUpperCase();
  return xfo === 'DENY' || xfo === 'SAMEORIGIN';
}

/** The Origin the CORS probe sends: a name that can never be the site's (RFC 6761 .invalid). */
export const CORS_PROBE_ORIGIN = 'https://cors-probe.siteaudit.invalid';

/** COOP values that put the page in its own browsing context group (HTML, "cross-origin opener policies"). */
const ISOLATING_COOP = new Set(['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups']);

export function browserDefenseChecks(
  home: CrawledPage,
  pages: CrawledPage[],
  origin: string,
  corsProbe?: FetchedPage,
): CheckResult[] {
  const headers = home.fetched?.headers ?? {};
  const url = home.url;
  const rows: CheckResult[] = [];
  const csp = parseCsp(headers['content-security-policy']);
  const sources = csp ? scriptSources(csp) : undefined;
  const evidence = (text: string) => [{ type: 'page' as const, url, summary: text }];

  if (!csp || !sources) {
    rows.push(
      fail(S.csp, {
        detail: csp
          ? 'the Content-Security-Policy has neither script-src nor default-src'
          : 'no Content-Security-Policy header',
        title: 'No Content-Security-Policy that restricts scripts',
        remediation:
          "Send a Content-Security-Policy with default-src 'self' (or a script-src) listing where scripts may come from; it is the strongest defence against cross-site scripting.",
        agentAction:
          "Add the response header Content-Security-Policy: default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none' (then allow the origins the site really uses).",
        affectedUrls: [url],
        evidence: evidence(headers['content-security-policy'] ?? 'header absent'),
        suggestions: headerSuggestions([['Content-Security-Policy', STARTER_CSP]]),
      }),
    );
  } else {
    rows.push(pass(S.csp, `script sources: ${quoteAll(sources, ' ')}`));
    rows.push(
      allowsInlineScript(sources)
        ? fail(S.cspInline, {
            detail: "script sources allow 'unsafe-inline' without a nonce or hash",
            title: "CSP allows inline scripts ('unsafe-inline')",
            remediation: "Remove 'unsafe-inline' from script-src; give the inline scripts you need a nonce or hash.",
            agentAction:
              "Move inline <script> code to files, or add a per-response nonce to each inline script and 'nonce-...' to script-src; then drop 'unsafe-inline'.",
            affectedUrls: [url],
            evidence: evidence(`script sources: ${quoteAll(sources, ' ')}`),
          })
        : pass(S.cspInline, "no effective 'unsafe-inline' for scripts"),
      sources.map((s) => s.toLowerCase()).includes("'unsafe-eval'")
        ? fail(S.cspEval, {
            detail: "script sources allow 'unsafe-eval'",
            title: "CSP allows eval ('unsafe-eval')",
            remediation: "Remove 'unsafe-eval': replace eval, new Function and string timers with real functions.",
            agentAction:
              "Find and replace eval(), new Function() and setTimeout(string) in the code, then remove 'unsafe-eval' from script-src.",
            affectedUrls: [url],
            evidence: evidence(`script sources: ${quoteAll(sources, ' ')}`),
          })
        : pass(S.cspEval, "no 'unsafe-eval'"),
    );
  }

  const frameAncestors = csp?.get('frame-ancestors');
  const xfo = headers['x-frame-options']?.trim().toUpperCase();
  rows.push(
    framingProtected(headers['x-frame-options'], csp)
      ? pass(
          S.framing,
          frameAncestors ? `frame-ancestors ${quoteAll(frameAncestors, ' ')}` : `X-Frame-Options: ${quote(xfo)}`,
        )
      : fail(S.framing, {
          detail: 'neither CSP frame-ancestors nor X-Frame-Options restricts framing',
          title: 'The site can be framed by any page (clickjacking)',
          remediation: "Send CSP frame-ancestors 'none' (or 'self'), and X-Frame-Options: DENY for older browsers.",
          agentAction:
            "Add frame-ancestors 'self' to the Content-Security-Policy and the header X-Frame-Options: SAMEORIGIN.",
          affectedUrls: [url],
          evidence: evidence(xfo ? `X-Frame-Options: ${quote(xfo)}` : 'no framing policy'),
          suggestions: headerSuggestions([
            ['Content-Security-Policy', "frame-ancestors 'self'"],
            ['X-Frame-Options', 'SAMEORIGIN'],
          ]),
        }),
    nosniffValid(headers['x-content-type-options'])
      ? pass(S.nosniff, 'nosniff')
      : fail(S.nosniff, {
          detail: 'X-Content-Type-Options: nosniff is missing',
          title: 'Browsers may guess content types (no nosniff)',
          remediation: 'Send X-Content-Type-Options: nosniff on every response.',
          agentAction: 'Add the response header X-Content-Type-Options: nosniff in the server or framework middleware.',
          affectedUrls: [url],
          evidence: evidence(headers['x-content-type-options'] ?? 'header absent'),
          suggestions: headerSuggestions([['X-Content-Type-Options', 'nosniff']]),
        }),
  );
  const sent = headers['referrer-policy'];
  const referrer = effectiveReferrerPolicy(sent);
  // Browsers have defaulted to strict-origin-when-cross-origin since 2020-21 (Chrome 85, Firefox 87,
  // Safari 15): no header sends other sites the origin only, as the MDN Observatory also grades it.
  rows.push(
    sent === undefined
      ? pass(S.referrer, 'no Referrer-Policy header: browsers apply their default, strict-origin-when-cross-origin')
      : referrerIsPrivate(sent)
        ? pass(S.referrer, `Referrer-Policy: ${quote(referrer)}`)
        : fail(S.referrer, {
            detail: referrer
              ? `Referrer-Policy ${quote(referrer)} leaks full URLs to other sites`
              : `Referrer-Policy ${quote(sent)} names no policy browsers know`,
            title: referrer ? 'Full page URLs may leak to other sites' : 'The Referrer-Policy header is not valid',
            remediation: 'Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).',
            agentAction: 'Add the response header Referrer-Policy: strict-origin-when-cross-origin.',
            affectedUrls: [url],
            evidence: evidence(sent),
            suggestions: headerSuggestions([['Referrer-Policy', 'strict-origin-when-cross-origin']]),
          }),
  );

  const unprotected = pages.flatMap((p) =>
    (p.facts?.scripts ?? [])
      .filter((s) => s.src && !s.integrity)
      .map((s) => {
        try {
          const src = new URL(s.src as string, p.url);
          return src.origin !== origin ? { page: p.url, src: src.href } : undefined;
        } catch {
          return undefined;
        }
      })
      .filter((x): x is { page: string; src: string } => x !== undefined),
  );
  const plainHttp = unprotected.filter((u) => u.src.startsWith('http:'));
  rows.push(
    unprotected.length === 0
      ? pass(S.sri, 'cross-origin scripts carry integrity attributes (or there are none)')
      : fail(S.sri, {
          severity: plainHttp.length > 0 ? 'high' : 'medium',
          detail: `${unprotected.length} cross-origin script(s) load without integrity${plainHttp.length > 0 ? `, ${plainHttp.length} over plain http` : ''}`,
          title: 'Third-party scripts load without Subresource Integrity',
          remediation:
            'Add integrity="sha384-..." and crossorigin="anonymous" to scripts from other origins, so a compromised CDN cannot change them.',
          agentAction: `Add integrity and crossorigin attributes to: ${[...new Set(unprotected.map((u) => u.src))].slice(0, 5).join(', ')}.`,
          affectedUrls: [...new Set(unprotected.map((u) => u.page))],
          evidence: unprotected
            .slice(0, 5)
            .map((u) => ({ type: 'page' as const, url: u.page, summary: `script ${u.src}` })),
        }),
  );

  rows.push(cors(headers, url, corsProbe));
  rows.push(coop(headers['cross-origin-opener-policy'], url));
  const corp = headers['cross-origin-resource-policy'];
  const coep = headers['cross-origin-embedder-policy'];
  rows.push(
    note(
      S.isolation,
      corp || coep
        ? `CORP ${corp === undefined ? 'absent' : quote(corp)}, COEP ${coep === undefined ? 'absent' : quote(coep)}`
        : 'no Cross-Origin-Resource-Policy or Cross-Origin-Embedder-Policy',
    ),
  );
  return rows;
}

function coop(value: string | undefined, url: string): CheckResult {
  // The policy token comes before any report-to parameter (Structured Fields item).
  const policy = value?.split(';')[0]?.trim().toLowerCase();
  if (policy && ISOLATING_COOP.has(policy)) return pass(S.coop, `Cross-Origin-Opener-Policy: ${quote(policy)}`);
  return fail(S.coop, {
    detail: value
      ? `Cross-Origin-Opener-Policy ${quote(value)} does not isolate the page`
      : 'no Cross-Origin-Opener-Policy header',
    title: 'Other sites can keep a handle on this page’s window (no COOP)',
    remediation:
      'Send Cross-Origin-Opener-Policy: same-origin (or same-origin-allow-popups if the site opens OAuth or payment pop-ups), so a page the user came from or opened cannot script, navigate or probe this one’s window (XS-Leaks, tabnabbing).',
    agentAction:
      'Add the response header Cross-Origin-Opener-Policy: same-origin-allow-popups to HTML responses; use same-origin when the site opens no cross-origin pop-ups it talks to.',
    affectedUrls: [url],
    evidence: [{ type: 'page', url, summary: value ?? 'header absent' }],
    suggestions: headerSuggestions([['Cross-Origin-Opener-Policy', 'same-origin-allow-popups']]),
  });
}

/**
 * Credentials opened to strangers: a wildcard with Allow-Credentials on the page itself, or the
 * page reflecting a stranger's Origin (or null) with Allow-Credentials when asked with one.
 */
function cors(headers: Record<string, string>, url: string, probe: FetchedPage | undefined): CheckResult {
  const allowOrigin = headers['access-control-allow-origin'];
  const credentials = headers['access-control-allow-credentials']?.toLowerCase() === 'true';
  const probed = probe?.headers['access-control-allow-origin'];
  const probedCredentials = probe?.headers['access-control-allow-credentials']?.toLowerCase() === 'true';
  const reflects = probedCredentials && (probed === CORS_PROBE_ORIGIN || probed === 'null');
  if (reflects)
    return fail(S.cors, {
      detail: `asked with Origin ${CORS_PROBE_ORIGIN}, the page answered Access-Control-Allow-Origin ${quote(probed)} with Access-Control-Allow-Credentials: true`,
      title: 'CORS lets any site read responses with the visitor’s cookies',
      remediation:
        'Check the Origin header against an allow-list before echoing it, and send Access-Control-Allow-Credentials only for those origins; never for null.',
      agentAction:
        'Replace the code that copies the request Origin into Access-Control-Allow-Origin with an explicit allow-list check; send Vary: Origin with it.',
      affectedUrls: [url],
      evidence: [
        { type: 'check', url, summary: `Origin ${CORS_PROBE_ORIGIN} → ACAO ${quote(probed)}, credentials true` },
      ],
    });
  return allowOrigin === '*' && credentials
    ? fail(S.cors, {
        detail: 'Access-Control-Allow-Origin: * together with Access-Control-Allow-Credentials: true',
        title: 'CORS opens credentialed requests to every origin',
        remediation: 'Never combine a wildcard origin with credentials; allow only the origins that need access.',
        agentAction:
          'Replace Access-Control-Allow-Origin: * with an allow-list check of the Origin header, or drop Allow-Credentials.',
        affectedUrls: [url],
        evidence: [{ type: 'page', url, summary: `ACAO ${quote(allowOrigin)}, credentials true` }],
      })
    : pass(
        S.cors,
        probed !== undefined
          ? `asked with a stranger's Origin: Access-Control-Allow-Origin ${quote(probed)}${probedCredentials ? ' with credentials' : ', without credentials'}`
          : allowOrigin
            ? `Access-Control-Allow-Origin: ${quote(allowOrigin)}`
            : 'no CORS headers on the page',
      );
}
