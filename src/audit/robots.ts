// robots.txt per RFC 9309: groups by user agent (case-insensitive product token), rules merged
// across groups that name the same agent, `*` as the fallback group, longest match wins and Allow
// wins ties, `*` and `$` in patterns, /robots.txt always allowed. Also reads Sitemap lines and
// Content-Signal preferences.

export interface RobotsRule {
  allow: boolean;
  /** The pattern as written, with non-ASCII percent-encoded and escapes upper-cased. */
  pattern: string;
  regex: RegExp;
}

export interface RobotsGroup {
  agents: string[];
  rules: RobotsRule[];
  contentSignals: string[];
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  sitemaps: string[];
  /** Lines that are neither blank, comments nor known keys (a sign of a malformed file). */
  invalidLines: number;
}

/** How the file answered (RFC 9309 2.3.1): unavailable (4xx) allows all; unreachable (5xx) disallows all. */
export type RobotsPolicy = { kind: 'parsed'; robots: RobotsTxt } | { kind: 'allow_all' } | { kind: 'disallow_all' };

// RFC 9309 2.3.1.1 and 2.3.1.2: redirects followed up to five; at least 500 KiB parsed.
export const ROBOTS_MAX_BYTES = 512 * 1024;

const KEY = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/;
// Google's parser also reads a known key followed by white space instead of a colon; such lines
// count as non-standard, but are matched the way the dominant crawler reads them.
const KEY_WITHOUT_COLON = /^\s*(user-agent|allow|disallow|sitemap)\s+(\S.*?)\s*$/i;
// Google's parser keeps at most this many characters of a line (robots.cc: kMaxLineLen - 1).
const LINE_MAX = 16_663;

/** Percent-encodes what is not ASCII (as UTF-8) and upper-cases existing escapes, for comparison. */
export function canonicalPercentEncoding(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x7e || code < 0x21) {
      for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    } else {
      out += char;
    }
  }
  return out.replace(/%[0-9a-f]{2}/gi, (percentEscape) => percentEscape.toUpperCase());
}

function compilePattern(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`, 's');
}

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let invalidLines = 0;
  let current: RobotsGroup | undefined;
  let collectingAgents = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.slice(0, LINE_MAX).replace(/#.*$/, '');
    if (line.trim() === '') continue;
    let match = KEY.exec(line);
    if (!match) {
      invalidLines++;
      match = KEY_WITHOUT_COLON.exec(line);
      if (!match) continue;
    }
    const key = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? '';
    if (key === 'user-agent') {
      // Consecutive user-agent lines share one group; one after rules starts a new group.
      if (!current || !collectingAgents) {
        current = { agents: [], rules: [], contentSignals: [] };
        groups.push(current);
        collectingAgents = true;
      }
      current.agents.push(value.toLowerCase());
      continue;
    }
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (key === 'allow' || key === 'disallow') {
      collectingAgents = false;
      // Rules before any user-agent line belong to no group and are ignored (RFC 9309 2.2.1).
      if (!current || value === '') continue;
      const pattern = canonicalPercentEncoding(value);
      current.rules.push({ allow: key === 'allow', pattern, regex: compilePattern(pattern) });
      continue;
    }
    if (key === 'content-signal') {
      collectingAgents = false;
      current?.contentSignals.push(value);
      continue;
    }
    if (key === 'crawl-delay' || key === 'host' || key === 'clean-param' || key === 'request-rate') {
      collectingAgents = false;
      continue;
    }
    invalidLines++;
  }
  return { groups, sitemaps, invalidLines };
}

/** The product token of a user-agent line's value: its leading letters, `_` and `-` (RFC 9309 2.2.1). */
/** The product token of a User-agent value (RFC 9309 2.2.1): its leading letters, underscores and hyphens. */
export function productToken(value: string): string {
  return /^[a-z_-]+/i.exec(value.trim())?.[0]?.toLowerCase() ?? '';
}

/** The groups that apply to `agent`: those naming it, else the `*` groups (merged, RFC 9309 2.2.1). */
export function groupsFor(robots: RobotsTxt, agent: string): RobotsGroup[] {
  const token = agent.toLowerCase();
  const named = robots.groups.filter((g) => g.agents.some((a) => a !== '*' && productToken(a) === token));
  return named.length > 0 ? named : robots.groups.filter((g) => g.agents.includes('*'));
}

/** The path, parameters and query of a URL, as RFC 9309 matches them. */
function matchTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return canonicalPercentEncoding(`${parsed.pathname || '/'}${parsed.search}`);
  } catch {
    return canonicalPercentEncoding(url.startsWith('/') ? url : `/${url}`);
  }
}

export function isAllowed(robots: RobotsTxt, agent: string, url: string): boolean {
  const target = matchTarget(url);
  if (target === '/robots.txt') return true; // RFC 9309 2.2.2: always allowed
  let best: RobotsRule | undefined;
  for (const group of groupsFor(robots, agent)) {
    for (const rule of group.rules) {
      if (!rule.regex.test(target)) continue;
      const longer = !best || rule.pattern.length > best.pattern.length;
      const tieAllow = best && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
      if (longer || tieAllow) best = rule;
    }
  }
  return best ? best.allow : true;
}

export function isAllowedByPolicy(policy: RobotsPolicy, agent: string, url: string): boolean {
  if (policy.kind === 'allow_all') return true;
  if (policy.kind === 'disallow_all') return matchTarget(url) === '/robots.txt';
  return isAllowed(policy.robots, agent, url);
}

/** The policy a robots.txt response gives (RFC 9309 2.3.1.3, 2.3.1.4). */
export function policyFromResponse(status: number | 'unreachable', body: string): RobotsPolicy {
  if (status === 'unreachable' || status >= 500) return { kind: 'disallow_all' };
  if (status >= 400) return { kind: 'allow_all' };
  if (status >= 200 && status < 300) return { kind: 'parsed', robots: parseRobotsTxt(body) };
  return { kind: 'allow_all' };
}
