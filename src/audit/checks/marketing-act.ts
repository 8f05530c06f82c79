// marketing_signal, act stage: does the site say what to do next, make it easy, and say what it
// costs. Calls to action, offers and prices are a business's or a shop's questions (ASKED_OF).
import { type CheckResult, pageEvidence } from '../checks.ts';
import { quote, quoteAll } from '../quote.ts';
import { CONVERSATION_KINDS } from './contact.ts';
import { fieldWords } from './field-words.ts';
import {
  asks,
  content,
  judged,
  type MarketingContext,
  notAsked,
  readEvidence,
  readWhere,
  result,
} from './marketing-context.ts';
import { MARKETING_SPECS as S } from './marketing-specs.ts';
import { contactEvidence, contactsFound, NO_CONTACT } from './marketing-trust.ts';
import { CTA_WORDS, findWord, fold, foldedPath, PRICING_WORDS } from './marketing-words.ts';

const CTA_ENGLISH =
  /\b(get started|start|sign ?up|register|join|buy|shop|order|book|schedule|request|demo|trial|try|contact|call|subscribe|download|quote|apply|reserve|enquire|inquire|add to (cart|bag|basket)|enrol|enroll|donate)\b/i;
const GENERIC_CTA = /^(submit|click here|here|learn more|read more|more|go|ok|send)$/i;
/** A price as written: a currency sign or code next to digits, or the word price. */
const PRICE_TEXT = /[$€£¥₹₩]\s?\d|\d\s?(?:[$€£¥₹₩円元]|eur\b|usd\b|gbp\b|chf\b)|\bprices?\b/i;
/** Letters of scripts written without spaces between words (Han, kana, Hangul). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether a label names an action, in English or in the languages of CTA_WORDS. */
export const isCallToAction = (label: string): boolean =>
  CTA_ENGLISH.test(label) || findWord(fold(label), CTA_WORDS) !== undefined;

/** Whether an H1 is specific: three words or more, or six characters of an unspaced script. */
function specificHeading(h1: string): boolean {
  if (/^(home|welcome|homepage|startseite|accueil|inicio|ホーム|首页|首頁)$/i.test(h1.trim())) return false;
  let unspaced = 0;
  for (const char of h1) if (UNSPACED.test(char)) unspaced++;
  return unspaced >= 6 || h1.split(/\s+/).filter(Boolean).length >= 3;
}

export function actStage(ctx: MarketingContext): CheckResult[] {
  const { facts, url, pages, anchors } = ctx;
  const rows: CheckResult[] = [];
  const labels = [
    ...facts.buttons.map((b) => ({ text: b.name, element: b.element })),
    ...facts.anchors.map((a) => ({ text: a.text, element: a.element })),
  ].filter(({ text }) => text.length > 0 && text.length <= 40);
  const clear = labels.filter(({ text }) => isCallToAction(text)).map(({ text }) => text);
  rows.push(
    !asks(ctx, S.cta)
      ? notAsked(ctx, S.cta, 'a sales call to action fits a business or a shop')
      : content(
          ctx,
          result(S.cta, clear.length > 0, `calls to action: ${quoteAll([...new Set(clear)].slice(0, 5))}`, {
            detail: 'no button or link on the home page says what to do next',
            title: 'No clear call to action',
            remediation:
              'Put one primary call to action in the header and the first section ("Book a demo", "Get a quote").',
            agentAction:
              'Add a prominent button in the hero section linking to the main conversion page, labelled with the action (e.g. "Book a demo").',
            affectedUrls: [url],
            evidence: [
              readEvidence(
                url,
                `${labels.length} button and link label(s) on the home page, none naming an action`,
                labels.map(({ text, element }) => ({ what: quote(text), element })),
                'no button or link with a label on the home page',
              ),
            ],
          }),
        ),
  );
  const generic = labels.filter(({ text }) => GENERIC_CTA.test(text));
  const genericTexts = [...new Set(generic.map(({ text }) => text))];
  rows.push(
    result(S.ctaLabels, generic.length === 0, 'no generic labels', {
      detail: `generic labels: ${quoteAll(genericTexts)}`,
      title: 'Buttons with generic labels',
      remediation: 'Label buttons with the outcome ("Send my quote request"), not "Submit" or "Click here".',
      agentAction: `Rename these buttons/links to say what happens: ${quoteAll(genericTexts)}.`,
      affectedUrls: [url],
      evidence: [
        pageEvidence(
          url,
          'generic labels',
          generic.map(({ text, element }) => ({ what: quote(text), element })),
        ),
      ],
    }),
  );
  rows.push(formsRow(ctx));

  const conversation = ctx.contacts.filter((s) => CONVERSATION_KINDS.has(s.kind));
  rows.push(
    !asks(ctx, S.contactPath)
      ? notAsked(ctx, S.contactPath, 'a contact, booking or chat path is how a business starts a conversation')
      : content(
          ctx,
          result(S.contactPath, conversation.length > 0, contactsFound(conversation), {
            detail: 'no contact page, email or phone link, booking link, chat or contact form',
            title: 'No path to get in touch',
            remediation: 'Offer one clear path to a conversation: a contact form, a booking link or chat.',
            agentAction: 'Add a /contact page with a short form, and link it from the header as "Contact us".',
            affectedUrls: [url],
            evidence: contactEvidence(
              ctx,
              'link to a contact or booking page, tel: or mailto: link, chat, contact form, or phone number or email in the text',
            ),
            defects: [NO_CONTACT(url)],
          }),
        ),
  );

  const h1 = facts.headings.find((h) => h.level === 1)?.text ?? '';
  rows.push(
    !asks(ctx, S.h1)
      ? notAsked(ctx, S.h1, 'an H1 that states the offer fits a business or a shop')
      : content(
          ctx,
          result(S.h1, specificHeading(h1), `H1: ${quote(h1)}`, {
            detail: h1 ? `the H1 ${quote(h1)} does not state an offer` : 'no H1 on the home page',
            title: 'The headline does not say what is offered',
            remediation:
              'Make the H1 a specific promise: what you offer, for whom ("Forged garden tools for small farms").',
            agentAction: 'Rewrite the home page <h1> to name the offer and the audience in 3 to 10 words.',
            affectedUrls: [url],
            evidence: [judged(url, h1 ? `<h1> ${quote(h1)}` : 'no <h1> on the home page')],
          }),
        ),
  );

  const pricingLink = anchors.find(
    (a) => findWord(fold(a.text), PRICING_WORDS) ?? findWord(foldedPath(a.href, a.page), PRICING_WORDS),
  );
  const pricedPage = pages.find((p) => {
    const facts = p.facts;
    if (!facts) return false;
    return [facts.textSample, ...facts.headings.map((h) => h.text)].some(
      (text) => PRICE_TEXT.test(text) || findWord(fold(text), PRICING_WORDS) !== undefined,
    );
  });
  const offered = ctx.nodes.some((n) => n.offers !== undefined || n.price !== undefined);
  rows.push(
    !asks(ctx, S.pricing)
      ? notAsked(ctx, S.pricing, 'prices fit a business or a shop')
      : content(
          ctx,
          result(
            S.pricing,
            pricingLink !== undefined || pricedPage !== undefined || offered,
            pricingLink
              ? `pricing linked: ${quote(pricingLink.text)}`
              : pricedPage
                ? `prices on ${pricedPage.url}`
                : 'offers in structured data',
            {
              detail: 'no prices and no pricing page link',
              title: 'Pricing is hidden',
              remediation:
                'Show prices or "from" prices, or link a pricing page; visitors who cannot gauge cost often leave.',
              agentAction: 'Add a /pricing page (or prices on the offer pages) and link it from the main navigation.',
              affectedUrls: [url],
              evidence: [
                judged(
                  url,
                  `no price, amount with a currency, or pricing link among ${anchors.length} link(s) and the text of ${readWhere(ctx)}; no offers in structured data`,
                ),
              ],
            },
          ),
        ),
  );
  return rows;
}

function formsRow(ctx: MarketingContext): CheckResult {
  const { url, pages, home } = ctx;
  const forms = pages.flatMap((p) => (p.facts?.forms ?? []).map((f) => ({ ...f, page: p.url })));
  const httpsSite = (home.fetched?.url ?? url).startsWith('https:');
  const badForms = forms.filter(
    (f) =>
      f.fields.length > 7 || f.fields.some((field) => !field.labelled) || (httpsSite && f.action.startsWith('http:')),
  );
  const affected = [...new Set(badForms.map((f) => f.page))];
  return result(
    S.forms,
    badForms.length === 0,
    forms.length > 0 ? `${forms.length} form(s), short and labelled` : 'no forms',
    {
      detail: `${badForms.length} form(s) are long (over 7 fields), unlabelled, or post over http`,
      title: 'Forms that lose leads',
      remediation: 'Keep lead forms to the few fields you need, label every field, and post over HTTPS.',
      agentAction: 'Cut these forms to at most 7 fields, add <label> elements, and make the action an https:// URL.',
      affectedUrls: affected,
      evidence: affected.map((page) =>
        pageEvidence(
          page,
          'forms that lose leads',
          badForms
            .filter((f) => f.page === page)
            .flatMap((f) => [
              ...(f.fields.length > 7 ? [{ what: `a form of ${f.fields.length} fields` }] : []),
              ...(httpsSite && f.action.startsWith('http:') ? [{ what: `a form posting to ${quote(f.action)}` }] : []),
              ...f.fields
                .filter((field) => !field.labelled)
                .map((field) => ({
                  what: fieldWords(field, 'unlabelled'),
                  element: field.element,
                })),
            ]),
        ),
      ),
    },
  );
}
