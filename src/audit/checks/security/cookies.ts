// cookies_sessions: the cookies the site sets (after the Observatory's cookie test): Secure,
// HttpOnly on session cookies, a valid SameSite, and the __Host- / __Secure- prefix rules.
import { type CheckResult, type CheckSpec, fail, pass } from '../../checks.ts';
import { quote, quoteAll } from '../../quote.ts';
import { cookieFlag, RFC, ref, SET_COOKIE } from '../../standards.ts';

export const COOKIE_SPECS = {
  secure: {
    id: 'cookies-secure',
    label: 'Cookies are Secure',
    category: 'security',
    pillar: 'cookies_sessions',
    severity: 'medium',
    cite: {
      references: [RFC(6265, '4.1.2.5', 'The Secure Attribute')],
      verify: `${SET_COOKIE} | grep -ivE "${cookieFlag('secure')}"`,
      anchors: ['internet.nl', 'Observatory'],
    },
  },
  httpOnly: {
    id: 'session-cookies-httponly',
    label: 'Session cookies are HttpOnly',
    category: 'security',
    pillar: 'cookies_sessions',
    severity: 'high',
    cite: {
      references: [RFC(6265, '4.1.2.6', 'The HttpOnly Attribute')],
      verify: `curl -sSI {url} | grep -iE "^set-cookie:[[:space:]]*[^=;]*(sess|login)" | grep -ivE "^set-cookie:[[:space:]]*[^=;]*csrf|${cookieFlag('httponly')}"`,
      anchors: ['Observatory'],
    },
  },
  sameSite: {
    id: 'cookies-samesite',
    label: 'Cookies declare a valid SameSite',
    category: 'security',
    pillar: 'cookies_sessions',
    severity: 'low',
    cite: {
      references: [
        ref(
          'RFC 6265bis §4.1.2.7: The SameSite Attribute',
          'https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.2.7',
        ),
      ],
      verify: `${SET_COOKIE} | grep -ivE "${cookieFlag('samesite=(lax|strict)')}|samesite=none.*${cookieFlag('secure')}|;[[:space:]]*secure;.*samesite=none"`,
      anchors: ['Observatory'],
    },
  },
  prefixes: {
    id: 'cookie-prefixes',
    label: '__Host- and __Secure- cookies follow their rules',
    category: 'security',
    pillar: 'cookies_sessions',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'RFC 6265bis §4.1.3: Cookie Name Prefixes',
          'https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.3',
        ),
      ],
      verify: 'curl -sSI {url} | grep -i -E "^set-cookie: *__(host|secure)-"',
      anchors: ['Observatory'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = COOKIE_SPECS;

export interface Cookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | null;
  domain: string | null;
  path: string | null;
}

export function parseSetCookie(header: string): Cookie | undefined {
  const [pair, ...attributes] = header.split(';');
  const name = pair?.split('=')[0]?.trim();
  if (!name) return undefined;
  const cookie: Cookie = { name, secure: false, httpOnly: false, sameSite: null, domain: null, path: null };
  for (const attribute of attributes) {
    const [key, ...rest] = attribute.split('=');
    const value = rest.join('=').trim();
    switch (key?.trim().toLowerCase()) {
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite':
        cookie.sameSite = value;
        break;
      case 'domain':
        cookie.domain = value;
        break;
      case 'path':
        cookie.path = value;
        break;
    }
  }
  return cookie;
}

/** The Observatory's rule: a session cookie's name contains "sess" or "login" (anti-CSRF ones "csrf"). */
export const isSessionCookie = (name: string) => /sess|login/i.test(name) && !/csrf/i.test(name);

export function cookieChecks(setCookies: string[], url: string, https: boolean): CheckResult[] {
  const cookies = setCookies.map(parseSetCookie).filter((c): c is Cookie => c !== undefined);
  if (cookies.length === 0) {
    return [
      pass(S.secure, 'no cookies set'),
      pass(S.httpOnly, 'no cookies set'),
      pass(S.sameSite, 'no cookies set'),
      pass(S.prefixes, 'no cookies set'),
    ];
  }
  const names = (list: Cookie[]) => quoteAll(list.map((c) => c.name));
  const insecure = https ? cookies.filter((c) => !c.secure) : [];
  const sessionInsecure = insecure.filter((c) => isSessionCookie(c.name));
  const openSessions = cookies.filter((c) => isSessionCookie(c.name) && !c.httpOnly);
  const badSameSite = cookies.filter(
    (c) => c.sameSite === null || !/^(strict|lax|none)$/i.test(c.sameSite) || (/^none$/i.test(c.sameSite) && !c.secure),
  );
  const badPrefix = cookies.filter(
    (c) =>
      (c.name.startsWith('__Host-') && (!c.secure || c.domain !== null || c.path !== '/')) ||
      (c.name.startsWith('__Secure-') && !c.secure),
  );
  const evidence = (list: Cookie[]) =>
    list.slice(0, 5).map((c) => ({ type: 'page' as const, url, summary: `cookie ${quote(c.name)}` }));
  return [
    insecure.length === 0
      ? pass(
          S.secure,
          https ? `all ${cookies.length} cookie(s) are Secure` : 'not served over HTTPS: Secure not judged',
        )
      : fail(S.secure, {
          severity: sessionInsecure.length > 0 ? 'critical' : 'medium',
          detail: `cookies without Secure: ${names(insecure)}`,
          title:
            sessionInsecure.length > 0
              ? 'Session cookies can travel over plain HTTP'
              : 'Cookies without the Secure flag',
          remediation: 'Set the Secure attribute on every cookie of an HTTPS site so it is never sent over plain HTTP.',
          agentAction: `Add Secure to the Set-Cookie of: ${names(insecure)}.`,
          affectedUrls: [url],
          evidence: evidence(insecure),
        }),
    openSessions.length === 0
      ? pass(S.httpOnly, 'session cookies are HttpOnly (or there are none)')
      : fail(S.httpOnly, {
          detail: `session cookies readable by scripts: ${names(openSessions)}`,
          title: 'Session cookies are readable by JavaScript',
          remediation: 'Set HttpOnly on session cookies so an injected script cannot steal the session.',
          agentAction: `Add HttpOnly to the Set-Cookie of: ${names(openSessions)}.`,
          affectedUrls: [url],
          evidence: evidence(openSessions),
        }),
    badSameSite.length === 0
      ? pass(S.sameSite, 'every cookie declares SameSite')
      : fail(S.sameSite, {
          detail: `cookies without a valid SameSite (or SameSite=None without Secure): ${names(badSameSite)}`,
          title: 'Cookies without a valid SameSite',
          remediation: 'Declare SameSite=Lax (or Strict) on cookies; SameSite=None needs Secure.',
          agentAction: `Add SameSite=Lax to the Set-Cookie of: ${names(badSameSite)}.`,
          affectedUrls: [url],
          evidence: evidence(badSameSite),
        }),
    badPrefix.length === 0
      ? pass(S.prefixes, 'prefixed cookies follow their rules (or there are none)')
      : fail(S.prefixes, {
          detail: `prefixed cookies that break their rules: ${names(badPrefix)}`,
          title: '__Host- or __Secure- cookies that browsers will reject',
          remediation: '__Secure- cookies need Secure; __Host- cookies need Secure, Path=/ and no Domain.',
          agentAction: `Fix the attributes of: ${names(badPrefix)} (Secure; and for __Host-: Path=/ and no Domain).`,
          affectedUrls: [url],
          evidence: evidence(badPrefix),
        }),
  ];
}
