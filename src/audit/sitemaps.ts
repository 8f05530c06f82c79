// Every sitemap a site offers search engines: each `Sitemap:` line of robots.txt (or /sitemap.xml
// when it has none), and one level of the sitemaps a sitemap index lists, plain or gzip. Bounded in
// files, time and bytes (sitemap-read.ts), since robots.txt and indexes are the site's text: an
// index that lists 100,000 sitemaps, or lists itself, costs no more than any other.
import { cpuPool } from './cpu/pool.ts';
import type { Sitemap } from './foundation-files.ts';
import { type Fetcher, tryFetch } from './net/fetcher.ts';

/** `Sitemap:` lines read from robots.txt; later ones are counted, not fetched. */
export const SITEMAPS_DECLARED_MAX = 10;
/** Sitemaps read from the indexes, in all. */
export const SITEMAP_CHILDREN_MAX = 10;
/** A sitemap address longer than this is not fetched (browsers' and search engines' practical bound). */
const SITEMAP_URL_MAX = 2048;
/** Sitemaps fetched at once. */
const LANES = 4;
/** The longest the sitemaps may take in all; fetches still running then end as timed out. */
const SITEMAPS_DEADLINE_MS = 60_000;
/** Pages of the sitemaps the crawl starts from. */
export const SITEMAP_SEEDS = 5;

export interface SitemapFile {
  url: string;
  /** HTTP status, or 'unreachable' when the fetch failed (or was not made: `error` says why). */
  status: number | 'unreachable';
  error?: string;
  parsed?: Sitemap;
  /** A `Sitemap:` line of robots.txt, /sitemap.xml for want of one, or a sitemap index's entry. */
  source: 'robots' | 'default' | 'index';
  /** The index that lists it (source 'index'). */
  index?: string;
}

/** The sitemap the checks name first (the first declared one that reads as a sitemap), and all of them. */
export interface SiteSitemaps extends SitemapFile {
  source: 'robots' | 'default';
  /** Every sitemap read: the declared ones in robots.txt's order, then the indexes' entries. */
  files: SitemapFile[];
  /** Sitemaps listed but not read: `Sitemap:` lines and index entries past the bounds. */
  unread: { declared: number; children: number };
  /** Entries that are wrong where they are: an index that lists itself, an index inside an index. */
  problems: Array<{ url: string; problem: string }>;
}

/** A file that answered with a sitemap or a sitemap index (of whatever quality). */
export const answersSitemap = (file: SitemapFile) =>
  file.status === 200 && file.parsed !== undefined && file.parsed.kind !== 'invalid';

async function inLanes<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, lane));
  return results;
}

async function readFile(
  fetcher: Fetcher,
  url: string,
  where: Pick<SitemapFile, 'source' | 'index'>,
  signal: AbortSignal,
): Promise<SitemapFile> {
  if (url.length > SITEMAP_URL_MAX)
    return {
      url: `${url.slice(0, 200)}…`,
      ...where,
      status: 'unreachable',
      error: `not fetched: the address is ${url.length} characters long (at most ${SITEMAP_URL_MAX})`,
    };
  const got = await tryFetch(fetcher, url, signal, {
    raw: true,
    accept: 'application/xml,text/xml;q=0.9,application/gzip;q=0.8,*/*;q=0.5',
  });
  const file: SitemapFile = { url, ...where, status: got.status, ...(got.error ? { error: got.error } : {}) };
  const page = got.page;
  if (page?.status !== 200 || !page.raw) return file;
  try {
    // Read on a CPU thread, as the site's pages are (cpu/pool.ts); gzip is inflated there as a stream.
    file.parsed = await cpuPool().run('readSitemap', [page.raw, page.url, page.truncated]);
  } catch (error) {
    file.error = `could not be read: ${(error as Error).message}`;
  }
  return file;
}

/** A URL as a key (host case, default port and path escapes made one), or itself when it is none. */
function normal(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Sitemap lines as robots.txt gives them, each once. */
function unique(lines: readonly string[]): string[] {
  return [...new Set(lines.map((line) => line.trim()).filter(Boolean))];
}

/**
 * Reads the declared sitemaps (`declared`: robots.txt's Sitemap lines; none: /sitemap.xml) and
 * the sitemaps their indexes list, one level down.
 */
export async function collectSitemaps(
  fetcher: Fetcher,
  origin: string,
  declared: readonly string[],
  signal?: AbortSignal,
): Promise<SiteSitemaps> {
  const within = AbortSignal.timeout(SITEMAPS_DEADLINE_MS);
  const bounded = signal ? AbortSignal.any([signal, within]) : within;
  const lines = unique(declared);
  const source = lines.length > 0 ? 'robots' : 'default';
  const first = lines.length > 0 ? lines.slice(0, SITEMAPS_DECLARED_MAX) : [`${origin}/sitemap.xml`];
  const files = await inLanes(first, (url) => readFile(fetcher, url, { source }, bounded));
  const problems: SiteSitemaps['problems'] = [];
  const unread = { declared: Math.max(0, lines.length - SITEMAPS_DECLARED_MAX), children: 0 };

  // One level of indexes: their entries, each once, none already read, at most SITEMAP_CHILDREN_MAX.
  const seen = new Set(files.map((f) => normal(f.url)));
  const children: Array<{ url: string; index: string }> = [];
  for (const file of files) {
    const index = file.parsed;
    if (file.status !== 200 || index?.kind !== 'sitemapindex') continue;
    let taken = 0;
    let skipped = 0;
    for (const loc of index.locs) {
      const key = normal(loc);
      if (key === normal(file.url)) problems.push({ url: file.url, problem: 'the sitemap index lists itself' });
      if (seen.has(key)) {
        skipped++;
        continue;
      }
      if (children.length >= SITEMAP_CHILDREN_MAX) break;
      seen.add(key);
      children.push({ url: loc, index: file.url });
      taken++;
    }
    // The rest: past the bound, past the entries the parser keeps, or not on the index's host.
    unread.children += Math.max(0, index.count - taken - skipped);
  }
  const read = await inLanes(children, (c) => readFile(fetcher, c.url, { source: 'index', index: c.index }, bounded));
  for (const child of read)
    if (child.status === 200 && child.parsed?.kind === 'sitemapindex')
      problems.push({
        url: child.url,
        problem: `a sitemap index listed by the index ${child.index}: indexes do not nest, so its sitemaps were not read`,
      });

  const named = files.find(answersSitemap) ?? (files[0] as SitemapFile);
  return {
    ...named,
    source,
    files: [...files, ...read],
    unread,
    problems,
  };
}

/**
 * The pages the crawl starts from: the sitemaps' URLs taken in turn from each urlset (the first of
 * each, then the second...), each once, so every sitemap has a say.
 */
export function sitemapSeeds(files: readonly SitemapFile[], max = SITEMAP_SEEDS): string[] {
  const lists = files.flatMap((f) => (f.status === 200 && f.parsed?.kind === 'urlset' ? [f.parsed.locs] : []));
  const seeds: string[] = [];
  const taken = new Set<string>();
  for (let i = 0; seeds.length < max; i++) {
    let more = false;
    for (const locs of lists) {
      const loc = locs[i];
      if (loc === undefined) continue;
      more = true;
      if (taken.has(loc)) continue;
      taken.add(loc);
      seeds.push(loc);
      if (seeds.length >= max) break;
    }
    if (!more) break;
  }
  return seeds;
}

/** The sitemap that lists `url` (the first, if several do). */
export function sitemapListing(files: readonly SitemapFile[], url: string): string | undefined {
  return files.find((f) => f.parsed?.kind === 'urlset' && f.parsed.locs.includes(url))?.url;
}
