// Rendered evidence for a crawled site (issue 14): the pages to render are chosen, rendered in one
// session, and their DOM after load replaces the served HTML for the checks; axe's findings and the
// agent view ride along. Without a renderer (or Chromium), the site is judged as served and the
// snapshot says why nothing was rendered.
import type { CrawledPage } from '../crawler.ts';
import { parseHtml } from '../html.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { appShellScripts, homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import type { AgentView } from './agent-view.ts';
import type { AxeViolation } from './axe.ts';
import { type RenderedPage, type Renderer, subresourcesFrom } from './renderer.ts';

export const RENDER_MODES = ['auto', 'always', 'never'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

export interface RenderOptions {
  renderer?: Renderer;
  mode: RenderMode;
}

/** What the renderer added to a page. */
export interface RenderedEvidence {
  axe: AxeViolation[];
  agentView?: AgentView;
  refused: RenderedPage['refused'];
  ms: number;
}

/** Which pages were rendered, and why not when none were (report `rendering`). */
export interface RenderingSummary {
  mode: RenderMode;
  available: boolean;
  reason?: string;
  pages: Array<{ url: string; ms: number; requests: number; refused: number; error?: string }>;
}

// auto: every app shell (up to this many), then a sample of other pages with the home page first.
const AUTO_APP_SHELLS = 5;
const AUTO_SAMPLE = 2;
const ALWAYS_PAGES = 10;

export function pagesToRender(site: SiteSnapshot, mode: RenderMode): CrawledPage[] {
  const pages = htmlPages(site);
  if (mode === 'never') return [];
  if (mode === 'always') return pages.slice(0, ALWAYS_PAGES);
  const shells = pages.filter((p) => appShellScripts(p) > 0).slice(0, AUTO_APP_SHELLS);
  const home = homePage(site);
  const others = [home, ...pages].filter(
    (p, i, all): p is CrawledPage =>
      p !== undefined && pages.includes(p) && !shells.includes(p) && all.indexOf(p) === i,
  );
  return [...shells, ...others.slice(0, AUTO_SAMPLE)];
}

/** One sentence for the summary every client shows: what was rendered, or why an unverified score was not. */
export function renderingNote(rendering: RenderingSummary | undefined, unverified: boolean): string | undefined {
  if (!rendering) return undefined;
  const failed = rendering.pages.filter((p) => p.error).length;
  const done = rendering.pages.length - failed;
  if (rendering.available && rendering.pages.length > 0)
    return `Rendered in Chromium: ${done} page(s)${failed ? ` (${failed} could not be rendered)` : ''}.`;
  return unverified && rendering.reason ? `Not rendered: ${rendering.reason}.` : undefined;
}

export async function renderSite(
  site: SiteSnapshot,
  options: RenderOptions,
  fetcher: Fetcher,
  signal?: AbortSignal,
): Promise<RenderingSummary> {
  const summary: RenderingSummary = { mode: options.mode, available: false, pages: [] };
  if (options.mode === 'never')
    return { ...summary, reason: 'rendering is off on this service (serve --render never)' };
  const reason = options.renderer ? await options.renderer.unavailable() : 'this service has no renderer';
  if (reason || !options.renderer) return { ...summary, reason: reason ?? 'this service has no renderer' };
  summary.available = true;
  const chosen = pagesToRender(site, options.mode);
  if (chosen.length === 0) return summary;
  let session: Awaited<ReturnType<Renderer['session']>>;
  try {
    session = await options.renderer.session(subresourcesFrom(fetcher, signal));
  } catch (error) {
    // A browser that dies between runs costs this run its rendering, not the run itself.
    return {
      ...summary,
      available: false,
      reason: `Chromium failed: ${String((error as Error).message).split('\n')[0]}`,
    };
  }
  try {
    const home = homePage(site);
    for (const page of chosen) {
      signal?.throwIfAborted();
      const fetched = page.fetched;
      if (!fetched) continue;
      const rendered = await session.render(
        { url: fetched.url, status: fetched.status, headers: fetched.headers, body: fetched.body },
        { agentView: page === home },
      );
      summary.pages.push({
        url: page.url,
        ms: rendered.ms,
        requests: rendered.requests,
        refused: rendered.refused.length,
        ...(rendered.error ? { error: rendered.error } : {}),
      });
      if (!rendered.html) continue;
      page.facts = parseHtml(rendered.html);
      page.rendered = {
        axe: rendered.axe,
        ...(rendered.agentView ? { agentView: rendered.agentView } : {}),
        refused: rendered.refused,
        ms: rendered.ms,
      };
    }
  } finally {
    await session.close();
  }
  return summary;
}
