// Starter files built from the crawl (issue 13), offered as suggestions to review: llms.txt from
// the pages' titles and descriptions, robots.txt that allows crawling and names the sitemap, and
// Organization JSON-LD from what the home page already shows (name, logo, profiles, contacts).
import type { PageFacts } from './html.ts';
import { homePage, htmlPages, type SiteSnapshot } from './site.ts';

const meta = (facts: PageFacts | undefined, ...names: string[]) =>
  facts?.metas.find((m) => names.includes(m.name.toLowerCase()) && m.content.trim())?.content.trim();

/**
 * Title separators site generators use between page and site name ("About | Acme"). A match starts
 * only at the first white space of a run (the look-behind): /\s+[|…]\s+/ alone retries from each
 * space of a long run without a separator (quadratic).
 */
const SEPARATOR = /(?<!\s)\s+[|–—·•:-]\s+/;

export function siteName(site: SiteSnapshot): string {
  const facts = homePage(site)?.facts;
  const title = facts?.titles[0]?.trim();
  return (
    meta(facts, 'og:site_name', 'application-name') ??
    title?.split(SEPARATOR)[0]?.trim() ??
    new URL(site.origin).hostname
  );
}

const LEGAL = /privacy|datenschutz|terms|conditions|agb|imprint|impressum|legal|cookie|disclaimer/i;

/**
 * One markdown line for a page: its title without the site name, and its description. A home page
 * that was not read as HTML (one behind a login answers 401) has no facts: its path stands for it.
 */
function pageLine(url: string, facts: PageFacts | undefined, name: string): string {
  const title = (facts?.titles[0] ?? '')
    .split(SEPARATOR)
    .filter((part) => part.trim() && part.trim() !== name)
    .join(' - ')
    .trim();
  const label = (title || new URL(url).pathname).replace(/[[\]]/g, '');
  const description = meta(facts, 'description', 'og:description');
  return `- [${label}](${url})${description ? `: ${description.replace(/\s+/g, ' ')}` : ''}`;
}

/** llms.txt in the llmstxt.org shape: H1, a blockquote summary, H2 link lists, Optional last. */
export function starterLlmsTxt(site: SiteSnapshot, maxPages = 25): string {
  const name = siteName(site);
  const home = homePage(site);
  const summary = meta(home?.facts, 'description', 'og:description') ?? `The website of ${name}.`;
  const pages = htmlPages(site)
    .filter((p) => p !== home)
    .slice(0, maxPages);
  const main = pages.filter((p) => !LEGAL.test(p.url));
  const legal = pages.filter((p) => LEGAL.test(p.url));
  const lines = [`# ${name}`, '', `> ${summary.replace(/\s+/g, ' ')}`, ''];
  lines.push(
    '## Pages',
    '',
    ...(main.length > 0 ? main : home ? [home] : []).map((p) => pageLine(p.url, p.facts, name)),
  );
  const optional = [
    ...legal.map((p) => pageLine(p.url, p.facts, name)),
    ...(site.sitemap?.parsed ? [`- [Sitemap](${site.sitemap.url}): every page of the site`] : []),
  ];
  if (optional.length > 0) lines.push('', '## Optional', '', ...optional);
  return lines.join('\n');
}

/** robots.txt that lets everyone crawl and names the sitemap (the one found, else the usual place). */
export function starterRobotsTxt(site: SiteSnapshot): string {
  const sitemap = site.sitemap?.parsed ? site.sitemap.url : `${site.origin}/sitemap.xml`;
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${sitemap}`].join('\n');
}

/** A robots.txt group that lets the named agents in; it goes above the groups that refuse them. */
export function allowGroup(agents: readonly string[]): string {
  return [...agents.map((a) => `User-agent: ${a}`), 'Allow: /'].join('\n');
}

const PROFILE_HOSTS =
  /^(?:www\.)?(?:x\.com|twitter\.com|linkedin\.com|facebook\.com|instagram\.com|youtube\.com|github\.com|tiktok\.com|bsky\.app|threads\.net|mastodon\.social|pinterest\.com)$/i;

/** Where a local scan's suggestion points when the page names no public address of its own. */
export const PUBLIC_PLACEHOLDER = 'https://www.example.com/';

/** Hosts that mean nothing outside this machine or network: loopback, private ranges, .local names. */
function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  if (h === '::1' || h === '0.0.0.0' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80:')) return true;
  const octets = h.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o))) return false;
  const [a, b] = octets as [number, number];
  return (
    a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254)
  );
}

/**
 * The site's public home address for what the audit suggests: the canonical link or og:url the
 * home page declares, when it is a public http(s) address; else the audited origin, except on a
 * local scan, whose address (http://127.0.0.1:PORT/) means nothing to search engines: there a
 * placeholder stands in, to be replaced (issue 25).
 */
export function publicHome(site: SiteSnapshot): { url: string; placeholder: boolean } {
  const home = homePage(site);
  const facts = home?.facts;
  const declared = [facts?.links.find((l) => l.rel.split(/\s+/).includes('canonical'))?.href, meta(facts, 'og:url')];
  for (const href of declared) {
    if (!href) continue;
    try {
      const url = new URL(href, home?.url ?? site.origin);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && !isLocalHost(url.hostname))
        return { url: `${url.origin}/`, placeholder: false };
    } catch {
      // Not a URL: the next candidate.
    }
  }
  return site.local ? { url: PUBLIC_PLACEHOLDER, placeholder: true } : { url: `${site.origin}/`, placeholder: false };
}

/** Organization JSON-LD from the home page: the values it shows, nothing guessed. */
export function organizationJsonLd(site: SiteSnapshot): string {
  const home = homePage(site);
  const facts = home?.facts;
  const publicUrl = publicHome(site);
  const publicOrigin = new URL(publicUrl.url).origin;
  const absolute = (href: string | undefined) => {
    try {
      if (!href) return undefined;
      const url = new URL(href, home?.url ?? site.origin);
      // The site's own files at its public address, not at the address this scan read them from.
      return url.origin === site.origin && publicOrigin !== site.origin
        ? `${publicOrigin}${url.pathname}${url.search}`
        : url.href;
    } catch {
      return undefined;
    }
  };
  const logo =
    absolute(facts?.links.find((l) => /apple-touch-icon/i.test(l.rel))?.href) ??
    absolute(meta(facts, 'og:image')) ??
    absolute(facts?.links.find((l) => /(^|\s)icon(\s|$)/i.test(l.rel))?.href);
  const links = facts?.anchors.map((a) => absolute(a.href)).filter((h): h is string => h !== undefined) ?? [];
  const sameAs = [...new Set(links.filter((h) => PROFILE_HOSTS.test(new URL(h).hostname)))].slice(0, 8);
  const email = links
    .find((h) => h.startsWith('mailto:'))
    ?.slice(7)
    .split('?')[0];
  const telephone = links.find((h) => h.startsWith('tel:'))?.slice(4);
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: siteName(site),
    url: publicUrl.url,
    ...(logo ? { logo } : {}),
    ...(meta(facts, 'description') ? { description: meta(facts, 'description') } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
    ...(email ? { email: decodeURIComponent(email) } : {}),
    ...(telephone ? { telephone: decodeURIComponent(telephone) } : {}),
  };
  const script = `<script type="application/ld+json">\n${JSON.stringify(organization, null, 2).replaceAll('</', '<\\/')}\n</script>`;
  return publicUrl.placeholder
    ? `<!-- Replace ${PUBLIC_PLACEHOLDER} with the site's public address: this local scan read the page at a local address, and the page declares no canonical link or og:url. -->\n${script}`
    : script;
}
