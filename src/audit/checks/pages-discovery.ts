// ai_readiness page checks of discoverability and metadata: the pages answer, the home page is one
// short redirect away, search and answer engines may index the pages, and each page's head says
// what it is (title, description, canonical URL, language, hreflang alternates).
import { GUARDED_STATUSES } from '../app-shell.ts';
import { type CheckResult, fail, type Offence, pass, perPage } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { metaContent, type PageFacts } from '../html.ts';
import { quote } from '../quote.ts';
import { homePage, type SiteSnapshot } from '../site.ts';
import { brokenLinkEvidence, linkingPages } from './broken-links.ts';
import { type PagesContext, whole } from './pages-context.ts';
import { PAGE_SPECS as S } from './pages-specs.ts';

function titleOffences(f: PageFacts): Offence[] {
  if (f.titles.length === 0) return [{ what: 'no <title>' }];
  if (f.titles.length > 1)
    return [{ what: `${f.titles.length} <title> elements: ${f.titles.map((t) => quote(t)).join(', ')}` }];
  return whole(f.titles[0] === '', 'an empty <title>');
}

function descriptionOffences(f: PageFacts): Offence[] {
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

/** Evidence items the finding keeps (the engine keeps 10, checks.ts). */
const EVIDENCE_MAX = 10;

function statuses(site: SiteSnapshot): CheckResult {
  const home = homePage(site);
  if (!home?.fetched || home.fetched.status >= 300) {
    const status = home?.fetched?.status;
    const guarded = status !== undefined && GUARDED_STATUSES.has(status);
    return fail(S.status, {
      severity: 'critical',
      detail: `the start page ${home?.url} ${home?.error ? `failed: ${home.error.message}` : `answered ${status}`}`,
      title: 'The home page does not answer',
      remediation: guarded
        ? `The start page asks for a login or refuses the auditor (HTTP ${status}). A public site must answer 200 without one. For a staging or preview site behind a login, give the project access settings and audit again: \`siteaudit project access <site> --basic-auth USER\` (or --header-env NAME=ENVVAR, --cookie-env NAME=ENVVAR), PUT /api/v1/projects/{projectId}/access, or the project's Access form on the dashboard; they go to the site's own origin only.`
        : 'The start URL must answer 200 with HTML; nothing else can be audited until it does.',
      agentAction: guarded
        ? 'If the site is meant to be public, let the start page answer 200 without a login (or stop the firewall blocking the auditor). If it is a preview behind a login, ask the person to set the project access settings (siteaudit project access); never put credentials in code.'
        : 'Make the site root answer 200 (check the server, DNS and TLS configuration).',
      affectedUrls: [home?.url ?? site.startUrl],
      evidence: [{ type: 'page', url: home?.url, summary: home?.error?.message ?? `status ${home?.fetched?.status}` }],
    });
  }
  const broken = site.pages.filter((p) => p.error || (p.fetched && p.fetched.status >= 400));
  if (broken.length === 0) return pass(S.status, `all ${site.pages.length} crawled page(s) answered`);
  const linked = linkingPages(site.pages, broken);
  return fail(S.status, {
    detail: `${broken.length} linked page(s) answer an error`,
    title: 'Internal links lead to error pages',
    remediation: 'Fix or remove internal links to pages that answer 4xx or 5xx.',
    agentAction: 'Update the links pointing at these URLs, or restore the pages (redirect moved pages with 301).',
    affectedUrls: broken.map((p) => p.url),
    // Each broken page as the page that links to it and the link's element (broken-links.ts).
    evidence: broken.slice(0, EVIDENCE_MAX).map((p) => brokenLinkEvidence(p, linked.get(p))),
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

/** Whether the site answers: the home page, every crawled page, the redirects before the home page. */
export function answerRows(site: SiteSnapshot): (CheckResult | undefined)[] {
  return [statuses(site), redirects(site)];
}

export function discoveryRows({ site, pages }: PagesContext): CheckResult[] {
  return [
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
  ];
}
