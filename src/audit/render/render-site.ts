// Rendered evidence for a crawled site (issue 14): the pages to render are chosen, rendered in one
// session, and their DOM after load replaces the served HTML for the checks; axe's findings and the
// agent view ride along. Without a renderer (or Chromium), the site is judged as served and the
// snapshot says why nothing was rendered.

import { failedScriptsText, stillAShell, type UnbuiltShell } from '../app-shell.ts';
import { cpuPool } from '../cpu/pool.ts';
import { CRAWLER_AGENT, type CrawledPage, DEFAULT_PAGE_BUDGET, fetchPage, followable, pageKey } from '../crawler.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { LIBRARY_GLOBALS } from '../retire.ts';
import { isAllowedByPolicy } from '../robots.ts';
import { appShellScripts, homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import type { AgentView } from './agent-view.ts';
import type { AxeViolation } from './axe.ts';
import { firstLine, type Renderer, type ScriptFailure, subresourcesFrom } from './renderer.ts';
import type { PageVitals } from './vitals.ts';
import type { WebmcpReading } from './webmcp-tools.ts';

export const RENDER_MODES = ['auto', 'always', 'never'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

export interface RenderOptions {
  renderer?: Renderer;
  mode: RenderMode;
}

/** What the renderer added to a page. */
export interface RenderedEvidence {
  axe: AxeViolation[];
  /** Why axe did not finish on this page: its verdicts are then missing, and the static checks judge alone. */
  axeError?: string;
  agentView?: AgentView;
  /** Set when the page is still an app shell in the browser: its scripts did not build its content. */
  unbuilt?: UnbuiltShell;
  /** Lab Core Web Vitals of the page's load, on the pages measured (VITALS_PAGES a run; vitals.ts). */
  vitals?: PageVitals;
  /** The versions the page's libraries report in its globals (`{"jQuery.fn.jquery": "1.8.3"}`; retire.ts). */
  libraryVersions?: Record<string, string>;
  /** The WebMCP tools the page registered, and the registrations the browser refused (webmcp-tools.ts). */
  webmcp?: WebmcpReading;
}

/** One rendered page in the report: its time, its requests and what it did not get. */
export interface RenderedPageSummary {
  url: string;
  ms: number;
  requests: number;
  refused: number;
  /** Requests let through that got no answer (a host that does not resolve, a refused connection, a timeout). */
  failed: number;
  /** The scripts it asked for and did not get (the first few), with why. */
  failedScripts?: ScriptFailure[];
  /** Loaded, but its scripts did not build the content: judged as an app shell, its score unverified. */
  unbuilt?: true;
  error?: string;
  axeError?: string;
}

/** Which pages were rendered, and why not when none were (report `rendering`). */
export interface RenderingSummary {
  mode: RenderMode;
  available: boolean;
  reason?: string;
  pages: RenderedPageSummary[];
  /**
   * The HTML pages judged on their served HTML alone, when a browser was there: past the mode's
   * render limit, or not rendered (their error is in `pages`).
   */
  judgedAsServed?: string[];
}

// auto: every app shell (up to this many), then a sample of other pages with the home page first.
const AUTO_APP_SHELLS = 5;
const AUTO_SAMPLE = 2;
const ALWAYS_PAGES = 10;
/**
 * The pages a run measures Core Web Vitals on, the home page among them: each loads under the
 * throttling profile, which adds about 2.4 s to a CMS page's render (bench/render-vitals.ts) and at
 * most the throttled window (6 s, vitals.ts), so a run of ten pages is not ten of those slower.
 */
export const VITALS_PAGES = 3;
/** How many pages a mode renders in all, pages found by rendering included. */
const RENDER_LIMIT: Record<Exclude<RenderMode, 'never'>, number> = {
  auto: AUTO_APP_SHELLS + AUTO_SAMPLE,
  always: ALWAYS_PAGES,
};

export function pagesToRender(site: SiteSnapshot, mode: RenderMode): CrawledPage[] {
  const pages = htmlPages(site);
  if (mode === 'never') return [];
  if (mode === 'always') return pages.slice(0, ALWAYS_PAGES);
  const shells = pages.filter((p) => appShellScripts(p) > 0).slice(0, AUTO_APP_SHELLS);
  const home = homePage(site);
  const homeFirst = home && pages.includes(home) ? [home, ...pages.filter((p) => p !== home)] : pages;
  return [...shells, ...homeFirst.filter((p) => !shells.includes(p)).slice(0, AUTO_SAMPLE)];
}

/** Why a mode rendered no more pages than it did, said beside the pages judged as served. */
function limitReason(rendering: RenderingSummary): string {
  if (rendering.mode !== 'auto') return `always renders up to ${ALWAYS_PAGES} pages a run`;
  return `auto rendered ${rendering.pages.length}: any app shells and a sample of ${AUTO_SAMPLE} other pages, up to ${RENDER_LIMIT.auto} a run`;
}

/** The pages Chromium loaded whose scripts did not build them, and the scripts that did not load. */
function unbuiltClause(pages: readonly RenderedPageSummary[]): string | undefined {
  if (pages.length === 0) return undefined;
  const named = pages
    .slice(0, 3)
    .map((p) =>
      p.failedScripts?.length
        ? `${p.url}: did not load ${failedScriptsText(p.failedScripts)}`
        : `${p.url}: its scripts ran but added no content`,
    );
  const more = pages.length > 3 ? `; and ${pages.length - 3} more` : '';
  return `${pages.length} page(s) loaded in Chromium, but their scripts did not build the content, so they are judged as app shells (${named.join('; ')}${more})`;
}

/**
 * One sentence for the summary every client shows: what was rendered, what loaded but was not built
 * by its scripts, what was judged as served only, or why an unverified score was not rendered.
 */
export function renderingNote(rendering: RenderingSummary | undefined, unverified: boolean): string | undefined {
  if (!rendering) return undefined;
  if (!rendering.available || rendering.pages.length === 0)
    return unverified && rendering.reason ? `Not rendered: ${rendering.reason}.` : undefined;
  const failed = rendering.pages.filter((p) => p.error).length;
  const unbuilt = rendering.pages.filter((p) => !p.error && p.unbuilt);
  const built = rendering.pages.length - failed - unbuilt.length;
  // Pages that failed to render are judged as served too; they are counted with their error.
  const skipped = (rendering.judgedAsServed?.length ?? 0) - failed;
  const clauses: string[] = [];
  if (built > 0 || failed > 0) {
    const of = skipped > 0 || unbuilt.length > 0 ? ` of ${rendering.pages.length + skipped}` : '';
    clauses.push(`Rendered in Chromium: ${built}${of} page(s)${failed ? ` (${failed} could not be rendered)` : ''}`);
  }
  const notBuilt = unbuiltClause(unbuilt);
  if (notBuilt) clauses.push(notBuilt);
  if (skipped > 0)
    clauses.push(
      `${skipped} other page(s) judged on their served HTML only, without CSS or scripts (${limitReason(rendering)})`,
    );
  return `${clauses.join('; ')}.`;
}

/**
 * The pages an app shell's rendered links lead to, which the crawl of served HTML could not see:
 * fetched as the crawl fetches (robots.txt asked), kept when they answer HTML, added to the site.
 * Their served HTML is the same shell, so they are rendered next.
 */
async function pagesFoundByRendering(
  site: SiteSnapshot,
  from: CrawledPage,
  room: number,
  fetcher: Fetcher,
  signal?: AbortSignal,
): Promise<CrawledPage[]> {
  const crawled = new Set(site.pages.map((p) => pageKey(p.url)));
  // One URL per page key (`/` and `/index.html` are one page), in the order the links appear.
  const urls = new Map<string, string>();
  for (const anchor of from.facts?.anchors ?? []) {
    if (urls.size >= room) break;
    const url = followable(anchor.href, from.url, site.origin);
    if (!url || anchor.rel.includes('nofollow') || crawled.has(pageKey(url)) || urls.has(pageKey(url))) continue;
    if (site.robots && !isAllowedByPolicy(site.robots.policy, CRAWLER_AGENT, url.href)) continue;
    urls.set(pageKey(url), url.href);
  }
  const found: CrawledPage[] = [];
  for (const url of urls.values()) {
    signal?.throwIfAborted();
    const page = await fetchPage(fetcher, url, signal);
    // A link that redirects to a page already audited is not audited twice.
    if (!page.facts || !page.fetched || page.fetched.status >= 300 || crawled.has(pageKey(page.url))) continue;
    crawled.add(pageKey(page.url));
    found.push(page);
  }
  site.pages.push(...found);
  return found;
}

/**
 * `judge`: the rendered DOM replaces the served one for the checks. `libraries`: the pages are only
 * loaded to read the versions their libraries report (a security audit, which judges headers and
 * the served markup, which a browser does not change): the served facts stay, no link is followed.
 */
export type RenderPurpose = 'judge' | 'libraries';

export async function renderSite(
  site: SiteSnapshot,
  options: RenderOptions,
  fetcher: Fetcher,
  signal?: AbortSignal,
  pageBudget = DEFAULT_PAGE_BUDGET,
  purpose: RenderPurpose = 'judge',
): Promise<RenderingSummary> {
  const summary: RenderingSummary = { mode: options.mode, available: false, pages: [] };
  if (options.mode === 'never')
    return { ...summary, reason: 'rendering is off on this service (serve --render never)' };
  if (!options.renderer) return { ...summary, reason: 'this service has no renderer' };
  const reason = await options.renderer.unavailable();
  if (reason) return { ...summary, reason };
  summary.available = true;
  const chosen = pagesToRender(site, options.mode);
  if (chosen.length === 0) return { ...summary, judgedAsServed: htmlPages(site).map((page) => page.url) };
  let session: Awaited<ReturnType<Renderer['session']>>;
  try {
    session = await options.renderer.session(subresourcesFrom(fetcher, signal));
  } catch (error) {
    // A browser that dies between runs costs this run its rendering, not the run itself.
    return {
      ...summary,
      available: false,
      reason: `Chromium failed: ${firstLine(error)}`,
    };
  }
  try {
    const home = homePage(site);
    const limit = RENDER_LIMIT[options.mode];
    const queue = [...chosen];
    let measured = 0;
    for (let i = 0; i < queue.length; i++) {
      const page = queue[i] as CrawledPage;
      const shell = appShellScripts(page) > 0;
      const served = page.facts;
      signal?.throwIfAborted();
      const fetched = page.fetched;
      if (!fetched) continue;
      // The home page is measured wherever it is in the queue: a place is kept for it.
      const homeLater = home !== undefined && home !== page && queue.indexOf(home, i + 1) > i;
      const vitals = purpose === 'judge' && measured < VITALS_PAGES - (homeLater ? 1 : 0);
      if (vitals) measured++;
      const rendered = await session.render(
        { url: fetched.url, status: fetched.status, headers: fetched.headers, body: fetched.body },
        {
          agentView: page === home && purpose === 'judge',
          globals: LIBRARY_GLOBALS,
          globalsOnly: purpose === 'libraries',
          vitals,
          webmcp: purpose === 'judge',
        },
      );
      const entry: RenderedPageSummary = {
        url: page.url,
        ms: rendered.ms,
        requests: rendered.requests,
        refused: rendered.refusedCount,
        failed: rendered.failedCount,
        ...(rendered.failedScripts.length > 0 ? { failedScripts: rendered.failedScripts } : {}),
        ...(rendered.error ? { error: rendered.error } : {}),
        ...(rendered.axeError ? { axeError: rendered.axeError } : {}),
      };
      summary.pages.push(entry);
      const libraryVersions =
        rendered.globals && Object.keys(rendered.globals).length > 0 ? { libraryVersions: rendered.globals } : {};
      if (purpose === 'libraries') {
        // Axe was not run: no rendered verdict but the libraries' versions stands on this page.
        if (rendered.globals && !rendered.error)
          page.rendered = {
            axe: [],
            axeError: 'not run: loaded only to read its libraries’ versions',
            ...libraryVersions,
          };
        continue;
      }
      if (!rendered.html) continue;
      // A rendered DOM that cannot be read in time keeps the served page's facts.
      const facts = await cpuPool()
        .run('parseHtml', [rendered.html])
        .catch(() => undefined);
      if (!facts) {
        entry.error = 'the rendered DOM could not be read in time';
        continue;
      }
      // A shell whose framework did not load or run is what the browser showed, but not the site's content.
      const unbuilt = served && stillAShell(served, facts, fetched.url, rendered.failedScripts);
      if (unbuilt) entry.unbuilt = true;
      page.facts = facts;
      page.rendered = {
        axe: rendered.axe,
        ...(rendered.axeError ? { axeError: rendered.axeError } : {}),
        ...(rendered.agentView ? { agentView: rendered.agentView } : {}),
        ...(unbuilt ? { unbuilt } : {}),
        ...(rendered.vitals ? { vitals: rendered.vitals } : {}),
        ...(rendered.webmcp ? { webmcp: rendered.webmcp } : {}),
        ...libraryVersions,
      };
      // An app shell's home page hides the site's links from the crawl: follow them now.
      if (page === home && shell) {
        const room = Math.min(limit - queue.length, pageBudget - site.pages.length);
        if (room > 0) queue.push(...(await pagesFoundByRendering(site, page, room, fetcher, signal)));
      }
    }
  } finally {
    await session.close();
  }
  summary.judgedAsServed = htmlPages(site)
    .filter((page) => purpose === 'libraries' || !page.rendered)
    .map((page) => page.url);
  return summary;
}
