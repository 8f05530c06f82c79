// A generated site shaped like a CMS theme's output, for the crawl and render benchmarks: every
// page carries the theme's head (meta, Open Graph, inlined critical CSS, JSON-LD, scripts), a header
// with a mega menu, breadcrumbs, the content, a sidebar, comments, a newsletter form and a footer,
// 30 to 80 KB of HTML and 60 links or more. Deterministic: the same count gives the same bytes.
// The pages link so that a breadth-first crawl from the home page reaches every one of them.

const STATIC_PAGES = [
  ['/about', 'About us'],
  ['/contact', 'Contact'],
  ['/pricing', 'Pricing'],
  ['/newsletter', 'Newsletter'],
  ['/careers', 'Careers'],
  ['/press', 'Press'],
  ['/privacy', 'Privacy policy'],
  ['/terms', 'Terms of service'],
  ['/accessibility', 'Accessibility'],
] as const;
const CATEGORIES = [
  'tools',
  'soil',
  'seeds',
  'pruning',
  'orchards',
  'vegetables',
  'flowers',
  'lawns',
  'compost',
  'irrigation',
  'greenhouses',
  'workshop',
];
const TAGS = [
  'spring',
  'summer',
  'autumn',
  'winter',
  'beginners',
  'heritage',
  'forging',
  'sharpening',
  'repair',
  'organic',
  'no-dig',
  'raised-beds',
  'fruit-trees',
  'herbs',
  'wildlife',
  'ponds',
  'hedges',
  'tomatoes',
  'potatoes',
  'roses',
  'bulbs',
  'mulch',
  'tool-care',
  'allotments',
];
const WORDS = (
  'garden soil spade fork hoe rake trowel blade handle ash steel carbon temper edge forge anvil hammer ' +
  'bed row furrow seed seedling root shoot leaf stem bud blossom fruit harvest season frost thaw rain ' +
  'drought mulch compost worm loam clay sand silt humus manure straw bark chip hedge border lawn path ' +
  'orchard apple pear plum cherry quince medlar vine trellis cane bean pea leek onion garlic carrot ' +
  'parsnip beet chard kale cabbage sprout squash pumpkin marrow tomato pepper potato herb thyme sage ' +
  'mint parsley rosemary lavender rose tulip daffodil crocus allium peony dahlia greenhouse cloche cold ' +
  'frame shed bench barrow bucket watering can hose sprinkler drip line butt tank weed thistle nettle ' +
  'bramble ivy moss slug snail aphid ladybird bee wasp bird hedgehog frog pond newt careful patient ' +
  'slow early late deep shallow light heavy sharp blunt rusted polished oiled honed tempered sturdy ' +
  'balanced worn old new every year each spring in autumn after rain before frost by hand with care ' +
  'we you they keep turn dig sow plant prune feed water cut lift store clean sharpen mend grow tend'
).split(' ');

/** mulberry32: a small deterministic generator, one per page so pages do not depend on each other. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(rand: Random, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(rand: Random): string {
  const length = 8 + Math.floor(rand() * 14);
  const words = Array.from({ length }, () => pick(rand, WORDS));
  if (length > 12) words[Math.floor(length / 2)] += ',';
  return `${capital(words.join(' '))}.`;
}

const paragraph = (rand: Random) => Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand)).join(' ');
const title = (rand: Random, words: number) =>
  capital(Array.from({ length: words }, () => pick(rand, WORDS)).join(' '));

// What a theme inlines as critical CSS (about 6 KB): generated rules, with the theme's muted grey
// (#999 on white fails WCAG AA contrast, as many real themes do).
const CRITICAL_CSS = (() => {
  const rand = random(7);
  const rules = [
    ':root{--ink:#1d2327;--muted:#999;--accent:#2e7d32;--bg:#fff}',
    'body{margin:0;font:16px/1.6 system-ui,sans-serif;color:var(--ink);background:var(--bg)}',
    '.meta,.byline,.comment time,.site-footer small{color:var(--muted);font-size:.8rem}',
  ];
  for (let i = 0; rules.join('').length < 6000; i++) {
    const props = Array.from(
      { length: 3 + Math.floor(rand() * 4) },
      () =>
        `${pick(rand, ['margin', 'padding', 'gap', 'border-radius', 'max-width', 'line-height', 'font-size'])}:${(rand() * 3).toFixed(2)}rem`,
    );
    rules.push(`.c-${pick(rand, WORDS)}-${i}{${props.join(';')}}`);
  }
  return rules.join('\n');
})();

const ICON = (name: string, path: string) =>
  `<svg class="icon icon-${name}" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
const ICON_PATHS = [
  'M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.41-5.4-5.39A8 8 0 1 1 10 2zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12z',
  'M3 6h18v2H3V6zm0 5h18v2H3v-2zm0 5h18v2H3v-2z',
  'M12 2C6.48 2 2 6.48 2 12c0 4.99 3.66 9.13 8.44 9.88v-6.99H7.9V12h2.54V9.8c0-2.51 1.49-3.89 3.78-3.89 1.09 0 2.24.2 2.24.2v2.46h-1.26c-1.24 0-1.63.77-1.63 1.56V12h2.78l-.44 2.89h-2.34v6.99C18.34 21.13 22 16.99 22 12c0-5.52-4.48-10-10-10z',
  'M7.8 2h8.4C19.4 2 22 4.6 22 7.8v8.4a5.8 5.8 0 0 1-5.8 5.8H7.8C4.6 22 2 19.4 2 16.2V7.8A5.8 5.8 0 0 1 7.8 2zm-.2 2A3.6 3.6 0 0 0 4 7.6v8.8C4 18.39 5.61 20 7.6 20h8.8a3.6 3.6 0 0 0 3.6-3.6V7.6C20 5.61 18.39 4 16.4 4H7.6z',
];
/** Where a page's sections of text go (build). */
const ARTICLE = '<!--article-->';
const SOCIAL = ['facebook', 'instagram', 'youtube', 'pinterest', 'mastodon'];

/** Links (`<a ` start tags) in a page, by a plain scan. */
export function countLinks(html: string): number {
  let count = 0;
  for (let at = html.indexOf('<a '); at >= 0; at = html.indexOf('<a ', at + 3)) count++;
  return count;
}

export interface CmsPage {
  path: string;
  title: string;
  /** Everything inside <body>, header to footer: an app shell's script builds the same. */
  body: string;
  html: string;
}

export interface CmsSite {
  /** Every page, in the order the site's sitemap lists them (the home page first). */
  pages: CmsPage[];
  page(path: string): CmsPage | undefined;
  robotsTxt(origin: string): string;
  sitemapXml(origin: string): string;
}

/** The site's `count` pages (at least 60): the home page, fixed pages, category and tag indexes, posts. */
export function cmsSite(count: number): CmsSite {
  const fixed = 1 + STATIC_PAGES.length + CATEGORIES.length + TAGS.length;
  const posts = Math.max(14, count - fixed);
  const postTitles = Array.from({ length: posts }, (_, n) => title(random(1000 + n), 4 + (n % 4)));
  const postPath = (n: number) => `/blog/${n}-${postTitles[n]?.toLowerCase().replaceAll(' ', '-')}`;
  const postLink = (n: number, cls = '') =>
    `<a${cls ? ` class="${cls}"` : ''} href="${postPath(n)}">${postTitles[n]}</a>`;
  /** Post n is linked from post (n - 10) / 6 as related: every post is reached from the home page's ten. */
  const related = (n: number) =>
    Array.from({ length: 6 }, (_, k) => 10 + n * 6 + k).filter((m) => m < posts && m !== n);
  const categoryOf = (n: number) => CATEGORIES[n % CATEGORIES.length] as string;

  const header = `<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header"><div class="wrap"><a class="logo" href="/" rel="home"><img src="/assets/logo.svg" alt="Acme garden journal" width="160" height="40"></a>
<button class="menu-toggle" aria-expanded="false" aria-controls="menu">${ICON('menu', ICON_PATHS[1] as string)}<span class="screen-reader-text">Menu</span></button>
<nav id="menu" aria-label="Main"><ul class="menu">${CATEGORIES.map((c) => `<li class="menu-item"><a href="/category/${c}">${capital(c)}</a></li>`).join('')}
${STATIC_PAGES.slice(0, 4)
  .map(([href, text]) => `<li class="menu-item"><a href="${href}">${text}</a></li>`)
  .join('')}</ul>
<div class="mega"><p class="mega-title">Popular topics</p><ul>${TAGS.map((t) => `<li><a href="/tag/${t}">${capital(t.replaceAll('-', ' '))}</a></li>`).join('')}</ul></div></nav>
<form class="search" role="search" action="/search" method="get"><label class="screen-reader-text" for="s">Search</label><input id="s" name="q" type="search" placeholder="Search the journal">${ICON('search', ICON_PATHS[0] as string)}<button type="submit">Search</button></form></div></header>`;

  const sidebar = (rand: Random) => `<aside class="sidebar" aria-label="More from the journal">
<section class="widget"><h2 class="widget-title">Recent posts</h2><ul>${Array.from({ length: 10 }, (_, n) => `<li>${postLink(n)}<span class="meta"> ${10 + n} min read</span></li>`).join('')}</ul></section>
<section class="widget"><h2 class="widget-title">Popular</h2><ul>${Array.from({ length: 5 }, () => `<li>${postLink(Math.floor(rand() * posts))}</li>`).join('')}</ul></section>
<section class="widget newsletter"><h2 class="widget-title">The Sunday letter</h2><p>${sentence(rand)}</p>
<form action="/newsletter/subscribe" method="post"><label for="nl-email">E-mail address</label><input id="nl-email" name="email" type="email" autocomplete="email" required><input type="hidden" name="source" value="sidebar"><button type="submit">Subscribe</button></form></section></aside>`;

  const footer = `<footer class="site-footer"><div class="wrap"><nav aria-label="Footer"><ul>${STATIC_PAGES.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('')}</ul>
<ul class="footer-topics">${CATEGORIES.map((c) => `<li><a href="/category/${c}">${capital(c)}</a></li>`).join('')}</ul></nav>
<ul class="social">${SOCIAL.map((s, i) => `<li><a href="https://${s}.example/acmegarden" rel="me noopener">${ICON(s, ICON_PATHS[2 + (i % 2)] as string)}</a></li>`).join('')}</ul>
<address>Acme Garden Tools Ltd, 14 Forge Lane, Sheffield S1 4AB. <a href="mailto:hello@acme-garden.example">hello@acme-garden.example</a>, +44 114 496 0123</address>
<small>&copy; 2026 Acme Garden Tools Ltd. All rights reserved. Registered in England, company 01234567.</small></div></footer>
<div class="cookie-banner" role="dialog" aria-label="Cookies"><p>We use cookies to measure how the journal is read.</p><button>Accept</button><button>Reject</button></div>`;

  const head = (path: string, pageTitle: string, description: string, jsonLd: object) => {
    const config = {
      theme: 'acme-journal',
      version: '4.12.3',
      path,
      features: { lazyImages: true, infiniteScroll: false, comments: true, search: '/search' },
      strings: Object.fromEntries(WORDS.slice(0, 60).map((w) => [w, capital(w)])),
    };
    return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${pageTitle} | Acme garden journal</title><meta name="description" content="${description}">
<link rel="canonical" href="${path}"><link rel="icon" href="/assets/favicon.png" sizes="32x32"><link rel="apple-touch-icon" href="/assets/touch.png">
<link rel="alternate" type="application/rss+xml" title="Acme garden journal" href="/feed.xml">
<meta property="og:type" content="article"><meta property="og:title" content="${pageTitle}"><meta property="og:description" content="${description}">
<meta property="og:url" content="${path}"><meta property="og:image" content="/assets/og/${path.length}.png"><meta property="og:site_name" content="Acme garden journal">
<meta name="twitter:card" content="summary_large_image"><meta name="twitter:site" content="@acmegarden">
<link rel="preload" href="/assets/fonts/inter.woff2" as="font" type="font/woff2" crossorigin>
<style id="critical-css">${CRITICAL_CSS}</style><link rel="stylesheet" href="/assets/theme.css" media="print" onload="this.media='all'">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
<script>window.__THEME__=${JSON.stringify(config)};</script>
<script>(function(w,d){w.dataLayer=w.dataLayer||[];w.dataLayer.push({event:'page_view',path:${JSON.stringify(path)}});var s=d.createElement('script');s.async=true;s.src='/assets/analytics.js';d.head.appendChild(s);})(window,document);</script>
<script src="/assets/theme.js" defer></script><script src="/assets/comments.js" defer></script></head>`;
  };

  const pages: CmsPage[] = [];
  /**
   * Adds a page; `content` may hold ARTICLE once, where sections of text are put until the page is
   * between 30 and 80 KB (a size drawn per page).
   */
  const build = (
    path: string,
    pageTitle: string,
    crumbs: Array<[string, string]>,
    content: (rand: Random) => string,
  ) => {
    const rand = random(pages.length + 1);
    const target = 30_000 + Math.floor(rand() * 45_000);
    const description = sentence(rand).slice(0, 155);
    const jsonLd = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'Organization', name: 'Acme Garden Tools', url: '/', logo: '/assets/logo.svg' },
        { '@type': 'Article', headline: pageTitle, description, author: { '@type': 'Person', name: 'Ruth Ashdown' } },
        {
          '@type': 'BreadcrumbList',
          itemListElement: crumbs.map(([href, name], i) => ({
            '@type': 'ListItem',
            position: i + 1,
            name,
            item: href,
          })),
        },
      ],
    };
    const breadcrumbs = `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${crumbs.map(([href, name]) => `<li><a href="${href}">${name}</a></li>`).join('')}<li aria-current="page">${pageTitle}</li></ol></nav>`;
    let body = `${header}\n<div class="wrap layout">${breadcrumbs}<main id="content">${content(rand)}</main>${sidebar(rand)}</div>\n${footer}`;
    const top = head(path, pageTitle, description, jsonLd);
    body = body.replace(ARTICLE, () => article(rand, target - top.length - body.length));
    pages.push({ path, title: pageTitle, body, html: `${top}<body class="theme-acme">${body}</body></html>` });
  };

  const figure = (rand: Random, n: number) => {
    const id = Math.floor(rand() * 10_000);
    return `<figure class="wp-block-image"><img src="/uploads/${id}-1024.jpg" srcset="/uploads/${id}-480.jpg 480w, /uploads/${id}-1024.jpg 1024w, /uploads/${id}-1600.jpg 1600w" sizes="(max-width: 700px) 100vw, 700px" alt="${title(rand, 5)}" width="1024" height="683" loading="${n === 0 ? 'eager' : 'lazy'}" decoding="async"><figcaption>${sentence(rand)}</figcaption></figure>`;
  };
  /** Sections of text with in-text links to posts, `bytes` long or a little more. */
  const article = (rand: Random, bytes: number) => {
    const parts: string[] = [];
    let size = 0;
    for (let section = 0; size < bytes; section++) {
      const block: string[] = [`<h2 id="s${section}">${title(rand, 4)}</h2>`];
      if (section % 3 === 0) block.push(figure(rand, section));
      for (let p = 0; p < 3; p++) {
        const text = paragraph(rand);
        const cut = text.indexOf(' ', Math.floor(text.length / 2));
        block.push(
          p === 1 && cut > 0
            ? `<p>${text.slice(0, cut)} (see ${postLink(Math.floor(rand() * posts))}) ${text.slice(cut + 1)}</p>`
            : `<p>${text}</p>`,
        );
      }
      if (section % 4 === 1)
        block.push(`<ul>${Array.from({ length: 5 }, () => `<li>${sentence(rand)}</li>`).join('')}</ul>`);
      if (section % 5 === 2)
        block.push(`<blockquote><p>${sentence(rand)}</p><cite>${title(rand, 2)}</cite></blockquote>`);
      const text = block.join('\n');
      parts.push(text);
      size += text.length + 1;
    }
    return parts.join('\n');
  };

  const list = (rand: Random, ns: number[]) =>
    `<ul class="post-list">${ns.map((n) => `<li class="card">${postLink(n, 'card-link')}<p class="meta">${capital(categoryOf(n))}</p><p class="excerpt">${sentence(rand)}</p></li>`).join('')}</ul>`;

  const members = (belongs: (n: number) => boolean) =>
    Array.from({ length: posts }, (_, n) => n)
      .filter(belongs)
      .slice(0, 30);
  build(
    '/',
    'Acme garden journal',
    [],
    (rand) => `<h1>Acme garden journal</h1><p class="lead">${paragraph(rand)}</p>
<section><h2>Latest</h2>${list(
      rand,
      Array.from({ length: 10 }, (_, n) => n),
    )}</section>
<section><h2>From the editor</h2>${ARTICLE}</section>`,
  );
  for (const [path, name] of STATIC_PAGES) build(path, name, [['/', 'Home']], () => `<h1>${name}</h1>${ARTICLE}`);
  for (const [c, category] of CATEGORIES.entries()) {
    const name = capital(category);
    const inCategory = members((n) => n % CATEGORIES.length === c);
    build(
      `/category/${category}`,
      name,
      [['/', 'Home']],
      (rand) => `<h1>${name}</h1>${list(rand, inCategory)}<section class="about-topic">${ARTICLE}</section>`,
    );
  }
  for (const [t, tag] of TAGS.entries()) {
    const name = capital(tag.replaceAll('-', ' '));
    const tagged = members((n) => (n * 7 + t) % TAGS.length === 0);
    build(
      `/tag/${tag}`,
      name,
      [['/', 'Home']],
      (rand) => `<h1>${name}</h1>${list(rand, tagged)}<section class="about-topic">${ARTICLE}</section>`,
    );
  }
  for (let n = 0; n < posts; n++) {
    const category = categoryOf(n);
    const tag = TAGS[n % TAGS.length] as string;
    build(
      postPath(n),
      postTitles[n] as string,
      [
        ['/', 'Home'],
        [`/category/${category}`, capital(category)],
      ],
      (rand) => {
        const comments = Array.from(
          { length: Math.floor(rand() * 6) },
          (_, k) =>
            `<li class="comment" id="comment-${n}-${k}"><p class="byline"><b>${title(rand, 2)}</b> <time datetime="2026-0${1 + (k % 9)}-1${k}">${1 + k} days ago</time></p><p>${paragraph(rand)}</p><a class="reply" href="#respond">Reply</a></li>`,
        );
        return `<article class="post"><h1>${postTitles[n]}</h1><p class="meta byline">By Ruth Ashdown, in <a href="/category/${category}">${capital(category)}</a> &middot; <a href="/tag/${tag}">${tag}</a></p>
${ARTICLE}
<section class="related"><h2>Related posts</h2>${list(rand, related(n))}</section>
<section class="comments" id="comments"><h2>${comments.length} comments</h2><ol>${comments.join('')}</ol>
<form id="respond" action="/comments" method="post"><label for="c-${n}">Your comment</label><textarea id="c-${n}" name="comment" rows="5"></textarea><label for="c-${n}-name">Name</label><input id="c-${n}-name" name="name"><button type="submit">Post comment</button></form></section></article>`;
      },
    );
  }

  const byPath = new Map(pages.map((p) => [p.path, p]));
  return {
    pages,
    page: (path) => byPath.get(path),
    robotsTxt: (origin) => `User-agent: *\nDisallow: /search\nDisallow: /comments\n\nSitemap: ${origin}/sitemap.xml\n`,
    sitemapXml: (origin) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages.map((p) => `<url><loc>${origin}${p.path}</loc><lastmod>2026-11-01</lastmod></url>`).join('\n')}\n</urlset>\n`,
  };
}
