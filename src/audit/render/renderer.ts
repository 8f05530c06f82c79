// The renderer behind one small interface (issue 14): headless Chromium, launched once per process
// and reused, one isolated browser context per run, pages rendered one at a time with a deadline,
// a V8 heap ceiling, and every request the page makes answered by the audit's own fetcher, so the
// SSRF guard, the port map, the CA and the size limits apply to them as to the crawl. Chromium
// itself never opens a connection: the document comes from the crawl, and what it asks for next is
// fetched for it (GET only; other methods, WebSockets and service workers are refused).
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { FetchError, type FetchedPage, type Fetcher } from '../net/fetcher.ts';
import { type AgentView, summarizeAriaTree } from './agent-view.ts';
import { type AxeViolation, runAxe } from './axe.ts';
import { findChromium, launchChromium } from './chromium.ts';

export interface RenderLimits {
  /** The longest one page may take: load, settle, read and run axe. */
  pageDeadlineMs: number;
  /** Requests one page may make before the rest are refused. */
  maxRequestsPerPage: number;
  /** V8 heap ceiling of the renderer, in MiB (a page that needs more crashes and is reported so). */
  heapMb: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { pageDeadlineMs: 15_000, maxRequestsPerPage: 200, heapMb: 512 };

/** The crawl's answer for the page, which the renderer serves to Chromium instead of fetching it again. */
export interface ServedDocument {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Fetches what a rendered page asks for; throws FetchError (code `blocked` for the SSRF guard). */
export type SubresourceFetch = (url: string, accept: string | undefined, signal: AbortSignal) => Promise<FetchedPage>;

/** A page's requests fetched as the audit fetches (its guard, ports, CA, limits), as bytes. */
export function subresourcesFrom(fetcher: Fetcher, run?: AbortSignal): SubresourceFetch {
  return (url, accept, abort) =>
    fetcher.fetch(url, run ? AbortSignal.any([abort, run]) : abort, { raw: true, ...(accept ? { accept } : {}) });
}

export interface RenderedPage {
  url: string;
  /** The DOM after load, serialized with its doctype; absent when rendering failed. */
  html?: string;
  axe: AxeViolation[];
  agentView?: AgentView;
  /** Requests refused: non-public addresses (the SSRF guard), other methods, over the request budget. */
  refused: Array<{ url: string; reason: string }>;
  requests: number;
  ms: number;
  error?: string;
}

export interface RenderSession {
  render(document: ServedDocument, options?: { agentView?: boolean }): Promise<RenderedPage>;
  close(): Promise<void>;
}

export interface Renderer {
  /** Why this renderer cannot render (no Chromium, a failed launch), or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  session(fetch: SubresourceFetch): Promise<RenderSession>;
  close(): Promise<void>;
}

const REFUSED_KEPT = 20;

/** The first line of an error's message (Playwright's carry a call log below it). */
export const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0] as string;
// Headers that describe the bytes on the wire, not the bytes the renderer hands over.
const WIRE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

const fulfilHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !WIRE_HEADERS.has(name)));

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

export function createChromiumRenderer(
  options: { executablePath?: string; limits?: Partial<RenderLimits> } = {},
): Renderer {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
  const executablePath = findChromium(options.executablePath);
  const missing = `no Chromium ${options.executablePath ? `at ${options.executablePath}` : 'found on this machine'} (install chromium, or set SITEAUDIT_CHROMIUM)`;
  let browser: Promise<Browser> | undefined;

  /** The browser, launched on first use and again after a crash. */
  function running(): Promise<Browser> {
    if (!executablePath) return Promise.reject(new Error(missing));
    if (!browser) {
      const launching = launchChromium(executablePath, limits.heapMb);
      browser = launching;
      // A browser that crashed or failed to start is started again by the next session.
      const forget = () => {
        if (browser === launching) browser = undefined;
      };
      launching.then((b) => b.on('disconnected', forget), forget);
    }
    return browser;
  }

  return {
    async unavailable() {
      if (!executablePath) return missing;
      try {
        await running();
        return undefined;
      } catch (error) {
        return `Chromium at ${executablePath} did not start: ${firstLine(error)}`;
      }
    },
    async session(fetch) {
      const context = await (await running()).newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        javaScriptEnabled: true,
        viewport: { width: 1280, height: 900 },
      });
      return openSession(context, fetch, limits);
    },
    async close() {
      const open = browser;
      browser = undefined;
      await (await open?.catch(() => undefined))?.close();
    },
  };
}

async function openSession(
  context: BrowserContext,
  fetch: SubresourceFetch,
  limits: RenderLimits,
): Promise<RenderSession> {
  // One page at a time: the route handler reads the state of the render in progress.
  let current:
    | { document: ServedDocument; refused: RenderedPage['refused']; requests: number; abort: AbortController }
    | undefined;

  // Counted against the render that asked, even when its answer comes after that render ended.
  const refuse = (route: Route, render: NonNullable<typeof current>, url: string, reason: string) => {
    if (render.refused.length < REFUSED_KEPT) render.refused.push({ url, reason });
    return route.abort('blockedbyclient').catch(() => undefined);
  };

  await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: 'refused by the audit' }));
  await context.route('**/*', async (route) => {
    const request = route.request();
    const url = request.url();
    const render = current;
    if (!render) return route.abort('blockedbyclient').catch(() => undefined);
    if (request.isNavigationRequest() && request.frame().parentFrame() === null && sameUrl(url, render.document.url)) {
      return route
        .fulfill({
          status: render.document.status,
          headers: fulfilHeaders(render.document.headers),
          body: render.document.body,
        })
        .catch(() => undefined);
    }
    if (!/^https?:/.test(url)) return refuse(route, render, url, 'not http(s)');
    if (request.method() !== 'GET') return refuse(route, render, url, `${request.method()} is not sent by an audit`);
    if (++render.requests > limits.maxRequestsPerPage) return refuse(route, render, url, 'over the request budget');
    try {
      const answer = await fetch(url, request.headers().accept, render.abort.signal);
      await route.fulfill({
        status: answer.status,
        headers: fulfilHeaders(answer.headers),
        body: answer.raw ?? answer.body,
      });
    } catch (error) {
      if (error instanceof FetchError && error.code === 'blocked') return refuse(route, render, url, error.message);
      await route.abort('failed').catch(() => undefined);
    }
  });

  return {
    async render(document, options = {}) {
      const started = performance.now();
      const state = { document, refused: [], requests: 0, abort: new AbortController() };
      current = state;
      const page = await context.newPage();
      page.on('dialog', (dialog) => dialog.dismiss().catch(() => undefined));
      page.on('popup', (popup) => popup.close().catch(() => undefined));
      let crashed = false;
      page.on('crash', () => {
        crashed = true;
      });
      // The deadline closes the page, which ends whatever is still waiting on it.
      const deadline = setTimeout(() => page.close().catch(() => undefined), limits.pageDeadlineMs);
      const result: RenderedPage = { url: document.url, axe: [], refused: state.refused, requests: 0, ms: 0 };
      try {
        await page.goto(document.url, { waitUntil: 'load', timeout: limits.pageDeadlineMs * 0.6 }).catch((error) => {
          // A page that never fires load still has a DOM worth reading; only a failed navigation ends here.
          if (!/Timeout/i.test(String(error))) throw error;
        });
        await page
          .waitForLoadState('networkidle', { timeout: Math.min(2000, limits.pageDeadlineMs * 0.15) })
          .catch(() => undefined);
        result.html = await page.content();
        result.axe = await runAxe(page);
        if (options.agentView) result.agentView = summarizeAriaTree(await page.ariaSnapshotJSON());
      } catch (error) {
        result.error = crashed
          ? `the page crashed (over the ${limits.heapMb} MiB heap ceiling, or a renderer failure)`
          : page.isClosed()
            ? `not rendered within ${limits.pageDeadlineMs} ms`
            : firstLine(error);
        if (page.isClosed()) delete result.html;
      } finally {
        clearTimeout(deadline);
        state.abort.abort();
        current = undefined;
        await page.close().catch(() => undefined);
      }
      result.requests = state.requests;
      result.ms = Math.round(performance.now() - started);
      return result;
    },
    async close() {
      await context.close().catch(() => undefined);
    },
  };
}
