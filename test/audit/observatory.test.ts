// Header grading against the cases of the MDN HTTP Observatory's test suite (ported as data in
// observatory-cases.ts): CSP, HSTS, framing, Referrer-Policy, nosniff and cookies.
import { describe, expect, it } from 'vitest';
import {
  allowsInlineScript,
  framingProtected,
  nosniffValid,
  parseCsp,
  referrerIsPrivate,
  scriptSources,
} from '../../src/audit/checks/security/browser-defenses.ts';
import { parseSetCookie } from '../../src/audit/checks/security/cookies.ts';
import { parseHsts } from '../../src/audit/checks/security/transport.ts';
import {
  COOKIE_CASES,
  CSP_CASES,
  FRAMING_CASES,
  HSTS_CASES,
  NOSNIFF_CASES,
  REFERRER_CASES,
} from './observatory-cases.ts';

// Where we grade differently from the Observatory, on purpose (docs/decisions.md); asserted the
// other way so a change is always deliberate.
const DIVERGENCES = new Set([
  // Current browsers ignore ALLOW-FROM, so it protects nothing; the Observatory still passes it.
  'checks allow from origin: ALLOW-FROM counted as a pass',
]);

describe('Content-Security-Policy (Observatory cases)', () => {
  it.each(CSP_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const sources = scriptSources(parseCsp(c.header) ?? new Map());
    expect({
      restrictsScripts: sources !== undefined,
      allowsUnsafeInline: sources === undefined || allowsInlineScript(sources),
      allowsUnsafeEval: sources?.some((s) => s.toLowerCase() === "'unsafe-eval'") ?? false,
    }).toEqual({
      restrictsScripts: c.restrictsScripts,
      allowsUnsafeInline: c.allowsUnsafeInline,
      allowsUnsafeEval: c.allowsUnsafeEval,
    });
  });
});

describe('Strict-Transport-Security (Observatory cases)', () => {
  it.each(HSTS_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const parsed = parseHsts(c.header);
    expect(parsed ? parsed : null).toEqual(
      c.maxAge === null ? null : { maxAge: c.maxAge, includeSubDomains: c.includeSubDomains, preload: c.preload },
    );
  });
});

describe('framing (Observatory cases)', () => {
  it('knows every divergence it declares', () => {
    for (const name of DIVERGENCES)
      expect(
        FRAMING_CASES.some((c) => c.name === name),
        name,
      ).toBe(true);
  });
  it.each(FRAMING_CASES.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const expected = DIVERGENCES.has(name) ? !c.protects : c.protects;
    expect(framingProtected(c.xFrameOptions ?? undefined, parseCsp(c.csp ?? undefined))).toBe(expected);
  });
});

describe('Referrer-Policy (Observatory cases)', () => {
  it.each(REFERRER_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(referrerIsPrivate(c.header)).toBe(c.private);
  });
});

describe('X-Content-Type-Options (Observatory cases)', () => {
  it.each(NOSNIFF_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(nosniffValid(c.header)).toBe(c.valid);
  });
});

describe('Set-Cookie attributes (Observatory cases)', () => {
  it.each(COOKIE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(parseSetCookie(c.setCookie)).toMatchObject({ secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite });
  });
});
