// ai_readiness page checks of performance and security: how fast and light the pages arrive (first
// byte, HTML weight, render-blocking scripts, image dimensions), and that they come over HTTPS with
// nothing loaded over http:// (not asked on a local scan, which judges no deployment).
import { type CheckResult, fail, pass, perPage } from '../checks.ts';
import { quote } from '../quote.ts';
import { type PagesContext, whole } from './pages-context.ts';
import { PAGE_SPECS as S } from './pages-specs.ts';

const TTFB_SLOW_MS = 800;
const HTML_HEAVY_BYTES = 500 * 1024;

export function deliveryRows({ site, pages, home }: PagesContext): CheckResult[] {
  const ttfb = home.fetched?.ttfbMs ?? 0;
  const performance = [
    ttfb <= TTFB_SLOW_MS
      ? pass(S.ttfb, `home page first byte in ${Math.round(ttfb)} ms`)
      : fail(S.ttfb, {
          detail: `home page first byte after ${Math.round(ttfb)} ms`,
          title: 'Slow server response',
          remediation:
            'Aim for a first byte under 800 ms: cache rendered pages, use a CDN, and profile slow server work.',
          agentAction: 'Add caching for the home page response (CDN or server cache) and profile the request handler.',
          affectedUrls: [home.url],
          confidence: 'medium',
        }),
    perPage(
      S.weight,
      pages,
      (_f, p) =>
        whole((p.fetched?.bytes ?? 0) > HTML_HEAVY_BYTES, `${Math.round((p.fetched?.bytes ?? 0) / 1024)} KB of HTML`),
      {
        ok: 'HTML documents are under 500 KB',
        problem: 'the HTML document is over 500 KB',
        title: 'Heavy HTML documents',
        remediation: 'Keep HTML lean: move inline data and styles to cached files, paginate long lists.',
        agentAction: 'Reduce inline JSON, SVG and CSS in these pages’ HTML; load them as separate cached assets.',
      },
    ),
    perPage(
      S.blocking,
      pages,
      (f) =>
        f.scripts
          .filter((s) => s.inHead && s.src && !s.async && !s.defer && !s.module)
          .map((s) => ({ what: `<script src=${quote(s.src ?? '')}>`, element: s.element })),
      {
        ok: 'no render-blocking scripts in the head',
        problem: 'a <script src> in <head> without async or defer',
        title: 'Render-blocking scripts',
        remediation: 'Add defer (or async) to scripts in the head, or move them to the end of the body.',
        agentAction: 'Add the defer attribute to the <script src> tags in the <head>.',
      },
    ),
    perPage(
      S.dimensions,
      pages,
      (f) =>
        f.images
          .filter((i) => !i.hasDimensions)
          .map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element })),
      {
        ok: 'images declare their dimensions',
        problem: 'an <img> without width and height',
        title: 'Images without dimensions',
        remediation: 'Set width and height on images so the layout does not shift while they load.',
        agentAction: 'Add width and height attributes (the intrinsic size) to these <img> elements.',
      },
    ),
  ];
  if (site.local) return performance;
  const http = new URL(home.fetched?.url ?? home.url).protocol === 'http:';
  return [
    ...performance,
    http
      ? fail(S.https, {
          detail: `the home page is served over plain HTTP (${home.fetched?.url})`,
          title: 'The site is not served over HTTPS',
          remediation: 'Serve every page over HTTPS and redirect HTTP to HTTPS.',
          agentAction: 'Configure TLS for the host and a 301 redirect from http:// to https://.',
          affectedUrls: [home.url],
        })
      : pass(S.https, 'the home page is served over HTTPS'),
    perPage(
      S.mixed,
      pages.filter((p) => (p.fetched?.url ?? p.url).startsWith('https:')),
      (f) => f.mixedContent.map((m) => ({ what: quote(m.url), element: m.element })),
      {
        ok: 'HTTPS pages load no http:// resources',
        problem: 'an https page loads scripts, styles, images, frames or media, or submits a form, over http://',
        title: 'Mixed content',
        remediation: 'Load every resource of an HTTPS page over HTTPS.',
        agentAction:
          'Change http:// URLs on these pages (script src, stylesheet href, img/source src and srcset, iframe src, video poster, form action) to https://.',
      },
    ),
  ];
}
