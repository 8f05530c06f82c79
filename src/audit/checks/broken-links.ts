// Where the crawl found each broken page: the crawled pages whose links lead to it, so a finding
// names the page to edit and the link's element, not only the address that answers an error.
import type { Evidence } from '../checks.ts';
import { type CrawledPage, pageKey, sameOriginUrl } from '../crawler.ts';
import type { ElementRef } from '../html.ts';
import { quote, quoteAll } from '../quote.ts';

/** The pages that link to one broken page, in crawl order, and the link on the first of them. */
interface LinkedFrom {
  pages: string[];
  element: ElementRef;
}

/** Other linking pages named in an evidence summary besides the first; the rest are counted. */
const OTHERS_NAMED = 3;

/** The addresses a broken page was asked for under: as linked, each redirect hop, and where it ended. */
function keysOf(page: CrawledPage): string[] {
  const urls = [page.url, page.fetched?.requestedUrl, ...(page.fetched?.redirects.map((hop) => hop.url) ?? [])];
  return urls.flatMap((url) => (url ? [pageKey(url)] : []));
}

/**
 * For each broken page, the crawled pages that link to it. One pass over every anchor of the crawl
 * (each page's anchors are bounded by the HTML facts), each resolved as the crawler resolves it.
 */
export function linkingPages(pages: readonly CrawledPage[], broken: readonly CrawledPage[]) {
  const byKey = new Map<string, CrawledPage>();
  for (const page of broken) for (const key of keysOf(page)) if (!byKey.has(key)) byKey.set(key, page);
  const linked = new Map<CrawledPage, LinkedFrom>();
  for (const page of pages) {
    const base = page.fetched?.url ?? page.url;
    let origin: string;
    try {
      origin = new URL(base).origin;
    } catch {
      continue;
    }
    for (const anchor of page.facts?.anchors ?? []) {
      const target = sameOriginUrl(anchor.href, base, origin);
      const hit = target && byKey.get(pageKey(target));
      if (!hit || hit === page) continue;
      const entry = linked.get(hit);
      if (!entry) linked.set(hit, { pages: [page.url], element: anchor.element });
      else if (entry.pages.at(-1) !== page.url) entry.pages.push(page.url);
    }
  }
  return linked;
}

/**
 * One evidence item per broken page: the first page that links to it (its address, the link's
 * element) and what the link leads to; a link that sits on many pages (a navigation link) stays one
 * item that names a few of the other pages and counts the rest.
 */
export function brokenLinkEvidence(page: CrawledPage, from: LinkedFrom | undefined): Evidence {
  const answer = page.error ? `fails (${page.error.message})` : `answers ${page.fetched?.status}`;
  const first = from?.pages[0];
  if (!from || !first) return { type: 'page', url: page.url, summary: `${answer}; no crawled page links to it` };
  // The linking pages are on one origin (links are followed on the site's own); named by path.
  const others = from.pages.slice(1).map((url) => pathOn(url, first));
  const named = others.slice(0, OTHERS_NAMED);
  const rest = others.length - named.length;
  const also =
    others.length === 0
      ? ''
      : `; the same link is on ${others.length} more page(s): ${quoteAll(named)}${rest > 0 ? ` and ${rest} more` : ''}`;
  return {
    type: 'page',
    url: first,
    summary: `its link to ${quote(pathOn(page.url, first), 200)} ${answer}${also}`,
    ...(from.element.selector ? { elements: [from.element] } : {}),
  };
}

/** A URL as its path when it is on the origin of `base`, else whole. */
function pathOn(url: string, base: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(base).origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}
