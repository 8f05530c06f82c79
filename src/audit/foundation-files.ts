// The site's foundation files: sitemaps (sitemaps.org 0.9) and llms.txt (the llms.txt proposal).
import { Parser } from 'htmlparser2';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const SITEMAP_MAX_URLS = 50_000;

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
  const locs: string[] = [];
  const badLocs: string[] = [];
  const host = new URL(sitemapUrl).host;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
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
  parser.end();
  const kind = root === 'urlset' || root === 'sitemapindex' ? root : 'invalid';
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
  const links = [...text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).slice(0, 200);
  return {
    title: title?.slice(0, 200) ?? null,
    summary: summary?.slice(0, 300) ?? null,
    sections: sections.slice(0, 50),
    links,
    wellFormed: title !== null && links.length > 0 && text.trim().length >= 50,
  };
}
