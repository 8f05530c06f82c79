// The verify lines of the marketing checks that look for words are made from the lists the checks
// read (issue 25: their English-only patterns never showed a Japanese fix). Each line is run with
// bash against a loopback page per word of every list, written where the check reads it (a link's
// text, a link's address as sites write it, percent-encoded; a button; the page's text), and against
// words as people write them (accents, capitals, kana with dakuten, Hangul): every one is printed.
// A page with none of them, and with the near misses a loose pattern takes (book in facebook, a
// stylesheet named contact.css, a search form), prints nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citationById } from '../../src/audit/catalogue.ts';
import { isCallToAction } from '../../src/audit/checks/marketing-act.ts';
import { CTA_ENGLISH_WORDS, PRICE_WORDS } from '../../src/audit/checks/marketing-word-lines.ts';
import {
  BOOKING_WORDS,
  CONTACT_WORDS,
  CTA_WORDS,
  findWord,
  fold,
  foldedPath,
  PRICING_WORDS,
  PROOF_WORDS,
  type WordList,
} from '../../src/audit/checks/marketing-words.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { createVerifyEnv, type VerifyEnv } from '../support/verify-env.ts';

type Where = 'link text' | 'link text in a sentence' | 'link address' | 'button' | 'submit value' | 'text';

interface Case {
  check: string;
  word: string;
  where: Where;
  path: string;
}

/** A word of a list as a page writes it: a prefix (`contact*`) with an ending, a phrase as it is. */
const written = (word: string, prefix: boolean) => (prefix ? `${word}ez` : word);
const listWords = (list: WordList) => [
  ...list.latin.map((w) => written(w.word, w.prefix)),
  ...list.other.map((w) => written(w, false)),
];

/** The page that shows `word` where the check reads it. */
function body(word: string, where: Where): string {
  const element = {
    'link text': `<a href="/p/7" class="nav">${word}</a>`,
    // Words before it, and a space: the one alternation of a label's places must go on past spaces.
    'link text in a sentence': `<a href="/p/7" class="nav">Questions? ${word} today</a>`,
    // As a CMS writes a slug: words parted by hyphens, non-ASCII percent-encoded.
    'link address': `<a class="nav" href="/${encodeURI(word.replaceAll(' ', '-'))}/">Page</a>`,
    button: `<button type="button" class="cta">${word}</button>`,
    'submit value': `<form action="/go"><input type="submit" value="${word}"></form>`,
    text: `<p>${word}</p>`,
  }[where];
  return html('<title>Forge</title>', `<main><h1>Hand-forged garden tools</h1>${element}</main>`);
}

/** Whether the check reads `word` there, by the lists and functions the check uses. */
function readByCheck(word: string, where: Where, list: WordList): boolean {
  if (where === 'link address')
    return findWord(foldedPath(`/${word.replaceAll(' ', '-')}/`, 'https://x/'), list) !== undefined;
  return findWord(fold(word), list) !== undefined;
}

// Words as people write them, each read by its list (accents, capitals, dotted İ, dakuten, Hangul).
const NATURAL: Array<{ list: WordList; checks: string[]; words: string[] }> = [
  {
    list: CONTACT_WORDS,
    checks: ['mk-contact-paths', 'mk-contact-or-booking'],
    words: ['Contáctenos', 'Nous écrire', 'İletişim', 'お問い合わせ', 'ご相談', '문의하기', 'СВЯЗАТЬСЯ', 'KONTAKT'],
  },
  {
    list: BOOKING_WORDS,
    checks: ['mk-contact-or-booking'],
    words: ['Orçamento', 'Réservation', 'ご予約', '상담 신청'],
  },
  {
    list: { latin: [...CTA_ENGLISH_WORDS.latin, ...CTA_WORDS.latin], other: CTA_WORDS.other },
    checks: ['mk-call-to-action'],
    words: ['Télécharger', 'Añadir al carrito', 'ダウンロード', '무료 체험', 'Sign Up', 'Записаться'],
  },
  { list: PROOF_WORDS, checks: ['mk-social-proof'], words: ['Témoignages', 'Reseñas', 'お客様の声', '고객 후기'] },
  { list: PRICING_WORDS, checks: ['mk-pricing-visible'], words: ['Preços', '料金プラン', 'Цены'] },
];

const cases: Case[] = [];
const add = (check: string, words: readonly string[], where: Where) => {
  for (const word of words) cases.push({ check, word, where, path: `/w/${cases.length}` });
};
const contact = listWords(CONTACT_WORDS);
const booking = listWords(BOOKING_WORDS);
const cta = [...listWords(CTA_ENGLISH_WORDS), ...listWords(CTA_WORDS)];
for (const check of ['mk-contact-paths', 'mk-contact-or-booking'])
  for (const where of ['link text', 'link address', 'button'] as const) add(check, contact, where);
for (const where of ['link text', 'link address'] as const) add('mk-contact-or-booking', booking, where);
add('mk-contact-paths', contact, 'link text in a sentence');
for (const where of ['link text', 'button', 'submit value'] as const) add('mk-call-to-action', cta, where);
add('mk-social-proof', listWords(PROOF_WORDS), 'text');
for (const where of ['link text', 'link address', 'text'] as const)
  add('mk-pricing-visible', listWords(PRICING_WORDS), where);
add('mk-pricing-visible', listWords(PRICE_WORDS), 'text');
for (const { checks, words } of NATURAL)
  for (const check of checks) add(check, words, check === 'mk-social-proof' ? 'text' : 'link text');

/** A page none of the checks passes, with what a loose pattern would take for a word. */
const NONE = html(
  '<title>Forge</title><link rel="stylesheet" href="/css/contact.css"><script src="/js/booking-widget-free.js"></script>',
  `<main class="contact-page"><h1>Hand-forged garden tools</h1><p>We forge hoes in Sheffield.</p>
   <a href="https://www.facebook.com/forge">Facebook</a> <a href="/about" title="About">About the smithy</a>
   <a href="/bookshelf">Bookshelf</a> <form action="/search"><input type="search" name="q"></form>
   <div data-contact="x">Hours: 9 to 5</div></main>`,
);
const CHECKS = [
  'mk-contact-paths',
  'mk-contact-or-booking',
  'mk-call-to-action',
  'mk-social-proof',
  'mk-pricing-visible',
];

let site: FixtureSite;
let env: VerifyEnv;

beforeAll(async () => {
  const routes: Record<string, { body: string }> = { '/none': { body: NONE } };
  for (const c of cases) routes[c.path] = { body: body(c.word, c.where) };
  site = await startFixtureSite(routes);
  env = createVerifyEnv();
});

afterAll(async () => {
  env?.close();
  await site?.close();
});

const line = (check: string, path: string) => citationById(check, { url: `${site.origin}${path}` })?.verify ?? '';

/** Runs `run` on every item, a few at a time. */
async function eachLimited<T>(items: readonly T[], run: (item: T) => Promise<void>, limit = 8): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

describe('the word-matching marketing checks’ verify lines', () => {
  it('are fixtures the checks themselves read', () => {
    const lists: Record<string, WordList[]> = {
      'mk-contact-paths': [CONTACT_WORDS],
      'mk-contact-or-booking': [CONTACT_WORDS, BOOKING_WORDS],
      'mk-social-proof': [PROOF_WORDS],
      'mk-pricing-visible': [PRICING_WORDS, PRICE_WORDS],
    };
    const unread = cases.filter((c) =>
      c.check === 'mk-call-to-action'
        ? !isCallToAction(c.word)
        : !(lists[c.check] ?? []).some((list) => readByCheck(c.word, c.where, list)),
    );
    expect(unread.map((c) => `${c.check}: ${c.word} (${c.where})`)).toEqual([]);
  });

  it('show every word of every language the checks know, where the checks read it', async () => {
    const missed: string[] = [];
    await eachLimited(cases, async (c) => {
      const result = await env.run(line(c.check, c.path));
      if (result.stdout.trim() === '') missed.push(`${c.check}: ${c.word} (${c.where}) ${result.stderr.slice(0, 200)}`);
    });
    expect(missed).toEqual([]);
  }, 240_000);

  it('show nothing on a page without any', async () => {
    for (const check of CHECKS) {
      const result = await env.run(line(check, '/none'));
      expect(result.stdout, check).toBe('');
      expect(result.stderr, check).toBe('');
    }
  }, 60_000);
});
