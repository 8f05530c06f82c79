// Cases ported from the MDN HTTP Observatory's public test suite, restated as data: the header value
// and what the Observatory concluded about it, in the terms our checks use.
//
// Sources: mdn/mdn-http-observatory test/*.test.js (csp, strict-transport-security, x-frame-options,
// referrer-policy, x-content-type-options, cookies) and, for a few cases only there, the older
// mozilla/http-observatory httpobs/tests/unittests/test_headers.py (marked "(python)").
//
// CSP convention: when a policy has neither script-src nor default-src (restrictsScripts false),
// nothing stops inline script, and the Observatory scores such policies csp-implemented-with-unsafe-inline,
// so allowsUnsafeInline is true; allowsUnsafeEval stays false there (no 'unsafe-eval' in the text, and
// the Observatory's unsafeEval flag is false).

export interface CspCase {
  name: string; // upstream test name + a few words
  header: string; // the Content-Security-Policy header value
  /** Scripts are restricted at all: the policy has script-src or default-src. */
  restrictsScripts: boolean;
  /** The policy effectively allows inline script ('unsafe-inline' for scripts, not neutralised by a nonce, hash or 'strict-dynamic'). */
  allowsUnsafeInline: boolean;
  /** The policy allows 'unsafe-eval' for scripts. */
  allowsUnsafeEval: boolean;
}
export interface HstsCase {
  name: string;
  header: string;
  /** null when the header is invalid/has no max-age */
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
}
export interface FramingCase {
  name: string;
  xFrameOptions: string | null;
  csp: string | null;
  /** the page is protected against framing */
  protects: boolean;
}
export interface ReferrerCase {
  name: string;
  header: string;
  /** the Observatory counts the policy as private (no full-URL leak cross-origin) */
  private: boolean;
}
export interface NosniffCase {
  name: string;
  header: string;
  valid: boolean;
}
export interface CookieCase {
  name: string;
  setCookie: string;
  secure: boolean;
  httpOnly: boolean;
  /** the SameSite value as written, or null */
  sameSite: string | null;
}

export const CSP_CASES: CspCase[] = [
  // "header invalid" (csp-header-invalid): only the values without script-src/default-src.
  {
    name: 'header invalid: whitespace only',
    header: '  ',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'header invalid: bare CRLF',
    header: '\r\n',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'header invalid: empty string',
    header: '',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'header invalid: truncated directive name',
    header: 'defa',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },

  // "insecure scheme broad and unsafe" (csp-implemented-with-unsafe-inline)
  {
    name: 'insecure scheme broad and unsafe: script-src unsafe-inline under default-src none',
    header: `default-src 'none'; script-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },

  // "insecure scheme" (csp-implemented-with-insecure-scheme; scored so because the site is https)
  {
    name: 'insecure scheme: default-src http origin',
    header: 'default-src http://mozilla.org',
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme: script-src http origin',
    header: `default-src 'none'; script-src http://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme: script-src ftp origin',
    header: `default-src 'none'; script-src ftp://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "insecure scheme in passive content only" (csp-implemented-with-insecure-scheme-in-passive-content-only)
  {
    name: 'insecure scheme in passive content only: img-src http origin',
    header: `default-src 'none'; img-src http://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: img-src ftp scheme',
    header: `default-src 'self'; img-src ftp:`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: img-src http scheme',
    header: `default-src 'self'; img-src http:`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: media-src http origin',
    header: `default-src 'none'; img-src https:; media-src http://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: img-src http and https with script-src self',
    header: `default-src 'none'; img-src http: https:; script-src 'self'; style-src 'self'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: media-src http with script-src self',
    header: `default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'self'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'insecure scheme in passive content only: media-src http with unsafe-inline styles only',
    header: `default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "unsafe inline" (csp-implemented-with-unsafe-inline): only values with a literal 'unsafe-inline'
  // for scripts or no script restriction at all.
  {
    name: 'unsafe inline: script-src unsafe-inline alone',
    header: `script-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline: default-src unsafe-inline',
    header: `default-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline: keyword in upper case',
    header: `default-src 'UNSAFE-INLINE'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline: upgrade-insecure-requests only, no script restriction',
    header: 'upgrade-insecure-requests',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline: script-src unsafe-inline and unsafe-eval',
    header: `default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: true,
  },
  {
    name: 'unsafe inline: script-src unsafe-inline plus http scheme',
    header: `default-src 'none'; script-src 'unsafe-inline' http:`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },

  // "unsafe eval" (csp-implemented-with-unsafe-eval)
  {
    name: 'unsafe eval: script-src unsafe-eval under default-src none',
    header: `default-src 'none'; script-src 'unsafe-eval'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: true,
  },

  // "unsafe inline in style src only" (csp-implemented-with-unsafe-inline-in-style-src-only): scripts are fine.
  {
    name: 'unsafe inline in style src only: script-src none, style-src unsafe-inline',
    header: `object-src 'none'; script-src 'none'; style-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: script-src origin, style-src unsafe-inline',
    header: `default-src 'none'; script-src https://mozilla.org; style-src 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: script-src overrides default-src unsafe-inline',
    header: `default-src 'unsafe-inline'; script-src https://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: empty directives between semicolons',
    header: `default-src 'none';;; ;;;style-src 'self' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: style-src data',
    header: `default-src 'none'; style-src data:`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: style-src wildcard',
    header: `default-src 'none'; style-src *`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: style-src https scheme',
    header: `default-src 'none'; style-src https:`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'unsafe inline in style src only: script unsafe-inline neutralised by a hash',
    header:
      `default-src 'none'; style-src 'unsafe-inline'; ` +
      `script-src 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB=' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "no unsafe" (csp-implemented-with-no-unsafe)
  {
    name: 'no unsafe: default-src https origin',
    header: 'default-src https://mozilla.org',
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: empty directives then script-src none',
    header: `default-src https://mozilla.org;;; ;;;script-src 'none'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: script-src origin with upgrade-insecure-requests',
    header: `object-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: strict-dynamic and nonce neutralise unsafe-inline',
    header: `object-src 'none'; script-src 'strict-dynamic' 'nonce-abc' 'unsafe-inline'; style-src 'none'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: script-src hash only, no space after semicolon',
    header: `object-src 'none'; style-src 'self';script-src 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: nonce neutralises repeated unsafe-inline',
    header: `object-src 'none'; script-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'; style-src 'none'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: unsafe-inline with nonce in style-src only',
    header: `default-src https://mozilla.org; style-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe: unsafe-inline with hash in style-src only',
    header:
      `default-src https://mozilla.org; style-src 'unsafe-inline' ` +
      `'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB=' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "no unsafe default src none" (csp-implemented-with-no-unsafe-default-src-none), header-only values
  {
    name: 'no unsafe default src none: default-src with no sources means none',
    header: 'default-src',
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe default src none: strict-dynamic with nonce and unsafe-inline',
    header: `default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe default src none: script-src and style-src origins with upgrade-insecure-requests',
    header: `default-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'no unsafe default src none: object-src origin',
    header: `default-src 'none'; object-src https://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "strict dynamic" (csp-implemented-with-no-unsafe-default-src-none, strictDynamic true)
  {
    name: 'strict dynamic: with nonce',
    header: `default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'strict dynamic: with hash',
    header: `default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'strict dynamic: with hash, broad https wildcard ignored',
    header: `default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' https://*`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'strict dynamic: with hash, unsafe-inline ignored',
    header: `default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' 'unsafe-inline'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },

  // "policy analysis": these assert other policy flags; the three booleans come from the policy text and
  // agree with what the Observatory's analyzer computes for them.
  {
    name: 'policy analysis: default-src none alone',
    header: `default-src 'none'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: frame-ancestors wildcard only',
    header: 'frame-ancestors *',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: frame-ancestors http scheme only',
    header: 'frame-ancestors http:',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: frame-ancestors https scheme only',
    header: 'frame-ancestors https:',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: base-uri self under default-src none',
    header: `default-src 'none'; base-uri 'self'`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: base-uri origin under default-src none',
    header: `default-src 'none'; base-uri https://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: default-src allowing everything incl. unsafe-inline and unsafe-eval',
    header: `default-src * http: https: data: 'unsafe-inline' 'unsafe-eval'`,
    restrictsScripts: true,
    allowsUnsafeInline: true,
    allowsUnsafeEval: true,
  },
  {
    name: 'policy analysis: img-src http scheme under default-src none',
    header: `default-src 'none'; img-src http:`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: default-src none plus origin, img-src http origin',
    header: `default-src 'none' https://mozilla.org; img-src http://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: form-action self and origin under default-src none',
    header: `default-src 'none'; form-action 'self' https://mozilla.org`,
    restrictsScripts: true,
    allowsUnsafeInline: false,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: form-action only, no script restriction',
    header: `form-action 'self' https://mozilla.org`,
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
  {
    name: 'policy analysis: form-action https scheme only, no script restriction',
    header: 'form-action https:',
    restrictsScripts: false,
    allowsUnsafeInline: true,
    allowsUnsafeEval: false,
  },
];

export const HSTS_CASES: HstsCase[] = [
  {
    name: 'header invalid: includeSubDomains and preload without max-age',
    header: 'includeSubDomains; preload',
    maxAge: null,
    includeSubDomains: true,
    preload: true,
  },
  {
    name: 'header invalid: header sent twice, joined by a comma',
    header: 'max-age=15768000; includeSubDomains, max-age=15768000; includeSubDomains',
    maxAge: null,
    includeSubDomains: true,
    preload: false,
  },
  {
    name: 'max age too low: one day',
    header: 'max-age=86400',
    maxAge: 86400,
    includeSubDomains: false,
    preload: false,
  },
  {
    name: 'implemented: six months with includeSubDomains and preload',
    header: 'max-age=15768000; includeSubDomains; preload',
    maxAge: 15768000,
    includeSubDomains: true,
    preload: true,
  },
];

export const FRAMING_CASES: FramingCase[] = [
  {
    name: 'checks for missing: neither X-Frame-Options nor CSP',
    xFrameOptions: null,
    csp: null,
    protects: false,
  },
  {
    name: 'checks validity: unknown X-Frame-Options value',
    xFrameOptions: 'whimsy',
    csp: null,
    protects: false,
  },
  {
    name: 'checks validity: SAMEORIGIN sent twice, joined by a comma',
    xFrameOptions: 'SAMEORIGIN, SAMEORIGIN',
    csp: null,
    protects: false,
  },
  {
    name: 'checks allow from origin: ALLOW-FROM counted as a pass',
    xFrameOptions: 'ALLOW-FROM https://mozilla.org',
    csp: null,
    protects: true,
  },
  {
    name: 'checks deny: DENY',
    xFrameOptions: 'DENY',
    csp: null,
    protects: true,
  },
  {
    name: 'checks deny: DENY with trailing space',
    xFrameOptions: 'DENY ',
    csp: null,
    protects: true,
  },
  {
    name: 'checks implemented via CSP: frame-ancestors origin alongside DENY',
    xFrameOptions: 'DENY',
    csp: 'frame-ancestors https://mozilla.org',
    protects: true,
  },
  {
    name: 'csp policy analysis: default-src none does not cover frame-ancestors',
    xFrameOptions: null,
    csp: `default-src 'none'`,
    protects: false,
  },
  {
    name: 'csp policy analysis: frame-ancestors none',
    xFrameOptions: null,
    csp: `default-src *; frame-ancestors 'none'`,
    protects: true,
  },
];

export const REFERRER_CASES: ReferrerCase[] = [
  { name: 'checks for private referrer header: no-referrer', header: 'no-referrer', private: true },
  { name: 'checks for private referrer header: same-origin', header: 'same-origin', private: true },
  { name: 'checks for private referrer header: strict-origin', header: 'strict-origin', private: true },
  { name: 'checks for private referrer header: upper case STRICT-ORIGIN', header: 'STRICT-ORIGIN', private: true },
  {
    name: 'checks for private referrer header: strict-origin-when-cross-origin',
    header: 'strict-origin-when-cross-origin',
    private: true,
  },
  { name: 'checks for invalid referrer header: unknown value', header: 'whimsy', private: false },
  { name: 'checks for unsafe referrer header: origin', header: 'origin', private: false },
  {
    name: 'checks for unsafe referrer header: origin-when-cross-origin',
    header: 'origin-when-cross-origin',
    private: false,
  },
  { name: 'checks for unsafe referrer header: unsafe-url', header: 'unsafe-url', private: false },
  {
    name: 'checks for multiple valid referrer headers: private value in the middle, unsafe last',
    header: 'origin-when-cross-origin, no-referrer, unsafe-url',
    private: false,
  },
  {
    name: 'checks for multiple valid referrer headers: private value first, unsafe last',
    header: 'no-referrer, unsafe-url',
    private: false,
  },
  {
    name: 'checks for multiple referrer headers with valid and invalid mixed: unknown last value ignored',
    header: 'no-referrer, whimsy',
    private: true,
  },
  {
    name: 'checks for multiple invalid referrer headers: all unknown',
    header: 'whimsy, whimsy1, whimsy2',
    private: false,
  },
  {
    name: '(python) test_header_no_referrer_when_downgrade: not private',
    header: 'no-referrer-when-downgrade',
    private: false,
  },
];

export const NOSNIFF_CASES: NosniffCase[] = [
  { name: 'checks header validity: unknown value', header: 'whimsy', valid: false },
  { name: 'checks header validity: nosniff sent twice, joined by a comma', header: 'nosniff, nosniff', valid: false },
  { name: 'checks for nosniff: nosniff', header: 'nosniff', valid: true },
  { name: 'checks for nosniff: trailing space', header: 'nosniff ', valid: true },
];

export const COOKIE_CASES: CookieCase[] = [
  {
    name: 'checks secure with httponly sessions: session cookie Secure and HttpOnly',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly',
    secure: true,
    httpOnly: true,
    sameSite: null,
  },
  {
    name: 'checks secure with httponly sessions: regular cookie Secure only',
    setCookie: 'foo=bar; Domain=mozilla.org; Secure; Path=/',
    secure: true,
    httpOnly: false,
    sameSite: null,
  },
  {
    name: 'checks secure with httponly sessions: heroku-session-affinity without flags',
    setCookie: 'heroku-session-affinity=bar; Domain=mozilla.org; Path=/',
    secure: false,
    httpOnly: false,
    sameSite: null,
  },
  {
    name: 'checks secure with httponly sessions and samesite: SameSite=Strict',
    setCookie: 'SESSIONID_SAMESITE_STRICT=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Strict',
    secure: true,
    httpOnly: true,
    sameSite: 'Strict',
  },
  {
    name: 'checks secure with httponly sessions and samesite: SameSite=Lax',
    setCookie: 'SESSIONID_SAMESITE_LAX=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Lax',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax',
  },
  {
    name: 'checks secure with httponly sessions and samesite: SameSite=None',
    setCookie: 'SESSIONID_SAMESITE_NONE=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=None',
    secure: true,
    httpOnly: true,
    sameSite: 'None',
  },
  {
    name: 'checks secure with httponly sessions and samesite not awarded if not all cookies samesite: no SameSite',
    setCookie: 'SESSIONID_SAMESITE_NO_SAMESITE=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly',
    secure: true,
    httpOnly: true,
    sameSite: null,
  },
  {
    name: 'checks anticsrf without samesite: CSRF token cookie without SameSite',
    setCookie: 'CSRFTOKEN=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly',
    secure: true,
    httpOnly: true,
    sameSite: null,
  },
  {
    name: 'checks samesite invalid empty: SameSite with no value',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=',
    secure: true,
    httpOnly: true,
    sameSite: '',
  },
  {
    name: 'checks samesite invalid true: SameSite=True',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=True',
    secure: true,
    httpOnly: true,
    sameSite: 'True',
  },
  {
    name: 'checks samesite invalid: SameSite=Invalid',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Invalid',
    secure: true,
    httpOnly: true,
    sameSite: 'Invalid',
  },
  {
    name: 'checks no secure (and regular cookie no secure but hsts): no flags',
    setCookie: 'foo=bar; Domain=mozilla.org; Path=/',
    secure: false,
    httpOnly: false,
    sameSite: null,
  },
  {
    name: 'checks session no secure (and session cookie no secure but hsts): HttpOnly only',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; HttpOnly',
    secure: false,
    httpOnly: true,
    sameSite: null,
  },
  {
    name: 'checks session no httponly: Secure only',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/; Secure',
    secure: true,
    httpOnly: false,
    sameSite: null,
  },
  {
    name: 'checks session no secure: session cookie without any flags (issue 97)',
    setCookie: 'SESSIONID=bar; Domain=mozilla.org; Path=/',
    secure: false,
    httpOnly: false,
    sameSite: null,
  },
];
