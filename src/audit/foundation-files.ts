// The site's foundation files: sitemaps (sitemaps.org 0.9) and llms.txt (the llms.txt proposal).
import { Parser } from 'htmlparser2';
import { isWhiteSpace } from './white-space.ts';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const SITEMAP_MAX_URLS = 50_000;
// A sitemap nests three or four elements deep (urlset, url, image:image, image:loc). htmlparser2
// keeps open elements in an array it unshifts and searches, so each unclosed element costs as many
// steps as are open: 500 KiB of <a><a><a>... took seconds. Deeper than this is not a sitemap.
const SITEMAP_MAX_DEPTH = 64;

export interface Sitemap {
  kind: 'urlset' | 'sitemapindex' | 'invalid';
  namespaceOk: boolean;
  locs: string[];
  /** Locations that are relative, unparsable, or on another host than the sitemap's. */
  badLocs: string[];
  /** The <loc> entries of the file (of its <url> or <sitemap> elements), kept or not. */
  count: number;
  tooManyUrls: boolean;
  /** Read from gzip (sitemap-read.ts). */
  gzip?: boolean;
  /** Over the 50 MB a sitemap may hold once uncompressed: read up to there. */
  tooLarge?: boolean;
  /** The gzip data is corrupt: read up to where it broke. */
  gzipError?: string;
}

/** A sitemap read a chunk at a time (a gzip stream decompressed as it comes); `end` answers it. */
export interface SitemapParser {
  write(chunk: string): void;
  /** Nesting too deep for a sitemap: the rest is not read (writes are ignored). */
  readonly stopped: boolean;
  end(): Sitemap;
}

/** Entries are the <loc> of a <url> (urlset) or a <sitemap> (index); <image:loc> and the like are not pages. */
const ENTRY_PARENTS = new Set(['url', 'sitemap']);

/** Reads a sitemap or sitemap index in chunks, keeping at most the first `keep` locations. */
export function sitemapParser(sitemapUrl: string, keep = 1000): SitemapParser {
  let root: string | undefined;
  let namespace = '';
  let inLoc = false;
  let text = '';
  let count = 0;
  let depth = 0;
  let tooDeep = false;
  let ended = false;
  // Local names of the open elements, at most SITEMAP_MAX_DEPTH of them.
  const open: string[] = [];
  const locs: string[] = [];
  const badLocs: string[] = [];
  const host = new URL(sitemapUrl).host;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (++depth > SITEMAP_MAX_DEPTH) {
          tooDeep = true;
          parser.pause();
          return;
        }
        const local = name.replace(/^.*:/, '');
        open[depth - 1] = local;
        if (root === undefined) {
          root = local;
          namespace = attrs.xmlns ?? Object.entries(attrs).find(([k]) => k.startsWith('xmlns:'))?.[1] ?? '';
        }
        if (local === 'loc' && depth === 3 && ENTRY_PARENTS.has(open[1] ?? '')) {
          inLoc = true;
          text = '';
        }
      },
      ontext(chunk) {
        if (inLoc && text.length < 4096) text += chunk;
      },
      onclosetag() {
        depth--;
        if (!inLoc || depth !== 2) return;
        inLoc = false;
        count++;
        const loc = text.trim();
        let ok = false;
        try {
          ok = /^https?:\/\//.test(loc) && new URL(loc).host === host;
        } catch {
          ok = false;
        }
        if (!ok && badLocs.length < 20) badLocs.push(loc.slice(0, 300));
        if (ok && locs.length < keep) locs.push(loc);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  return {
    get stopped() {
      return tooDeep;
    },
    write(chunk) {
      if (!tooDeep && !ended) parser.write(chunk);
    },
    end() {
      // Once paused, the rest is not read: ending would close (and report) every open element.
      if (!tooDeep && !ended) parser.end();
      ended = true;
      const kind = !tooDeep && (root === 'urlset' || root === 'sitemapindex') ? root : 'invalid';
      return {
        kind,
        namespaceOk: namespace === SITEMAP_NAMESPACE,
        locs,
        badLocs,
        count,
        tooManyUrls: count > SITEMAP_MAX_URLS,
      };
    },
  };
}

/** Reads a sitemap or sitemap index, keeping at most the first `keep` locations. */
export function parseSitemap(xml: string, sitemapUrl: string, keep = 1000): Sitemap {
  const parser = sitemapParser(sitemapUrl, keep);
  parser.write(xml);
  return parser.end();
}

export interface LlmsTxt {
  title: string | null;
  summary: string | null;
  sections: string[];
  links: string[];
  /** Lighthouse's bar: an H1, a markdown link and at least 50 characters. */
  wellFormed: boolean;
}

/**
 * The targets of markdown links `[text](target)` in order, the matches of
 * /\[[^\]]*\]\(([^)\s]+)\)/g, by a scan. That pattern is quadratic on hostile text: every `[`
 * rescans the rest of the text for a `)` that never comes. Here a `]` found is shared by the `[`s
 * before it, and a target's end (the first `)` or white space) by the `](` inside the same run.
 */
export function markdownLinkTargets(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const targets: string[] = [];
  let from = 0;
  let end = -1;
  while (targets.length < max) {
    const open = text.indexOf('[', from);
    if (open < 0) break;
    const close = text.indexOf(']', open + 1);
    if (close < 0) break;
    from = close + 1;
    if (text[close + 1] !== '(') continue;
    const start = close + 2;
    if (end < start) {
      end = start;
      while (end < text.length && text[end] !== ')' && !isWhiteSpace(text.charCodeAt(end))) end++;
    }
    if (end > start && text[end] === ')') {
      targets.push(text.slice(start, end));
      from = end + 1;
    }
  }
  return targets;
}

export function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.split(/\r?\n/);
  const title =
    lines
      .find((l) => /^#\s+\S/.test(l))
      ?.replace(/^#\s+/, '')
      .trim() ?? null;
  const summary =
    lines
      .find((l) => /^>\s*\S/.test(l))
      ?.replace(/^>\s*/, '')
      .trim() ?? null;
  const sections = lines.filter((l) => /^##\s+\S/.test(l)).map((l) => l.replace(/^##\s+/, '').trim());
  const links = markdownLinkTargets(text, 200);
  return {
    title: title?.slice(0, 200) ?? null,
    summary: summary?.slice(0, 300) ?? null,
    sections: sections.slice(0, 50),
    links,
    wellFormed: title !== null && links.length > 0 && text.trim().length >= 50,
  };
}
