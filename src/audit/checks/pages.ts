// Checks over the crawled pages' HTML and headers, each one finding listing the pages it affects.

import { emptyAfterRendering } from '../app-shell.ts';
import { type CheckResult, type CheckSpec, fail, info, type Offence, pass, perPage, unverified } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { metaContent, type PageFacts } from '../html.ts';
import { quote, quoteAll } from '../quote.ts';
import { appShellScripts, homePage, htmlPages, type SiteSnapshot } from '../site.ts';

export const PAGE_SPECS = {
  indexable: {
    id: 'pages-indexable',
    label: 'Pages are indexable (no noindex)',
    category: 'discoverability',
    severity: 'high',
  },
  status: { id: 'pages-answer-2xx', label: 'Pages answer 2xx', category: 'discoverability', severity: 'medium' },
  redirects: {
    id: 'home-redirect-chain',
    label: 'Short redirect chain to the home page',
    category: 'discoverability',
    severity: 'low',
  },
  title: { id: 'title-present', label: 'One non-empty title per page', category: 'metadata', severity: 'medium' },
  description: {
    id: 'meta-description',
    label: 'Meta description on every page',
    category: 'metadata',
    severity: 'medium',
  },
  canonical: { id: 'canonical-absolute', label: 'Absolute canonical URL', category: 'metadata', severity: 'low' },
  lang: { id: 'html-lang', label: 'Page language declared', category: 'metadata', severity: 'medium' },
  hreflang: { id: 'hreflang-valid', label: 'Valid hreflang alternates', category: 'metadata', severity: 'low' },
  text: {
    id: 'content-in-html',
    label: 'Content is in the served HTML',
    category: 'content_structure',
    severity: 'high',
  },
  h1: { id: 'single-h1', label: 'Exactly one H1 per page', category: 'content_structure', severity: 'medium' },
  headingOrder: {
    id: 'heading-order',
    label: 'Headings do not skip levels',
    category: 'content_structure',
    severity: 'low',
  },
  main: { id: 'main-landmark', label: 'A <main> landmark', category: 'content_structure', severity: 'low' },
  questions: {
    id: 'answerable-content',
    label: 'Question-and-answer content',
    category: 'answerability',
    severity: 'info',
  },
  dates: { id: 'content-dates', label: 'Visible or structured dates', category: 'answerability', severity: 'low' },
  imageAlt: { id: 'image-alt', label: 'Images have alt text', category: 'accessibility', severity: 'high' },
  linkName: { id: 'link-name', label: 'Links have discernible text', category: 'accessibility', severity: 'medium' },
  formLabels: { id: 'form-labels', label: 'Form fields have labels', category: 'accessibility', severity: 'high' },
  buttonName: {
    id: 'button-name',
    label: 'Buttons have discernible text',
    category: 'accessibility',
    severity: 'high',
  },
  realHrefs: {
    id: 'crawlable-links',
    label: 'Links are real hrefs, not javascript:',
    category: 'agent_operability',
    severity: 'medium',
  },
  autocomplete: {
    id: 'autocomplete-valid',
    label: 'Valid autocomplete tokens',
    category: 'agent_operability',
    severity: 'low',
  },
  webmcp: {
    id: 'webmcp-tools',
    label: 'WebMCP tool forms (form[toolname])',
    category: 'agent_operability',
    severity: 'info',
  },
  markdown: {
    id: 'markdown-alternates',
    label: 'Markdown alternates of pages',
    category: 'agent_operability',
    severity: 'info',
  },
  ttfb: { id: 'time-to-first-byte', label: 'Fast first byte', category: 'performance', severity: 'medium' },
  weight: { id: 'html-weight', label: 'HTML under 500 KB', category: 'performance', severity: 'low' },
  blocking: {
    id: 'render-blocking-scripts',
    label: 'No render-blocking scripts in <head>',
    category: 'performance',
    severity: 'low',
  },
  dimensions: {
    id: 'image-dimensions',
    label: 'Images declare width and height',
    category: 'performance',
    severity: 'low',
  },
  https: { id: 'served-over-https', label: 'Served over HTTPS', category: 'security', severity: 'high' },
  mixed: { id: 'no-mixed-content', label: 'No mixed content', category: 'security', severity: 'medium' },
} satisfies Record<string, CheckSpec>;

const S = PAGE_SPECS;
const THIN_TEXT = 200;
const TTFB_SLOW_MS = 800;
const HTML_HEAVY_BYTES = 500 * 1024;
const GENERIC_LINK_TEXT = /^(click here|here|read more|more|link|learn more)$/i;
// WHATWG autofill field names (the common ones) and section/shipping/billing modifiers.
const AUTOFILL = new Set(
  'on off name honorific-prefix given-name additional-name family-name honorific-suffix nickname username new-password current-password one-time-code organization-title organization street-address address-line1 address-line2 address-line3 address-level4 address-level3 address-level2 address-level1 country country-name postal-code cc-name cc-given-name cc-additional-name cc-family-name cc-number cc-exp cc-exp-month cc-exp-year cc-csc cc-type transaction-currency transaction-amount language bday bday-day bday-month bday-year sex url photo tel tel-country-code tel-national tel-area-code tel-local tel-extension email impp webauthn'.split(
    ' ',
  ),
);

type Facts = PageFacts;

/** The role a field has in the accessibility tree (HTML-AAM), which the agent view names it by. */
function fieldRole(type: string): string {
  if (type === 'select') return 'combobox';
  if (type === 'textarea') return 'textbox';
  return (
    { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox' }[type] ??
    'textbox'
  );
}

const validAutocomplete = (value: string) =>
  value
    .toLowerCase()
    .split(/\s+/)
    .every((t) => AUTOFILL.has(t) || /^(section-\S+|shipping|billing|home|work|mobile|fax|pager)$/.test(t));
const factsOf = (page: CrawledPage) => page.facts as Facts;

/** The page's own defect, which no single element carries (a missing title, language, landmark). */
const whole = (bad: boolean, what: string): Offence[] => (bad ? [{ what }] : []);

function titleOffences(f: Facts): Offence[] {
  if (f.titles.length === 0) return [{ what: 'no <title>' }];
  if (f.titles.length > 1)
    return [{ what: `${f.titles.length} <title> elements: ${f.titles.map((t) => quote(t)).join(', ')}` }];
  return whole(f.titles[0] === '', 'an empty <title>');
}

function descriptionOffences(f: Facts): Offence[] {
  if (metaContent(f, 'description')) return [];
  const moved = f.metas.some((m) => m.name === 'description' && !m.inHead);
  return [
    {
      what: moved
        ? 'the meta description comes after an element that ends <head>, so browsers place it in <body>'
        : 'no <meta name="description"> in <head>',
    },
  ];
}

function h1Offences(f: Facts): Offence[] {
  const h1s = f.headings.filter((h) => h.level === 1);
  if (h1s.length === 1) return [];
  if (h1s.length === 0) return [{ what: 'no H1' }];
  return [{ what: `${h1s.length} H1s: ${h1s.map((h) => quote(h.text)).join(', ')}` }];
}

function headingOrderOffences(f: Facts): Offence[] {
  const offences: Offence[] = [];
  let previous = 0;
  for (const { level, text } of f.headings) {
    if (previous > 0 && level > previous + 1)
      offences.push({ what: `H${level} ${quote(text)} follows an H${previous}` });
    previous = level;
  }
  if (offences.length === 0) return [];
  const sequence = f.headings
    .slice(0, 12)
    .map((h) => `H${h.level}`)
    .join(' ');
  return [...offences, { what: `sequence ${sequence}${f.headings.length > 12 ? ' …' : ''}` }];
}

/** The page's robots directives: meta robots and googlebot, and the X-Robots-Tag header, lowercased. */
export function robotsDirectives(page: CrawledPage): string {
  const meta =
    page.facts?.metas.filter((m) => m.name === 'robots' || m.name === 'googlebot').map((m) => m.content) ?? [];
  return [...meta, page.fetched?.headers['x-robots-tag'] ?? ''].join(',').toLowerCase();
}

function indexable(site: SiteSnapshot, pages: CrawledPage[]): CheckResult {
  const noindex = pages.filter((p) => /\b(noindex|none)\b/.test(robotsDirectives(p))).map((p) => p.url);
  if (noindex.length === 0) return pass(S.indexable, 'no page carries noindex');
  const homeBlocked = noindex.includes(homePage(site)?.url ?? '');
  return fail(S.indexable, {
    severity: homeBlocked ? 'critical' : 'high',
    detail: `${noindex.length} page(s) carry noindex in meta robots or X-Robots-Tag${homeBlocked ? ', including the home page' : ''}`,
    title: homeBlocked
      ? 'The home page tells search engines not to index it'
      : 'Pages tell search engines not to index them',
    remediation:
      'Remove noindex (meta name="robots" or the X-Robots-Tag header) from pages that should appear in search and AI answers.',
    agentAction:
      'Delete <meta name="robots" content="noindex"> (or the X-Robots-Tag: noindex header) on these pages, unless they are meant to stay out of search.',
    affectedUrls: noindex,
    evidence: noindex.slice(0, 5).map((url) => ({ type: 'page' as const, url, summary: 'noindex' })),
  });
}

function statuses(site: SiteSnapshot): CheckResult {
  const home = homePage(site);
  if (!home?.fetched || home.fetched.status >= 300) {
    return fail(S.status, {
      severity: 'critical',
      detail: `the start page ${home?.url} ${home?.error ? `failed: ${home.error.message}` : `answered ${home?.fetched?.status}`}`,
      title: 'The home page does not answer',
      remediation: 'The start URL must answer 200 with HTML; nothing else can be audited until it does.',
      agentAction: 'Make the site root answer 200 (check the server, DNS and TLS configuration).',
      affectedUrls: [home?.url ?? site.startUrl],
      evidence: [{ type: 'page', url: home?.url, summary: home?.error?.message ?? `status ${home?.fetched?.status}` }],
    });
  }
  const broken = site.pages.filter((p) => p.error || (p.fetched && p.fetched.status >= 400));
  if (broken.length === 0) return pass(S.status, `all ${site.pages.length} crawled page(s) answered`);
  return fail(S.status, {
    detail: `${broken.length} linked page(s) answer an error`,
    title: 'Internal links lead to error pages',
    remediation: 'Fix or remove internal links to pages that answer 4xx or 5xx.',
    agentAction: 'Update the links pointing at these URLs, or restore the pages (redirect moved pages with 301).',
    affectedUrls: broken.map((p) => p.url),
    evidence: broken
      .slice(0, 5)
      .map((p) => ({ type: 'page' as const, url: p.url, summary: p.error?.message ?? `status ${p.fetched?.status}` })),
  });
}

function redirects(site: SiteSnapshot): CheckResult | undefined {
  const home = homePage(site);
  if (site.local || !home?.fetched) return undefined;
  const hops = home.fetched.redirects.length;
  if (hops <= 1) return pass(S.redirects, hops === 0 ? 'no redirect' : 'one redirect');
  return fail(S.redirects, {
    detail: `${hops} redirects before the home page`,
    title: 'Long redirect chain to the home page',
    remediation: 'Redirect straight to the final URL in one hop (scheme, host and trailing slash at once).',
    agentAction: `Collapse the redirects ${home.fetched.redirects.map((r) => r.url).join(' -> ')} -> ${home.fetched.url} into one 301.`,
    affectedUrls: [home.url],
    evidence: home.fetched.redirects.map((r) => ({ type: 'page' as const, url: r.url, summary: `${r.status}` })),
  });
}

function validHreflang(code: string): boolean {
  return code === 'x-default' || /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i.test(code);
}

function textContent(site: SiteSnapshot, pages: CrawledPage[]): CheckResult {
  const home = homePage(site);
  const facts = home?.facts;
  if (!facts) return unverified(S.text, 'the home page has no HTML to read');
  if (facts.textLength >= THIN_TEXT)
    return pass(
      S.text,
      `${facts.textLength} characters of text in the ${home.rendered ? 'page as Chromium rendered it' : 'served HTML'}`,
    );
  if (emptyAfterRendering(home))
    return unverified(
      S.text,
      `rendered in Chromium, the home page still shows ${facts.textLength} characters of text: its application left its mount point ${quote(facts.appMount)} empty (its scripts may not have loaded), so what it shows is unknown`,
    );
  // An app shell (a mount point and scripts from any origin, app-shell.ts) is for a browser to judge.
  const scripts = appShellScripts(home);
  const appShell = scripts > 0;
  const mount = facts.appMount ? ` into its mount point ${quote(facts.appMount)}` : '';
  const detail = `the home page serves ${facts.textLength} characters of text${appShell ? ` and ${scripts} script(s) that build it${mount}: an app shell that only a browser fills` : ''}`;
  const input = {
    detail,
    title: appShell ? 'Content only appears after JavaScript runs' : 'Almost no content on the home page',
    remediation: appShell
      ? 'Crawlers and AI agents often read the served HTML without running scripts. Render the main content on the server (SSR or static generation).'
      : 'Add real text content: what the site offers, for whom, and how to act.',
    agentAction: appShell
      ? 'Enable server-side rendering or pre-rendering for the main routes so the HTML response already contains headings and body text.'
      : 'Add descriptive headings and paragraphs to the home page template.',
    affectedUrls: [home.url, ...pages.filter((p) => factsOf(p).textLength < THIN_TEXT).map((p) => p.url)],
    evidence: [{ type: 'page' as const, url: home.url, summary: detail }],
  };
  // Only a browser could tell what an app shell shows; the claim is unverified (spec 2.4 scoreStatus).
  return appShell ? { ...fail(S.text, { ...input, confidence: 'low' }), status: 'unverified' } : fail(S.text, input);
}

const JSON_LD_DATE = /"(datePublished|dateModified|uploadDate)"\s*:/;

export function pageChecks(site: SiteSnapshot): CheckResult[] {
  const pages = htmlPages(site);
  const rows: (CheckResult | undefined)[] = [statuses(site), redirects(site)];
  if (pages.length === 0) return rows.filter((r): r is CheckResult => r !== undefined);
  const home = pages[0] as CrawledPage;
  rows.push(
    indexable(site, pages),
    perPage(S.title, pages, titleOffences, {
      ok: 'every page has one title',
      problem: 'missing, empty or repeated <title>',
      title: 'Pages without a single, non-empty title',
      remediation: 'Give each page exactly one <title> of 30 to 60 characters that names the page and the site.',
      agentAction: 'Set one <title> per page in the head template, specific to the page (e.g. "Pricing — Acme").',
    }),
    perPage(S.description, pages, descriptionOffences, {
      ok: 'every page has a meta description',
      problem: 'no meta description',
      title: 'Pages without a meta description',
      remediation: 'Add a meta description of 120 to 160 characters summarizing each page; answer engines quote it.',
      agentAction: 'Add <meta name="description" content="..."> to the head of each page, written for that page.',
    }),
    perPage(
      S.canonical,
      pages,
      (f) => {
        const canonical = f.links.filter((l) => l.rel.split(/\s+/).includes('canonical'));
        if (canonical.some((l) => /^https?:\/\//.test(l.href))) return [];
        return canonical.length === 0
          ? [{ what: 'no <link rel="canonical">' }]
          : canonical.map((l) => ({ what: `canonical href ${quote(l.href)} is not absolute` }));
      },
      {
        ok: 'every page declares an absolute canonical URL',
        problem: 'no absolute rel=canonical',
        title: 'Pages without an absolute canonical URL',
        remediation: 'Declare <link rel="canonical" href="https://..."> with the absolute preferred URL of each page.',
        agentAction: 'Add <link rel="canonical" href="<absolute URL of this page>"> to the head template.',
      },
    ),
    perPage(S.lang, pages, (f) => whole(!f.lang, 'no lang attribute on <html>'), {
      ok: 'every page declares its language',
      problem: 'no lang attribute on <html>',
      title: 'Page language not declared',
      remediation:
        'Set <html lang="en"> (or the page’s language) so assistive technology and answer engines read it right.',
      agentAction: 'Add a lang attribute to the <html> element of the layout, e.g. <html lang="en">.',
    }),
    perPage(
      S.hreflang,
      pages,
      (f) =>
        f.links
          .filter((l) => l.hreflang !== null && (!validHreflang(l.hreflang) || !/^https?:\/\//.test(l.href)))
          .map((l) => ({ what: `hreflang=${quote(l.hreflang ?? '')} href=${quote(l.href)}` })),
      {
        ok: 'hreflang alternates are valid where present',
        problem: 'an hreflang code is invalid or its href is not absolute',
        title: 'Invalid hreflang alternates',
        remediation: 'Use ISO language(-region) codes (en, en-GB, x-default) and absolute URLs in hreflang links.',
        agentAction:
          'Fix the <link rel="alternate" hreflang> tags: valid codes such as "en-GB" and absolute href values.',
      },
    ),
    textContent(site, pages),
    perPage(S.h1, pages, h1Offences, {
      ok: 'every page has exactly one H1',
      problem: 'no H1 or more than one',
      title: 'Pages without exactly one H1',
      remediation: 'Give each page one H1 that states its topic; use H2 and below for sections.',
      agentAction: 'Make the page title the only <h1>; turn other <h1> elements into <h2>.',
    }),
    perPage(S.headingOrder, pages, headingOrderOffences, {
      ok: 'heading levels do not skip',
      problem: 'a heading level is skipped (for example H1 then H3)',
      title: 'Heading levels skip',
      remediation: 'Nest headings in order (H1, H2, H3) so the outline reads as a table of contents.',
      agentAction: 'Change skipped heading levels to the next level down (an <h3> right after an <h1> becomes <h2>).',
    }),
    perPage(
      S.main,
      pages,
      (f) =>
        // The agent view of a rendered page reports the missing main landmark too (one defect).
        f.landmarks.has('main') ? [] : [{ what: 'no <main> element or role="main"', defect: 'landmark', role: 'main' }],
      {
        ok: 'every page has a <main> landmark',
        problem: 'no <main> element or role="main"',
        title: 'No main landmark',
        remediation: 'Wrap the primary content in <main> so agents and screen readers find it without the navigation.',
        agentAction: 'Wrap each page’s primary content in a single <main> element in the layout.',
      },
    ),
  );
  const questionHeadings = pages.flatMap((p) =>
    factsOf(p)
      .headings.filter((h) => h.text.endsWith('?'))
      .map(() => p.url),
  );
  const faqMarkup = pages.some((p) => factsOf(p).jsonLd.some((j) => /"FAQPage"/.test(j)));
  rows.push(
    info(S.questions, {
      finding: questionHeadings.length === 0 && !faqMarkup,
      detail:
        questionHeadings.length > 0 || faqMarkup
          ? `${questionHeadings.length} question heading(s)${faqMarkup ? ' and FAQPage markup' : ''}`
          : 'no question headings or FAQ markup',
      title: 'No question-and-answer content',
      remediation:
        'Answer engines favour pages that state common questions as headings and answer them right below; mark them up with FAQPage where they are an FAQ.',
      agentAction:
        'Add an FAQ section with the customers’ real questions as <h2>/<h3> headings, each followed by a direct answer paragraph.',
      affectedUrls: [home.url],
    }),
  );
  const dated = pages.some(
    (p) =>
      factsOf(p).jsonLd.some((j) => JSON_LD_DATE.test(j)) ||
      factsOf(p).metas.some((m) => m.name === 'article:published_time' || m.name === 'article:modified_time'),
  );
  rows.push(
    dated
      ? pass(S.dates, 'dates found in structured data or meta tags')
      : fail(S.dates, {
          detail: 'no datePublished or dateModified in structured data, nor article time meta tags',
          title: 'No content dates',
          remediation:
            'State when content was published and updated (datePublished, dateModified in JSON-LD) so answer engines can judge freshness.',
          agentAction: 'Add "datePublished" and "dateModified" to the page’s Article or WebPage JSON-LD.',
          affectedUrls: pages.map((p) => p.url),
          confidence: 'medium',
        }),
    perPage(
      S.imageAlt,
      pages,
      (f) =>
        f.images
          .filter((i) => i.alt === null && !i.hidden)
          .map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element, defect: 'name' })),
      {
        ok: 'every image has an alt attribute',
        problem: 'an <img> without alt',
        title: 'Images without alt text',
        remediation: 'Give every informative image alt text that says what it shows; decorative images get alt="".',
        agentAction: 'Add alt attributes to the <img> elements on these pages (alt="" for purely decorative ones).',
      },
    ),
    perPage(
      S.linkName,
      pages,
      (f) =>
        f.anchors
          .filter((a) => a.href !== '' && !a.hidden && (a.text === '' || GENERIC_LINK_TEXT.test(a.text)))
          .map((a) => ({
            what: `link to ${quote(a.href)} ${a.text === '' ? 'has no text' : `says only ${quote(a.text)}`}`,
            element: a.element,
            // A link with no name is the defect naming rules and the agent view report too (outcome merges them).
            ...(a.text === '' ? { defect: 'name', role: 'link' } : {}),
          })),
      {
        ok: 'links have descriptive text',
        problem: 'a link with no text or generic text ("click here")',
        title: 'Links without descriptive text',
        remediation: 'Link text should say where the link goes; icon links need an aria-label.',
        agentAction:
          'Replace empty or generic link text with the destination’s name, or add aria-label to icon-only links.',
      },
    ),
    perPage(
      S.formLabels,
      pages,
      (f) =>
        f.fields
          // A placeholder names the field (accname, axe's label rule): placeholder-only-label judges it.
          .filter((field) => !field.labelled && !field.placeholder && !field.hidden)
          .map((field) => ({
            what: `${field.type} field ${quote(field.name)}`,
            element: field.element,
            defect: 'name',
            role: fieldRole(field.type),
          })),
      {
        ok: 'form fields are labelled',
        problem: 'a form field without a label',
        title: 'Form fields without labels',
        remediation:
          'Associate every field with a <label for> (or aria-label): without one, assistive technology and agents announce an unnamed field. (A field named only by its placeholder is judged by placeholder-only-label.)',
        agentAction:
          'Add <label for="<field id>"> elements (or aria-label) to the unlabelled inputs, selects and textareas.',
      },
    ),
    perPage(
      S.buttonName,
      pages,
      (f) =>
        f.buttons
          .filter((b) => b.name === '' && !b.hidden)
          .map((b) => ({ what: quote(b.element.snippet), element: b.element, defect: 'name', role: 'button' })),
      {
        ok: 'buttons have discernible text',
        problem: 'a <button> with no text or aria-label',
        title: 'Buttons without a name',
        remediation: 'Give every button visible text or an aria-label that says what it does.',
        agentAction: 'Add text content or aria-label to the empty <button> elements.',
      },
    ),
    perPage(
      S.realHrefs,
      pages,
      (f) =>
        f.anchors
          .filter((a) => /^\s*javascript:/i.test(a.href))
          .map((a) => ({ what: `href=${quote(a.href)}`, element: a.element })),
      {
        ok: 'links use real hrefs',
        problem: 'a link with a javascript: href',
        title: 'Links that only work with JavaScript',
        remediation: 'Use real URLs in href so crawlers and agents can follow links; keep scripts as enhancement.',
        agentAction: 'Replace href="javascript:..." with the real destination URL, or use a <button> for actions.',
      },
    ),
    perPage(
      S.autocomplete,
      pages,
      (f) =>
        f.forms.flatMap((form) =>
          form.fields
            .filter((field) => field.autocomplete !== null && !validAutocomplete(field.autocomplete))
            .map((field) => ({
              what: `autocomplete=${quote(field.autocomplete ?? '')} on field ${quote(field.name)}`,
              element: field.element,
            })),
        ),
      {
        ok: 'autocomplete tokens are valid',
        problem: 'an autocomplete value that is not a WHATWG autofill token',
        title: 'Invalid autocomplete values',
        remediation:
          'Use standard autofill tokens (email, name, tel, street-address, ...) so browsers and agents fill forms correctly.',
        agentAction:
          'Change the autocomplete attributes to valid tokens, e.g. autocomplete="email" on the email field.',
      },
    ),
  );
  const toolForms = pages.flatMap((p) =>
    factsOf(p)
      .forms.filter((f) => f.toolname)
      .map((f) => f.toolname),
  );
  rows.push(
    info(S.webmcp, {
      finding: false,
      detail:
        toolForms.length > 0
          ? `WebMCP tool forms: ${quoteAll(toolForms.map((name) => name ?? ''))}`
          : 'no form[toolname] (WebMCP, an emerging standard)',
      title: 'WebMCP tool forms',
      remediation: '',
      agentAction: '',
    }),
  );
  const markdown = pages.some((p) =>
    factsOf(p).links.some((l) => l.rel.includes('alternate') && l.type === 'text/markdown'),
  );
  rows.push(
    info(S.markdown, {
      finding: false,
      detail: markdown ? 'pages link markdown alternates' : 'no link rel="alternate" type="text/markdown"',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );

  const ttfb = home.fetched?.ttfbMs ?? 0;
  rows.push(
    ttfb <= TTFB_SLOW_MS
      ? pass(S.ttfb, `home page first byte in ${Math.round(ttfb)} ms`)
      : fail(S.ttfb, {
          detail: `home page first byte after ${Math.round(ttfb)} ms`,
          title: 'Slow server response',
          remediation:
            'Aim for a first byte under 800 ms: cache rendered pages, use a CDN, and profile slow server work.',
          agentAction: 'Add caching for the home page response (CDN or server cache) and profile the request handler.',
          affectedUrls: [home.url],
          confidence: 'medium',
        }),
    perPage(
      S.weight,
      pages,
      (_f, p) =>
        whole((p.fetched?.bytes ?? 0) > HTML_HEAVY_BYTES, `${Math.round((p.fetched?.bytes ?? 0) / 1024)} KB of HTML`),
      {
        ok: 'HTML documents are under 500 KB',
        problem: 'the HTML document is over 500 KB',
        title: 'Heavy HTML documents',
        remediation: 'Keep HTML lean: move inline data and styles to cached files, paginate long lists.',
        agentAction: 'Reduce inline JSON, SVG and CSS in these pages’ HTML; load them as separate cached assets.',
      },
    ),
    perPage(
      S.blocking,
      pages,
      (f) =>
        f.scripts
          .filter((s) => s.inHead && s.src && !s.async && !s.defer && !s.module)
          .map((s) => ({ what: `<script src=${quote(s.src ?? '')}>`, element: s.element })),
      {
        ok: 'no render-blocking scripts in the head',
        problem: 'a <script src> in <head> without async or defer',
        title: 'Render-blocking scripts',
        remediation: 'Add defer (or async) to scripts in the head, or move them to the end of the body.',
        agentAction: 'Add the defer attribute to the <script src> tags in the <head>.',
      },
    ),
    perPage(
      S.dimensions,
      pages,
      (f) =>
        f.images
          .filter((i) => !i.hasDimensions)
          .map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element })),
      {
        ok: 'images declare their dimensions',
        problem: 'an <img> without width and height',
        title: 'Images without dimensions',
        remediation: 'Set width and height on images so the layout does not shift while they load.',
        agentAction: 'Add width and height attributes (the intrinsic size) to these <img> elements.',
      },
    ),
  );
  if (!site.local) {
    const http = new URL(home.fetched?.url ?? home.url).protocol === 'http:';
    rows.push(
      http
        ? fail(S.https, {
            detail: `the home page is served over plain HTTP (${home.fetched?.url})`,
            title: 'The site is not served over HTTPS',
            remediation: 'Serve every page over HTTPS and redirect HTTP to HTTPS.',
            agentAction: 'Configure TLS for the host and a 301 redirect from http:// to https://.',
            affectedUrls: [home.url],
          })
        : pass(S.https, 'the home page is served over HTTPS'),
      perPage(
        S.mixed,
        pages.filter((p) => (p.fetched?.url ?? p.url).startsWith('https:')),
        (f) => f.mixedContent.map((m) => ({ what: quote(m.url), element: m.element })),
        {
          ok: 'HTTPS pages load no http:// resources',
          problem: 'an https page loads scripts, styles, images, frames or media, or submits a form, over http://',
          title: 'Mixed content',
          remediation: 'Load every resource of an HTTPS page over HTTPS.',
          agentAction:
            'Change http:// URLs on these pages (script src, stylesheet href, img/source src and srcset, iframe src, video poster, form action) to https://.',
        },
      ),
    );
  }
  return rows.filter((r): r is CheckResult => r !== undefined);
}
