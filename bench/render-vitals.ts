// What measuring Core Web Vitals adds to a render (issue 29): `node bench/render-vitals.ts`. The
// render benchmark's five CMS pages (bench/render-site.ts: theme scripts, stylesheet, logo and
// images, 47 to 67 KiB of HTML) are rendered by the engine's renderer as an audit renders them
// (axe-core, the accessibility tree), each once without and once with the vitals measured (its load
// throttled to slow 4G and a 4x CPU slowdown, render/vitals.ts), in turns whose order alternates by
// round. Prints per page the median render time of each way and of the time added, over
// `BENCH_RENDER_ROUNDS` rounds (3 unless told), with the lowest and highest round in brackets.
import { createFetcher } from '../src/audit/net/fetcher.ts';
import { createResolver } from '../src/audit/net/resolver.ts';
import { findChromium } from '../src/audit/render/chromium.ts';
import { createChromiumRenderer, subresourcesFrom } from '../src/audit/render/renderer.ts';
import { startRenderSite } from './render-site.ts';
import { spread } from './support/stats.ts';

const ROUNDS = Math.max(1, Number(process.env.BENCH_RENDER_ROUNDS ?? 3));
const chromium = findChromium();
if (!chromium) throw new Error('no Chromium (apt-get install chromium, or set SITEAUDIT_CHROMIUM)');

const site = await startRenderSite();
const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true });
const renderer = createChromiumRenderer({ executablePath: chromium });
const plain: number[][] = site.urls.map(() => []);
const measured: number[][] = site.urls.map(() => []);
const added: number[][] = site.urls.map(() => []);
try {
  const session = await renderer.session(subresourcesFrom(fetcher));
  // The browser's first page pays its start: one render first, not counted.
  const warm = await fetcher.fetch(site.urls[0] as string);
  await session.render({ url: warm.url, status: warm.status, headers: warm.headers, body: warm.body });
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, url] of site.urls.entries()) {
      const page = await fetcher.fetch(url);
      const document = { url: page.url, status: page.status, headers: page.headers, body: page.body };
      const ms: Record<'plain' | 'vitals', number> = { plain: 0, vitals: 0 };
      for (const way of round % 2 === 0 ? (['plain', 'vitals'] as const) : (['vitals', 'plain'] as const)) {
        const rendered = await session.render(document, { agentView: true, vitals: way === 'vitals' });
        if (!rendered.html) throw new Error(`${url}: ${rendered.error}`);
        if (way === 'vitals' && !rendered.vitals) throw new Error(`${url}: no vitals (${rendered.vitalsError})`);
        ms[way] = rendered.ms / 1000;
      }
      plain[i]?.push(ms.plain);
      measured[i]?.push(ms.vitals);
      added[i]?.push(ms.vitals - ms.plain);
    }
  await session.close();
} finally {
  await renderer.close();
  await fetcher.close();
  await site.close();
}

const lines = [
  `Rendering with and without Core Web Vitals (${ROUNDS} round(s); median s, lowest–highest round)`,
  '',
  '| page | render s | render with vitals s | added s |',
  '|---|---:|---:|---:|',
  ...site.described.map(
    (page, i) =>
      `| ${page} | ${spread(plain[i] ?? [], 2)} | ${spread(measured[i] ?? [], 2)} | ${spread(added[i] ?? [], 2)} |`,
  ),
  `| all pages | ${spread(plain.flat(), 2)} | ${spread(measured.flat(), 2)} | ${spread(added.flat(), 2)} |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
