// browser_defenses: the response headers and markup that make the browser defend the page (after
// the MDN HTTP Observatory's tests): CSP, framing, MIME sniffing, referrers, SRI, CORS, isolation.
import { type CheckResult, type CheckSpec, fail, note, pass } from '../../checks.ts';
import type { CrawledPage } from '../../crawler.ts';
import {
  CSP_SEVERITY,
  type CspEvaluation,
  type CspIssue,
  type CspJudgement,
  CSP_DIRECTIVE as D,
  evaluateCsp,
  policiesOf,
  CSP_TYPE as T,
} from '../../csp-evaluation.ts';
import type { FetchedPage } from '../../net/fetcher.ts';
import { quote, quoteAll } from '../../quote.ts';
import { grepMarkup, header, MARKUP, MDN, Q, REST, RFC, ref } from '../../standards.ts';
import { headerSuggestions } from '../../suggestions.ts';

/** The page's enforced policies as browsers get them: the headers, then the <meta http-equiv> tags. */
const CSP_LINES = `{ curl -sSI {url} | grep -i '^content-security-policy:'; ${grepMarkup(`<meta[^>]*[[:space:]]http-equiv=${Q}content-security-policy${REST}`)}; }`;

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
  cspBypass: {
    id: 'csp-no-bypassable-sources',
    label: 'CSP script sources cannot be bypassed (JSONP or AngularJS hosts, wildcards, bare schemes)',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'high',
    cite: {
      references: [
        ref(
          'Weichselbaum et al., CSP Is Dead, Long Live CSP! (ACM CCS 2016)',
          'https://research.google/pubs/csp-is-dead-long-live-csp-on-the-insecurity-of-whitelists-and-the-future-of-content-security-policy/',
        ),
        ref("W3C CSP Level 3 §8.2 Usage of 'strict-dynamic'", 'https://www.w3.org/TR/CSP3/#strict-dynamic-usage'),
        ref('Google CSP Evaluator', 'https://csp-evaluator.withgoogle.com/'),
      ],
      verify: CSP_LINES,
      anchors: ['Lighthouse'],
    },
  },
  cspObject: {
    id: 'csp-object-src',
    label: "CSP restricts plugins (object-src 'none')",
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'medium',
    cite: {
      references: [
        ref('W3C CSP Level 3 §6.1.10 object-src', 'https://www.w3.org/TR/CSP3/#directive-object-src'),
        ref('Google CSP Evaluator', 'https://csp-evaluator.withgoogle.com/'),
      ],
      verify: CSP_LINES,
      anchors: ['Lighthouse'],
    },
  },
  cspBaseUri: {
    id: 'csp-base-uri',
    label: 'CSP restricts <base> (base-uri) where scripts are allowed by nonce or hash',
    category: 'security',
    pillar: 'browser_defenses',
    severity: 'medium',
    cite: {
      references: [
        ref('W3C CSP Level 3 §6.3.1 base-uri', 'https://www.w3.org/TR/CSP3/#directive-base-uri'),
        ref('Google CSP Evaluator', 'https://csp-evaluator.withgoogle.com/'),
      ],
      verify: CSP_LINES,
      anchors: ['Lighthouse'],
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

/** Google's strict CSP: scripts allowed by a per-response nonce, and what they load by 'strict-dynamic'. */
const STRICT_CSP = "script-src 'nonce-{RANDOM}' 'strict-dynamic'; object-src 'none'; base-uri 'self'";

const SCRIPT_DIRECTIVES: ReadonlySet<string> = new Set([
  D.SCRIPT_SRC,
  D.SCRIPT_SRC_ELEM,
  D.SCRIPT_SRC_ATTR,
  D.DEFAULT_SRC,
]);
const BROAD = new Set<number>([T.PLAIN_WILDCARD, T.PLAIN_URL_SCHEMES]);

/** Where the policies came from, for evidence: `header: ...`, `<meta>: ...`. */
const delivered = (judgement: CspJudgement) =>
  judgement.policies.map((p) => `${p.from === 'meta' ? '<meta>' : p.from}: ${quote(p.text, 300)}`);

/** An issue's source in the policy, in the owner's words: `www.google.com in script-src`. */
const where = (issue: CspIssue) => (issue.value ? `${quote(issue.value)} in ${issue.directive}` : issue.directive);

/** Why an allowlisted source lets script through, in a site owner's words, from the evaluator's verdict. */
function bypassWords(issue: CspIssue): string {
  if (issue.type === T.PLAIN_WILDCARD) return `${issue.directive} allows scripts from any host (${quote(issue.value)})`;
  if (issue.type === T.PLAIN_URL_SCHEMES)
    return `${issue.directive} allows scripts from any host over ${quote(issue.value)}`;
  // The evaluator names the host and what it serves: JSONP endpoints, AngularJS, or both.
  const serves = /JSONP/.test(issue.description)
    ? /Angular/.test(issue.description)
      ? 'JSONP endpoints and AngularJS'
      : 'JSONP endpoints'
    : 'AngularJS';
  return `${where(issue)}: that host serves ${serves}, which run an attacker's script through the allowlist`;
}

/**
 * The CSP rows: the evaluator's verdicts (csp-evaluation.ts) in our checks and words. Report-Only
 * policies are said beside the enforced ones; with no enforced policy they are the reason to enforce.
 */
export function cspChecks(evaluation: CspEvaluation, url: string): CheckResult[] {
  const evidence = (lines: string[]) => lines.slice(0, 5).map((summary) => ({ type: 'page' as const, url, summary }));
  const enforced = evaluation.enforced;
  const trial = evaluation.reportOnly;
  // What the Report-Only policy would still allow once enforced (its high-severity weaknesses).
  const trialGaps = [
    ...new Set((trial?.failures ?? []).filter((f) => f.severity === CSP_SEVERITY.HIGH).map(where)),
  ].slice(0, 4);
  const trialWould = trialGaps.length > 0 ? `: enforced, it would still allow ${trialGaps.join(', ')}` : '';
  const trialNote = trial
    ? `; a Content-Security-Policy-Report-Only policy is also sent (reported, not enforced)${trialWould}`
    : '';
  const missingScripts = enforced?.failures.some(
    (f) => f.type === T.MISSING_DIRECTIVES && f.directive === D.SCRIPT_SRC,
  );
  if (!enforced || missingScripts || !enforced.scriptSources) {
    return [
      fail(S.csp, {
        detail: enforced
          ? `no enforced Content-Security-Policy has script-src or default-src${trialNote}`
          : trial
            ? `only Content-Security-Policy-Report-Only is sent: browsers report violations but block nothing${trialWould}`
            : 'no Content-Security-Policy header or <meta> tag',
        title:
          trial && !enforced
            ? 'The Content-Security-Policy is only reported, not enforced'
            : 'No Content-Security-Policy that restricts scripts',
        remediation:
          trial && !enforced
            ? 'Once the reports show nothing the site needs is blocked, send the same policy as Content-Security-Policy (keep the Report-Only header for the next change).'
            : "Send a Content-Security-Policy with default-src 'self' (or a script-src) listing where scripts may come from; it is the strongest defence against cross-site scripting.",
        agentAction:
          trial && !enforced
            ? 'Send the Content-Security-Policy-Report-Only value as a Content-Security-Policy header too, after fixing what its reports show.'
            : "Add the response header Content-Security-Policy: default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none' (then allow the origins the site really uses).",
        affectedUrls: [url],
        evidence: evidence(
          enforced || trial
            ? [...(enforced ? delivered(enforced) : []), ...(trial ? delivered(trial) : [])]
            : ['header absent, no <meta http-equiv> policy'],
        ),
        suggestions: headerSuggestions([['Content-Security-Policy', STARTER_CSP]]),
      }),
    ];
  }
  const sources = enforced.scriptSources;
  const failures = enforced.failures;
  const policyEvidence = delivered(enforced);
  const several = enforced.policies.length > 1 ? ` (${enforced.policies.length} policies, all enforced)` : '';
  const cut = enforced.truncated ? '; only the first 16 KB of a policy (and 8 policies) were judged' : '';
  const rows: CheckResult[] = [pass(S.csp, `script sources: ${quoteAll(sources, ' ')}${several}${cut}${trialNote}`)];

  const inline = failures.filter((f) => f.type === T.SCRIPT_UNSAFE_INLINE);
  rows.push(
    inline.length > 0
      ? fail(S.cspInline, {
          detail: `${inline.map((f) => f.directive).join(', ')} allow 'unsafe-inline' without a nonce, a hash or 'strict-dynamic'${several}`,
          title: "CSP allows inline scripts ('unsafe-inline')",
          remediation: "Remove 'unsafe-inline' from script-src; give the inline scripts you need a nonce or hash.",
          agentAction:
            "Move inline <script> code to files, or add a per-response nonce to each inline script and 'nonce-...' to script-src; then drop 'unsafe-inline'.",
          affectedUrls: [url],
          evidence: evidence(policyEvidence),
        })
      : pass(S.cspInline, "no effective 'unsafe-inline' for scripts"),
  );
  const evalIssues = failures.filter((f) => f.type === T.SCRIPT_UNSAFE_EVAL);
  rows.push(
    evalIssues.length > 0
      ? fail(S.cspEval, {
          detail: `${evalIssues.map((f) => f.directive).join(', ')} allow 'unsafe-eval'${several}`,
          title: "CSP allows eval ('unsafe-eval')",
          remediation: "Remove 'unsafe-eval': replace eval, new Function and string timers with real functions.",
          agentAction:
            "Find and replace eval(), new Function() and setTimeout(string) in the code, then remove 'unsafe-eval' from script-src.",
          affectedUrls: [url],
          evidence: evidence(policyEvidence),
        })
      : pass(S.cspEval, "no 'unsafe-eval'"),
  );

  const bypasses = failures.filter(
    (f) =>
      (f.type === T.SCRIPT_ALLOWLIST_BYPASS && f.severity === CSP_SEVERITY.HIGH) ||
      (BROAD.has(f.type) && SCRIPT_DIRECTIVES.has(f.directive)),
  );
  // The evaluator's advice on allowlists (no known bypass; 'self'; prefer nonces with 'strict-dynamic').
  const allowlistAdvice =
    failures.some((f) => f.type === T.STRICT_DYNAMIC) ||
    failures.some((f) => f.type === T.SCRIPT_ALLOWLIST_BYPASS && f.severity !== CSP_SEVERITY.HIGH);
  rows.push(
    bypasses.length > 0
      ? fail(S.cspBypass, {
          detail: `${bypasses.length} script source(s) let an attacker's script through: ${bypasses.slice(0, 3).map(bypassWords).join('; ')}${several}`,
          title: 'CSP allows scripts from hosts an attacker can use',
          remediation:
            "Remove these sources from script-src. Hosts that serve JSONP or AngularJS let an injected tag run any code through your allowlist; a policy of nonces or hashes with 'strict-dynamic' does not depend on hosts at all.",
          agentAction: `Remove ${[...new Set(bypasses.map((b) => b.value ?? b.directive))].slice(0, 5).join(', ')} from the policy's script sources (load what the site needs from its own origin, or move to script-src 'nonce-{RANDOM}' 'strict-dynamic' with a fresh nonce on every response and on each <script>).`,
          affectedUrls: [url],
          evidence: evidence([
            ...bypasses.slice(0, 3).map((b) => `CSP Evaluator: ${b.description}`),
            ...policyEvidence,
          ]),
          suggestions: headerSuggestions([['Content-Security-Policy', STRICT_CSP]]),
        })
      : pass(
          S.cspBypass,
          allowlistAdvice
            ? `no allowlisted script source is known to serve JSONP or AngularJS; a host allowlist can still be bypassed where a listed host serves such files, and nonces or hashes with 'strict-dynamic' avoid that`
            : 'scripts are allowed by nonce or hash, or only from sources with no known bypass',
        ),
  );

  const plugins = failures.filter(
    (f) =>
      (f.type === T.MISSING_DIRECTIVES && f.directive === D.OBJECT_SRC) ||
      (f.type === T.OBJECT_ALLOWLIST_BYPASS && f.severity === CSP_SEVERITY.HIGH) ||
      (BROAD.has(f.type) && f.directive === D.OBJECT_SRC),
  );
  rows.push(
    plugins.length > 0
      ? fail(S.cspObject, {
          detail: plugins.some((f) => f.type === T.MISSING_DIRECTIVES)
            ? `no enforced policy restricts object-src (nor default-src): <object> and <embed> can load plugins that run script${several}`
            : `object-src allows ${plugins.map((f) => quote(f.value ?? f.directive)).join(', ')}${several}`,
          title: 'CSP does not restrict plugins (object-src)',
          remediation: "Add object-src 'none' to the Content-Security-Policy: sites rarely need <object> or <embed>.",
          agentAction:
            "Add the directive object-src 'none' to the Content-Security-Policy the server sends (keep the rest of the policy as it is).",
          affectedUrls: [url],
          evidence: evidence(policyEvidence),
        })
      : pass(S.cspObject, 'object-src (or default-src) restricts plugins'),
  );

  const base = failures.filter(
    (f) =>
      (f.type === T.MISSING_DIRECTIVES && f.directive === D.BASE_URI) ||
      (BROAD.has(f.type) && f.directive === D.BASE_URI),
  );
  rows.push(
    base.length > 0
      ? fail(S.cspBaseUri, {
          detail: base.some((f) => f.type === T.MISSING_DIRECTIVES)
            ? `scripts are allowed by nonce or hash but no policy has base-uri: an injected <base> tag points the page's relative script URLs at another host${several}`
            : `base-uri allows ${base.map((f) => quote(f.value ?? f.directive)).join(', ')}${several}`,
          title: 'CSP does not restrict <base> (base-uri)',
          remediation: "Add base-uri 'self' (or 'none') to the Content-Security-Policy.",
          agentAction:
            "Add the directive base-uri 'self' to the Content-Security-Policy the server sends (base-uri 'none' if the pages have no <base> tag).",
          affectedUrls: [url],
          evidence: evidence(policyEvidence),
        })
      : pass(
          S.cspBaseUri,
          'base-uri is restricted, or scripts are not allowed by nonce or hash (a <base> tag cannot redirect them)',
        ),
  );
  return rows;
}

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
  /** The home page's policies judged by the CSP Evaluator (on the CPU pool); judged here when absent. */
  evaluation?: CspEvaluation,
): CheckResult[] {
  const headers = home.fetched?.headers ?? {};
  const url = home.url;
  const rows: CheckResult[] = [];
  const evidence = (text: string) => [{ type: 'page' as const, url, summary: text }];
  const csp = parseCsp(headers['content-security-policy']);
  rows.push(...cspChecks(evaluation ?? evaluateCsp(policiesOf(headers, home.facts)), url));

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
