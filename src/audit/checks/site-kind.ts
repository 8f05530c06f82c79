// What kind of site a marketing audit reads (issue 25: an art blog, two documentation sites and an
// open-source portal were told "Pricing is hidden" and "No clear call to action"). The site says so
// itself: its generator, the frameworks its scripts come from, its structured data types, feeds,
// posts with dates, carts and product data, and the words of its navigation. Each signal weighs;
// the kind with the most weight wins over "business", which every site starts as.

import { SITE_KINDS } from '../../contract/index.ts';
import type { CrawledPage } from '../crawler.ts';
import { quote } from '../quote.ts';
import { homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { pageScripts } from '../trackers.ts';
import { isLocalBusinessType } from './business-types.ts';
import { findWord, fold, foldedPath, PRICING_WORDS, type WordList, words } from './marketing-words.ts';
import { jsonLdNodes, typesOf } from './structured-data.ts';

export { SITE_KINDS };
export type SiteKind = (typeof SITE_KINDS)[number];

export interface SiteKindReading {
  kind: SiteKind;
  /** What decided it, strongest first (bounded, quoted where the site's text). */
  signals: string[];
  scores: Record<SiteKind, number>;
}

/** Every site starts as a business: another kind must outweigh this and its business signals. */
const BUSINESS_BASE = 3;
const SIGNALS_SHOWN = 6;
const BODY_SCAN_MAX = 1_000_000;

const DOC_GENERATORS = [
  'sphinx',
  'docutils',
  'docusaurus',
  'mkdocs',
  'vuepress',
  'vitepress',
  'gitbook',
  'docfx',
  'antora',
  'jupyter book',
  'nextra',
  'starlight',
  'mintlify',
  'doxygen',
  'typedoc',
  'jsdoc',
  'rustdoc',
  'pdoc',
  'docsy',
  'read the docs',
];
const BLOG_GENERATORS = ['ghost', 'blogger', 'hexo', 'tumblr', 'substack', 'medium', 'micro.blog', 'write.as'];
const STATIC_GENERATORS = ['wordpress', 'jekyll', 'hugo', 'eleventy', 'pelican', 'zola', 'gatsby', 'astro'];
/** Shop platforms by what their scripts and generator tags carry. */
const SHOP_PLATFORMS: ReadonlyArray<readonly [mark: string, name: string]> = [
  ['cdn.shopify.com', 'Shopify'],
  ['shopify', 'Shopify'],
  ['woocommerce', 'WooCommerce'],
  ['magento', 'Magento'],
  ['prestashop', 'PrestaShop'],
  ['bigcommerce', 'BigCommerce'],
  ['shopware', 'Shopware'],
  ['ecwid', 'Ecwid'],
  ['opencart', 'OpenCart'],
  ['sylius', 'Sylius'],
  ['wix-stores', 'Wix Stores'],
];
/** Documentation frameworks by the scripts they load. */
const DOC_SCRIPTS: ReadonlyArray<readonly [mark: string, name: string]> = [
  ['_static/doctools.js', 'Sphinx'],
  ['_static/documentation_options.js', 'Sphinx'],
  ['docsify', 'docsify'],
  ['docsearch', 'DocSearch'],
  ['readthedocs', 'Read the Docs'],
  ['gitbook', 'GitBook'],
  ['mkdocs', 'MkDocs'],
  ['vitepress', 'VitePress'],
];
/** Markup that documentation frameworks write into every page. */
const DOC_MARKUP = [
  'id="__docusaurus"',
  'class="theme-doc-markdown',
  'data-md-component=',
  'class="md-content',
  'class="rst-content',
  'class="sphinxsidebar',
  'class="vp-doc',
  'window.$docsify',
  'href="https://www.sphinx-doc.org/',
];
const CODE_FORGES = ['github.com', 'gitlab.com', 'codeberg.org', 'sourceforge.net', 'bitbucket.org'];
const PUBLIC_SUFFIXES = ['.gov', '.mil', '.edu', '.int', '.gouv.fr', '.europa.eu', '.govt.nz', '.gc.ca'];
const PUBLIC_LABELS = ['gov', 'gob', 'go', 'edu', 'ac', 'gouv'];

const DOC_WORDS = words([
  'documentation',
  'docs',
  'api',
  'api reference',
  'reference',
  'tutorial',
  'quickstart',
  'getting started',
  'installation',
  'changelog',
  'user guide',
  'manual',
  'handbuch',
  'dokumentation',
]);
const BLOG_WORDS = words([
  'blog',
  'posts',
  'archive',
  'archives',
  'tags',
  'categories',
  'older posts',
  'newer posts',
  'continue reading',
  'read more',
]);
const PORTAL_WORDS = words([
  'community',
  'contribute',
  'contributing',
  'forum',
  'wiki',
  'mailing list*',
  'projects',
  'downloads',
  'releases',
  'source code',
  'governance',
  'code of conduct',
  'foundation',
  'get involved',
  'sponsors',
  'departments',
  'public services',
]);
const SHOP_WORDS = words(
  ['cart', 'basket', 'bag', 'checkout', 'add to cart', 'add to bag', 'add to basket', 'shop all'],
  ['warenkorb', 'in den warenkorb', 'panier', 'ajouter au panier', 'carrito', 'carrello', 'winkelwagen'],
  ['カート', 'カートに入れる', '购物车', '購物車', '加入购物车', '장바구니'],
);
const SHOP_PATHS = words(['products', 'product', 'collections', 'produkt*', 'produits', 'productos', 'shop', 'store']);
const BUSINESS_WORDS = words(
  ['book a demo', 'request a demo', 'free trial', 'get a quote', 'contact sales', 'sign up', 'start free'],
  ['services', 'our services', 'case studies', 'clients', 'testimonials', 'leistungen', 'referenzen'],
);

interface Signal {
  kind: SiteKind;
  weight: number;
  what: string;
}

function countOf(text: string, needle: string, max: number): number {
  let n = 0;
  let from = 0;
  while (n < max) {
    const at = text.indexOf(needle, from);
    if (at < 0) break;
    n++;
    from = at + needle.length;
  }
  return n;
}

/** A path of a dated post: /2024/ or /2024/03/ (a four-digit year from 1990 on as a whole segment). */
function datedPath(path: string): boolean {
  for (const segment of path.split('/')) {
    if (segment.length !== 4) continue;
    const year = Number(segment);
    if (Number.isInteger(year) && year >= 1990 && year <= 2100) return true;
  }
  return false;
}

/** Words of a page's links (label and path), each list's matches counted once per distinct word. */
function linkWords(page: CrawledPage, list: WordList): Set<string> {
  const found = new Set<string>();
  for (const anchor of page.facts?.anchors ?? []) {
    const word = findWord(fold(anchor.text), list) ?? findWord(foldedPath(anchor.href, page.url), list);
    if (word) found.add(word);
  }
  return found;
}

function isPublicHost(host: string): boolean {
  if (PUBLIC_SUFFIXES.some((s) => host.endsWith(s))) return true;
  const labels = host.split('.');
  // gov.uk, gob.es, go.jp, edu.au, ac.uk: a public second-level label under a country code.
  return labels.length >= 3 && (labels.at(-1)?.length ?? 0) === 2 && PUBLIC_LABELS.includes(labels.at(-2) ?? '');
}

function signalsOf(site: SiteSnapshot): Signal[] {
  const pages = htmlPages(site);
  const home = homePage(site);
  const signals: Signal[] = [];
  const add = (kind: SiteKind, weight: number, what: string) => signals.push({ kind, weight, what });

  for (const page of pages) {
    const facts = page.facts;
    if (!facts) continue;
    for (const meta of facts.metas) {
      if (meta.name !== 'generator') continue;
      const generator = fold(meta.content);
      const label = `generator ${quote(meta.content, 30)}`;
      if (DOC_GENERATORS.some((g) => generator.includes(g))) add('documentation', 6, label);
      else if (BLOG_GENERATORS.some((g) => generator.includes(g))) add('blog', 5, label);
      else if (SHOP_PLATFORMS.some(([g]) => generator.includes(g))) add('shop', 6, label);
      else if (STATIC_GENERATORS.some((g) => generator.includes(g))) add('blog', 1, label);
    }
    for (const script of pageScripts(page)) {
      const lower = script.text.toLowerCase();
      const doc = script.inline ? undefined : DOC_SCRIPTS.find(([mark]) => lower.includes(mark));
      if (doc) add('documentation', 6, `${doc[1]} scripts`);
      const shop = SHOP_PLATFORMS.find(([mark]) => lower.includes(mark));
      if (shop) add('shop', 6, `${shop[1]} scripts`);
    }
    for (const node of jsonLdNodes(page).nodes) {
      for (const type of typesOf(node)) {
        if (type === 'Product' || type === 'ProductGroup' || type === 'AggregateOffer')
          add('shop', 6, `${type} structured data`);
        else if (type === 'Blog' || type === 'BlogPosting') add('blog', 4, `${type} structured data`);
        else if (type === 'Article' || type === 'NewsArticle') add('blog', 2, `${type} structured data`);
        else if (type === 'TechArticle' || type === 'APIReference') add('documentation', 3, `${type} structured data`);
        else if (/^(GovernmentOrganization|EducationalOrganization|CollegeOrUniversity|School|NGO)$/.test(type))
          add('portal', 5, `${type} structured data`);
        else if (type === 'Person' && page === home) add('blog', 2, 'a Person as the home page subject');
        else if (isLocalBusinessType(type) || type === 'Service') add('business', 3, `${type} structured data`);
        else if (type === 'SoftwareApplication' && node.offers !== undefined)
          add('business', 3, 'SoftwareApplication with offers');
        else if (type === 'Organization' || type === 'Corporation') add('business', 1, `${type} structured data`);
      }
    }
    const ogType = facts.metas.find((m) => m.name === 'og:type')?.content.toLowerCase();
    if (ogType === 'product' || facts.metas.some((m) => m.name === 'product:price:amount'))
      add('shop', 4, 'product Open Graph tags');
    if (ogType === 'article') add('blog', 1, 'og:type article');
    if (facts.links.some((l) => l.rel.split(/\s+/).includes('alternate') && /(rss|atom)\+xml/.test(l.type ?? '')))
      add('blog', 2, 'an RSS or Atom feed');
    if (facts.buttons.some((b) => findWord(fold(b.name), SHOP_WORDS))) add('shop', 3, 'an add-to-cart button');
    const body = (page.fetched?.body ?? '').slice(0, BODY_SCAN_MAX);
    const markup = DOC_MARKUP.find((m) => body.includes(m));
    if (markup) add('documentation', 5, `documentation markup ${quote(markup)}`);
    if (page !== home) continue;

    // The home page's own shape and navigation.
    const lower = body.toLowerCase();
    if (countOf(lower, '<article', 2) >= 2) add('blog', 2, 'posts as <article> elements');
    if (countOf(lower, '<time', 2) >= 2) add('blog', 1, 'dated entries (<time>)');
    if (lower.includes('class="home blog')) add('blog', 3, 'a WordPress posts page as the home page');
    const dated = facts.anchors.filter((a) => datedPath(foldedPath(a.href, page.url).replaceAll(' ', '/'))).length;
    if (dated >= 3) add('blog', 2, `${dated} links to dated posts`);
    const wordsOf = (list: WordList) => [...linkWords(page, list)].slice(0, 6);
    const doc = wordsOf(DOC_WORDS);
    if (doc.length > 0) add('documentation', Math.min(doc.length, 3), `navigation: ${doc.join(', ')}`);
    const blog = wordsOf(BLOG_WORDS);
    if (blog.length > 0) add('blog', Math.min(blog.length, 3), `navigation: ${blog.join(', ')}`);
    const portal = wordsOf(PORTAL_WORDS);
    if (portal.length > 0) add('portal', Math.min(portal.length, 6), `navigation: ${portal.join(', ')}`);
    const shop = wordsOf(SHOP_WORDS);
    if (shop.length > 0) add('shop', 3, `navigation: ${shop.join(', ')}`);
    const shopPaths = facts.anchors.filter((a) => findWord(foldedPath(a.href, page.url), SHOP_PATHS)).length;
    if (shopPaths >= 2) add('shop', 2, `${shopPaths} links to products or collections`);
    const business = wordsOf(BUSINESS_WORDS);
    if (business.length > 0) add('business', Math.min(2 * business.length, 4), `navigation: ${business.join(', ')}`);
    if (linkWords(page, PRICING_WORDS).size > 0) add('business', 2, 'a pricing link');
    const forges = facts.anchors.filter((a) => CODE_FORGES.some((f) => a.href.toLowerCase().includes(`//${f}/`)));
    if (forges.length > 0) add('portal', 3, `links to ${CODE_FORGES.find((f) => forges[0]?.href.includes(f))}`);
    let host = '';
    try {
      host = new URL(page.url).hostname.toLowerCase();
    } catch {}
    if (isPublicHost(host)) add('portal', 6, `a public-sector host ${quote(host)}`);
    if (/^(docs|developer|developers|doc|wiki)\./.test(host)) add('documentation', 3, `the host ${quote(host)}`);
    if (/^\/(docs|documentation)(\/|$)/.test(new URL(page.url).pathname)) add('documentation', 3, 'a /docs/ path');
  }
  return signals;
}

/** The kind of site, and the signals that say so. */
export function readSiteKind(site: SiteSnapshot): SiteKindReading {
  // Each signal once: a generator on every page of a site is one fact.
  const seen = new Set<string>();
  const signals = signalsOf(site).filter((s) => {
    const key = `${s.kind}|${s.what}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const scores: Record<SiteKind, number> = { business: BUSINESS_BASE, shop: 0, documentation: 0, blog: 0, portal: 0 };
  for (const s of signals) scores[s.kind] += s.weight;
  // Ties go to the kind named first: documentation and shops say what they are most clearly.
  const order: SiteKind[] = ['documentation', 'shop', 'blog', 'portal', 'business'];
  let kind: SiteKind = 'business';
  for (const candidate of order) if (scores[candidate] > scores[kind]) kind = candidate;
  const shown = signals
    .filter((s) => s.kind === kind)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, SIGNALS_SHOWN)
    .map((s) => s.what);
  return { kind, signals: shown.length > 0 ? shown : ['no sign of a shop, documentation, blog or portal'], scores };
}

const ARTICLE: Record<SiteKind, string> = {
  business: 'a business site',
  shop: 'a shop',
  documentation: 'a documentation site',
  blog: 'a blog',
  portal: 'a portal',
};

/** "a documentation site (generator “Docusaurus v3.1.1”, ...)": how reports name the kind. */
export function kindPhrase(reading: SiteKindReading, signals = 2): string {
  return `${ARTICLE[reading.kind]} (${reading.signals.slice(0, signals).join('; ')})`;
}
