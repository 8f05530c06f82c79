// One contact detector for every marketing check that asks how visitors reach the business (issue
// 25: "Visitors cannot see how to reach the business" and "No path to get in touch" disagreed on the
// same site, and neither saw お問い合わせ or a header mailto: link named only by its title). It finds
// tel:/mailto: links anywhere in the served HTML, written phone numbers and emails, postal
// addresses, links to a contact page in the languages sites are written in, contact forms,
// booking links and chat widgets, each with the element or text that shows it.
import type { Offence } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageForm } from '../html.ts';
import { quote } from '../quote.ts';
import { pageScripts } from '../trackers.ts';
import {
  BOOKING_HOSTS,
  BOOKING_WORDS,
  CHAT_MARKS,
  CONTACT_WORDS,
  findWord,
  fold,
  foldedPath,
  MESSENGER_HOSTS,
} from './marketing-words.ts';
import { jsonLdNodes } from './structured-data.ts';

export type ContactKind =
  | 'phone-link'
  | 'email-link'
  | 'address'
  | 'written'
  | 'contact-page'
  | 'contact-form'
  | 'booking'
  | 'chat';

export interface ContactSignal extends Offence {
  kind: ContactKind;
  page: string;
}

/** What reaching the business means to each check (docs/scoring.md, "Marketing signal"). */
export const REACH_KINDS: ReadonlySet<ContactKind> = new Set([
  'phone-link',
  'email-link',
  'address',
  'written',
  'contact-page',
  'contact-form',
  'chat',
]);
export const CONVERSATION_KINDS: ReadonlySet<ContactKind> = new Set([
  'phone-link',
  'email-link',
  'written',
  'contact-page',
  'contact-form',
  'booking',
  'chat',
]);

const SIGNALS_PER_KIND = 3;
const BODY_SCAN_MAX = 2_000_000;

function hostOf(href: string, base: string): string {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : '';
  } catch {
    return '';
  }
}

const hostIn = (host: string, hosts: readonly string[]) =>
  host !== '' && hosts.some((h) => (h.endsWith('.') ? host.includes(h) : host === h || host.endsWith(`.${h}`)));

/**
 * tel: and mailto: URLs in the served HTML as attribute values (`href="mailto:`, `href=tel:`), found
 * past the parsed link lists and in any element (<area>, buttons with data-href): a scan for each
 * scheme that looks back only over the few characters before it.
 */
export function schemeLinksInHtml(body: string): { phone: number; email: number } {
  const html = body.length > BODY_SCAN_MAX ? body.slice(0, BODY_SCAN_MAX) : body;
  const lower = html.toLowerCase();
  const count = (scheme: string) => {
    let found = 0;
    let from = 0;
    for (;;) {
      const at = lower.indexOf(scheme, from);
      if (at < 0 || found >= 10) return found;
      from = at + scheme.length;
      let i = at - 1;
      if (lower[i] === '"' || lower[i] === "'") i--;
      while (i >= 0 && i > at - 8 && (lower[i] === ' ' || lower[i] === '\n' || lower[i] === '\t')) i--;
      if (lower[i] === '=') found++;
    }
  };
  return { phone: count('tel:'), email: count('mailto:') };
}

/** A Japanese postal address (〒 and a seven-digit code), or an <address> element, in the served HTML. */
function addressInHtml(body: string): string | undefined {
  const html = body.length > BODY_SCAN_MAX ? body.slice(0, BODY_SCAN_MAX) : body;
  let from = 0;
  for (;;) {
    const at = html.indexOf('〒', from);
    if (at < 0) break;
    from = at + 1;
    const code = html.slice(at + 1, at + 10).trim();
    if (/^\d{3}-?\d{4}/.test(code)) return `a postal address ${quote(html.slice(at, at + 40).split('<')[0])}`;
  }
  return /<address[\s>]/i.test(html) ? 'an <address> element' : undefined;
}

/** A form someone writes to the business with: not a search, a log-in or a single-field sign-up. */
export function isContactForm(form: PageForm): boolean {
  const visible = form.fields.filter((f) => !['hidden', 'checkbox', 'radio', 'file'].includes(f.type));
  if (visible.length === 0 || form.fields.some((f) => f.type === 'password')) return false;
  const search =
    visible.some((f) => f.type === 'search' || ['q', 's', 'query', 'search', 'keyword', 'keywords'].includes(f.name)) ||
    /search|suche|recherche|buscar/i.test(form.action);
  if (search && visible.length <= 2) return false;
  const writes = visible.some((f) => f.type === 'textarea' || f.type === 'email' || f.type === 'tel');
  return (writes && visible.length >= 2) || visible.some((f) => f.type === 'textarea') || visible.length >= 3;
}

/** Every way to reach the business the pages show, a few of each kind. */
export function findContacts(pages: readonly CrawledPage[]): ContactSignal[] {
  const signals: ContactSignal[] = [];
  const counts = new Map<ContactKind, number>();
  const add = (signal: ContactSignal) => {
    const n = counts.get(signal.kind) ?? 0;
    if (n >= SIGNALS_PER_KIND) return;
    counts.set(signal.kind, n + 1);
    signals.push(signal);
  };
  for (const page of pages) {
    const facts = page.facts;
    if (!facts) continue;
    for (const node of jsonLdNodes(page).nodes) {
      const given = ['address', 'telephone'].filter((key) => node[key] !== undefined);
      if (given.length > 0) add({ kind: 'address', page: page.url, what: `${given.join(', ')} in JSON-LD` });
    }
    for (const anchor of facts.anchors) {
      const href = anchor.href.trim();
      const scheme = href.slice(0, 7).toLowerCase();
      const label = anchor.text ? quote(anchor.text) : 'a link without text';
      if (scheme.startsWith('tel:') || scheme.startsWith('callto:') || scheme.startsWith('sms:'))
        add({ kind: 'phone-link', page: page.url, what: `${label} to ${quote(href)}`, element: anchor.element });
      else if (scheme === 'mailto:')
        add({ kind: 'email-link', page: page.url, what: `${label} to ${quote(href)}`, element: anchor.element });
      else {
        const host = hostOf(href, page.url);
        const text = fold(anchor.text);
        const path = foldedPath(href, page.url);
        const word = findWord(text, CONTACT_WORDS) ?? findWord(path, CONTACT_WORDS);
        if (word && !hostIn(host, BOOKING_HOSTS))
          add({
            kind: 'contact-page',
            page: page.url,
            what: `link ${label} to ${quote(href)}`,
            element: anchor.element,
          });
        else if (hostIn(host, MESSENGER_HOSTS))
          add({ kind: 'chat', page: page.url, what: `messenger link ${label}`, element: anchor.element });
        else if (hostIn(host, BOOKING_HOSTS) || findWord(text, BOOKING_WORDS) || findWord(path, BOOKING_WORDS))
          add({ kind: 'booking', page: page.url, what: `link ${label} to ${quote(href)}`, element: anchor.element });
      }
    }
    for (const button of facts.buttons) {
      const word = findWord(fold(button.name), CONTACT_WORDS);
      if (word)
        add({ kind: 'contact-page', page: page.url, what: `button ${quote(button.name)}`, element: button.element });
    }
    for (const form of facts.forms) {
      if (!isContactForm(form)) continue;
      const first = form.fields[0];
      add({
        kind: 'contact-form',
        page: page.url,
        what: `a form of ${form.fields.length} field(s) posting to ${quote(form.action || page.url)}`,
        ...(first ? { element: first.element } : {}),
      });
    }
    for (const script of pageScripts(page)) {
      if (script.inline) continue;
      const lower = script.text.toLowerCase();
      if (CHAT_MARKS.some((m) => lower.includes(m)))
        add({
          kind: 'chat',
          page: page.url,
          what: `chat widget ${quote(script.text)}`,
          ...(script.element ? { element: script.element } : {}),
        });
    }
    if (facts.visibleContacts > 0)
      add({ kind: 'written', page: page.url, what: `a phone number or email written on ${page.url}` });
    const body = page.fetched?.body ?? '';
    // Links past the parsed lists, or on elements other than <a>.
    if (!counts.get('phone-link') || !counts.get('email-link')) {
      const { phone, email } = schemeLinksInHtml(body);
      if (phone > 0 && !counts.get('phone-link'))
        add({ kind: 'phone-link', page: page.url, what: `${phone} tel: link(s) in the HTML` });
      if (email > 0 && !counts.get('email-link'))
        add({ kind: 'email-link', page: page.url, what: `${email} mailto: link(s) in the HTML` });
    }
    const address = (counts.get('address') ?? 0) < SIGNALS_PER_KIND ? addressInHtml(body) : undefined;
    if (address) add({ kind: 'address', page: page.url, what: address });
  }
  return signals;
}

/** The languages the pages declare (html lang), for what a finding says it looked for. */
export function declaredLanguages(pages: readonly CrawledPage[]): string[] {
  return [...new Set(pages.map((p) => p.facts?.lang?.toLowerCase()).filter((l): l is string => !!l))].slice(0, 5);
}
