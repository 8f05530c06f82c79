// A page's visible text, taken one text node at a time as parseHtml (html.ts) walks the tree: its
// length, its words (countWords), a bounded sample, how many phone numbers and e-mail addresses it shows, and, for
// monitoring, a digest. The text is the site's (hostile): every pattern here is linear in it.
import { createHash } from 'node:crypto';
import type { PageFacts } from './page-facts.ts';
import { isWhiteSpace } from './white-space.ts';

/** A phone number as people write one: international (+...), an area code in brackets, or after a label. */
const PHONE_TEXT =
  /\+\d{1,3}[\s.-]?\(?\d{1,5}\)?(?:[\s.-]?\d{2,5}){2,4}|\(\d{2,5}\)\s?\d{3,4}[\s.-]?\d{3,4}|\b(?:tel|phone|telephone|call(?: us)?|fon|telefon|téléphone)\.?:?\s*\d[\d\s()./-]{5,18}\d/i;
// Only tested (never extracted), so one local character before the @ and two TLD letters decide as
// the full address would; a longer local part ([\w.%+-]{1,64}@) rescans 64 characters from every
// start, which recheck finds super-linear. Labels stay bounded, each ends at its dot.
const EMAIL_TEXT = /[\w.%+-]@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2}/i;
const SAMPLE_MAX = 2000;
/** Text nodes with a contact counted, at most: as many as a fact list keeps (LIST_MAX in html.ts). */
const CONTACTS_MAX = 500;

export type TextFacts = Pick<PageFacts, 'textLength' | 'textWords' | 'textSample' | 'visibleContacts' | 'textDigest'>;

/** Chinese, Japanese kana and kanji: scripts that write no space between words, each character counted as one. */
const unspaced = (code: number) =>
  (code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff);
/** ASCII letters and digits; any other character past ASCII is taken as a letter of some script. */
const wordy = (code: number) =>
  code >= 0x80 || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

/**
 * Words as a reader counts them, in one pass: runs of characters between white space that hold a
 * letter or a digit (a lone "|", "-" or "#" is no word), and each character of a script written
 * without spaces (Chinese, Japanese) one word. Site text: linear, no pattern.
 */
export function countWords(text: string): number {
  let words = 0;
  let inRun = false;
  let runHasLetter = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isWhiteSpace(code) || unspaced(code)) {
      if (inRun && runHasLetter) words++;
      inRun = false;
      runHasLetter = false;
      if (unspaced(code)) words++;
      continue;
    }
    inRun = true;
    if (!runHasLetter && wordy(code)) runHasLetter = true;
  }
  return inRun && runHasLetter ? words + 1 : words;
}

export interface VisibleText {
  /** A text node's value that the page shows (the caller skips hidden text). */
  add: (value: string) => void;
  /** The text facts, once the walk is over. */
  facts: () => TextFacts;
}

/**
 * `textDigest`: also hash all visible text, numbers masked (monitoring compares pages by it; an
 * audit does not need it).
 */
export function visibleText(options: { textDigest?: boolean }): VisibleText {
  let textLength = 0;
  let textWords = 0;
  let visibleContacts = 0;
  let sample = '';
  const digest = options.textDigest ? createHash('sha256') : undefined;
  return {
    add: (value) => {
      const text = value.trim();
      // Whitespace between tags, most text nodes of an indented page: nothing to count.
      if (text === '') return;
      // The cheap tests first: most text has no @ and no digit.
      if (
        visibleContacts < CONTACTS_MAX &&
        ((/\d/.test(text) && PHONE_TEXT.test(text)) || (text.includes('@') && EMAIL_TEXT.test(text)))
      )
        visibleContacts++;
      const collapsed = /\s\s|[\t\n\r\f]/.test(text) ? text.replace(/\s+/g, ' ') : text;
      textLength += collapsed.length;
      textWords += countWords(text);
      if (sample.length < SAMPLE_MAX) sample += `${sample ? ' ' : ''}${collapsed.slice(0, SAMPLE_MAX - sample.length)}`;
      // A clock, a counter or a view count changes on every load: digits do not make a change.
      digest?.update(collapsed.replace(/\d+/g, '#')).update('\n');
    },
    facts: () => ({
      textLength,
      textWords,
      visibleContacts,
      // Already collapsed and bounded piece by piece.
      textSample: sample.length >= SAMPLE_MAX ? `${sample.slice(0, SAMPLE_MAX - 1)}…` : sample,
      ...(digest ? { textDigest: digest.digest('hex') } : {}),
    }),
  };
}
