// Pages for the render benchmark, as sites render them: an app shell filled by its script, an
// article, a product page with a form, a page with contrast failures, an old table layout. Served
// on loopback with their script and images.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const head = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${title} at Acme garden tools."></head>`;
const text = (n: number) =>
  `<p>${'Hand-forged garden tools, tempered and sharpened, guaranteed for twenty years of daily work. '.repeat(n)}</p>`;

export const RENDER_PAGES: Record<string, string> = {
  '/': `${head('Acme')}<body><div id="app"></div><script src="/app.js"></script></body></html>`,
  '/article': `${head('How we forge')}<body><header><nav><a href="/">Home</a></nav></header><main><h1>How we forge</h1>${text(40)}<img src="/img/1.png" alt="The forge" width="640" height="480"></main></body></html>`,
  '/product': `${head('Spade')}<body><main><h1>Spade</h1>${text(10)}<form action="/cart" method="post"><label for="q">Quantity</label><input id="q" name="q" type="number"><button>Add to cart</button></form></main></body></html>`,
  '/offers': `${head('Offers')}<body><main><h1>Offers</h1><p style="color:#c8c8c8">${'Pale grey text. '.repeat(30)}</p><a href="/x"><img src="/img/2.png"></a></main></body></html>`,
  '/old': `${head('Old page')}<body><table width="100%"><tr><td><font color="#999">${'Welcome to our site. '.repeat(20)}</font></td><td><img src="/img/3.png"></td></tr></table></body></html>`,
};

const APP_JS = `document.getElementById('app').innerHTML = '<main><h1>Acme garden tools</h1>' + ${JSON.stringify(text(20))} + '<a href="/article">How we forge</a> <button>Menu</button></main>';`;
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export async function startRenderSite(): Promise<{ origin: string; urls: string[]; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const page = RENDER_PAGES[path];
    if (path === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
    else if (path.startsWith('/img/')) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: Object.keys(RENDER_PAGES).map((path) => `${origin}${path}`),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
