// robots.txt against the cases of Google's reference matcher (ported in robots-rfc9309-cases.ts),
// plus the RFC 9309 fetch-status rules.
import { describe, expect, it } from 'vitest';
import { isAllowed, isAllowedByPolicy, parseRobotsTxt, policyFromResponse } from '../../src/audit/robots.ts';
import { RFC9309_CASES } from './robots-rfc9309-cases.ts';

// Where we read RFC 9309 differently from Google's matcher, on purpose (docs/decisions.md): the
// verdict is asserted the other way, so a change of behaviour is always deliberate.
const DIVERGENCES: Record<string, string> = {
  // RFC 9309 2.2.2 percent-encodes the URL for the comparison; Google's test expects the caller to.
  'ID_Encoding: raw UTF-8 pattern does not match unencoded URL (caller must encode)': 'we encode the URL ourselves',
  'ID_Encoding: percent-encoded pattern does not match unencoded URL': 'we encode the URL ourselves',
  // Google alone treats an allowed /dir/index.html as allowing /dir/.
  'google-only: GoogleOnly_IndexHTMLisDirectory: allowing index.html also allows the directory': 'not in RFC 9309',
};

describe('robots.txt matching (RFC 9309, reference cases)', () => {
  it('knows every divergence it declares', () => {
    const names = new Set(RFC9309_CASES.map((c) => c.name));
    for (const name of Object.keys(DIVERGENCES)) expect(names.has(name), name).toBe(true);
  });

  it.each(RFC9309_CASES.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const expected = name in DIVERGENCES ? !c.allowed : c.allowed;
    expect(isAllowed(parseRobotsTxt(c.robotsTxt), c.userAgent, c.url)).toBe(expected);
  });
});

describe('robots.txt fetch rules (RFC 9309 2.3.1)', () => {
  const url = 'https://example.com/page';
  it.each([
    [404, true],
    [410, true],
    [403, true],
    [500, false],
    [503, false],
  ])('a robots.txt answering %d allows crawling: %s', (status, allowed) => {
    expect(isAllowedByPolicy(policyFromResponse(status, ''), 'siteaudit', url)).toBe(allowed);
  });
  it('an unreachable robots.txt disallows everything but itself', () => {
    const policy = policyFromResponse('unreachable', '');
    expect(isAllowedByPolicy(policy, 'siteaudit', url)).toBe(false);
    expect(isAllowedByPolicy(policy, 'siteaudit', 'https://example.com/robots.txt')).toBe(true);
  });
  it('reads Sitemap lines anywhere, Content-Signal per group, and counts non-standard lines', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://example.com/a.xml\nUser-agent: *\nContent-Signal: ai-train=no\nDisallow /x\nnonsense\nSitemap: https://example.com/b.xml',
    );
    expect(robots.sitemaps).toEqual(['https://example.com/a.xml', 'https://example.com/b.xml']);
    expect(robots.groups[0]?.contentSignals).toEqual(['ai-train=no']);
    expect(robots.invalidLines).toBe(2);
    expect(isAllowed(robots, 'siteaudit', 'https://example.com/x')).toBe(false);
  });
});
