// What each agent gets (issue 29), end to end: an AI readiness run of a deployed fixture site (a named
// host over HTTPS, our DNS server and CA) whose home page serves GPTBot an empty app shell. The run's
// report context carries the views; the run page shows a table a page (agent, words, tokens, beside a
// browser) that fits at 390 and 1280 px in Chromium; get_report's text tells it and page_findings'
// text carries the finding naming GPTBot with its numbers, both read through a real MCP client.
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { AiReadinessReport, FindingPage, type Run } from '../../src/contract/index.ts';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { html } from '../support/fixture-site.ts';
import { signedInOwner } from '../support/form-browser.ts';
import { connectHttp, startLoopbackMcp, textOf } from '../support/mcp.ts';
import { createTestCa, type SecureSites, startSecureSites, type TestCa } from '../support/secure-sites.ts';
import { startTestService, type TestService } from '../support/service.ts';

const SENTENCE = 'Our workshop forges garden spades, forks and shears by hand, and sharpens them for life. ';
const FULL = html(
  '<title>Forge</title><meta name="viewport" content="width=device-width, initial-scale=1">',
  `<main><h1>Forged garden tools</h1><p>${SENTENCE.repeat(20)}</p><a href="/about">About the forge</a></main>`,
);
const SHELL = html('<title>Forge</title><script type="module" src="/assets/app.js"></script>', '<div id="app"></div>');
const ABOUT = html('<title>About</title>', `<main><h1>About the forge</h1><p>${SENTENCE.repeat(6)}</p></main>`);

const home = (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(String(req.headers['user-agent'] ?? '').includes('GPTBot') ? SHELL : FULL);
};

const backend = testBackends()[0];

describe.skipIf(!backend?.available)('what each agent gets, through the service, the dashboard and MCP', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  let s: TestService;
  let mcp: McpHttpServer;
  let client: Client;
  let run: Run;
  let key: string;
  let organizationId: string;

  beforeAll(async () => {
    if (!backend) return;
    ca = createTestCa();
    sites = await startSecureSites({
      'forge.test': {
        tls: ca.issue(['forge.test'], 200),
        https: {
          '/': home,
          '/about': { body: ABOUT },
          '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
        },
        http: { '/': { status: 301, headers: { location: 'https://forge.test/' } } },
      },
    });
    dns = await startDnsServer({ 'forge.test': { A: ['127.0.0.1'] } });
    s = await startTestService(backend, {
      allowLocalTargets: true,
      worker: { pollMs: 50, engine: { resolver: createResolver([dns.address]), ports: sites.ports, ca: ca.caPem } },
    });
    ({ key, organizationId } = await s.tenant());
    const projectId = await s.createProject(key, 'forge.test');
    const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    expect(started.status).toBe(202);
    run = started.body;
    for (let i = 0; i < 600 && !['completed', 'failed', 'failed_auto_credit'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
    }
    expect(run.status).toBe('completed');
    mcp = await startLoopbackMcp(s.url, { settings: { pollIntervalMs: 150, defaultWaitSeconds: 30 } });
    client = await connectHttp(mcp.url, key, { era: '2026-07-28' });
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await mcp?.close();
    await s?.close();
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  it('stores the views in the report context, and the finding naming GPTBot', async () => {
    const report = AiReadinessReport.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    const views = report.agentViews;
    expect(views?.agentsAsked).toBe(true);
    expect(views?.pages.map((p) => p.url)).toEqual(['https://forge.test/', 'https://forge.test/about']);
    const gpt = views?.pages[0]?.agents.find((a) => a.agent === 'GPTBot');
    expect(gpt).toMatchObject({ answer: 'app_shell', words: 0, short: true });
    const findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    const parity = findings.find((f) => f.checkId === 'agent-text-parity');
    expect(parity?.title).toBe('GPTBot gets far less of your pages than a browser');
    expect(parity?.evidence[0]?.summary).toContain('GPTBot gets 0 words of the 306 a browser shows');
    expect(parity?.verify).toContain('GPTBot/1.3');
  });

  it('shows a table a page on the run page', async () => {
    const page = (await (await signedInOwner(s, organizationId)).get(run.humanUrl)).html;
    expect(page).toContain('<h2 id="agent-views">What each agent gets</h2>');
    expect(page).toContain('<code>https://forge.test/</code>');
    expect(page).toContain('0% of the 306 words a browser shows: an app shell it cannot run');
    expect(page).toContain('<span class="badge fail">far less</span>');
    expect(page).toContain('Tokens are estimated as characters ÷ 4 (no tokenizer is run).');
  });

  it.skipIf(!hasChromium)(
    'fits the run page at 390 and 1280 px wide with no sideways scroll, in Chromium',
    async () => {
      const owner = await signedInOwner(s, organizationId);
      const browser = await launchChromium();
      const shots = join(
        process.env.SITEAUDIT_TEST_OUTPUT || join(import.meta.dirname, '..', '..', 'test-output'),
        'agent-views',
      );
      mkdirSync(shots, { recursive: true });
      try {
        const context = await browser.newContext();
        await context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: s.url })));
        const tab = await context.newPage();
        for (const width of [1280, 390]) {
          await tab.setViewportSize({ width, height: 900 });
          await tab.goto(run.humanUrl);
          const [scrollWidth, innerWidth] = (await tab.evaluate(
            '[document.documentElement.scrollWidth, window.innerWidth]',
          )) as [number, number];
          expect(scrollWidth, `run page at ${width} px`).toBeLessThanOrEqual(innerWidth);
          const table = tab.locator('#agent-views ~ div.scroll table').first();
          const box = await table.boundingBox();
          expect(box?.width ?? 0, `the first table at ${width} px`).toBeLessThanOrEqual(width);
          await expect(table.getByText('GPTBot').first().isVisible()).resolves.toBe(true);
          await tab.locator('#agent-views').screenshot({ path: join(shots, `heading-${width}.png`) });
          await table.screenshot({ path: join(shots, `table-${width}.png`) });
        }
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it('tells it in the text of get_report and page_findings', async () => {
    const report = await client.callTool({ name: 'get_report', arguments: { runId: run.runId } });
    const text = textOf(report);
    expect(text).toContain(
      '### What each agent gets\nWords of text; tokens estimated as characters ÷ 4 (no tokenizer is run).\n',
    );
    expect(text).toContain('- https://forge.test/: a browser shows 306 words (≈');
    expect(text).toContain(
      'GPTBot 0 words (far less: 0% of the 306 words a browser shows: an app shell it cannot run)',
    );
    expect(text).toContain(
      'ClaudeBot, OAI-SearchBot, PerplexityBot, ChatGPT-User, Claude-User 306 words (the same text as a browser)',
    );
    // The structured result keeps its schema: nothing of the views is added to it.
    expect(JSON.stringify(report.structuredContent)).not.toContain('agentViews');
    const findings = await client.callTool({ name: 'page_findings', arguments: { runId: run.runId, limit: 100 } });
    expect(textOf(findings)).toContain('GPTBot gets far less of your pages than a browser');
    expect(textOf(findings)).toContain('GPTBot gets 0 words of the 306 a browser shows');
  });
});
