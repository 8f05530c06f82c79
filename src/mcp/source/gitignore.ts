// .gitignore rules (gitignore(5)) parsed and matched without regular expressions: a pattern becomes
// segments of single-character tests and stars, matched by the two-pointer wildcard algorithm, first
// within a path segment (`*`, `?`, `[a-z]`) and then over segments (`**`). Each match is
// O(pattern x text) in the worst case, never exponential, and patterns and paths are bounded.
import { MAX_IGNORE_RULES, MAX_PATTERN_CHARS } from './bounds.ts';

/** One character class, `[a-z_]` or `[!0-9]`: inclusive code ranges as pairs. */
interface CharClass {
  ranges: number[];
  negated: boolean;
}
/** A literal character's code, ANY (`?`), STAR (`*`) or a class. */
type Part = number | CharClass;
const ANY = -1;
const STAR = -2;

/**
 * A path segment's pattern: its literal text when it has no wildcard (compared whole), else parts;
 * 'never' for a class that never closes (`[a-`), which git's wildmatch matches with nothing.
 */
type Segment = { literal: string } | { parts: Part[] } | 'globstar' | 'never';

export interface IgnoreRule {
  negated: boolean;
  /** `build/`: matches directories only. */
  dirOnly: boolean;
  /** A slash at the start or in the middle: matched from the .gitignore's directory, else by name at any depth. */
  anchored: boolean;
  segments: Segment[];
}

/** The rules of one ignore file, and where it sits relative to the listing's root. */
export interface IgnoreFile {
  rules: IgnoreRule[];
  /** Segments before a root-relative path to make it relative to this file's directory (an ancestor of root). */
  prefix: string[];
  /** Leading segments of a root-relative path that are this file's directory (a subdirectory of root). */
  strip: number;
}

const matchPart = (part: Part, code: number): boolean => {
  if (typeof part === 'number') return part === ANY || part === code;
  let inside = false;
  for (let i = 0; i < part.ranges.length && !inside; i += 2)
    inside = code >= (part.ranges[i] as number) && code <= (part.ranges[i + 1] as number);
  return inside !== part.negated;
};

/**
 * The wildcard algorithm over any sequence: single-item tests and stars that take any run. On a
 * mismatch only the last star takes one more item, which is enough when every other item matches
 * exactly one: O(items x pattern) at worst, with no recursion.
 */
function wildcard<T, I>(
  pattern: readonly T[],
  isStar: (p: T) => boolean,
  items: readonly I[],
  test: (p: T, i: I) => boolean,
) {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < items.length) {
    const part = pattern[p];
    if (part !== undefined && !isStar(part) && test(part, items[t] as I)) {
      p++;
      t++;
    } else if (part !== undefined && isStar(part)) {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p] as T)) p++;
  return p === pattern.length;
}

const isStarPart = (part: Part) => part === STAR;
const codesOf = (text: string) => {
  const codes: number[] = new Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
};

function matchSegment(segment: Segment, name: string): boolean {
  if (segment === 'globstar') return true;
  if (segment === 'never') return false;
  if ('literal' in segment) return segment.literal === name;
  return wildcard(segment.parts, isStarPart, codesOf(name), matchPart);
}

/** One character of a class at `i`, a backslash escaping the next: its code and the index after it. */
const classChar = (text: string, i: number): [number, number] =>
  text[i] === '\\' && i + 1 < text.length ? [text.charCodeAt(i + 1), i + 2] : [text.charCodeAt(i), i + 1];

/** `[...]` from `start` (the `[`): the class and the index after `]`, or undefined when it never closes. */
function readClass(text: string, start: number): { part: CharClass; next: number } | undefined {
  let i = start + 1;
  const negated = text[i] === '!' || text[i] === '^';
  if (negated) i++;
  const ranges: number[] = [];
  // A `]` first in the class is a member, not its end.
  let first = true;
  while (i < text.length && (text[i] !== ']' || first)) {
    first = false;
    const [low, afterLow] = classChar(text, i);
    if (text[afterLow] === '-' && afterLow + 1 < text.length && text[afterLow + 1] !== ']') {
      const [high, afterHigh] = classChar(text, afterLow + 1);
      ranges.push(low, high);
      i = afterHigh;
    } else {
      ranges.push(low, low);
      i = afterLow;
    }
  }
  return i < text.length ? { part: { ranges, negated }, next: i + 1 } : undefined;
}

function compileSegment(text: string): Segment {
  if (text === '**') return 'globstar';
  const parts: Part[] = [];
  let wild = false;
  for (let i = 0; i < text.length; ) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length) {
      parts.push(text.charCodeAt(i + 1));
      i += 2;
    } else if (char === '*') {
      // Consecutive stars inside a segment are one star.
      if (parts[parts.length - 1] !== STAR) parts.push(STAR);
      wild = true;
      i++;
    } else if (char === '?') {
      parts.push(ANY);
      wild = true;
      i++;
    } else if (char === '[') {
      const klass = readClass(text, i);
      if (!klass) return 'never';
      parts.push(klass.part);
      wild = true;
      i = klass.next;
    } else {
      parts.push(text.charCodeAt(i));
      i++;
    }
  }
  return wild ? { parts } : { literal: String.fromCharCode(...parts.map((p) => p as number)) };
}

/** One line of a .gitignore as a rule; undefined for blanks, comments and lines past the bound. */
export function parseRule(line: string): IgnoreRule | undefined {
  if (line.length > MAX_PATTERN_CHARS) return undefined;
  let end = line.length;
  if (line[end - 1] === '\r') end--;
  // Trailing spaces go, unless the last is escaped ("foo\ ").
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  let text = line.slice(0, end);
  if (text === '' || text[0] === '#') return undefined;
  const negated = text[0] === '!';
  if (negated) text = text.slice(1);
  const dirOnly = text.endsWith('/');
  while (text.endsWith('/')) text = text.slice(0, -1);
  if (text === '') return undefined;
  const anchored = text.includes('/');
  const segments = text
    .split('/')
    .filter((s) => s !== '')
    .map(compileSegment);
  if (segments.length === 0) return undefined;
  // A trailing "/**" matches everything inside, but not the directory itself: at least one more segment.
  if (anchored && segments.length > 1 && segments[segments.length - 1] === 'globstar') segments.push({ parts: [STAR] });
  return { negated, dirOnly, anchored, segments };
}

export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  let start = 0;
  while (start <= text.length && rules.length < MAX_IGNORE_RULES) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const rule = parseRule(text.slice(start, end));
    if (rule) rules.push(rule);
    start = end + 1;
  }
  return rules;
}

/** Whether one rule matches a path given as segments relative to its file's directory. */
export function ruleMatches(rule: IgnoreRule, segments: readonly string[], isDir: boolean): boolean {
  if (rule.dirOnly && !isDir) return false;
  if (segments.length === 0) return false;
  if (!rule.anchored) return matchSegment(rule.segments[0] as Segment, segments[segments.length - 1] as string);
  return wildcard(rule.segments, (s) => s === 'globstar', segments, matchSegment);
}

/**
 * Whether an entry is ignored, given the ignore files that apply to it (shallowest first). As git
 * does, a deeper file overrides a shallower one and a later rule an earlier one. The caller checks
 * directories before entering them: an excluded directory's contents are never re-included.
 */
export function isIgnored(files: readonly IgnoreFile[], path: string, isDir: boolean): boolean {
  const segments = path.split('/');
  for (let f = files.length - 1; f >= 0; f--) {
    const file = files[f] as IgnoreFile;
    if (file.strip >= segments.length) continue;
    const relative =
      file.prefix.length > 0 ? [...file.prefix, ...segments] : file.strip > 0 ? segments.slice(file.strip) : segments;
    for (let r = file.rules.length - 1; r >= 0; r--) {
      const rule = file.rules[r] as IgnoreRule;
      if (ruleMatches(rule, relative, isDir)) return !rule.negated;
    }
  }
  return false;
}

/** Whether a path is ignored, its parent directories included (for a path not reached by a walk). */
export function isPathIgnored(files: readonly IgnoreFile[], path: string, isDir: boolean): boolean {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) if (isIgnored(files, segments.slice(0, i).join('/'), true)) return true;
  return isIgnored(files, path, isDir);
}
