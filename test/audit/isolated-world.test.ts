// The isolated world the audit's own scripts run in (render/isolated-world.ts), in Debian's Chromium:
// it shares the page's DOM, not its globals, and a script that fails there says why.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedWorld } from '../../src/audit/render/isolated-world.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';

describe.skipIf(!hasChromium)('an isolated world of the page', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent(
      '<main><h1 id="t">Title</h1></main><script>window.marker = "page"; document.querySelector = () => null;</script>',
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reads and writes the page’s DOM with the browser’s own functions, not the page’s', async () => {
    const world = await isolatedWorld(page);
    const seen = await world.call((id: string) => {
      const g = globalThis as unknown as {
        marker?: string;
        document: {
          querySelector(s: string): { setAttribute(n: string, v: string): void; textContent: string } | null;
        };
      };
      const element = g.document.querySelector(`#${id}`);
      element?.setAttribute('data-seen', 'yes');
      return { marker: g.marker ?? null, text: element?.textContent ?? null };
    }, 't');
    await world.close();
    expect(seen).toEqual({ marker: null, text: 'Title' });
    expect(await page.getAttribute('#t', 'data-seen')).toBe('yes');
  });

  it('loads a library into the world only, and rejects with the first line of a script’s error', async () => {
    const world = await isolatedWorld(page);
    await world.load('globalThis.library = { version: 1 };');
    expect(
      await world.call(() => (globalThis as unknown as { library?: { version: number } }).library?.version, null),
    ).toBe(1);
    expect(await page.evaluate(() => (globalThis as unknown as { library?: unknown }).library)).toBeUndefined();
    await expect(
      world.call(() => {
        throw new Error('axe could not run\nat somewhere');
      }, null),
    ).rejects.toThrow(/^Error: axe could not run$/);
    await world.close();
  });
});
