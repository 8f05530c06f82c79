// The audit engine: given a target and a product, it fetches, crawls, parses and runs checks, and
// answers findings, a report and a score. No database, no server.

import { engineFetcher, judgeSite, transportProbes } from './engine-parts.ts';
import type { Fetcher, FetcherOptions, SiteAccess } from './net/fetcher.ts';
import { type PortMap, parsePortMap } from './net/lookup.ts';
import { type AuditResolver, createResolver } from './net/resolver.ts';
import type { AuditOutcome } from './outcome.ts';
import { keyPages, lookAtPage, type PageLook } from './page-watch.ts';
import type { AiReadinessDetails } from './products/ai-readiness.ts';
import type { MarketingSignalDetails } from './products/marketing-signal.ts';
import type { WebsiteSecurityDetails } from './products/website-security.ts';
import { type RenderOptions, renderingNote, renderSite } from './render/render-site.ts';
import { collectSite } from './site.ts';
import { unreachableSite } from './unreachable.ts';

export type { SiteAccess } from './net/fetcher.ts';
export type { AuditOutcome, EngineFinding } from './outcome.ts';
export { judgeLook, nextState, type PageLook, type PageState } from './page-watch.ts';
export type { AiReadinessDetails } from './products/ai-readiness.ts';
export type { MarketingSignalDetails } from './products/marketing-signal.ts';
export type { WebsiteSecurityDetails } from './products/website-security.ts';
export {
  RECHECK_MAX_URLS,
  type RecheckedCheck,
  type RecheckedUrl,
  type RecheckInput,
  RecheckInputError,
  type RecheckResult,
  type RecheckVerdict,
  recheck,
  recheckUrls,
} from './recheck.ts';
export { SiteUnreachable, type UnreachableReason } from './unreachable.ts';

export interface AuditTarget {
  /** The start URL, e.g. https://example.com/ or http://localhost:3000/. */
  url: string;
  /** A target on this machine: a local on-page scan (spec 2.4 coverage). */
  local: boolean;
}

export interface AuditOptions {
  /** Admit loopback and private addresses (the embedded default, tests). Local targets imply it. */
  allowPrivate?: boolean;
  pageBudget?: number;
  timeoutMs?: number;
  /** The longest one fetch may take, headers and body (default twice timeoutMs). */
  fetchDeadlineMs?: number;
  maxBytes?: number;
  resolver?: AuditResolver;
  ca?: FetcherOptions['ca'];
  /** Ports for http and https instead of 80 and 443 (tests); default SITEAUDIT_PORT_MAP. */
  ports?: PortMap;
  signal?: AbortSignal;
  onProgress?: (progressPct: number, step: string) => void;
  /** Rendered evidence (issue 14): a renderer and when to use it; absent, pages are judged as served. */
  render?: RenderOptions;
  /** A project's access settings, for its own origin only (issue 29). */
  access?: SiteAccess;
}

export type EngineProduct = 'ai_readiness' | 'marketing_signal' | 'website_security';
export const ENGINE_PRODUCTS: readonly EngineProduct[] = ['ai_readiness', 'marketing_signal', 'website_security'];
type AnyDetails = AiReadinessDetails | MarketingSignalDetails | WebsiteSecurityDetails;

// Security needs the home page and a few more; the crawl budget of other products is not needed.
const SECURITY_PAGE_BUDGET = 10;

export function runAudit(
  product: 'ai_readiness',
  target: AuditTarget,
  options?: AuditOptions,
): Promise<AuditOutcome<AiReadinessDetails>>;
export function runAudit(
  product: 'marketing_signal',
  target: AuditTarget,
  options?: AuditOptions,
): Promise<AuditOutcome<MarketingSignalDetails>>;
export function runAudit(
  product: 'website_security',
  target: AuditTarget,
  options?: AuditOptions,
): Promise<AuditOutcome<WebsiteSecurityDetails>>;
export function runAudit(
  product: EngineProduct,
  target: AuditTarget,
  options?: AuditOptions,
): Promise<AuditOutcome<AnyDetails>>;
export async function runAudit(
  product: EngineProduct,
  target: AuditTarget,
  options: AuditOptions = {},
): Promise<AuditOutcome<AnyDetails>> {
  const resolver = options.resolver ?? createResolver();
  const allowPrivate = target.local || (options.allowPrivate ?? false);
  const ports = options.ports ?? parsePortMap(process.env.SITEAUDIT_PORT_MAP);
  const fetcher = engineFetcher({ ...options, resolver, ports }, allowPrivate);
  const progress = options.onProgress ?? (() => {});
  try {
    const budget =
      product === 'website_security'
        ? Math.min(options.pageBudget ?? SECURITY_PAGE_BUDGET, SECURITY_PAGE_BUDGET)
        : options.pageBudget;
    const site = await collectSite(target.url, {
      fetcher,
      local: target.local,
      // Only AI readiness judges how the site answers AI agents' user agents.
      askAgents: product === 'ai_readiness',
      ...(budget ? { pageBudget: budget } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (fraction, step) => progress(Math.min(90, Math.round(fraction * 90)), step),
    });
    options.signal?.throwIfAborted();
    // A failed handshake is what a security audit reports (its TLS probe says why); elsewhere it ends the run.
    const unreachable = unreachableSite(site);
    if (unreachable && !(product === 'website_security' && unreachable.reason === 'tls')) throw unreachable;
    // Security reads headers, cookies, transport and the served markup, which a browser does not
    // change: its pages are loaded only to read the versions their libraries report (retire.ts).
    const security = product === 'website_security';
    if (options.render) {
      progress(90, security ? 'reading library versions in Chromium' : 'rendering pages in Chromium');
      site.rendering = await renderSite(
        site,
        options.render,
        fetcher,
        options.signal,
        budget,
        security ? 'libraries' : 'judge',
      );
    }
    progress(92, 'running checks');
    if (product === 'website_security') progress(94, 'checking TLS, DNS and well-known paths');
    const probes = transportProbes(options, resolver, ports, allowPrivate);
    const outcome = await judgeSite(product, site, fetcher, probes, options.signal);
    // What monitoring watches besides the home page (docs/decisions.md, "Monitoring").
    const rendered = security ? undefined : renderingNote(site.rendering, outcome.scoreStatus === 'unverified');
    return {
      ...outcome,
      ...(rendered ? { execSummary: `${outcome.execSummary} ${rendered}` } : {}),
      keyPages: keyPages(site, KEY_PAGES_MAX),
      ...(site.rendering ? { rendering: site.rendering } : {}),
    };
  } finally {
    await fetcher.close();
  }
}

/** The most linked pages a run remembers for monitoring, besides the home page. */
export const KEY_PAGES_MAX = 4;

/**
 * Monitoring's fetcher (issue 11): the engine's options (DNS, CA, ports, the SSRF guard unless the
 * target is local or local targets are allowed), one page at a time.
 */
export function createPageWatcher(
  options: Omit<AuditOptions, 'signal' | 'onProgress' | 'pageBudget'> & { confirmAfterMs?: number },
) {
  const resolver = options.resolver ?? createResolver();
  const ports = options.ports ?? parsePortMap(process.env.SITEAUDIT_PORT_MAP);
  const fetchers = new Map<boolean, Fetcher>();
  const fetcherFor = (allowPrivate: boolean) => {
    let fetcher = fetchers.get(allowPrivate);
    if (!fetcher) {
      fetcher = engineFetcher({ ...options, resolver, ports }, allowPrivate);
      fetchers.set(allowPrivate, fetcher);
    }
    return fetcher;
  };
  return {
    /** One page; `access`, a project's access settings, go to its own origin only. */
    look(target: AuditTarget, signal?: AbortSignal, access?: SiteAccess): Promise<PageLook> {
      const fetcher = fetcherFor(target.local || (options.allowPrivate ?? false));
      return lookAtPage(fetcher, target.url, {
        ...(options.confirmAfterMs !== undefined ? { confirmAfterMs: options.confirmAfterMs } : {}),
        ...(signal ? { signal } : {}),
        ...(access ? { access } : {}),
      });
    },
    async close(): Promise<void> {
      await Promise.all([...fetchers.values()].map((f) => f.close()));
    },
  };
}
export type PageWatcher = ReturnType<typeof createPageWatcher>;
