// Text from an audited site made inert for a pull-request comment (issue 27). GitHub renders GFM and
// then rewrites the text it produced: @name notifies a person, #12 and GH-12 reference an issue,
// bare addresses and e-mails become links. That second pass runs after escapes are gone, so those are
// broken with a zero-width space rather than a backslash. One pass over code points, no regex over
// the text: linear whatever a page says.

/** Breaks a mention, an issue reference or an autolink where GitHub would form one; invisible. */
const BREAK = '\u200B';
/**
 * What GFM reads as inline syntax: emphasis, code, links and images (no `[`, no `![` or `](`), tags
 * and autolinks, entities, table cells, strikethrough, math.
 */
const SYNTAX = new Set(['\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '$']);
/** What starts a block (list, setext underline, ordered list marker) when it opens a line. */
const LINE_START = new Set(['-', '+', '=', '.', ')']);
/** Format characters (zero-width, bidi controls, tags): they hide or reorder text. One code point at a time. */
const FORMAT = /\p{Cf}/u;

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
const isLoneSurrogate = (ch: string) => ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff;

/**
 * Hostile text on one line and at most `max` code points (cut with …): line breaks and controls
 * become spaces and runs of spaces one, invisible format characters go, lone surrogates become U+FFFD.
 */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
  let out = '';
  let count = 0;
  let space = false;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (isControl(code) || ch === ' ' || ch === '\u00a0') {
      space = count > 0;
      continue;
    }
    // Every format character is past U+00AC: plain ASCII skips the test.
    if (code > 0xac && FORMAT.test(ch)) continue;
    if (count + (space ? 1 : 0) >= max) return `${out}…`;
    if (space) {
      out += ' ';
      count++;
      space = false;
    }
    out += isLoneSurrogate(ch) ? '\uFFFD' : ch;
    count++;
  }
  return out;
}

/**
 * A long text cut where a sentence ends, within `max` code points; with no sentence end in reach, at
 * the last space, marked with ….
 */
export function firstSentences(line: string, max: number): string {
  const points = Array.from(line);
  if (points.length <= max) return line;
  let sentence = -1;
  let space = -1;
  for (let i = 0; i < max; i++) {
    if (points[i] !== ' ') continue;
    space = i;
    const before = points[i - 1];
    if (before === '.' || before === '!' || before === '?') sentence = i;
  }
  if (sentence > 0) return points.slice(0, sentence).join('');
  return `${points.slice(0, space > 0 ? space : max - 1).join('')}…`;
}

/**
 * A line of text that GitHub shows as written and nothing more: every character GFM reads as syntax
 * is backslash-escaped (so no link, image, tag, entity, code span, emphasis or table cell forms), a
 * block marker that would open the line too, and @, # and the autolink openers (`://`, `www.`, `GH-`)
 * get a zero-width space so no one is notified, no issue referenced and no link made.
 * Give it `oneLine`'s output: a line break would let the text start a block of its own.
 */
export function escapeLine(line: string): string {
  let out = '';
  // The last three characters of the text (not of the output), ASCII lower-cased: www, gh, a colon.
  let a = '';
  let b = '';
  let c = '';
  let leadingDigits = true;
  for (const ch of line) {
    // At the start, or after a leading run of digits (`1.` and `1)` open an ordered list).
    if (SYNTAX.has(ch) || (leadingDigits && LINE_START.has(ch))) out += `\\${ch}`;
    else if (ch === '@' || ch === '#') out += `${ch}${BREAK}`;
    else if (ch === '/' && c === ':') out += `${BREAK}/`;
    else if (ch === '.' && a === 'w' && b === 'w' && c === 'w') out += `${BREAK}.`;
    else if (ch === '-' && b === 'g' && c === 'h') out += `${BREAK}-`;
    else out += ch;
    leadingDigits = leadingDigits && ch >= '0' && ch <= '9';
    a = b;
    b = c;
    c = ch >= 'A' && ch <= 'Z' ? String.fromCharCode(ch.charCodeAt(0) + 32) : ch;
  }
  return out;
}

/** Site text as a one-line markdown phrase of at most `max` code points (before escaping). */
export const markdownText = (text: string, max: number) => escapeLine(oneLine(text, max));

/**
 * Site text shown verbatim in a code span, where GitHub makes no link, mention or reference: the
 * fence is longer than any run of backticks inside, and padded when the text starts or ends with
 * one. Not for table cells, where a `|` would still end the cell.
 */
export function codeSpan(text: string, max: number): string {
  const line = oneLine(text, max);
  if (line === '') return '` `';
  let longest = 0;
  let run = 0;
  for (const ch of line) {
    run = ch === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line.startsWith(' ') || line.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}
