// Nothing a page does may take the process down (issue 23): `<script>window.open("/popup")</script>`
// made the renderer's route handler throw ("Frame for this navigation request is not available"),
// and `serve` exited 1 at every attempt of the run. Pages that open windows (at once, in a timer,
// by a target=_blank link, to about:blank written by script), download, raise dialogs, start
// workers and service workers, and frame each other are rendered; the windows are closed and their
// requests refused, never fetched. Then the real `serve --render always` audits a site of them all
// and is still running, the run completed and its report saying what was rendered.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { createChromiumRenderer, type Renderer, subresourcesFrom } from '../../src/audit/render/renderer.ts';
import { AiReadinessReport } from '../../src/contract/index.ts';
import { readLocalKey } from '../../src/service/local-key.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { serveApi, startServe } from '../support/cli.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const WORKER = { headers: { 'content-type': 'text/javascript' }, body: "fetch('/from-worker').catch(() => {});" };
const page = (title: string, body: string) =>
  html(`<title>${title}</title>`, `<main><h1>${title}</h1>${body}</main><p id="end">Rendered to the end.</p>`);

/** Each page a way to open something the renderer must close or refuse; the paths never fetched. */
const HOSTILE: Record<string, { body: string; unfetched: string[] }> = {
  '/popup': { body: '<script>window.open("/opened")</script>', unfetched: ['/opened'] },
  '/popup-timer': {
    body: '<script>setTimeout(() => window.open("/opened-later"), 20)</script>',
    unfetched: ['/opened-later'],
  },
  '/popups': {
    body: '<script>for (let i = 0; i < 20; i++) window.open("/opened-" + i, "_blank", i % 2 ? "noopener" : "")</script>',
    unfetched: Array.from({ length: 20 }, (_, i) => `/opened-${i}`),
  },
  '/blank-link': {
    // Links made by the script, so that the crawl does not follow them.
    body: `<a id="out" target="_blank">Out</a><script>const out = document.getElementById('out');
      out.href = '/new-' + 'window'; out.click();</script>`,
    unfetched: ['/new-window'],
  },
  '/about-blank': {
    body: `<script>const w = window.open('about:blank');
      w.document.write('<img src="/from-blank.png" alt=""><script>fetch("/from-blank")<\\/script>');</script>`,
    unfetched: ['/from-blank.png', '/from-blank'],
  },
  '/download': {
    body: `<a id="dl" download>File</a><script>const dl = document.getElementById('dl');
      dl.href = '/file' + '.bin'; dl.click();</script>`,
    unfetched: ['/file.bin'],
  },
  '/dialogs': {
    body: `<script>alert('a'); confirm('b'); prompt('c');
      addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'stay'; });</script>`,
    unfetched: [],
  },
  '/workers': {
    body: `<script>new Worker('/worker.js'); new SharedWorker('/shared.js');
      navigator.serviceWorker?.register('/sw.js').catch(() => {});</script>`,
    unfetched: ['/sw.js'],
  },
  '/framed': { body: '<iframe src="/popup" title="A page that opens a window"></iframe>', unfetched: ['/opened'] },
};

function hostileSite(): Promise<FixtureSite> {
  return startFixtureSite({
    ...Object.fromEntries(Object.entries(HOSTILE).map(([path, { body }]) => [path, { body: page(path, body) }])),
    '/file.bin': { headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment' } },
    '/worker.js': WORKER,
    '/shared.js': WORKER,
    '/sw.js': WORKER,
  });
}

const fetched = (site: FixtureSite, path: string) => site.requests.some((r) => r.path === path);

describe.skipIf(!hasChromium)('pages that open windows, dialogs, downloads and workers', () => {
  let site: FixtureSite;
  let dns: DnsServer;
  let renderer: Renderer;

  beforeAll(async () => {
    site = await hostileSite();
    dns = await startDnsServer({});
    renderer = createChromiumRenderer({ executablePath: CHROMIUM, limits: { pageDeadlineMs: 8000 } });
  });
  afterAll(async () => {
    await renderer?.close();
    await dns?.close();
    await site?.close();
  });

  it.each(Object.entries(HOSTILE))('%s renders, and what it opens is closed or refused', async (path, hostile) => {
    const fetcher = createFetcher({ resolver: createResolver([dns.address]), allowPrivate: true, timeoutMs: 2000 });
    const session = await renderer.session(subresourcesFrom(fetcher));
    try {
      const rendered = await session.render({
        url: `${site.origin}${path}`,
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: page(path, hostile.body),
      });
      expect(rendered.error).toBeUndefined();
      // A dismissed dialog lets the script go on; the page is read whole.
      expect(rendered.html).toContain('<p id="end">Rendered to the end.</p>');
      for (const unfetched of hostile.unfetched) expect(fetched(site, unfetched), unfetched).toBe(false);
      const windows = hostile.unfetched.filter((p) => p.startsWith('/opened') || p === '/new-window');
      for (const url of windows)
        expect(rendered.refused).toContainEqual({
          url: `${site.origin}${url}`,
          reason: 'not asked by the page being rendered',
        });
      // The session renders on after it.
      const next = await session.render({
        url: `${site.origin}/next`,
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: page('Next', ''),
      });
      expect(next.html).toContain('<h1>Next</h1>');
    } finally {
      await session.close();
      await fetcher.close();
    }
  });
});

describe.skipIf(!hasChromium)('serve --render always on a site of hostile pages', () => {
  let site: FixtureSite;

  beforeAll(async () => {
    site = await hostileSite();
    // The home page opens a window too, and links to every other hostile page.
    const links = Object.keys(HOSTILE)
      .map((path) => `<a href="${path}">${path}</a>`)
      .join(' ');
    site.routes.set('/', { body: page('Home', `<script>window.open("/popup")</script><nav>${links}</nav>`) });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('completes the run, reports every page rendered, and is still running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-hostile-render-'));
    const serve = await startServe(['--data-dir', dataDir, '--allow-local-targets', '--render', 'always']);
    try {
      const api = serveApi(serve, readLocalKey(dataDir) as string);
      const { projectId } = await api('/api/v1/projects', { domain: site.host });
      const { runId } = await api('/api/v1/runs', { projectId });
      let status = '';
      // Polled gently: the local service's rate limit answers a faster poll with 429.
      for (let i = 0; i < 300 && !['completed', 'failed', 'failed_auto_credit'].includes(status); i++) {
        status = String((await api(`/api/v1/runs/${runId}`).catch(() => ({ status: 'unreachable' }))).status);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(serve.child.exitCode, serve.stderr()).toBeNull();
      expect(status).toBe('completed');
      const report = AiReadinessReport.parse(await api(`/api/v1/runs/${runId}/report`));
      const rendered = report.rendering?.pages ?? [];
      expect(rendered.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', ...Object.keys(HOSTILE)].sort());
      expect(rendered.filter((p) => p.error)).toEqual([]);
      expect(rendered.find((p) => new URL(p.url).pathname === '/')?.refused).toBe(1);
      expect(rendered.find((p) => new URL(p.url).pathname === '/popups')?.refused).toBe(20);
      for (const path of Object.values(HOSTILE).flatMap((h) => h.unfetched))
        expect(fetched(site, path), path).toBe(false);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  }, 120_000);
});
