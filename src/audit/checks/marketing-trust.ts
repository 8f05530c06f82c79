// marketing_signal, trust stage: can visitors see who runs the site, how to reach it, and that
// others vouch for it. Contact reachability shares one detector with the act stage (contact.ts).
import type { CheckResult } from '../checks.ts';
import { absentDefect } from '../defects.ts';
import { quote } from '../quote.ts';
import { type ContactSignal, REACH_KINDS } from './contact.ts';
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
import { findWord, fold, foldedPath, PROOF_WORDS, words } from './marketing-words.ts';
import { typesOf } from './structured-data.ts';

const SOCIAL_HOSTS =
  /(^|\.)(linkedin\.com|twitter\.com|x\.com|facebook\.com|instagram\.com|youtube\.com|tiktok\.com|github\.com|mastodon\.social|fosstodon\.org|threads\.net|pinterest\.com|bsky\.app|weibo\.com|xing\.com|vk\.com)$/i;

const PRIVACY_WORDS = words(
  ['privacy', 'datenschutz*', 'privacidad', 'confidentialit*', 'privacidade', 'riservatezza', 'privacybeleid'],
  ['dsgvo', 'rgpd', 'gdpr', 'プライバシー', '個人情報', '隐私', '隱私', '개인정보', 'конфиденциальност'],
);
const TERMS_WORDS = words(
  ['terms*', 'conditions', 'imprint', 'impressum', 'legal*', 'agb', 'cgv', 'cgu', 'mentions legales'],
  ['aviso legal', 'condiciones', 'termini', 'nutzungsbedingungen', 'algemene voorwaarden', 'termos'],
  ['利用規約', '特定商取引', '条款', '條款', '이용약관', 'соглашение'],
);

const hostOf = (href: string, base: string) => {
  try {
    return new URL(href, base).hostname;
  } catch {
    return '';
  }
};

/**
 * The defect both contact checks report when the pages show no way at all to reach the business:
 * both fail on the same absence, so their findings merge into one (the stronger one's, with both
 * references), while both rows count in the score. When one passes (the pages show only a booking
 * link, or only a postal address), the other's finding is a defect of its own and stands alone.
 */
export const NO_CONTACT = (url: string) => absentDefect('contact', url);

/** The few signals that answered a contact question, for a passing row's detail. */
export function contactsFound(found: readonly ContactSignal[]): string {
  const kinds = [...new Set(found.map((s) => s.kind))];
  return kinds
    .map((kind) => {
      const first = found.find((s) => s.kind === kind) as ContactSignal;
      return kind === 'written' ? first.what : `${kind.replace('-', ' ')}: ${first.what}`;
    })
    .join('; ');
}

/** Evidence for "no way to reach it": what was read, where, in which languages. */
export function contactEvidence(ctx: MarketingContext, wanted: string) {
  const forms = ctx.pages.reduce((n, p) => n + (p.facts?.forms.length ?? 0), 0);
  return [
    judged(
      ctx.url,
      `read ${ctx.anchors.length} link(s), ${forms} form(s), the scripts and the text of ${readWhere(ctx)}; found no ${wanted}`,
    ),
  ];
}

export function trustStage(ctx: MarketingContext): CheckResult[] {
  const { url, pages, anchors, nodes } = ctx;
  const rows: CheckResult[] = [];
  const reach = ctx.contacts.filter((s) => REACH_KINDS.has(s.kind));
  rows.push(
    !asks(ctx, S.contact)
      ? notAsked(ctx, S.contact, 'a phone, email or address is what a business shows its customers')
      : content(
          ctx,
          result(S.contact, reach.length > 0, contactsFound(reach), {
            detail: `no tel: or mailto: link, address, contact page, contact form, or phone number or email in the text of the ${pages.length} page(s) read`,
            title: 'Visitors cannot see how to reach the business',
            remediation:
              'Show a phone number (tel: link), an email (mailto:) or a street address on every page, typically in the footer, and link the contact page.',
            agentAction:
              'Add the phone as <a href="tel:+...">, the email as <a href="mailto:...">, and the address in an <address> element to the footer.',
            affectedUrls: [url],
            evidence: contactEvidence(
              ctx,
              'tel: or mailto: link, address, link to a contact page, contact form, chat, or phone number or email in the text',
            ),
            defects: [NO_CONTACT(url)],
          }),
        ),
  );

  rows.push(proofRow(ctx));

  const legalLink = (list: typeof PRIVACY_WORDS) =>
    anchors.find((a) => findWord(fold(a.text), list) ?? findWord(foldedPath(a.href, a.page), list));
  const privacy = legalLink(PRIVACY_WORDS);
  const terms = legalLink(TERMS_WORDS);
  const last = ctx.facts.anchors.slice(-5);
  const none = `none of the ${anchors.length} link(s) on ${pages.length} page(s) leads to ${privacy ? 'terms or an imprint' : 'a privacy policy'}`;
  rows.push(
    content(
      ctx,
      result(S.legal, privacy !== undefined && terms !== undefined, 'privacy and terms pages are linked', {
        detail: `missing: ${[privacy ? '' : 'privacy policy', terms ? '' : 'terms or imprint'].filter(Boolean).join(', ')}`,
        title: 'Privacy or terms pages are not linked',
        remediation: 'Link the privacy policy and the terms (or imprint) from every page footer.',
        agentAction: 'Add footer links to /privacy and /terms (create the pages if they do not exist).',
        affectedUrls: [url],
        evidence: [
          readEvidence(
            url,
            `${none}; the last links of the home page`,
            last.map((a) => ({ what: `${quote(a.text)} to ${quote(a.href)}`, element: a.element })),
            `${none}; the home page has no links`,
          ),
        ],
      }),
    ),
  );

  const sameAs = nodes.some((n) => n.sameAs !== undefined);
  const profiles = anchors.filter((a) => SOCIAL_HOSTS.test(hostOf(a.href, a.page)));
  rows.push(
    content(
      ctx,
      result(
        S.profiles,
        profiles.length > 0 || sameAs,
        `${profiles.length} social profile link(s)${sameAs ? ', sameAs in structured data' : ''}`,
        {
          detail: 'no links to official social profiles',
          title: 'No official social profiles linked',
          remediation:
            'Link the official profiles (LinkedIn, Instagram, ...) and list them as sameAs in Organization JSON-LD.',
          agentAction:
            'Add footer links to the official social profiles and a sameAs array to the Organization JSON-LD.',
          affectedUrls: [url],
          evidence: [
            judged(
              url,
              `none of the ${anchors.length} link(s) on ${pages.length} page(s) leads to LinkedIn, X, Facebook, Instagram, YouTube, TikTok, GitHub, Mastodon, Bluesky or Pinterest; no sameAs in structured data`,
            ),
          ],
        },
      ),
    ),
  );
  if (!ctx.site.local) {
    const served = ctx.home.fetched?.url ?? url;
    rows.push(
      result(S.https, served.startsWith('https:'), 'served over HTTPS', {
        detail: 'the home page is served over plain HTTP',
        title: 'Browsers mark the site "Not secure"',
        remediation: 'Serve the site over HTTPS; browsers warn visitors away from plain HTTP forms.',
        agentAction: 'Enable TLS for the host and redirect http:// to https://.',
        affectedUrls: [url],
        evidence: [judged(url, `the home page was served at ${quote(served)}`)],
      }),
    );
  }
  return rows;
}

function proofRow(ctx: MarketingContext): CheckResult {
  const { url, pages, nodes } = ctx;
  if (!asks(ctx, S.proof)) return notAsked(ctx, S.proof, 'reviews and testimonials vouch for what a business sells');
  const rated = nodes.find(
    (n) =>
      typesOf(n).some((t) => t === 'AggregateRating' || t === 'Review') ||
      n.aggregateRating !== undefined ||
      n.review !== undefined,
  );
  let said: string | undefined;
  for (const page of pages) {
    const facts = page.facts;
    if (!facts || said) continue;
    const texts = [facts.textSample, ...facts.headings.map((h) => h.text), ...facts.anchors.map((a) => a.text)];
    for (const text of texts) {
      const word = findWord(fold(text), PROOF_WORDS);
      if (word) {
        said = `${quote(word)} on ${page.url}`;
        break;
      }
    }
  }
  return content(
    ctx,
    result(
      S.proof,
      rated !== undefined || said !== undefined,
      rated ? 'ratings or reviews in structured data' : `reviews or testimonials: ${said}`,
      {
        detail: 'no reviews, testimonials or AggregateRating',
        title: 'No social proof',
        remediation:
          'Show testimonials, review scores or client logos near the calls to action; mark ratings up with AggregateRating.',
        agentAction:
          'Add a testimonials section with real quotes, and AggregateRating JSON-LD if there are review scores.',
        affectedUrls: [url],
        evidence: [
          judged(
            url,
            `no testimonial, review, rating or case-study words in the headings, links and text of ${readWhere(ctx)}; no AggregateRating or Review structured data`,
          ),
        ],
      },
    ),
  );
}
