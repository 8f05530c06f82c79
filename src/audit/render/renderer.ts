// The renderer behind one small interface (issue 14): headless Chromium, launched once per process
// and reused, one isolated browser context per run, pages rendered one at a time with a deadline,
// a V8 heap ceiling, and every request the page makes answered by the audit's own fetcher, so the
// SSRF guard, the port map, the CA and the size limits apply to them as to the crawl. Chromium
// itself never opens a connection: the document comes from the crawl, and what it asks for next is
// fetched for it (GET only; other methods, WebSockets and service workers are refused), and it can
// resolve no name (chromium.ts) for what escapes interception. Nothing a page does reaches the
// service's process: every callback Chromium's events run is guarded, and the windows a page opens
// are closed, their requests refused.
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { FetchError, type FetchedPage, type Fetcher } from '../net/fetcher.ts';
import { type AgentView, summarizeAriaTree } from './agent-view.ts';
import { type AxeViolation, runAxe } from './axe.ts';
import { findChromium, launchChromium } from './chromium.ts';
import { type IsolatedWorld, isolatedWorld } from './isolated-world.ts';
import { readPageGlobals } from './page-globals.ts';
import { headerBytes } from './throttle.ts';
import { markUnrenderedElements, type VisibilityMarks } from './visibility.ts';
import { type PageVitals, startVitals, type VitalsMeasurement, vitalsWindowMs } from './vitals.ts';
import { type WebmcpReading, type WebmcpWatch, watchWebmcp } from './webmcp-tools.ts';

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
  /** The DOM after load, serialized with its doctype, what is not rendered marked `hidden`; absent when rendering failed. */
  html?: string;
  axe: AxeViolation[];
  /** Why axe did not finish on the page, when it did not: `axe` is then empty, not a pass. */
  axeError?: string;
  agentView?: AgentView;
  /** Lab Core Web Vitals of the load, when asked for and read (vitals.ts). */
  vitals?: PageVitals;
  /** Why the vitals asked for were not read, when they were not. */
  vitalsError?: string;
  /** What the page does not render, marked `hidden` in `html` before it was read. */
  visibility?: VisibilityMarks;
  /** The values of the asked global property paths the page holds (`{"jQuery.fn.jquery": "1.8.3"}`): page-globals.ts. */
  globals?: Record<string, string>;
  /** The WebMCP tools the page registered and the registrations the browser refused (webmcp-tools.ts), when asked for. */
  webmcp?: WebmcpReading;
  /** Why the WebMCP tools asked for were not read, when they were not. */
  webmcpError?: string;
  /** Requests refused (the first few): non-public addresses (the SSRF guard), other methods, over the request budget. */
  refused: Array<{ url: string; reason: string }>;
  /** How many requests were refused in all, `refused` holding only the first. */
  refusedCount: number;
  /** Requests that were allowed but got no answer (a host that does not resolve or connect, a timeout). */
  failedCount: number;
  /**
   * The scripts the page asked for and did not get (the first few): refused, not fetched, or answered
   * with an error status. A framework from a CDN the audit cannot reach is one: its page stays a shell.
   */
  failedScripts: ScriptFailure[];
  requests: number;
  ms: number;
  error?: string;
}

export interface ScriptFailure {
  url: string;
  /** Why it did not load: `HTTP 404`, `no answer (ENOTFOUND)`, `timed out`, or the reason it was refused. */
  reason: string;
}

export interface RenderOptions {
  agentView?: boolean;
  /** Global property paths to read once the page has loaded (retire.js's library versions). */
  globals?: readonly string[];
  /** Only load the page and read `globals`: no axe, no visibility marks, no DOM (a security audit's render). */
  globalsOnly?: boolean;
  /**
   * Load the page under the throttling profile and measure its Core Web Vitals (vitals.ts);
   * throttling is lifted before axe and the reads.
   */
  vitals?: boolean;
  /** Read the WebMCP tools the page registers by script, and those the browser refused (webmcp-tools.ts). */
  webmcp?: boolean;
}

export interface RenderSession {
  render(document: ServedDocument, options?: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}

export interface Renderer {
  /** Why this renderer cannot render (no Chromium, a failed launch), or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  session(fetch: SubresourceFetch): Promise<RenderSession>;
  close(): Promise<void>;
}

/** Refused requests kept as a sample; all are counted. */
const REFUSED_KEPT = 20;
/** Failed scripts kept per page: enough to name a framework and its plugins. */
const FAILED_SCRIPTS_KEPT = 10;

/** Network errors in a site owner's words; others are named by their code. */
const NETWORK_WORDS: Record<string, string> = {
  ENOTFOUND: 'its host name did not resolve',
  EAI_AGAIN: 'its host name did not resolve',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'its host could not be reached',
  ENETUNREACH: 'its network could not be reached',
};

/** Why a request the audit let through got no answer, in a few words (FetchError's message names the URL again). */
function notFetched(error: unknown): string {
  if (!(error instanceof FetchError)) return firstLine(error);
  if (error.code === 'timeout') return 'timed out';
  if (error.code !== 'network') return error.message;
  const code = error.message.split(' ', 1)[0] ?? '';
  return NETWORK_WORDS[code] ?? `no answer (${code})`;
}

/** The first line of an error's message (Playwright's carry a call log below it). */
export const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0] as string;
// Headers that describe the bytes on the wire, not the bytes the renderer hands over.
const WIRE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

const fulfilHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !WIRE_HEADERS.has(name)));

/**
 * A callback for Chromium's events, whatever it throws or rejects with dropped: an exception escaping
 * into Playwright's event emitter is unhandled and ends the process (a popup did, issue 23).
 */
function guarded<A extends unknown[]>(callback: (...args: A) => unknown): (...args: A) => void {
  return (...args) => {
    try {
      Promise.resolve(callback(...args)).catch(() => undefined);
    } catch {
      // dropped, as above
    }
  };
}

/** The page a request comes from; none for a window still opening (a popup) or a service worker. */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

export function createChromiumRenderer(
  options: { executablePath?: string; limits?: Partial<RenderLimits>; chromiumArgs?: string[] } = {},
): Renderer {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
  const executablePath = findChromium(options.executablePath);
  const missing = `no Chromium ${options.executablePath ? `at ${options.executablePath}` : 'found on this machine'} (install chromium, or set SITEAUDIT_CHROMIUM)`;
  let browser: Promise<Browser> | undefined;

  /** The browser, launched on first use and again after a crash. */
  function running(): Promise<Browser> {
    if (!executablePath) return Promise.reject(new Error(missing));
    if (!browser) {
      const launching = launchChromium(executablePath, limits.heapMb, options.chromiumArgs);
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
        // A download a page starts is denied by the browser: nothing is written, nothing fetched.
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
  interface Render {
    document: ServedDocument;
    /** The page rendering the document, once opened: the only page whose requests are answered. */
    page: Promise<Page>;
    refused: RenderedPage['refused'];
    refusedCount: number;
    failedCount: number;
    failedScripts: ScriptFailure[];
    requests: number;
    abort: AbortController;
    /** The throttled link responses cross while the vitals are measured. */
    vitals?: VitalsMeasurement;
    /**
     * When the navigation began: the document's request was sent then, before interception handed
     * it over (its latency is held from here, as Chromium's own throttling would hold it).
     */
    navigatedAt?: number;
  }
  let current: Render | undefined;

  // Counted against the render that asked, even when its answer comes after that render ended.
  const refuse = (render: Render, url: string, reason: string) => {
    render.refusedCount++;
    if (render.refused.length < REFUSED_KEPT) render.refused.push({ url, reason });
  };
  // A script that does not load is named: it is why an app shell can stay a shell in the browser.
  const scriptFailed = (render: Render, request: Request, reason: string) => {
    if (request.resourceType() === 'script' && render.failedScripts.length < FAILED_SCRIPTS_KEPT)
      render.failedScripts.push({ url: request.url(), reason });
  };
  const refuseRoute = (route: Route, render: Render, url: string, reason: string) => {
    refuse(render, url, reason);
    scriptFailed(render, route.request(), `refused: ${reason}`);
    return route.abort('blockedbyclient');
  };

  async function answer(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    const sentAt = performance.now();
    const render = current;
    if (!render) return route.abort('blockedbyclient');
    const page = await render.page;
    const from = pageOf(request);
    // A popup, a new window or a service worker: its page is closed, its requests never fetched.
    if (from !== page) {
      refuse(render, url, 'not asked by the page being rendered');
      return route.abort('blockedbyclient');
    }
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && sameUrl(url, render.document.url)) {
      const { headers, body } = render.document;
      const navigatedAt = render.navigatedAt ?? sentAt;
      render.navigatedAt = undefined;
      await render.vitals?.link.deliver(navigatedAt, headerBytes(headers) + Buffer.byteLength(body));
      return route.fulfill({
        status: render.document.status,
        headers: fulfilHeaders(render.document.headers),
        body: render.document.body,
      });
    }
    if (!/^https?:/.test(url)) return refuseRoute(route, render, url, 'not http(s)');
    if (request.method() !== 'GET')
      return refuseRoute(route, render, url, `${request.method()} is not sent by an audit`);
    if (++render.requests > limits.maxRequestsPerPage)
      return refuseRoute(route, render, url, 'over the request budget');
    let fetched: FetchedPage;
    try {
      fetched = await fetch(url, request.headers().accept, render.abort.signal);
    } catch (error) {
      if (error instanceof FetchError && error.code === 'blocked')
        return refuseRoute(route, render, url, error.message);
      render.failedCount++;
      scriptFailed(render, request, notFetched(error));
      return route.abort('failed');
    }
    if (fetched.status >= 400) scriptFailed(render, request, `HTTP ${fetched.status}`);
    await render.vitals?.link.deliver(sentAt, headerBytes(fetched.headers) + fetched.bytes);
    await route.fulfill({
      status: fetched.status,
      headers: fulfilHeaders(fetched.headers),
      body: fetched.raw ?? fetched.body,
    });
  }

  // Whatever goes wrong answering a request (the page closed under it, a window half open) ends that request only.
  await context.route('**/*', (route) => answer(route).catch(() => route.abort('failed').catch(() => undefined)));
  await context.routeWebSocket(
    /.*/,
    guarded((ws) => {
      if (current) refuse(current, ws.url(), 'WebSockets are not opened by an audit');
      return ws.close({ code: 1008, reason: 'refused by the audit' });
    }),
  );
  // Every window but the one rendering is closed as it opens: popups, target=_blank, window.open('').
  context.on(
    'page',
    guarded(async (opened: Page) => {
      if (opened !== (await current?.page.catch(() => undefined))) await opened.close();
    }),
  );
  // Alerts, confirms, prompts and beforeunload of any window are dismissed, so none holds a page.
  context.on(
    'dialog',
    guarded((dialog) => dialog.dismiss()),
  );

  return {
    async render(document, options = {}) {
      const started = performance.now();
      const state: Render = {
        document,
        page: context.newPage(),
        refused: [],
        refusedCount: 0,
        failedCount: 0,
        failedScripts: [],
        requests: 0,
        abort: new AbortController(),
      };
      current = state;
      const page = await state.page.catch((error) => {
        current = undefined;
        throw error;
      });
      let crashed = false;
      page.on(
        'crash',
        guarded(() => {
          crashed = true;
        }),
      );
      // The deadline closes the page, which ends whatever is still waiting on it.
      const deadline = setTimeout(() => page.close().catch(() => undefined), limits.pageDeadlineMs);
      const result: RenderedPage = {
        url: document.url,
        axe: [],
        refused: state.refused,
        refusedCount: 0,
        failedCount: 0,
        failedScripts: state.failedScripts,
        requests: 0,
        ms: 0,
      };
      let world: IsolatedWorld | undefined;
      let watching: WebmcpWatch | undefined;
      try {
        // Core Web Vitals: the observers start with the document, the load runs throttled (vitals.ts).
        if (options.vitals)
          state.vitals = await startVitals(page, vitalsWindowMs(limits.pageDeadlineMs)).catch((error) => {
            if (page.isClosed()) throw error;
            result.vitalsError = firstLine(error);
            return undefined;
          });
        // The registrations the browser refuses are reported from the page's first script on.
        const webmcp: WebmcpWatch | undefined =
          options.webmcp && !options.globalsOnly
            ? await watchWebmcp(page).catch((error) => {
                if (page.isClosed()) throw error;
                result.webmcpError = firstLine(error);
                return undefined;
              })
            : undefined;
        watching = webmcp;
        state.navigatedAt = performance.now();
        await page.goto(document.url, { waitUntil: 'load', timeout: limits.pageDeadlineMs * 0.6 }).catch((error) => {
          // A page that never fires load still has a DOM worth reading; only a failed navigation ends here.
          if (!/Timeout/i.test(String(error))) throw error;
        });
        await page
          .waitForLoadState('networkidle', { timeout: Math.min(2000, limits.pageDeadlineMs * 0.15) })
          .catch(() => undefined);
        if (state.vitals) {
          const vitals = await state.vitals.finish();
          if (vitals) result.vitals = vitals;
          else if (!page.isClosed())
            result.vitalsError = 'the page did not answer the read of its performance timeline';
        }
        // axe and the agent view first, on the page as the browser shows it; then what is not
        // rendered is marked `hidden`, so the DOM read for the checks carries its CSS (visibility.ts).
        // A page that navigated itself away ends the world: axe is then not run, and says why.
        const unless = (error: unknown) => {
          if (page.isClosed()) throw error;
          result.axeError = firstLine(error);
          return undefined;
        };
        // The libraries' versions, read in the page's own world with property reads only (page-globals.ts).
        if (options.globals?.length) {
          const globals = await readPageGlobals(page, options.globals).catch((error) => {
            if (page.isClosed()) throw error;
            return undefined;
          });
          if (globals) result.globals = globals;
        }
        if (!options.globalsOnly) {
          world = await isolatedWorld(page).catch(unless);
          const inWorld = world;
          if (webmcp && inWorld) {
            const reading = await webmcp.read(inWorld).catch((error) => {
              if (page.isClosed()) throw error;
              result.webmcpError = firstLine(error);
              return undefined;
            });
            if (reading) result.webmcp = reading;
          }
          // A page whose script breaks axe keeps its DOM; the static checks judge it alone.
          result.axe = (inWorld && (await runAxe(inWorld).catch(unless))) ?? [];
          if (options.agentView) result.agentView = summarizeAriaTree(await page.ariaSnapshotJSON());
          const marks =
            inWorld &&
            (await markUnrenderedElements(inWorld).catch((error) => {
              if (page.isClosed()) throw error;
              return undefined;
            }));
          if (marks) result.visibility = marks;
          result.html = await page.content();
        }
      } catch (error) {
        result.error = crashed
          ? `the page crashed (over the ${limits.heapMb} MiB heap ceiling, or a renderer failure)`
          : page.isClosed()
            ? `not rendered within ${limits.pageDeadlineMs} ms`
            : firstLine(error);
        if (page.isClosed()) delete result.html;
      } finally {
        clearTimeout(deadline);
        await state.vitals?.close();
        await watching?.close();
        await world?.close();
        state.abort.abort();
        current = undefined;
        await page.close().catch(() => undefined);
      }
      result.requests = state.requests;
      result.refusedCount = state.refusedCount;
      result.failedCount = state.failedCount;
      result.ms = Math.round(performance.now() - started);
      return result;
    },
    async close() {
      await context.close().catch(() => undefined);
    },
  };
}
