// One side of the render benchmark, in its own process: `ours` renders each page with the engine's
// renderer (Chromium, axe-core, the agent view) through the audit's fetcher; `lighthouse` and
// `lighthouse-a11y` run Lighthouse 13 (all categories, or accessibility only) on the same Chromium.
// Prints {seconds: [per page], chromiumPath}.
import { createFetcher } from '../src/audit/net/fetcher.ts';
import { createResolver } from '../src/audit/net/resolver.ts';
import { CHROMIUM_FLAGS, findChromium } from '../src/audit/render/chromium.ts';
import { createChromiumRenderer, subresourcesFrom } from '../src/audit/render/renderer.ts';

const [mode, ...urls] = process.argv.slice(2);
const chromium = findChromium();
if (!chromium) throw new Error('no Chromium (apt-get install chromium, or set SITEAUDIT_CHROMIUM)');
const seconds: number[] = [];

if (mode === 'ours') {
  const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true });
  const renderer = createChromiumRenderer({ executablePath: chromium });
  const session = await renderer.session(subresourcesFrom(fetcher));
  for (const url of urls) {
    const started = performance.now();
    const page = await fetcher.fetch(url);
    const rendered = await session.render(
      { url: page.url, status: page.status, headers: page.headers, body: page.body },
      { agentView: true },
    );
    if (!rendered.html) throw new Error(`${url}: ${rendered.error}`);
    seconds.push((performance.now() - started) / 1000);
  }
  await session.close();
  await renderer.close();
  await fetcher.close();
} else {
  const { default: lighthouse } = await import('lighthouse');
  const { launch } = await import('chrome-launcher');
  const chrome = await launch({
    chromePath: chromium,
    chromeFlags: CHROMIUM_FLAGS,
  });
  try {
    for (const url of urls) {
      const started = performance.now();
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        ...(mode === 'lighthouse-a11y' ? { onlyCategories: ['accessibility'] } : {}),
      });
      if (!result?.lhr.categories) throw new Error(`${url}: no Lighthouse result`);
      seconds.push((performance.now() - started) / 1000);
    }
  } finally {
    await chrome.kill();
  }
}
process.stdout.write(`${JSON.stringify({ seconds })}\n`);
