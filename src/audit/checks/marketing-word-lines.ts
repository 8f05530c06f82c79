// The verify lines of the marketing checks that look for words (issue 25: their patterns were English
// only, so a Japanese site that linked お問い合わせ passed the checks and never its lines). Each line
// is made from the lists the check reads (marketing-words.ts) and greps the page folded as the check
// folds its text (standards.ts, FOLDED): a word added to a list is found by the line too, in every
// language, whatever the shell's locale. A word is looked for where the check reads it: a link's
// address, a link's or a button's label (its text, aria-label, title or value), or the page's text.
import { ereLiteral, FOLDED, Q, V } from '../standards.ts';
import {
  BOOKING_HOSTS,
  BOOKING_WORDS,
  CHAT_MARKS,
  CONTACT_WORDS,
  CTA_WORDS,
  MESSENGER_HOSTS,
  PRICING_WORDS,
  PROOF_WORDS,
  type WordList,
  words,
} from './marketing-words.ts';

/**
 * The English labels of a call to action, whole words, as marketing-act.ts's CTA_ENGLISH matches
 * them (its `sign ?up` and `add to (cart|bag|basket)` spelled out).
 */
export const CTA_ENGLISH_WORDS = words([
  'get started',
  'start',
  'sign up',
  'signup',
  'register',
  'join',
  'buy',
  'shop',
  'order',
  'book',
  'schedule',
  'request',
  'demo',
  'trial',
  'try',
  'contact',
  'call',
  'subscribe',
  'download',
  'quote',
  'apply',
  'reserve',
  'enquire',
  'inquire',
  'add to cart',
  'add to bag',
  'add to basket',
  'enrol',
  'enroll',
  'donate',
]);

/** The words a price is written with, beside amounts (marketing-act.ts, PRICE_TEXT). */
export const PRICE_WORDS = words(['price', 'prices']);

/** Where a check reads words: what opens the place, the characters that end it, what parts a phrase. */
interface Place {
  open: string;
  ends: string;
  gap: string;
}

/** A link's address (an <a>'s href), where slugs part words with - _ . / # (foldedPath). */
const linkAddress: Place = {
  open: `<a[[:space:]]([^>]*[[:space:]])?href=${Q}`,
  ends: `\\"' >`,
  gap: '[[:space:]_./#-]+',
};
/** The text of these elements, after any tags that open it (an icon, a <span>). */
const labelText = (tags: string): Place => ({
  open: `<(${tags})([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*`,
  ends: '<',
  gap: '[[:space:]]+',
});
/** A label given by an attribute of these elements. */
const labelAttribute = (tags: string): Place => ({
  open: `<(${tags})[^>]*[[:space:]](aria-label|title|value)=${Q}`,
  ends: `\\"'>`,
  gap: '[[:space:]]+',
});
/** Any text of the page. */
const pageText: Place = { open: '>', ends: '<', gap: '[[:space:]]+' };

/** A folded word as an ERE literal, its spaces any run of the place's gap; undefined if grep cannot hold it. */
function literal(word: string, gap: string): string | undefined {
  const parts = word.split(' ').map(ereLiteral);
  return parts.every((p) => p !== undefined) ? parts.join(gap) : undefined;
}

const alternation = (list: readonly string[], gap: string) =>
  [...new Set(list.flatMap((w) => literal(w, gap) ?? []))].join('|');

/**
 * The words of `list` in a place, as findWord finds them: a word of another script anywhere, a Latin
 * word after a character that is no letter or digit (or the place's start), and unless it is a
 * prefix (`contact*`) before one (or the place's end).
 */
export function wordsIn(place: Place, list: WordList): string {
  const chars = `[^${place.ends}]`;
  const edge = `[^[:alnum:]${place.ends}]`;
  const other = alternation(list.other, place.gap);
  const prefixes = alternation(
    list.latin.filter((w) => w.prefix).map((w) => w.word),
    place.gap,
  );
  const whole = alternation(
    list.latin.filter((w) => !w.prefix).map((w) => w.word),
    place.gap,
  );
  const latin = [
    ...(prefixes ? [`(${prefixes})${chars}*`] : []),
    ...(whole ? [`(${whole})(${edge}${chars}*)?[${place.ends}]`] : []),
  ];
  const ways = [
    ...(other ? [`${chars}*(${other})${chars}*`] : []),
    ...(latin.length > 0 ? [`(${chars}*${edge})?(${latin.join('|')})`] : []),
  ];
  return `${place.open}(${ways.join('|')})`;
}

/** Links to these hosts or their subdomains; a host ending in a dot is any host holding it (contact.ts, hostIn). */
function hostLinks(hosts: readonly string[]): string {
  const lit = (hs: readonly string[]) => hs.flatMap((h) => ereLiteral(h) ?? []).join('|');
  const exact = lit(hosts.filter((h) => !h.endsWith('.')));
  const within = lit(hosts.filter((h) => h.endsWith('.')));
  const start = `href=${Q}(https?:)?//`;
  return [
    ...(exact ? [`${start}([^/\\"' >]*[.])?(${exact})([/:?#]${V})?[\\"' >]`] : []),
    ...(within ? [`${start}[^/\\"' >]*(${within})${V}`] : []),
  ].join('|');
}

/** A tel:, callto:, sms: or mailto: address as any attribute's value (contact.ts, schemeLinksInHtml). */
const SCHEME_LINKS = `=[[:space:]]*${Q}[[:space:]]*(tel|callto|sms|mailto):${V}`;
/** A chat widget's script (contact.ts, CHAT_MARKS). */
const CHAT_SCRIPTS = `<script[^>]*[[:space:]]src=${Q}${V}(${CHAT_MARKS.flatMap((m) => ereLiteral(m) ?? []).join('|')})${V}`;
/** A field to write a message in: a form with a <textarea> is a contact form (contact.ts, isContactForm). */
const MESSAGE_FIELD = '<textarea([[:space:]][^>]*)?>';
/** Keys of JSON-LD (lowercased with the page, as every line of this file reads it). */
const jsonLdKeys = (keys: string) => `ld[+]json[^>]*>[^<]*\\"(${keys})\\"[[:space:]]*:`;

/** The folded page's matches of any of `ways`, one a line. */
const grepFolded = (ways: readonly string[]) => `${FOLDED} | grep -oE "${ways.join('|')}"`;

/** Links, buttons and labels that lead to a contact page (contact.ts: link text or path, button names). */
const contactLinks = [
  wordsIn(linkAddress, CONTACT_WORDS),
  wordsIn(labelText('a|button'), CONTACT_WORDS),
  wordsIn(labelAttribute('a|button|input'), CONTACT_WORDS),
];

/** mk-contact-paths: every way to reach the business the check counts but text (REACH_KINDS). */
export const CONTACT_PATHS_LINE = grepFolded([
  SCHEME_LINKS,
  '<address[[:space:]>]',
  '〒[[:space:]]*[0-9]{3}-?[0-9]{4}',
  jsonLdKeys('address|telephone'),
  ...contactLinks,
  MESSAGE_FIELD,
  hostLinks(MESSENGER_HOSTS),
  CHAT_SCRIPTS,
]);

/** mk-contact-or-booking: a path to a conversation (CONVERSATION_KINDS), booking links included. */
export const CONTACT_OR_BOOKING_LINE = grepFolded([
  SCHEME_LINKS,
  ...contactLinks,
  wordsIn(linkAddress, BOOKING_WORDS),
  wordsIn(labelText('a'), BOOKING_WORDS),
  wordsIn(labelAttribute('a'), BOOKING_WORDS),
  hostLinks(BOOKING_HOSTS),
  MESSAGE_FIELD,
  hostLinks(MESSENGER_HOSTS),
  CHAT_SCRIPTS,
]);

const CTA = { latin: [...CTA_ENGLISH_WORDS.latin, ...CTA_WORDS.latin], other: CTA_WORDS.other };

/** mk-call-to-action: the labels of links and buttons that name an action (marketing-act.ts, isCallToAction). */
export const CALL_TO_ACTION_LINE = grepFolded([
  wordsIn(labelText('a|button'), CTA),
  wordsIn(labelAttribute('a|button|input'), CTA),
]);

/** mk-social-proof: review words in the text, ratings and reviews in JSON-LD. */
export const SOCIAL_PROOF_LINE = grepFolded([wordsIn(pageText, PROOF_WORDS), jsonLdKeys('aggregaterating|review')]);

const CURRENCY = '([$]|€|£|¥|₹|₩)';

/** mk-pricing-visible: a pricing link, an amount with its currency or price words, offers in JSON-LD. */
export const PRICING_LINE = grepFolded([
  wordsIn(linkAddress, PRICING_WORDS),
  wordsIn(pageText, PRICING_WORDS),
  wordsIn(pageText, PRICE_WORDS),
  `${CURRENCY}[[:space:]]?[0-9]`,
  `[0-9][[:space:]]?(${CURRENCY}|円|元|(eur|usd|gbp|chf)[^[:alnum:]_])`,
  jsonLdKeys('offers|price'),
]);
