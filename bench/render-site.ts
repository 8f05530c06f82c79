// Pages for the render benchmark, as a CMS theme serves them (bench/support/cms-site.ts: 30 to 80
// KB, 60 links or more, inlined CSS, scripts, images, forms, the theme's low-contrast grey): the home
// page, a category index, a post of about median size, the largest post, and the same post as an app
// shell whose script builds the page. `BENCH_RENDER_PAGES` takes the first N of these (5 unless told).
// Served on loopback with the theme's scripts, stylesheet and images.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CmsPage, cmsSite, countLinks } from './support/cms-site.ts';

const site = cmsSite(60);
const posts = site.pages.filter((p) => p.path.startsWith('/blog/')).sort((a, b) => a.html.length - b.html.length);
const medianPost = posts[Math.floor(posts.length / 2)] as CmsPage;
const largestPost = posts.at(-1) as CmsPage;

/** The page with its body left to a script, as a single-page app serves it. */
function appShell(page: CmsPage): string {
  const bodyAt = page.html.indexOf('<body');
  return `${page.html.slice(0, bodyAt)}<body class="theme-acme"><div id="app"></div><script src="/assets/app.js?page=${encodeURIComponent(page.path)}"></script></body></html>`;
}

const PAGES: Array<{ path: string; kind: string; html: string; body?: string }> = [
  { path: '/', kind: 'home', html: (site.page('/') as CmsPage).html },
  { path: '/category/tools', kind: 'category index', html: (site.page('/category/tools') as CmsPage).html },
  { path: medianPost.path, kind: 'post', html: medianPost.html },
  { path: largestPost.path, kind: 'largest post', html: largestPost.html },
  { path: '/app/post', kind: 'app shell (post built by script)', html: appShell(medianPost), body: medianPost.body },
].slice(0, Math.max(1, Number(process.env.BENCH_RENDER_PAGES ?? 5)));

const THEME_JS = `document.querySelectorAll('.menu-toggle').forEach(function (b) { b.addEventListener('click', function () { b.setAttribute('aria-expanded', String(b.getAttribute('aria-expanded') !== 'true')); }); });`;
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="160" height="40" fill="#2e7d32"/></svg>';
// A 1x1 PNG, for every image the theme asks for.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export interface RenderSite {
  origin: string;
  urls: string[];
  /** What each URL is, its size in KB and its links, in `urls` order. */
  described: string[];
  close(): Promise<void>;
}

export async function startRenderSite(): Promise<RenderSite> {
  const byPath = new Map(PAGES.map((p) => [p.path, p]));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const page = byPath.get(path);
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    else if (path === '/assets/app.js') {
      const body = byPath.get('/app/post')?.body ?? '';
      res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(`document.getElementById('app').outerHTML = ${JSON.stringify(body)};`);
    } else if (path.endsWith('.js')) res.writeHead(200, { 'content-type': 'text/javascript' }).end(THEME_JS);
    else if (path.endsWith('.css'))
      res.writeHead(200, { 'content-type': 'text/css' }).end('.site-footer{padding:2rem}');
    else if (path.endsWith('.svg')) res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
    else if (/\.(?:png|jpg)$/.test(path)) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: PAGES.map((p) => `${origin}${p.path}`),
    described: PAGES.map((p) => {
      const html = p.body ?? p.html;
      return `${p.kind} (${(p.html.length / 1024).toFixed(0)} KiB${p.body ? ` + ${(p.body.length / 1024).toFixed(0)} KiB built by script` : ''}, ${countLinks(html)} links)`;
    }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
