// The crawl benchmark's site on loopback: `BENCH_CRAWL_PAGES` pages (500 unless told, 60 at least)
// shaped like a CMS theme's output (bench/support/cms-site.ts: 30 to 80 KB and 60 links or more
// each), with the robots.txt and sitemap a full scan reads. It counts the requests it answers, so
// each side's requests per crawl can be shown.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cmsSite, countLinks } from './support/cms-site.ts';

export const SITE_PAGES = Math.max(60, Number(process.env.BENCH_CRAWL_PAGES ?? 500));

export interface CrawlSite {
  origin: string;
  pages: number;
  /** Bytes of HTML of all the pages. */
  htmlBytes: number;
  /** Links (`<a `) a page holds: the fewest and the median. */
  linksPerPage: { min: number; median: number };
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startCrawlSite(): Promise<CrawlSite> {
  const site = cmsSite(SITE_PAGES);
  const links = site.pages.map((p) => countLinks(p.html)).sort((a, b) => a - b);
  let origin = '';
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const page = site.page(path);
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    else if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(site.robotsTxt(origin));
    else if (path === '/sitemap.xml')
      res.writeHead(200, { 'content-type': 'application/xml' }).end(site.sitemapXml(origin));
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pages: site.pages.length,
    htmlBytes: site.pages.reduce((sum, p) => sum + p.html.length, 0),
    linksPerPage: { min: links[0] ?? 0, median: links[Math.floor(links.length / 2)] ?? 0 },
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run alone (`node bench/crawl-site.ts`), it serves the site until stopped and prints its origin:
// for timing the workers as whole processes with an outside tool.
if (import.meta.url === `file://${process.argv[1]}`) {
  const site = await startCrawlSite();
  process.stdout.write(`${site.origin} ${site.pages} pages\n`);
}
