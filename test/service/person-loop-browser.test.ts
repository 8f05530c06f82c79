// The person's side of an audit, as issue 24 asks it to be shown: an agent audits a site through the
// MCP server on the embedded default; the person opens the humanUrl of the tool result in a fresh
// browser profile and reads the report with no sign-in; after a second audit the project page lists
// both runs with their scores and a trend chart. Screenshots at 1280 and 390 px go to the test output
// folder (test-output/person-loop, or $SITEAUDIT_TEST_OUTPUT/person-loop).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { removeLocalServices } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { connectStdio, type StdioConnection } from '../support/mcp.ts';

const OUTPUT = join(
  process.env.SITEAUDIT_TEST_OUTPUT || join(import.meta.dirname, '..', '..', 'test-output'),
  'person-loop',
);

const structured = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

/** No horizontal scrolling of the page itself: what does not fit wraps or scrolls in its own box. */
const overflow = (tab: Page) =>
  tab.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describe.skipIf(!hasChromium)('the person opens what the agent shares (Chromium, fresh profile)', () => {
  let site: FixtureSite;
  let fixed = false;
  let mcp: StdioConnection;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-person-'));

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    // The first audit finds an image without a text alternative and a page without a description;
    // the site is then fixed, and the second audit scores higher.
    site = await startFixtureSite({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          fixed
            ? html(
                '<title>Harbour Bakery: sourdough in Portsmouth</title><meta name="description" content="Sourdough and pastries baked daily in Portsmouth.">',
                '<h1>Harbour Bakery</h1><img src="/loaf.png" alt="A sourdough loaf"><p>Sourdough and pastries, baked every morning.</p><a href="/about">About us</a>',
              )
            : html(
                '<title>Home</title>',
                '<h1>Harbour Bakery</h1><img src="/loaf.png"><p>Bread.</p><a href="/about">About</a>',
              ),
        );
      },
      '/about': {
        body: html('<title>About Harbour Bakery</title>', '<h1>About</h1><p>A family bakery since 1994.</p>'),
      },
    });
    mcp = await connectStdio({ SITEAUDIT_DATA_DIR: dataDir }, { era: '2025-11-25' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await site?.close();
    await removeLocalServices([dataDir]);
  });

  async function audit(projectId: string) {
    const started = structured<{ runId: string }>(
      await mcp.client.callTool({
        name: 'start_run',
        arguments: { projectId, idempotencyKey: `person-${Date.now()}` },
      }),
    );
    for (let i = 0; i < 20; i++) {
      const waited = structured<{ status: string; stillRunning: boolean; humanUrl: string; score: number }>(
        await mcp.client.callTool({ name: 'wait_for_run', arguments: { runId: started.runId } }),
      );
      if (!waited.stillRunning) {
        expect(waited.status).toBe('completed');
        return { runId: started.runId, ...waited };
      }
    }
    throw new Error('the audit did not end');
  }

  async function shoot(tab: Page, name: string) {
    for (const width of [1280, 390]) {
      await tab.setViewportSize({ width, height: 900 });
      expect(await overflow(tab), `${name} at ${width} px`).toBeLessThanOrEqual(0);
      const path = join(OUTPUT, `${name}-${width}.png`);
      await tab.screenshot({ path, fullPage: true });
      process.stderr.write(`screenshot: ${path}\n`);
    }
    await tab.setViewportSize({ width: 1280, height: 900 });
  }

  it('opens the report from the tool result, then the project page with both runs and a trend', async () => {
    const project = structured<{ projectId: string }>(
      await mcp.client.callTool({ name: 'create_project', arguments: { domain: site.host } }),
    );
    const first = await audit(project.projectId);
    const report = await mcp.client.callTool({ name: 'get_report', arguments: { runId: first.runId } });
    const humanUrl = structured<{ humanUrl: string }>(report).humanUrl;
    // The link the agent shares is the one in the tool's text too.
    expect(JSON.stringify(report.content)).toContain(humanUrl);

    // A fresh profile: no cookie, no sign-in. The link opens the report itself.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    await tab.goto(humanUrl);
    expect(new URL(tab.url()).pathname).toBe(`/runs/${first.runId}`);
    expect(new URL(tab.url()).search).toBe('');
    await expect(tab.locator('h1').first().innerText()).resolves.toBe(site.host);
    expect(await tab.locator('input[type=password]').count()).toBe(0);
    await expect(tab.locator('article.finding').count()).resolves.toBeGreaterThan(0);
    await shoot(tab, '1-report');

    fixed = true;
    const second = await audit(project.projectId);
    expect(second.score).toBeGreaterThan(first.score);

    // From the report, the navigation leads to the project page.
    await tab.goto(humanUrl.replace(/\?.*$/, ''));
    await tab.locator(`nav a[href="/projects/${project.projectId}"]`).first().click();
    expect(new URL(tab.url()).pathname).toBe(`/projects/${project.projectId}`);
    const runLinks = tab.locator(`a[href^="/runs/"]`);
    const hrefs = await runLinks.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`/runs/${first.runId}`);
    expect(hrefs).toContain(`/runs/${second.runId}`);
    const text = await tab.locator('main').innerText();
    expect(text).toContain(String(first.score));
    expect(text).toContain(String(second.score));
    const chart = tab.locator('svg[role="img"]').first();
    await expect(chart.count()).resolves.toBe(1);
    // Its accessible name says the trend in words.
    const name = await chart.evaluate((svg) => svg.querySelector('title')?.textContent ?? '');
    expect(name).toMatch(new RegExp(`from ${first.score} to ${second.score} over 2`));
    await shoot(tab, '2-project');
    await context.close();
  });
});
