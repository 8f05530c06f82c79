// marketing_signal, find stage: can people find the site in search and recognise it when shared.
import { type CheckResult, info } from '../checks.ts';
import { metaContent } from '../html.ts';
import { quote, quoteAll } from '../quote.ts';
import { answersSitemap, type SitemapFile } from '../sitemaps.ts';
import { organizationJsonLd } from '../starters.ts';
import { isLocalBusinessType, isOrganizationType } from './business-types.ts';
import { asks, content, judged, type MarketingContext, notAsked, result } from './marketing-context.ts';
import { MARKETING_SPECS as S } from './marketing-specs.ts';
import { robotsDirectives } from './pages-discovery.ts';
import { type JsonLdNode, typesOf } from './structured-data.ts';

const TWITTER_CARDS = new Set(['summary', 'summary_large_image', 'app', 'player']);
/** East Asian wide and fullwidth characters (Hangul, CJK, kana, fullwidth forms). */
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/;

/**
 * A text's length as search results show it: a wide character (CJK, kana, Hangul) takes the room
 * of two Latin ones, so a 27-character Japanese title fills what 54 Latin characters would.
 */
export function displayLength(text: string): number {
  let length = 0;
  for (const char of text) length += WIDE.test(char) ? 2 : 1;
  return length;
}

const lengthText = (text: string) => {
  const width = displayLength(text);
  return width === text.length
    ? `${text.length} characters`
    : `${[...text].length} characters (${width} in Latin widths)`;
};

export function findStage(ctx: MarketingContext): CheckResult[] {
  const { facts, url, site } = ctx;
  const rows: CheckResult[] = [];
  const robots = robotsDirectives(ctx.home);
  rows.push(
    result(S.indexable, !/\b(noindex|none)\b/i.test(robots), 'no noindex on the home page', {
      detail: 'the home page carries noindex',
      title: 'The home page is hidden from search',
      remediation: 'Remove noindex from the home page so people can find the business in search.',
      agentAction: 'Remove <meta name="robots" content="noindex"> (or the X-Robots-Tag header) from the home page.',
      affectedUrls: [url],
      evidence: [judged(url, `robots directives (meta robots and X-Robots-Tag): ${quote(robots)}`)],
    }),
  );
  const title = facts.titles[0] ?? '';
  const titleWidth = displayLength(title);
  rows.push(
    content(
      ctx,
      result(S.title, titleWidth >= 30 && titleWidth <= 60, `title of ${lengthText(title)}`, {
        detail: title ? `the home title has ${lengthText(title)}` : 'the home page has no title',
        title: 'The home page title is missing, too short or too long for search results',
        remediation: 'Write a 30 to 60 character title with the offer and the brand ("Forged garden tools — Acme").',
        agentAction: 'Set the home page <title> to 30 to 60 characters naming what the business offers and its name.',
        affectedUrls: [url],
        evidence: [
          judged(url, title ? `<title> ${quote(title)}: ${lengthText(title)}` : 'no <title> on the home page'),
        ],
      }),
    ),
  );
  const description = metaContent(facts, 'description') ?? '';
  const descriptionWidth = displayLength(description);
  rows.push(
    content(
      ctx,
      result(
        S.description,
        descriptionWidth >= 70 && descriptionWidth <= 160,
        `description of ${lengthText(description)}`,
        {
          detail: description
            ? `the home description has ${lengthText(description)}`
            : 'no meta description on the home page',
          title: 'The search snippet is left to chance',
          remediation:
            'Write a 70 to 160 character meta description that sells the click: the offer, for whom, the next step.',
          agentAction: 'Add <meta name="description" content="..."> (70 to 160 characters) to the home page head.',
          affectedUrls: [url],
          evidence: [
            judged(
              url,
              description
                ? `meta description ${quote(description)}: ${lengthText(description)}`
                : 'no <meta name="description"> in the head of the home page',
            ),
          ],
        },
      ),
    ),
  );
  if (!site.local) {
    // Every sitemap read (robots.txt's Sitemap: lines, or /sitemap.xml, and their indexes' entries):
    // one that answers is enough for search engines; those that do not are named.
    const sitemap = site.sitemap;
    const files = sitemap?.files ?? (sitemap ? [sitemap] : []);
    const good = files.filter(answersSitemap);
    const bad = files.filter((f) => !answersSitemap(f));
    const state = (f: SitemapFile) =>
      f.status === 200
        ? 'answered 200 but is not a sitemap (no <urlset> or <sitemapindex>)'
        : `answered ${f.status}${f.error ? ` (${f.error})` : ''}`;
    const notReadable = bad.length > 0 ? `; not readable: ${bad.map((f) => `${f.url} (${f.status})`).join(', ')}` : '';
    rows.push(
      result(
        S.sitemap,
        good.length > 0,
        good.length > 1
          ? `${good.length} sitemaps: ${good.map((f) => f.url).join(', ')}${notReadable}`
          : `sitemap at ${good[0]?.url ?? sitemap?.url}${notReadable}`,
        {
          detail:
            files.length > 1
              ? `no valid sitemap among the ${files.length} declared: ${files.map((f) => `${f.url} (${f.status})`).join(', ')}`
              : `no valid sitemap at ${sitemap?.url}`,
          title: 'No sitemap for search engines',
          remediation: 'Publish sitemap.xml and submit it in Google Search Console and Bing Webmaster Tools.',
          agentAction: 'Generate /sitemap.xml listing the public pages and reference it in robots.txt.',
          affectedUrls: files.length > 0 ? files.map((f) => f.url) : [url],
          evidence:
            files.length > 0
              ? files.map((f) => ({ type: 'file' as const, url: f.url, summary: state(f) }))
              : [{ type: 'file', url: `${site.origin}/sitemap.xml`, summary: 'answered nothing' }],
        },
      ),
    );
  }
  const verification = facts.metas
    .filter((m) =>
      /^(google-site-verification|msvalidate\.01|yandex-verification|facebook-domain-verification|p:domain_verify)$/.test(
        m.name,
      ),
    )
    .map((m) => m.name);
  rows.push(
    info(S.verification, {
      finding: false,
      detail:
        verification.length > 0
          ? `verification tags: ${verification.join(', ')}`
          : 'no verification meta tags (DNS verification may be used instead)',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );
  rows.push(businessSchema(ctx));
  const og = ['og:title', 'og:type', 'og:image', 'og:url'];
  const missing = og.filter((name) => !metaContent(facts, name));
  rows.push(
    result(S.openGraph, missing.length === 0, 'Open Graph title, type, image and url', {
      detail: `missing ${missing.join(', ')}`,
      title: 'Shared links show no proper preview',
      remediation:
        'Add og:title, og:type, og:image (1200×630) and og:url so shared links look like an ad, not a bare URL.',
      agentAction: `Add <meta property="${missing[0]}" content="..."> and the other missing Open Graph tags (${missing.join(', ')}) to the head.`,
      affectedUrls: [url],
      evidence: [
        judged(
          url,
          `Open Graph tags in the head: ${og.filter((n) => !missing.includes(n)).join(', ') || 'none'}; missing: ${missing.join(', ')}`,
        ),
      ],
    }),
  );
  const card = metaContent(facts, 'twitter:card');
  rows.push(
    result(S.twitterCard, card !== undefined && TWITTER_CARDS.has(card), `twitter:card ${quote(card)}`, {
      detail: card ? `twitter:card ${quote(card)} is not a valid card type` : 'no twitter:card',
      title: 'No valid twitter:card for previews on X',
      remediation: 'Add <meta name="twitter:card" content="summary_large_image">.',
      agentAction: 'Add <meta name="twitter:card" content="summary_large_image"> to the head.',
      affectedUrls: [url],
      evidence: [
        judged(
          url,
          card
            ? `<meta name="twitter:card" content=${quote(card)}>: not summary, summary_large_image, app or player`
            : 'no <meta name="twitter:card"> in the head',
        ),
      ],
    }),
  );
  return rows;
}

function businessSchema(ctx: MarketingContext): CheckResult {
  const { url, nodes } = ctx;
  if (!asks(ctx, S.business))
    return notAsked(ctx, S.business, 'Organization or LocalBusiness structured data describes a business');
  const business = nodes.find((n) => typesOf(n).some((t) => isOrganizationType(t) || isLocalBusinessType(t)));
  const types = typesOf(business ?? {});
  const local = types.some(isLocalBusinessType);
  const ok =
    business?.name !== undefined && (!local || (business.address !== undefined && business.telephone !== undefined));
  const seen = [...new Set(nodes.flatMap((n: JsonLdNode) => typesOf(n)))].slice(0, 8);
  return content(
    ctx,
    result(S.business, ok, `${quoteAll(types, '/')} with name${local ? ', address and telephone' : ''}`, {
      detail: !business
        ? 'no Organization or LocalBusiness structured data'
        : `the ${types.join('/')} lacks ${business.name === undefined ? 'a name' : 'address or telephone'}`,
      title: 'Search engines cannot read who the business is',
      remediation: 'Describe the business with Organization (or LocalBusiness with address and telephone) JSON-LD.',
      agentAction:
        'Add Organization or LocalBusiness JSON-LD with name, url, logo, address, telephone and sameAs to the home page (a starter built from the page is suggested).',
      affectedUrls: [url],
      evidence: [
        judged(
          url,
          seen.length > 0
            ? `JSON-LD types on the ${ctx.pages.length} page(s) read: ${quoteAll(seen)}`
            : `no JSON-LD structured data on the ${ctx.pages.length} page(s) read`,
        ),
      ],
      ...(business
        ? {}
        : {
            suggestions: [
              {
                label: 'Organization JSON-LD',
                target: 'the <head> of the home page',
                format: 'json-ld' as const,
                content: organizationJsonLd(ctx.site),
              },
            ],
          }),
    }),
  );
}
