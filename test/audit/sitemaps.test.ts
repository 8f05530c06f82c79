// Every sitemap a site declares (issue 29): each Sitemap: line of robots.txt, one level of a sitemap
// index, gzip sitemaps, on fixture sites on loopback; the checks see all of them (the crawl starts
// from their union, one valid sitemap is enough for search engines, a broken one is named). Hostile
// sitemaps stay bounded: a gzip bomb, an index of 100,000 sitemaps, an index that lists itself,
// lines of megabytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/audit/checks.ts';
import { createFetcher, type Fetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { auditAiReadiness } from '../../src/audit/products/ai-readiness.ts';
import { auditMarketingSignal } from '../../src/audit/products/marketing-signal.ts';
import { collectSite } from '../../src/audit/site.ts';
import { type FixtureRoute, type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="${NS}">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const index = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="${NS}">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const xml = (body: string): FixtureRoute => ({ headers: { 'content-type': 'application/xml' }, body });
const bytes =
  (body: Buffer, type = 'application/gzip'): FixtureRoute =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  };
const page = (title: string) => ({ body: html(`<title>${title}</title>`, `<main><h1>${title}</h1></main>`) });
/** Pages no link reaches: only a sitemap leads the crawl to them. */
const pages = (...paths: string[]) => Object.fromEntries(paths.map((p) => [p, page(p)]));

let fetcher: Fetcher;
let site: FixtureSite;
beforeAll(async () => {
  fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 5000 });
  site = await startFixtureSite({});
});
afterAll(async () => {
  await site?.close();
  await fetcher?.close();
});

/** The site served as `routes` (SELF stands for its origin), collected once and judged by two products. */
async function audit(routes: (o: string) => Record<string, FixtureRoute>, pageBudget = 6) {
  site.routes.clear();
  site.requests.length = 0;
  for (const [path, route] of Object.entries({ '/': page('Home'), ...routes(site.origin) }))
    site.routes.set(path, route);
  const collected = await collectSite(`${site.origin}/`, { fetcher, local: false, pageBudget });
  const rows = [...(await auditAiReadiness(collected)).checks, ...(await auditMarketingSignal(collected)).checks];
  const row = (id: string) => rows.find((r) => r.id === id) as CheckResult;
  const asked = (path: string) => site.requests.filter((r) => r.path === path).length;
  return { site: collected, row, asked, crawled: collected.pages.map((p) => new URL(p.url).pathname) };
}

const robots = (...lines: string[]) => ({
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nAllow: /\n${lines.join('\n')}\n` },
});

describe('sitemaps', () => {
  it('reads every Sitemap: line, and starts the crawl from all of them', async () => {
    const { row, crawled, asked } = await audit((o) => ({
      ...robots(`Sitemap: ${o}/a.xml`, `Sitemap: ${o}/b.xml`),
      '/a.xml': xml(urlset([`${o}/`, `${o}/a1`])),
      '/b.xml': xml(urlset([`${o}/b1`, `${o}/b2`])),
      ...pages('/a1', '/b1', '/b2'),
    }));
    expect(asked('/a.xml')).toBe(1);
    expect(asked('/b.xml')).toBe(1);
    expect(crawled).toEqual(expect.arrayContaining(['/', '/a1', '/b1', '/b2']));
    expect(row('sitemap-valid').status).toBe('pass');
    expect(row('sitemap-valid').detail).toMatch(/^2 sitemaps: urlset with 2 URL\(s\) at .*\/a\.xml; urlset with 2/);
    expect(row('sitemap-urls-live').detail).toBe('the first 4 sitemap URLs answer 200');
    expect(row('mk-sitemap').status).toBe('pass');
  });

  it('finds a sitemap in the second line when the first is broken, and names the broken one', async () => {
    const { row, crawled } = await audit((o) => ({
      ...robots(`Sitemap: ${o}/gone.xml`, `Sitemap: ${o}/b.xml`),
      '/b.xml': xml(urlset([`${o}/b1`])),
      ...pages('/b1'),
    }));
    expect(crawled).toContain('/b1');
    const valid = row('sitemap-valid');
    expect(valid.status).toBe('fail');
    expect(valid.finding?.title).toBe('A sitemap named in robots.txt or in a sitemap index cannot be read');
    expect(valid.detail).toMatch(/1 of the 2 sitemaps read: http:\/\/127\.0\.0\.1:\d+\/gone\.xml: answers 404$/);
    expect(valid.finding?.affectedUrls).toEqual([`${site.origin}/gone.xml`]);
    // For search engines one sitemap is enough; the other is named.
    expect(row('mk-sitemap').status).toBe('pass');
    expect(row('mk-sitemap').detail).toContain('not readable: ');
    expect(row('mk-sitemap').detail).toContain('/gone.xml (404)');
  });

  it('follows a sitemap index one level, gzip children included', async () => {
    const {
      row,
      crawled,
      asked,
      site: snapshot,
    } = await audit((o) => ({
      '/sitemap.xml': xml(index([`${o}/posts.xml`, `${o}/pages.xml.gz`])),
      '/posts.xml': xml(urlset([`${o}/post-1`])),
      '/pages.xml.gz': bytes(gzipSync(urlset([`${o}/about`, `${o}/team`]))),
      ...pages('/post-1', '/about', '/team'),
    }));
    expect(asked('/posts.xml')).toBe(1);
    expect(asked('/pages.xml.gz')).toBe(1);
    expect(crawled).toEqual(expect.arrayContaining(['/post-1', '/about', '/team']));
    expect(snapshot.sitemap?.files.map((f) => [f.source, f.parsed?.kind, f.parsed?.gzip ?? false])).toEqual([
      ['default', 'sitemapindex', false],
      ['index', 'urlset', false],
      ['index', 'urlset', true],
    ]);
    expect(row('sitemap-valid').status).toBe('pass');
    expect(row('sitemap-valid').detail).toMatch(/^3 sitemaps: sitemapindex with 2 URL\(s\)/);
  });

  it('reads a gzip sitemap declared in robots.txt, by its bytes whatever its type', async () => {
    const { row, crawled } = await audit((o) => ({
      ...robots(`Sitemap: ${o}/sitemap.xml.gz`),
      '/sitemap.xml.gz': bytes(gzipSync(urlset([`${o}/`, `${o}/shop`])), 'application/octet-stream'),
      ...pages('/shop'),
    }));
    expect(row('sitemap-valid').status, row('sitemap-valid').detail).toBe('pass');
    expect(row('sitemap-valid').detail).toMatch(/^urlset with 2 URL\(s\) at .*\/sitemap\.xml\.gz$/);
    expect(crawled).toContain('/shop');
  });

  it('stops a gzip bomb at 50 MB, without holding up the event loop', async () => {
    // A sitemap then a gigabyte of spaces: a hundred gzip members of 10 MiB each, about 1 MB on the wire.
    const spaces = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20), { level: 9 });
    let bomb = Buffer.alloc(0);
    let worst = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    try {
      const { row } = await audit((o) => {
        bomb = Buffer.concat([gzipSync(urlset([`${o}/`]).replace('</urlset>', '')), ...Array(100).fill(spaces)]);
        return { ...robots(`Sitemap: ${o}/bomb.xml.gz`), '/bomb.xml.gz': bytes(bomb) };
      });
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const valid = row('sitemap-valid');
      expect(valid.status).toBe('fail');
      expect(valid.detail).toContain('more than 50 MB once uncompressed (read up to there)');
    } finally {
      clearInterval(ticker);
    }
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(worst).toBeLessThan(750);
  }, 30_000);

  it('reads an index that lists itself once, and no index inside an index', async () => {
    const { row, asked } = await audit((o) => ({
      '/sitemap.xml': xml(index([`${o}/sitemap.xml`, `${o}/nested.xml`, `${o}/s1.xml`])),
      '/nested.xml': xml(index([`${o}/never.xml`])),
      '/s1.xml': xml(urlset([`${o}/`])),
      '/never.xml': xml(urlset([`${o}/`])),
    }));
    expect(asked('/sitemap.xml')).toBe(1);
    expect(asked('/nested.xml')).toBe(1);
    expect(asked('/never.xml')).toBe(0);
    const valid = row('sitemap-valid');
    expect(valid.status).toBe('fail');
    expect(valid.finding?.title).toBe('The sitemap does not follow the sitemaps protocol');
    expect(valid.detail).toContain('/sitemap.xml: the sitemap index lists itself');
    expect(valid.detail).toContain('/nested.xml: a sitemap index listed by the index');
    expect(valid.finding?.remediation).toContain('never itself, never another index');
  });

  it('reads ten of an index of 100,000 sitemaps, and says how many it left', async () => {
    const { row, site: snapshot } = await audit((o) => ({
      '/sitemap.xml': bytes(gzipSync(index(Array.from({ length: 100_000 }, (_, i) => `${o}/m/${i}.xml`)))),
      ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/m/${i}.xml`, xml(urlset([`${o}/`]))])),
    }));
    const children = site.requests.filter((r) => r.path.startsWith('/m/'));
    expect(children).toHaveLength(10);
    expect(snapshot.sitemap?.unread).toEqual({ declared: 0, children: 99_990 });
    const valid = row('sitemap-valid');
    expect(valid.status).toBe('fail');
    expect(valid.detail).toContain('more than 50,000 URLs in one file');
    expect(valid.detail).toContain('99990 more index entries not read');
  }, 30_000);

  it('reads ten Sitemap: lines at most', async () => {
    const { asked, site: snapshot } = await audit((o) => ({
      ...robots(...Array.from({ length: 25 }, (_, i) => `Sitemap: ${o}/s${i}.xml`)),
      ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`/s${i}.xml`, xml(urlset([`${o}/`]))])),
    }));
    expect(Array.from({ length: 25 }, (_, i) => asked(`/s${i}.xml`))).toEqual([
      ...Array(10).fill(1),
      ...Array(15).fill(0),
    ]);
    expect(snapshot.sitemap?.unread.declared).toBe(15);
  });

  it('bounds lines of megabytes: a Sitemap: line, a comment and an attribute', async () => {
    const started = performance.now();
    const { row } = await audit((o) => ({
      ...robots(`Sitemap: ${o}/${'a'.repeat(1_000_000)}.xml`, `Sitemap: ${o}/long.xml.gz`),
      '/long.xml.gz': bytes(
        gzipSync(
          urlset([`${o}/`]).replace(
            '<url>',
            `<!--${'x'.repeat(20_000_000)}--><url data-x="${'y'.repeat(20_000_000)}">`,
          ),
        ),
      ),
    }));
    expect(performance.now() - started).toBeLessThan(20_000);
    const valid = row('sitemap-valid');
    expect(valid.status).toBe('fail');
    // robots.txt lines are read up to 16,663 characters (robots.ts), then the address is too long to fetch.
    expect(valid.detail).toMatch(/…: not fetched: the address is 16\d{3} characters long \(at most 2048\)$/);
    expect(valid.detail).not.toContain('long.xml.gz');
    expect(row('mk-sitemap').status).toBe('pass');
  }, 30_000);
});

describe('readSitemap', () => {
  it('reads plain and gzip bytes alike, and keeps <image:loc> out of the pages', async () => {
    const { readSitemap } = await import('../../src/audit/sitemap-read.ts');
    const text =
      `<urlset xmlns="${NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
      '<url><loc>https://a.example/p</loc><image:image><image:loc>https://a.example/i.png</image:loc></image:image></url></urlset>';
    for (const input of [Buffer.from(text), gzipSync(text)]) {
      const read = await readSitemap(input, 'https://a.example/sitemap.xml');
      expect(read).toMatchObject({ kind: 'urlset', locs: ['https://a.example/p'], count: 1 });
    }
  });

  it('tells gzip cut short by the fetch cap from gzip that is broken', async () => {
    const { readSitemap } = await import('../../src/audit/sitemap-read.ts');
    const whole = gzipSync(urlset(Array.from({ length: 2000 }, (_, i) => `https://a.example/${i}`)));
    const cut = whole.subarray(0, whole.length >> 1);
    expect((await readSitemap(cut, 'https://a.example/s.xml.gz', true)).gzipError).toBeUndefined();
    expect((await readSitemap(cut, 'https://a.example/s.xml.gz', false)).gzipError).toBe('the gzip data ends early');
    const corrupt = Buffer.from(whole);
    corrupt.fill(0xff, 20, 60);
    expect((await readSitemap(corrupt, 'https://a.example/s.xml.gz')).gzipError).toMatch(/^the gzip data is corrupt/);
  });
});
