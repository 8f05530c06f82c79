// The crawler against a fixture site on loopback.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/audit/crawler.ts';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { policyFromResponse } from '../../src/audit/robots.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

// Each page its own body: the crawler takes one body served under two URLs as one page.
let served = 0;
const page = (links: string[]) => ({
  body: html(`<title>t${served++}</title>`, links.map((l) => `<a href="${l}">${l}</a>`).join(' ')),
});

describe('crawl', () => {
  let site: FixtureSite;
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    const slow = (links: string[]) => (_req: IncomingMessage, res: ServerResponse) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page(links).body);
      }, 20);
    };
    site = await startFixtureSite({
      '/': page([
        '/a',
        '/b',
        '/private/x',
        '/c#frag',
        'https://elsewhere.example/',
        '/file.pdf',
        'mailto:x@y.z',
        'javascript:void(0)',
      ]),
      '/a': page(['/a1', '/a2', '/']),
      '/b': { body: html('', '<a href="/b1" rel="nofollow">b1</a><a href="/b2">b2</a>') },
      '/c': page([]),
      '/a1': page([]),
      '/a2': page([]),
      '/b2': page([]),
      '/wide': page(Array.from({ length: 12 }, (_, i) => `/w${i}`)),
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/w${i}`, slow([])])),
    });
  });
  afterAll(() => site.close());

  const fetcher = () => createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 2000 });
  const robots = policyFromResponse(200, 'User-agent: *\nDisallow: /private/\n');

  it('visits same-origin pages breadth first, honouring robots.txt and nofollow', async () => {
    const result = await crawl(`${site.origin}/`, { fetcher: fetcher(), robots });
    const paths = result.pages.map((p) => new URL(p.url).pathname);
    expect(paths).toEqual(['/', '/a', '/b', '/c', '/a1', '/a2', '/b2']);
    expect(result.disallowed).toEqual([`${site.origin}/private/x`]);
    expect(result.pages.every((p) => p.fetched?.status === 200 && p.facts)).toBe(true);
  });

  it('stops at the page budget', async () => {
    const result = await crawl(`${site.origin}/`, { fetcher: fetcher(), robots, pageBudget: 3 });
    expect(result.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/a', '/b']);
  });

  it('gives the same pages on every crawl of the same site', async () => {
    const runs = await Promise.all(
      [1, 2, 3].map(() => crawl(`${site.origin}/`, { fetcher: fetcher(), robots, pageBudget: 5 })),
    );
    const lists = runs.map((r) => r.pages.map((p) => p.url).join(' '));
    expect(new Set(lists).size).toBe(1);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    maxInFlight = 0;
    const result = await crawl(`${site.origin}/wide`, { fetcher: fetcher(), robots, concurrency: 3 });
    expect(result.pages).toHaveLength(13);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(3);
  });

  it('records a page that fails instead of giving up the crawl', async () => {
    const result = await crawl(`${site.origin}/`, {
      fetcher: fetcher(),
      robots,
      seeds: [`${site.origin}/missing`],
      pageBudget: 3,
    });
    expect(result.pages[1]).toMatchObject({ url: `${site.origin}/missing`, fetched: { status: 404 } });
  });

  // Found on real sites (issue 10): `/` and `/index.html` were two pages, and findings listed `/posts`,
  // which redirects to `/posts/`.
  it('audits one page once: index files, redirects to a page already seen, one body under two URLs', async () => {
    const home = html(
      '<title>Home</title>',
      '<a href="/index.html">Home</a> <a href="/posts">Posts</a> <a href="/posts/">Posts again</a> <a href="/about">About</a> <a href="/about-print">Print</a>',
    );
    const about = html('<title>About</title>', '<p>About us</p>');
    const once = await startFixtureSite({
      '/': { body: home },
      '/index.html': { body: home },
      '/posts': { status: 301, headers: { location: '/posts/' } },
      '/posts/': { body: html('<title>Posts</title>', '<p>All posts</p>') },
      '/about': { body: about },
      '/about-print': { body: about },
    });
    try {
      const result = await crawl(`${once.origin}/`, { fetcher: fetcher(), robots: policyFromResponse(404, '') });
      expect(result.pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/posts/', '/about']);
    } finally {
      await once.close();
    }
  });
});
