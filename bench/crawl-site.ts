// A generated 500-page site for the crawl benchmark: realistic pages (head metadata, JSON-LD,
// navigation, text, images, a form) linked so that a breadth-first crawl reaches every page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SITE_PAGES = 500;
const LINKS_PER_PAGE = 6;

function pageHtml(i: number): string {
  const links = Array.from({ length: LINKS_PER_PAGE }, (_, k) => i * LINKS_PER_PAGE + k + 1)
    .filter((n) => n < SITE_PAGES)
    .map((n) => `<li><a href="/p/${n}">Product ${n}</a></li>`)
    .join('');
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `Product ${i}`,
    offers: { '@type': 'Offer', price: '19.00', priceCurrency: 'EUR' },
  });
  const text = `<p>Product ${i} is a forged garden tool. ${'It is made by hand from carbon steel, tempered and sharpened, and guaranteed for twenty years of daily work. '.repeat(12)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product ${i} — Acme garden tools</title>
<meta name="description" content="Product ${i}: a hand-forged garden tool, guaranteed for twenty years.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="/p/${i}">
<script type="application/ld+json">${jsonLd}</script><script src="/app.js" defer></script></head>
<body><header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/contact">Contact</a></nav></header>
<main><h1>Product ${i}</h1>${text}<h2>Related</h2><ul>${links}</ul>
<img src="/img/${i}.jpg" alt="Product ${i}" width="640" height="480">
<form action="/cart" method="post"><label for="q">Quantity</label><input id="q" name="q" type="number"><button>Add to cart</button></form></main>
<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>`;
}

export async function startCrawlSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const pages = Array.from({ length: SITE_PAGES }, (_, i) => pageHtml(i));
  const server: Server = createServer((req, res) => {
    const match = /^\/(?:p\/(\d+))?$/.exec(req.url ?? '');
    const index = match ? Number(match[1] ?? 0) : Number.NaN;
    const body = pages[index];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
