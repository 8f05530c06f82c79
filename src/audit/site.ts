// Gathers what every product judges: robots.txt, the sitemaps, llms.txt, the crawled pages and how
// the home page answers AI agents, as one snapshot. A local on-page scan skips the foundation files (they describe a deployed site).
import { type AgentDiscovery, discoverForAgents } from './agent-discovery.ts';
import { askPagesAsAgents, homeAnswers, type PageAsked } from './agent-views.ts';
import type { AgentAnswer } from './ai-access.ts';
import { cpuPool } from './cpu/pool.ts';
import { type CrawledPage, crawl, DEFAULT_PAGE_BUDGET } from './crawler.ts';
import type { LlmsTxt } from './foundation-files.ts';
import { type Fetcher, tryFetch } from './net/fetcher.ts';
import type { RenderingSummary } from './render/render-site.ts';
import type { RobotsPolicy, RobotsTxt } from './robots.ts';
import { collectSitemaps, type SiteSitemaps, sitemapSeeds } from './sitemaps.ts';

export interface FileFetch<T> {
  url: string;
  /** HTTP status, or 'unreachable' when the fetch failed. */
  status: number | 'unreachable';
  error?: string;
  parsed?: T;
  body?: string;
}

export interface SiteSnapshot {
  startUrl: string;
  origin: string;
  local: boolean;
  pages: CrawledPage[];
  disallowed: string[];
  robots?: FileFetch<RobotsTxt> & { policy: RobotsPolicy };
  /** The sitemap named first, with every sitemap read in `files` (sitemaps.ts). */
  sitemap?: SiteSitemaps;
  llms?: FileFetch<LlmsTxt> & { contentType?: string };
  /** The documents agents look for (markdown, API catalog, OAuth discovery, MCP server card). */
  agentDiscovery?: AgentDiscovery;
  /** How the home page answered a few AI agents' own user agents (not on local scans). */
  agentAnswers?: AgentAnswer[];
  /** What those agents, and a request for markdown, got of the home page and the next few pages (agent-views.ts). */
  agentPages?: PageAsked[];
  /** Which pages were rendered in Chromium, or why none were. */
  rendering?: RenderingSummary;
}

export interface CollectOptions {
  fetcher: Fetcher;
  local: boolean;
  /** Ask the home page again as a few AI agents and read the documents agents look for (AI readiness); never on a local scan. */
  askAgents?: boolean;
  pageBudget?: number;
  signal?: AbortSignal;
  /** Progress within collection, 0 to 1, with a step name. */
  onProgress?: (fraction: number, step: string) => void;
}

export async function collectSite(startUrl: string, options: CollectOptions): Promise<SiteSnapshot> {
  const origin = new URL(startUrl).origin;
  const progress = options.onProgress ?? (() => {});
  const snapshot: SiteSnapshot = { startUrl, origin, local: options.local, pages: [], disallowed: [] };
  let robotsPolicy: RobotsPolicy = { kind: 'allow_all' };
  let seeds: string[] = [];

  if (!options.local) {
    progress(0, 'reading robots.txt');
    const robotsUrl = `${origin}/robots.txt`;
    const robots = await tryFetch(options.fetcher, robotsUrl, options.signal);
    const body = robots.page && robots.page.status < 300 ? robots.page.body : '';
    // The site's files are read on a CPU thread, as its pages are (cpu/pool.ts).
    robotsPolicy = await cpuPool().run('policyFromResponse', [robots.status, body]);
    snapshot.robots = {
      url: robotsUrl,
      status: robots.status,
      policy: robotsPolicy,
      body,
      ...(robots.error ? { error: robots.error } : {}),
      ...(robotsPolicy.kind === 'parsed' ? { parsed: robotsPolicy.robots } : {}),
    };

    progress(0.05, 'reading the sitemaps');
    // Every Sitemap: line (bounded), one level of indexes, gzip or not (sitemaps.ts); the crawl starts
    // from the pages of all of them.
    const declared = robotsPolicy.kind === 'parsed' ? robotsPolicy.robots.sitemaps : [];
    snapshot.sitemap = await collectSitemaps(options.fetcher, origin, declared, options.signal);
    seeds = sitemapSeeds(snapshot.sitemap.files);

    progress(0.08, 'reading llms.txt');
    const llmsUrl = `${origin}/llms.txt`;
    const llms = await tryFetch(options.fetcher, llmsUrl, options.signal);
    snapshot.llms = {
      url: llmsUrl,
      status: llms.status,
      ...(llms.page ? { contentType: (llms.page.headers['content-type'] ?? '').toLowerCase() } : {}),
      ...(llms.error ? { error: llms.error } : {}),
    };
    if (llms.page && llms.page.status === 200 && !/text\/html/i.test(llms.page.headers['content-type'] ?? '')) {
      snapshot.llms.body = llms.page.body;
      snapshot.llms.parsed = await cpuPool().run('parseLlmsTxt', [llms.page.body]);
    }
  }

  progress(0.1, 'crawling pages');
  const budget = options.pageBudget ?? DEFAULT_PAGE_BUDGET;
  const result = await crawl(startUrl, {
    fetcher: options.fetcher,
    robots: robotsPolicy,
    pageBudget: budget,
    seeds,
    ...(options.signal ? { signal: options.signal } : {}),
    onPage: (done, total) => progress(0.1 + 0.85 * (done / total), `crawled ${done} of up to ${total} pages`),
  });
  snapshot.pages = result.pages;
  snapshot.disallowed = result.disallowed;
  const home = snapshot.pages[0]?.fetched;
  if (options.askAgents && !options.local && home && home.status < 400) {
    progress(0.96, 'asking pages as AI agents, and reading what agents look for');
    // The home page asked once as each probed agent (its answers are agentAnswers), then the next few pages.
    [snapshot.agentPages, snapshot.agentDiscovery] = await Promise.all([
      askPagesAsAgents(options.fetcher, snapshot.pages[0] as CrawledPage, htmlPages(snapshot), options.signal),
      discoverForAgents(options.fetcher, home.url, options.signal, {
        ...(snapshot.robots?.body ? { robotsBody: snapshot.robots.body } : {}),
        ...(home.headers.link ? { linkHeader: home.headers.link } : {}),
        ...(snapshot.pages[0]?.facts ? { htmlLinks: snapshot.pages[0].facts.links } : {}),
        paymentPages: snapshot.pages.flatMap((p) =>
          p.fetched?.status === 402
            ? [
                {
                  url: p.url,
                  body: p.fetched.body,
                  ...(p.fetched.headers['payment-required'] ? { header: p.fetched.headers['payment-required'] } : {}),
                },
              ]
            : [],
        ),
      }),
    ]);
    snapshot.agentAnswers = homeAnswers(snapshot.agentPages);
  }
  progress(1, 'crawl finished');
  return snapshot;
}

// App shells are recognised in app-shell.ts (issue 25: a mount point and scripts from any origin).
export { appShellScripts } from './app-shell.ts';

/** The first page, which is the start URL (after its redirects). */
export function homePage(site: SiteSnapshot): CrawledPage | undefined {
  return site.pages[0];
}

/** Pages that answered 2xx with HTML. */
export function htmlPages(site: SiteSnapshot): CrawledPage[] {
  return site.pages.filter((p) => p.isHtml && p.facts && p.fetched && p.fetched.status < 300);
}
