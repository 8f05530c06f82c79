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
  tooManyUrls: boolean;
}

/** Reads a sitemap or sitemap index, keeping at most the first `keep` locations. */
export function parseSitemap(xml: string, sitemapUrl: string, keep = 1000): Sitemap {
  let root: string | undefined;
  let namespace = '';
  let inLoc = false;
  let text = '';
  let count = 0;
  let depth = 0;
  let tooDeep = false;
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
        if (root === undefined) {
          root = local;
          namespace = attrs.xmlns ?? Object.entries(attrs).find(([k]) => k.startsWith('xmlns:'))?.[1] ?? '';
        }
        if (local === 'loc') {
          inLoc = true;
          text = '';
        }
      },
      ontext(chunk) {
        if (inLoc && text.length < 4096) text += chunk;
      },
      onclosetag(name) {
        depth--;
        if (name.replace(/^.*:/, '') !== 'loc') return;
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
  parser.write(xml);
  // Once paused, the rest is not read: ending would close (and report) every open element.
  if (!tooDeep) parser.end();
  const kind = !tooDeep && (root === 'urlset' || root === 'sitemapindex') ? root : 'invalid';
  return { kind, namespaceOk: namespace === SITEMAP_NAMESPACE, locs, badLocs, tooManyUrls: count > SITEMAP_MAX_URLS };
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
