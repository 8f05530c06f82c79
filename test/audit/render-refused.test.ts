// The render report counts every refused request (issue 23): a page that makes 1,000 requests the
// audit refuses was reported as 20, the size of the sample of URLs kept. The sample stays 20; the
// count is exact, in the renderer's answer and in the report's `rendering.pages[].refused`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/index.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const REFUSED = 1000;
// POSTs are refused before anything is fetched; the page says when every one has been answered.
const NOISY = html(
  '<title>Noisy</title>',
  `<main><h1>Noisy</h1><p>${'A page that posts a great deal. '.repeat(8)}</p></main>
   <script>Promise.allSettled(Array.from({ length: ${REFUSED} }, (_, i) => fetch('/api/' + i, { method: 'POST', body: 'x' })))
     .then(() => { document.body.dataset.settled = 'yes'; });</script>`,
);

describe.skipIf(!hasChromium)('refused requests of a rendered page', () => {
  let site: FixtureSite;
  let renderer: Renderer;

  beforeAll(async () => {
    site = await startFixtureSite({ '/': { body: NOISY } });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it('are all counted in the report, with a sample of their URLs kept by the renderer', async () => {
    const outcome = await runAudit(
      'ai_readiness',
      { url: `${site.origin}/`, local: true },
      { pageBudget: 1, render: { renderer, mode: 'always' } },
    );
    expect(outcome.rendering?.pages).toHaveLength(1);
    expect(outcome.rendering?.pages[0]).toMatchObject({ url: `${site.origin}/`, refused: REFUSED });
    expect(outcome.rendering?.pages[0]?.error).toBeUndefined();
    expect(site.requests.filter((r) => r.path.startsWith('/api/'))).toEqual([]);
  }, 60_000);

  it('keeps 20 of them and counts the rest', async () => {
    const session = await renderer.session(() => Promise.reject(new Error('nothing is fetched')));
    try {
      const page = await session.render({
        url: `${site.origin}/`,
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: NOISY,
      });
      expect(page.html).toContain('data-settled="yes"');
      expect(page.refusedCount).toBe(REFUSED);
      expect(page.refused).toHaveLength(20);
      expect(page.refused[0]).toEqual({ url: `${site.origin}/api/0`, reason: 'POST is not sent by an audit' });
    } finally {
      await session.close();
    }
  }, 30_000);
});
