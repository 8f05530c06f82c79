// robots.txt per RFC 9309: groups by user agent (case-insensitive product token), rules merged
// across groups that name the same agent, `*` as the fallback group, longest match wins and Allow
// wins ties, `*` and `$` in patterns, /robots.txt always allowed. Also reads Sitemap lines and
// Content-Signal preferences. The file comes from the audited site, so it is hostile: parsing is
// a hand scan and matching has no RegExp, both without backtracking (docs/decisions.md).
import { skipWhiteSpace } from './white-space.ts';

export interface RobotsRule {
  allow: boolean;
  /** The pattern as written, with non-ASCII percent-encoded and escapes upper-cased. */
  pattern: string;
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

// Google's parser keeps at most this many characters of a line (robots.cc: kMaxLineLen - 1).
const LINE_MAX = 16_663;
// Google's parser also reads these keys followed by white space instead of a colon; such lines
// count as non-standard, but are matched the way the dominant crawler reads them.
const KEYS_WITHOUT_COLON = new Set(['user-agent', 'allow', 'disallow', 'sitemap']);

// Each UTF-8 byte as compared: printable ASCII as itself, anything else percent-encoded.
const BYTE_TEXT = Array.from({ length: 256 }, (_, byte) =>
  byte >= 0x21 && byte <= 0x7e ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
);
const utf8 = new TextEncoder();

/** Percent-encodes what is not printable ASCII (as UTF-8) and upper-cases existing escapes, for comparison. */
export function canonicalPercentEncoding(text: string): string {
  let out = '';
  for (const byte of utf8.encode(text)) out += BYTE_TEXT[byte];
  return out.replace(/%[0-9a-f]{2}/gi, (percentEscape) => percentEscape.toUpperCase());
}

/** A line read as `key: value`; `standard` is false for the colon-less form. */
interface Directive {
  key: string;
  value: string;
  standard: boolean;
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * Reads a line as `key: value`, or as one of KEYS_WITHOUT_COLON, white space, value. By index, in
 * one pass: the regexes this replaces backtracked over runs of white space (cubic on one line).
 */
function readDirective(line: string): Directive | undefined {
  const keyStart = skipWhiteSpace(line, 0);
  let keyEnd = keyStart;
  while (keyEnd < line.length && (isLetter(line.charCodeAt(keyEnd)) || line[keyEnd] === '-')) keyEnd++;
  if (keyEnd === keyStart) return undefined;
  const key = line.slice(keyStart, keyEnd).toLowerCase();
  const afterKey = skipWhiteSpace(line, keyEnd);
  if (line[afterKey] === ':') return { key, value: line.slice(afterKey + 1).trim(), standard: true };
  const spaceThenValue = afterKey > keyEnd && afterKey < line.length;
  if (spaceThenValue && KEYS_WITHOUT_COLON.has(key))
    return { key, value: line.slice(afterKey).trim(), standard: false };
  return undefined;
}

/** The line up to its first `#` (RFC 9309 2.2: a comment runs to the end of the line). */
function withoutComment(line: string): string {
  const hash = line.indexOf('#');
  return hash === -1 ? line : line.slice(0, hash);
}

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let invalidLines = 0;
  let current: RobotsGroup | undefined;
  let collectingAgents = false;

  // Fixed alternatives, no quantifier: the split cannot backtrack.
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = withoutComment(rawLine.slice(0, LINE_MAX));
    if (skipWhiteSpace(line, 0) === line.length) continue;
    const directive = readDirective(line);
    if (!directive?.standard) invalidLines++;
    if (!directive) continue;
    const { key, value } = directive;
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
      current.rules.push({ allow: key === 'allow', pattern });
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

/** The product token of a User-agent value (RFC 9309 2.2.1): its leading letters, underscores and hyphens. */
export function productToken(value: string): string {
  const start = skipWhiteSpace(value, 0);
  let end = start;
  while (end < value.length && (isLetter(value.charCodeAt(end)) || value[end] === '_' || value[end] === '-')) end++;
  return value.slice(start, end).toLowerCase();
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

/**
 * Matching work one parsed robots.txt may cost over its life (one audit): characters compared,
 * plus a fixed cost per search (at most about a third of a second of CPU in all). Each match is linear, but
 * a file may hold tens of thousands of rules and a crawl 12,500 links: rules × links × path has no
 * bound without it. A file of 800 rules spends a third of it on the most links an audit reads.
 */
export const MATCH_BUDGET = 300_000_000;

/** Work done by matches, in characters compared plus PIECE_COST per piece searched for. */
interface Work {
  done: number;
}
/** A search's fixed cost, in characters: what one call costs beyond the characters it compares. */
const PIECE_COST = 16;
/** A head's comparison: most rules of a file are told from a path by it, at a few characters. */
const HEAD_COST = 8;

/** A pattern cut at its `*`s: the head must start the path, a final `$` anchors the last piece. */
interface Pieces {
  pieces: string[];
  anchored: boolean;
}

function cutPattern(pattern: string): Pieces {
  const anchored = pattern.endsWith('$');
  return { pieces: (anchored ? pattern.slice(0, -1) : pattern).split('*'), anchored };
}

/** A rule with its pattern cut at its `*`s. */
interface CutRule {
  rule: RobotsRule;
  cut: Pieces;
}

/** What matching keeps per parsed file (one audit's): work left, and each agent's rules with their cuts. */
interface MatchState {
  remaining: number;
  rules: Map<string, CutRule[]>;
}
const matchStates = new WeakMap<RobotsTxt, MatchState>();

function matchState(robots: RobotsTxt): MatchState {
  let state = matchStates.get(robots);
  if (!state) {
    state = { remaining: MATCH_BUDGET, rules: new Map() };
    matchStates.set(robots, state);
  }
  return state;
}

/** Each rule's pattern cut once, whichever agents ask: keyed by the rule, never by its (long) text. */
const cuts = new WeakMap<RobotsRule, Pieces>();

function cutOf(rule: RobotsRule): Pieces {
  let cut = cuts.get(rule);
  if (!cut) {
    cut = cutPattern(rule.pattern);
    cuts.set(rule, cut);
  }
  return cut;
}

/**
 * The rules that apply to `agent`, with their cuts. Not a map keyed by pattern: looking up a long
 * pattern compares it whole whenever the key is an equal string rather than the same one, and 30
 * copies of a 48 KB rule made each link cost 1.4 MB of comparing (78 µs a link, outside MATCH_BUDGET).
 */
function rulesFor(robots: RobotsTxt, state: MatchState, agent: string): CutRule[] {
  let rules = state.rules.get(agent);
  if (!rules) {
    rules = groupsFor(robots, agent).flatMap((group) => group.rules.map((rule) => ({ rule, cut: cutOf(rule) })));
    state.rules.set(agent, rules);
  }
  return rules;
}

/** Whether matching against `robots` spent its MATCH_BUDGET (links past that point are not crawled). */
export function matchBudgetSpent(robots: RobotsTxt): boolean {
  return (matchStates.get(robots)?.remaining ?? 1) <= 0;
}

/**
 * Whether `pattern` matches the start of `path`: `*` is any run of characters, a final `$` anchors
 * at the end, and any other `$` is itself. The literal pieces between `*`s are found leftmost,
 * each from where the last ended: a `*` absorbs anything, so the leftmost place of a piece never
 * loses a match a later place would find. Linear in pattern and path (each search starts where the
 * previous ended); a RegExp of `.*` was exponential in the number of `*`, and Google's robots.cc
 * `Matches` (the set of possible ends) is O(pattern × path).
 */
export function patternMatches(pattern: string, path: string, work: Work = { done: 0 }): boolean {
  return piecesMatch(cutPattern(pattern), path, work);
}

function piecesMatch({ pieces, anchored }: Pieces, path: string, work: Work): boolean {
  const head = pieces[0] ?? '';
  // A head that differs is told at its first difference, most often in a few characters.
  const starts = path.startsWith(head);
  work.done += HEAD_COST + (starts ? head.length : 0);
  if (!starts) return false;
  if (pieces.length === 1) return !anchored || path.length === head.length;
  let at = head.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i] as string;
    if (piece.length === 0) continue; // `**` is `*`
    const found = path.indexOf(piece, at);
    work.done += (found === -1 ? path.length - at : found - at + piece.length) + PIECE_COST;
    if (found === -1) return false;
    at = found + piece.length;
  }
  const tail = pieces[last] as string;
  if (anchored) {
    work.done += tail.length + PIECE_COST;
    return path.length - tail.length >= at && path.endsWith(tail);
  }
  const found = path.indexOf(tail, at);
  work.done += (found === -1 ? path.length - at : found - at + tail.length) + PIECE_COST;
  return found !== -1;
}

/** Whether `rule` wins over `best` if it matches: the longer pattern, and Allow on a tie (RFC 9309 2.2.2). */
function outranks(rule: RobotsRule, best: RobotsRule | undefined): boolean {
  if (!best || rule.pattern.length > best.pattern.length) return true;
  return rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
}

/**
 * Whether `agent` may fetch `url`. Once this file's MATCH_BUDGET is spent, the answer is no: a
 * crawler that cannot afford to read the rules does not fetch what they may forbid.
 */
export function isAllowed(robots: RobotsTxt, agent: string, url: string): boolean {
  const target = matchTarget(url);
  if (target === '/robots.txt') return true; // RFC 9309 2.2.2: always allowed
  const state = matchState(robots);
  if (state.remaining <= 0) return false;
  const work: Work = { done: 0 };
  let best: RobotsRule | undefined;
  for (const { rule, cut } of rulesFor(robots, state, agent)) {
    // Rank first: a rule that cannot win is not worth matching.
    if (outranks(rule, best) && piecesMatch(cut, target, work)) best = rule;
  }
  state.remaining -= work.done;
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
