// Fixture websites served by the tests on loopback: a table of paths, each a page with a status,
// headers and body, or a handler for cases a table cannot say (slow, endless, redirect loops).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixturePage {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string;
}

export type FixtureRoute = FixturePage | ((req: IncomingMessage, res: ServerResponse) => void);

export interface FixtureSite {
  /** `http://127.0.0.1:port` */
  origin: string;
  port: number;
  /** `127.0.0.1:port`, usable as a local project domain. */
  host: string;
  routes: Map<string, FixtureRoute>;
  requests: Array<{ path: string; userAgent: string | undefined }>;
  close(): Promise<void>;
}

export const html = (head: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

export function handleFixture(routes: Map<string, FixtureRoute>, requests: FixtureSite['requests']) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ path, userAgent: req.headers['user-agent'] });
    const route = routes.get(path);
    if (typeof route === 'function') return route(req, res);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    const headers = { 'content-type': 'text/html; charset=utf-8', ...route.headers };
    res.writeHead(route.status ?? 200, headers);
    res.end(route.body ?? '');
  };
}

export async function startFixtureSite(routes: Record<string, FixtureRoute> = {}): Promise<FixtureSite> {
  const table = new Map(Object.entries(routes));
  const requests: FixtureSite['requests'] = [];
  const server: Server = createServer(handleFixture(table, requests));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    host: `127.0.0.1:${port}`,
    routes: table,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small shop of two pages, a home page linking to an about page: enough for a whole audit. */
export function startShopSite(): Promise<FixtureSite> {
  return startFixtureSite({
    '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1><a href="/about">About us</a></main>') },
    '/about': { body: html('<title>About</title>', '<main><h1>About</h1></main>') },
  });
}

/**
 * A home page that links every one of `paths`, each a plain page with a heading and a sentence: a
 * site whose crawl finds exactly these pages (render limits, samples).
 */
export function startLinkedSite(paths: readonly string[], head = ''): Promise<FixtureSite> {
  return startFixtureSite({
    '/': {
      body: html(
        `<title>Home</title>${head}`,
        `<main><h1>Home</h1><nav>${paths.map((p) => `<a href="${p}">Page ${p}</a>`).join(' ')}</nav></main>`,
      ),
    },
    ...Object.fromEntries(
      paths.map((p) => [p, { body: html(`<title>${p}</title>`, `<main><h1>Page ${p}</h1><p>Text.</p></main>`) }]),
    ),
  });
}
