// Recheck (issue 26): the checks behind one finding judged again on up to five URLs, so an agent
// can see its fix hold before (or after) deploying, in seconds. Each URL is a one-page audit of its
// own: that page alone is fetched (no links followed), through the engine's fetcher (SSRF guard,
// timeouts, size bounds), with robots.txt, the sitemap and llms.txt, the AI agents' view and
// Chromium only when an asked check reads them (recheck-verdicts.ts); the product's checks run on
// it as in a run, and only the asked checks' rows are answered. Nothing is stored: credits, rates
// and runs are the service's.
import { performance } from 'node:perf_hooks';
import type { CheckResult, Evidence } from './checks.ts';
import { fetchPage } from './crawler.ts';
import { engineFetcher, judgeSite, transportProbes } from './engine-parts.ts';
import type { AuditOptions, EngineProduct } from './index.ts';
import type { Fetcher } from './net/fetcher.ts';
import { parsePortMap } from './net/lookup.ts';
import { createResolver } from './net/resolver.ts';
import {
  type RecheckedCheck,
  type RecheckNeeds,
  type RecheckVerdict,
  recheckNeeds,
  recheckVerdict,
} from './recheck-verdicts.ts';
import { renderSite } from './render/render-site.ts';
import { collectSite, htmlPages, type SiteSnapshot } from './site.ts';
import { unreachableSite } from './unreachable.ts';

export type { RecheckedCheck, RecheckVerdict } from './recheck-verdicts.ts';

export const RECHECK_MAX_URLS = 5;
/** A merged finding names a few checks (its own and alsoChecks); more is not one finding. */
export const RECHECK_MAX_CHECKS = 20;
/** URLs judged at once. */
const CONCURRENCY = 2;
/** Evidence items per URL, as a finding keeps (checks.ts). */
const EVIDENCE_MAX = 10;
const CHECK_ID_MAX = 100;

export interface RecheckInput {
  /** Up to five http(s) URLs, deduplicated (without their fragment). */
  urls: string[];
  /** The finding's check and the checks merged into it. */
  checkIds: string[];
  /** The URLs are on this machine (a dev server): a local on-page scan of each. */
  local: boolean;
  /** Render the pages in Chromium (with options.render); default: when a check is made of the rendered page. */
  rendered?: boolean;
}

export interface RecheckedUrl {
  url: string;
  /** Where the page ended up after redirects, when elsewhere. */
  finalUrl?: string;
  /** fail when any asked check fails, pass when all pass, not_evaluated otherwise; error when the page could not be fetched. */
  status: RecheckVerdict | 'error';
  checks: RecheckedCheck[];
  /** The failing checks' evidence on this page, in the findings' shape (elements with selector and snippet). */
  evidence: Evidence[];
  detail?: string;
  /** Why the page could not be judged (status error). */
  error?: string;
}

export interface RecheckResult {
  /** The check ids rechecked, deduplicated, in the order given. */
  checks: string[];
  results: RecheckedUrl[];
  ms: number;
}

/** The input cannot be rechecked as given (the API answers 400). */
export class RecheckInputError extends Error {
  override readonly name = 'RecheckInputError';
}

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The URLs to judge: http(s), without fragments, each once, at most five. */
export function recheckUrls(urls: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new RecheckInputError(`not a URL: ${clip(String(raw))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new RecheckInputError(`not an http(s) URL: ${clip(raw)}`);
    url.hash = '';
    seen.add(url.href);
  }
  if (seen.size === 0) throw new RecheckInputError('no URL to recheck');
  if (seen.size > RECHECK_MAX_URLS)
    throw new RecheckInputError(`at most ${RECHECK_MAX_URLS} URLs a recheck (${seen.size} given)`);
  return [...seen];
}

function recheckIds(checkIds: readonly string[]): string[] {
  const ids = [...new Set(checkIds.map((id) => String(id).trim()))];
  if (ids.length === 0 || ids.includes('')) throw new RecheckInputError('no check to recheck');
  if (ids.length > RECHECK_MAX_CHECKS)
    throw new RecheckInputError(`at most ${RECHECK_MAX_CHECKS} checks a recheck (${ids.length} given)`);
  const long = ids.find((id) => id.length > CHECK_ID_MAX);
  if (long) throw new RecheckInputError(`not a check id: ${clip(long, 60)}`);
  return ids;
}

/** Runs `work` on each item with at most `lanes` at once; answers in the items' order. */
async function mapBounded<T, R>(items: readonly T[], lanes: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return results;
}

/** The page alone, or with the site files (and the agents' view) when an asked check reads them. */
async function collectPage(
  url: string,
  needs: RecheckNeeds,
  fetcher: Fetcher,
  local: boolean,
  signal?: AbortSignal,
): Promise<SiteSnapshot> {
  if (needs.files || needs.agents)
    return collectSite(url, {
      fetcher,
      local,
      askAgents: needs.agents,
      pageBudget: 1,
      ...(signal ? { signal } : {}),
    });
  // What collectSite's crawl does with a budget of one page, without the files read before it: the
  // start page is audited whatever robots.txt says (the owner asked for it), so robots.txt is not needed.
  const page = await fetchPage(fetcher, url, signal);
  return { startUrl: url, origin: new URL(url).origin, local, pages: [page], disallowed: [] };
}

/** The asked check's row; of two rows with one id, the failing one. */
function rowOf(rows: readonly CheckResult[], id: string): CheckResult | undefined {
  const own = rows.filter((row) => row.id === id);
  return own.find((row) => row.status === 'fail') ?? own[0];
}

function errored(url: string, checkIds: readonly string[], reason: string): RecheckedUrl {
  const error = clip(reason, 500);
  return {
    url,
    status: 'error',
    checks: checkIds.map((id) => ({ id, verdict: 'not_evaluated', status: null, detail: `not judged: ${error}` })),
    evidence: [],
    error,
  };
}

/** The sentence of a URL's verdict: the checks that decided it, and whether the page was rendered. */
function describe(status: RecheckVerdict, checks: readonly RecheckedCheck[], renderNote: string | undefined): string {
  const deciding = checks.filter((check) => check.verdict === status);
  const lines = deciding.map((check) => `${check.id} ${check.verdict.replace('_', ' ')}: ${check.detail}`);
  return clip([...lines, ...(renderNote ? [renderNote] : [])].join('; '), 1000);
}

export async function recheck(
  product: EngineProduct,
  input: RecheckInput,
  options: AuditOptions = {},
): Promise<RecheckResult> {
  const started = performance.now();
  const urls = recheckUrls(input.urls);
  const checkIds = recheckIds(input.checkIds);
  const needs = recheckNeeds(product, checkIds, input.rendered);
  const resolver = options.resolver ?? createResolver();
  const ports = options.ports ?? parsePortMap(process.env.SITEAUDIT_PORT_MAP);
  const allowPrivate = input.local || (options.allowPrivate ?? false);
  const fetcher = engineFetcher({ ...options, resolver, ports }, allowPrivate);
  const probesFor = transportProbes(options, resolver, ports, allowPrivate);
  const signal = options.signal;
  const render = needs.render ? options.render : undefined;
  let done = 0;

  async function recheckUrl(url: string): Promise<RecheckedUrl> {
    const site = await collectPage(url, needs, fetcher, input.local, signal);
    // As in a run: a page that could not be fetched is not judged, except a failed handshake, which
    // is what a security audit reports.
    const unreachable = unreachableSite(site);
    if (unreachable && !(product === 'website_security' && unreachable.reason === 'tls'))
      return errored(url, checkIds, unreachable.message);
    if (render)
      site.rendering = await renderSite(
        site,
        render,
        fetcher,
        signal,
        1,
        product === 'website_security' ? 'libraries' : 'judge',
      );
    const outcome = await judgeSite(product, site, fetcher, probesFor, signal);
    const page = site.pages[0];
    const seen = {
      product,
      local: input.local,
      page,
      html: page !== undefined && htmlPages(site).includes(page),
      ...(site.rendering ? { rendering: site.rendering } : {}),
      renderAsked: render !== undefined,
    };
    const checks = checkIds.map((id) => recheckVerdict(id, rowOf(outcome.checks, id), seen));
    const status: RecheckVerdict = checks.some((c) => c.verdict === 'fail')
      ? 'fail'
      : checks.some((c) => c.verdict === 'not_evaluated')
        ? 'not_evaluated'
        : 'pass';
    const evidence = checks
      .filter((check) => check.verdict === 'fail')
      .flatMap((check) => rowOf(outcome.checks, check.id)?.finding?.evidence ?? [])
      .slice(0, EVIDENCE_MAX);
    const finalUrl = page?.fetched?.url;
    const renderNote =
      needs.render && seen.html && !page?.rendered
        ? `not rendered in Chromium (${site.rendering?.reason ?? site.rendering?.pages[0]?.error ?? 'this service renders no pages'}): judged on the served HTML`
        : undefined;
    return {
      url,
      ...(finalUrl && finalUrl !== url ? { finalUrl } : {}),
      status,
      checks,
      evidence,
      detail: describe(status, checks, renderNote),
    };
  }

  try {
    const results = await mapBounded(urls, CONCURRENCY, async (url) => {
      let result: RecheckedUrl;
      try {
        result = await recheckUrl(url);
      } catch (error) {
        // The caller's abort ends the recheck; anything else costs this URL its verdict, not the others theirs.
        if (signal?.aborted) throw error;
        result = errored(url, checkIds, `the page could not be judged: ${(error as Error).message}`);
      }
      done++;
      options.onProgress?.(Math.round((100 * done) / urls.length), `rechecked ${done} of ${urls.length} URL(s)`);
      return result;
    });
    return { checks: checkIds, results, ms: Math.round(performance.now() - started) };
  } finally {
    await fetcher.close();
  }
}
