// Monitoring's look at one page (issue 11): whether it answers, and a fingerprint of the content a
// reader or a search engine would notice (title, description, canonical, robots, headings, visible
// text with numbers masked), so a clock or a nonce in the markup is not a change. Pure of storage.
import { createHash } from 'node:crypto';
import type { MonitorKind, PageChange } from '../contract/index.ts';
import { cpuPool } from './cpu/pool.ts';
import { pageKey } from './crawler.ts';
import { metaContent } from './html.ts';
import { FetchError, type Fetcher, type SiteAccess } from './net/fetcher.ts';
import type { SiteSnapshot } from './site.ts';

export interface PageFingerprint {
  /** Where the page ended after redirects. */
  finalUrl: string;
  title: string | null;
  description: string | null;
  canonical: string | null;
  robots: string | null;
  /** A hash of the h1 to h3 headings in order. */
  headings: string;
  /** A hash of the visible text (of the whole body for a page that is not HTML). */
  text: string;
}

export interface PageLook {
  url: string;
  /** The final answer's status; null when none came (timeout, refused, no address, blocked). */
  httpStatus: number | null;
  up: boolean;
  error: string | null;
  durationMs: number;
  /** Only for a page that is up. */
  fingerprint: PageFingerprint | null;
}

/** What the monitor remembers of a page between checks. */
export interface PageState {
  httpStatus: number | null;
  up: boolean;
  /** The content of the last time the page was up (kept while it is down, to compare on recovery). */
  fingerprint: PageFingerprint | null;
  since: string;
  lastCheckedAt: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A page is up when its final answer is below 400: a redirect chain that ends somewhere counts. */
const isUp = (status: number) => status >= 200 && status < 400;
const statusClass = (status: number | null) => (status === null ? 0 : Math.floor(status / 100));

async function fingerprintOf(finalUrl: string, contentType: string, body: string): Promise<PageFingerprint> {
  const isHtml = contentType === '' || /text\/html|application\/xhtml\+xml/i.test(contentType);
  if (!isHtml)
    return {
      finalUrl,
      title: null,
      description: null,
      canonical: null,
      robots: null,
      headings: sha256(''),
      text: sha256(body),
    };
  const facts = await cpuPool().run('parseHtml', [body, { textDigest: true }]);
  const canonical = facts.links.find((l) => l.rel.toLowerCase().split(/\s+/).includes('canonical'));
  return {
    finalUrl,
    title: facts.titles[0] ?? null,
    description: metaContent(facts, 'description') ?? null,
    canonical: canonical?.href ?? null,
    robots: metaContent(facts, 'robots') ?? null,
    headings: sha256(
      facts.headings
        .filter((h) => h.level <= 3)
        .map((h) => `${h.level} ${h.text}`)
        .join('\n'),
    ),
    text: facts.textDigest ?? sha256(''),
  };
}

async function lookOnce(fetcher: Fetcher, url: string, signal?: AbortSignal, access?: SiteAccess): Promise<PageLook> {
  const started = performance.now();
  try {
    const page = await fetcher.fetch(url, signal, access ? { access } : undefined);
    const up = isUp(page.status);
    return {
      url,
      httpStatus: page.status,
      up,
      error: up ? null : `answered ${page.status}`,
      durationMs: Math.round(performance.now() - started),
      fingerprint: up ? await fingerprintOf(page.url, page.headers['content-type'] ?? '', page.body) : null,
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      url,
      httpStatus: null,
      up: false,
      error: (error instanceof FetchError ? error.message : String(error)).slice(0, 300),
      durationMs: Math.round(performance.now() - started),
      fingerprint: null,
    };
  }
}

/**
 * Looks at a page; a page that seems down is looked at once more after `confirmAfterMs`, so one
 * dropped connection is not an outage (uptime monitors confirm the same way).
 */
export async function lookAtPage(
  fetcher: Fetcher,
  url: string,
  options: { confirmAfterMs?: number; signal?: AbortSignal; access?: SiteAccess } = {},
): Promise<PageLook> {
  const first = await lookOnce(fetcher, url, options.signal, options.access);
  if (first.up) return first;
  await new Promise((resolve) => setTimeout(resolve, options.confirmAfterMs ?? 2000));
  options.signal?.throwIfAborted();
  const second = await lookOnce(fetcher, url, options.signal, options.access);
  return { ...second, durationMs: first.durationMs + second.durationMs };
}

const CONTENT_FIELDS = ['title', 'description', 'canonical', 'robots', 'headings', 'text'] as const;

function contentChanges(before: PageFingerprint | null, after: PageFingerprint | null): PageChange[] {
  if (!before || !after) return [];
  const changes: PageChange[] = [];
  if (pageKey(before.finalUrl) !== pageKey(after.finalUrl)) changes.push('final_url');
  for (const field of CONTENT_FIELDS) if (before[field] !== after[field]) changes.push(field);
  return changes;
}

/**
 * What a look means against the page's last state: `failed` when it stops answering (or fails in
 * another way: 404 then 503), `recovered` when it answers again, `changed` when it answered both
 * times and its status class or content differs; no kind when nothing a person would care about
 * changed. A page first seen up is the baseline; one first seen down is reported.
 */
export function judgeLook(
  previous: PageState | undefined,
  look: PageLook,
): { kind: MonitorKind | null; changes: PageChange[] } {
  if (!previous) return look.up ? { kind: null, changes: [] } : { kind: 'failed', changes: ['status'] };
  const statusChanged = statusClass(previous.httpStatus) !== statusClass(look.httpStatus);
  if (previous.up && !look.up) return { kind: 'failed', changes: ['status'] };
  if (!previous.up && !look.up)
    return statusChanged ? { kind: 'failed', changes: ['status'] } : { kind: null, changes: [] };
  const changes = contentChanges(previous.fingerprint, look.fingerprint);
  if (!previous.up) return { kind: 'recovered', changes: ['status', ...changes] };
  if (statusChanged) changes.unshift('status');
  return changes.length > 0 ? { kind: 'changed', changes } : { kind: null, changes: [] };
}

/** The page's state after a look (the content of its last time up is kept while it is down). */
export function nextState(
  previous: PageState | undefined,
  look: PageLook,
  kind: MonitorKind | null,
  checkedAt: string,
): PageState {
  return {
    httpStatus: look.httpStatus,
    up: look.up,
    fingerprint: look.fingerprint ?? previous?.fingerprint ?? null,
    since: !previous || kind ? checkedAt : previous.since,
    lastCheckedAt: checkedAt,
  };
}

/**
 * The pages a crawl found most important besides the start page: the ones most pages link to,
 * counting each linking page once (ties in crawl order). Only pages that answered with HTML.
 */
export function keyPages(site: SiteSnapshot, max: number): string[] {
  const home = site.pages[0] ? pageKey(site.pages[0].url) : undefined;
  const answered = new Map<string, string>();
  for (const page of site.pages)
    if (page.isHtml && page.fetched && isUp(page.fetched.status)) answered.set(pageKey(page.url), page.url);
  const linkedFrom = new Map<string, Set<string>>();
  for (const page of site.pages) {
    const from = pageKey(page.url);
    for (const anchor of page.facts?.anchors ?? []) {
      let key: string;
      try {
        key = pageKey(new URL(anchor.href, page.url));
      } catch {
        continue;
      }
      if (key === from || key === home || !answered.has(key)) continue;
      const sources = linkedFrom.get(key) ?? new Set<string>();
      sources.add(from);
      linkedFrom.set(key, sources);
    }
  }
  const order = [...answered.keys()];
  return [...linkedFrom.entries()]
    .sort(([a, x], [b, y]) => y.size - x.size || order.indexOf(a) - order.indexOf(b))
    .slice(0, max)
    .map(([key]) => answered.get(key) as string);
}
