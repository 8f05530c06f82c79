// A polite crawler: same origin only, robots.txt honoured for our own agent, a page budget, a
// bounded number of requests in flight, and links taken from pages as data, never executed.

import { createHash } from 'node:crypto';
import { CpuTaskError, cpuPool } from './cpu/pool.ts';
import type { PageFacts } from './html.ts';
import { FetchError, type FetchedPage, type Fetcher } from './net/fetcher.ts';
import type { RenderedEvidence } from './render/render-site.ts';
import { isAllowedByPolicy, type RobotsPolicy } from './robots.ts';
import { nextTurn } from './turns.ts';

export const CRAWLER_AGENT = 'siteaudit';
export const DEFAULT_PAGE_BUDGET = 25;
const SKIPPED_EXTENSIONS =
  /\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|css|js|mjs|json|xml|txt|zip|gz|mp4|mp3|webm|woff2?|ttf|eot)$/i;

/**
 * Links admitted between turns of the event loop: each costs a few microseconds (two URL parses and
 * the robots.txt rules), and an audit may weigh 12,500 links a level while the same process answers
 * the API. A page's links (at most 500) are also one slice.
 */
const ADMIT_SLICE = 500;

export interface CrawledPage {
  /** Where the page is: the URL it was found at, replaced by the final URL once fetched (after redirects). */
  url: string;
  fetched?: FetchedPage;
  facts?: PageFacts;
  isHtml: boolean;
  error?: { code: FetchError['code']; message: string };
  /** Set when the page was rendered in Chromium: `facts` are then of the DOM after load. */
  rendered?: RenderedEvidence;
}

export interface CrawlOptions {
  fetcher: Fetcher;
  robots: RobotsPolicy;
  pageBudget?: number;
  concurrency?: number;
  /** URLs to visit after the start page (for example from the sitemap), same origin only. */
  seeds?: string[];
  signal?: AbortSignal;
  onPage?: (done: number, budget: number) => void;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** Same-origin URLs found but not visited because robots.txt disallows them for us. */
  disallowed: string[];
}

/** The URL without its fragment, or undefined when it is not http(s) on `origin`. */
export function sameOriginUrl(href: string, base: string, origin: string): URL | undefined {
  try {
    const url = new URL(href, base);
    if (url.origin !== origin) return undefined;
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

/**
 * One key per page: without the fragment, and with a directory index file (`/index.html`,
 * `/index.htm`, `/index.php`) taken as its directory, as servers serve them.
 */
export function pageKey(url: string | URL): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    parsed.pathname = parsed.pathname.replace(/\/index\.(?:html?|php)$/i, '/');
    return parsed.href;
  } catch {
    return String(url);
  }
}

/** A link the crawler would follow: same origin, not a file it skips; robots.txt is asked separately. */
export function followable(href: string, base: string, origin: string): URL | undefined {
  const parsed = sameOriginUrl(href, base, origin);
  return parsed && !SKIPPED_EXTENSIONS.test(parsed.pathname) ? parsed : undefined;
}

/** Fetches one page as the crawl does: final URL, HTML facts, or the error. */
export async function fetchPage(fetcher: Fetcher, url: string, signal?: AbortSignal): Promise<CrawledPage> {
  const page: CrawledPage = { url, isHtml: false };
  try {
    const fetched = await fetcher.fetch(url, signal);
    page.fetched = fetched;
    page.url = fetched.url;
    page.isHtml = isHtmlResponse(fetched);
    // Parsed on a CPU thread: a page of hostile markup costs that thread, never the event loop.
    if (page.isHtml && fetched.status < 400) page.facts = await cpuPool().run('parseHtml', [fetched.body]);
  } catch (error) {
    if (error instanceof CpuTaskError) {
      page.error = { code: 'timeout', message: `the page could not be read: ${error.message}` };
      return page;
    }
    const e = error instanceof FetchError ? error : new FetchError('network', url, (error as Error).message);
    page.error = { code: e.code, message: e.message };
  }
  return page;
}

function isHtmlResponse(page: FetchedPage): boolean {
  const type = page.headers['content-type'] ?? '';
  return type === '' || /text\/html|application\/xhtml\+xml/i.test(type);
}

export async function crawl(startUrl: string, options: CrawlOptions): Promise<CrawlResult> {
  const origin = new URL(startUrl).origin;
  const budget = Math.max(1, options.pageBudget ?? DEFAULT_PAGE_BUDGET);
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, 16));
  const seen = new Set<string>();
  const pages: CrawledPage[] = [];
  /** Final URLs and bodies of the pages kept, so one page reached two ways is audited once. */
  const kept = new Set<string>();
  const bodies = new Set<string>();
  const disallowed: string[] = [];
  let visitedCount = 0;

  /** Adds a same-origin, crawlable, unseen URL to `level`. */
  const admit = (href: string, base: string, level: string[]) => {
    const parsed = followable(href, base, origin);
    if (!parsed) return;
    const url = parsed.href;
    const key = pageKey(parsed);
    if (seen.has(key)) return;
    seen.add(key);
    if (!isAllowedByPolicy(options.robots, CRAWLER_AGENT, url)) {
      if (disallowed.length < 100) disallowed.push(url);
      return;
    }
    level.push(url);
  };

  async function visit(page: CrawledPage): Promise<void> {
    Object.assign(page, await fetchPage(options.fetcher, page.url, options.signal));
    visitedCount++;
    options.onPage?.(Math.min(visitedCount, budget), budget);
  }

  /** Visits `urls` with at most `concurrency` requests in flight; answers their pages in `urls` order. */
  async function visitAll(urls: string[]): Promise<CrawledPage[]> {
    const batch = urls.map((url) => ({ url, isHtml: false }) as CrawledPage);
    pages.push(...batch);
    let next = 0;
    const lane = async () => {
      while (next < batch.length && !options.signal?.aborted) await visit(batch[next++] as CrawledPage);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, lane));
    return batch;
  }

  // Breadth first, one level at a time, links taken in page order: the same site gives the same pages
  // under the same budget, whatever order the responses arrive in. The start page is audited even
  // where robots.txt disallows crawling: the owner asked for it.
  const start = sameOriginUrl(startUrl, startUrl, origin)?.href ?? startUrl;
  seen.add(pageKey(start));
  let level = [start];
  for (const [i, seed] of (options.seeds ?? []).entries()) {
    admit(seed, start, level);
    if (i % ADMIT_SLICE === ADMIT_SLICE - 1) await nextTurn();
  }
  while (level.length > 0 && pages.length < budget && !options.signal?.aborted) {
    const visited = (await visitAll(level.slice(0, budget - pages.length))).filter((page) => {
      if (!page.fetched) return true;
      // `/posts` redirecting to `/posts/`, `/` and `/index.html`, or one body under two URLs: once.
      const key = pageKey(page.url);
      const body =
        page.fetched.status < 300 && page.fetched.body.length > 0
          ? createHash('sha1').update(page.fetched.body).digest('hex')
          : undefined;
      if (kept.has(key) || (body && bodies.has(body))) {
        pages.splice(pages.indexOf(page), 1);
        return false;
      }
      kept.add(key);
      seen.add(key);
      if (body) bodies.add(body);
      return true;
    });
    const nextLevel: string[] = [];
    for (const page of visited) {
      for (const anchor of page.facts?.anchors ?? []) {
        if (!anchor.rel.includes('nofollow')) admit(anchor.href, page.fetched?.url ?? page.url, nextLevel);
      }
      await nextTurn();
    }
    level = nextLevel;
  }
  return { pages, disallowed };
}
