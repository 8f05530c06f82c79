// The report as an MCP App (issue 30), end to end with real parts: the test service audits a fixture
// site on loopback, an SDK client that declares MCP Apps reads the tools' `_meta.ui` and the
// `ui://` resource over HTTP on both protocol eras, and a minimal host (the ext-apps AppBridge,
// ui/test-host/host.ts) renders the real results in Chromium in a sandboxed iframe. The view must
// show the report, call page_findings through the host, open links through the host, pass axe in
// light and dark, and reach no network; screenshots at two widths go to test-output/report-app/.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_APP_HTML } from '../../src/mcp/app/report-app-html.ts';
import { MCP_APP_MIME, REPORT_APP_URI, UI_EXTENSION } from '../../src/mcp/app/report-resource.ts';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { connectHttp, type Era, startLoopbackMcp, textOf } from '../support/mcp.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { structured } from './support.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ROOT = join(import.meta.dirname, '..', '..');
const SCREENSHOTS = join(ROOT, 'test-output', 'report-app');
const ERAS: Era[] = ['2025-11-25', '2026-07-28'];

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

const page = (title: string, body: string) =>
  html(
    `<title>${title}</title><meta name="description" content="Hand-forged garden tools.">`,
    `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/pricing">Pricing</a></nav></header><main><h1>${title}</h1><p>${'Acme makes hand-forged garden tools, guaranteed for twenty years. '.repeat(8)}</p>${body}</main>`,
  );

/** The site of the first audit; by the second, every image is described and a button lost its name. */
const SITE = {
  '/': page('Acme garden tools', '<img src="/spade.jpg">'),
  '/about': page('About Acme', '<p>Founded in 1921.</p><img src="/founder.jpg">'),
  '/pricing': page('Pricing', '<form action="/cart"><input name="qty"><button>Buy</button></form>'),
};
const SITE_LATER = {
  '/': page('Acme garden tools', '<img src="/spade.jpg" alt="A spade">'),
  '/about': page('About Acme', '<p>Founded in 1921.</p><img src="/founder.jpg" alt="Our founder">'),
  '/pricing': page('Pricing', '<form action="/cart"><input name="qty"><button></button></form>'),
};

let service: TestService;
let site: FixtureSite;
let mcp: McpHttpServer;
let key: string;
/** An Apps host's client (2026-07-28), which the test host's tool calls go through. */
let apps: Client;
const runs: Record<'ai' | 'aiLater' | 'marketing' | 'security', string> = {
  ai: '',
  aiLater: '',
  marketing: '',
  security: '',
};

async function appsClient(era: Era): Promise<Client> {
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    {
      // MCP Apps, "Client<>Server Capability Negotiation".
      capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME] } } },
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = await apps.callTool({ name, arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
}

/** One completed audit (a project runs one at a time). */
async function audit(projectId: string, product: string, idempotencyKey: string): Promise<string> {
  const { runId } = structured<{ runId: string }>(
    await call('start_run', { projectId, product, idempotencyKey: `${product}-${idempotencyKey}` }),
  );
  for (;;) {
    const waited = structured<{ status: string; stillRunning: boolean }>(await call('wait_for_run', { runId }));
    if (!waited.stillRunning) {
      expect(waited.status).toBe('completed');
      return runId;
    }
  }
}

beforeAll(async () => {
  const backend = testBackends()[0];
  if (!backend) throw new Error('no SQLite backend');
  service = await startTestService(backend, { allowLocalTargets: true });
  site = await startFixtureSite(Object.fromEntries(Object.entries(SITE).map(([path, body]) => [path, { body }])));
  mcp = await startLoopbackMcp(service.url, { settings: { pollIntervalMs: 150, defaultWaitSeconds: 20 } });
  key = (await service.tenant('pro', 20)).key;
  apps = await appsClient('2026-07-28');
  const { projectId } = structured<{ projectId: string }>(await call('create_project', { domain: site.host }));
  runs.ai = await audit(projectId, 'ai_readiness', 'first');
  runs.marketing = await audit(projectId, 'marketing_signal', 'first');
  runs.security = await audit(projectId, 'website_security', 'first');
  for (const [path, body] of Object.entries(SITE_LATER)) site.routes.set(path, { body });
  runs.aiLater = await audit(projectId, 'ai_readiness', 'later');
}, 180_000);

afterAll(async () => {
  await apps?.close();
  await mcp?.close();
  await site?.close();
  await service?.close();
});

describe.each(ERAS)('the report app over MCP (%s)', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await appsClient(era);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('is declared by get_report and compare_runs only', async () => {
    const { tools } = await client.listTools();
    const withUi = tools.filter((tool) => tool._meta !== undefined);
    expect(withUi.map((tool) => tool.name).sort()).toEqual(['compare_runs', 'get_report']);
    for (const tool of withUi) expect(tool._meta).toEqual({ ui: { resourceUri: REPORT_APP_URI } });
  });

  it('is served as one MCP App resource, with an empty network allowance', async () => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === REPORT_APP_URI)).toMatchObject({ mimeType: MCP_APP_MIME });
    const read = await client.readResource({ uri: REPORT_APP_URI });
    expect(read.contents).toHaveLength(1);
    const [content] = read.contents;
    expect(content).toMatchObject({ uri: REPORT_APP_URI, mimeType: MCP_APP_MIME });
    expect((content as { text?: string }).text).toBe(REPORT_APP_HTML);
    expect(content?._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
  });

  it('leaves the results of hosts without Apps as they were', async () => {
    const plain = await connectHttp(mcp.url, key, { era });
    try {
      for (const [name, args] of [
        ['get_report', { runId: runs.ai }],
        ['compare_runs', { runId: runs.aiLater }],
      ] as const) {
        const withApps = await client.callTool({ name, arguments: args });
        const without = await plain.callTool({ name, arguments: args });
        expect(without.content).toEqual(withApps.content);
        expect(without.structuredContent).toEqual(withApps.structuredContent);
        expect(textOf(without).length).toBeGreaterThan(100);
      }
    } finally {
      await plain.close();
    }
  });
});

interface HostWindow {
  startHost(start: unknown): Promise<void>;
  setHostTheme(theme: 'light' | 'dark', variables: Record<string, string>): Promise<void>;
  hostReady?: boolean;
}

interface View {
  page: Page;
  frame: Frame;
  /** Every request the browser tried (all are refused). */
  requests: string[];
  /** Console errors and warnings, page errors (a CSP refusal is one). */
  problems: string[];
  calls: { name: string; arguments?: Record<string, unknown> }[];
  links: string[];
  messages: unknown[];
  close(): Promise<void>;
}

/** A host palette of the kind hosts send (MCP Apps style variables), dark. */
const HOST_DARK = {
  '--color-background-primary': '#1f1f1e',
  '--color-background-secondary': '#2b2b29',
  '--color-text-primary': '#f5f4ef',
  '--color-text-secondary': '#b8b5a9',
  '--color-border-primary': '#4a4944',
  '--font-sans': 'system-ui, sans-serif',
};

describe.skipIf(!hasChromium)('the report app in Chromium', () => {
  let browser: Browser;
  let hostScript: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const bundled = await build({
      input: join(ROOT, 'ui', 'test-host', 'host.ts'),
      platform: 'browser',
      write: false,
      tsconfig: join(ROOT, 'ui', 'tsconfig.json'),
      output: { format: 'iife' },
    });
    hostScript = (bundled.output[0]?.code ?? '').replaceAll('</script', '<\\/script');
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
  });

  async function open(
    toolName: string,
    args: Record<string, unknown>,
    options: {
      width?: number;
      theme?: 'light' | 'dark';
      capabilities?: Record<string, object>;
      /** The result the host hands the view, when not the tool's own. */
      result?: ToolResult;
    } = {},
  ): Promise<View> {
    const result = options.result ?? (await call(toolName, args));
    const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } });
    contexts.push(context);
    const view: Omit<View, 'page' | 'frame'> = {
      requests: [],
      problems: [],
      calls: [],
      links: [],
      messages: [],
      close: () => context.close(),
    };
    await context.route('**/*', (route) => {
      view.requests.push(route.request().url());
      return route.abort();
    });
    const tab = await context.newPage();
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') view.problems.push(message.text());
    });
    tab.on('pageerror', (error) => view.problems.push(error.message));
    await tab.exposeFunction('hostCallTool', async (params: View['calls'][number]) => {
      view.calls.push(params);
      return apps.callTool(params);
    });
    await tab.exposeFunction('hostOpenLink', async (url: string) => {
      view.links.push(url);
    });
    await tab.exposeFunction('hostMessage', async (message: unknown) => {
      view.messages.push(message);
    });
    await tab.setContent(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title><style>body{margin:0}iframe{display:block;width:100%;border:0}</style></head><body><script>${hostScript}</script></body></html>`,
    );
    const start = {
      html: REPORT_APP_HTML,
      toolName,
      args,
      result,
      theme: options.theme ?? 'light',
      variables: {},
      capabilities: options.capabilities ?? { serverTools: {}, openLinks: {} },
    };
    await tab.evaluate((s) => (globalThis as unknown as HostWindow).startHost(s), start);
    await tab.waitForFunction(() => (globalThis as unknown as HostWindow).hostReady === true);
    const frame = await (await tab.waitForSelector('iframe')).contentFrame();
    if (!frame) throw new Error('no frame');
    await frame.waitForSelector('article.report');
    return { ...view, page: tab, frame };
  }

  async function axeViolations(frame: Frame): Promise<string[]> {
    if (!(await frame.evaluate(() => 'axe' in globalThis))) await frame.evaluate(AXE);
    return frame.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run: (context: unknown) => Promise<unknown> } }).axe;
      const result = (await axe.run((globalThis as unknown as { document: unknown }).document)) as {
        violations: { id: string; nodes: { target: string[] }[] }[];
      };
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
  }

  /** The theme attribute the SDK sets on the view, and the background the view shows. */
  const themeOf = (frame: Frame) =>
    frame.evaluate(
      '({ theme: document.documentElement.dataset.theme, background: getComputedStyle(document.body).backgroundColor })',
    );

  /**
   * The view as a host shows it inline: the page as tall as the frame (autoResize told the host its
   * height), so the whole frame is painted, not only what a viewport of 800 pixels holds.
   */
  async function screenshot(view: View, name: string): Promise<void> {
    const frameBox = await view.page.locator('iframe').boundingBox();
    const width = view.page.viewportSize()?.width ?? 1280;
    await view.page.setViewportSize({ width, height: Math.ceil(frameBox?.height ?? 800) });
    await view.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  }

  const clean = (view: View) => {
    expect(view.requests, 'network requests').toEqual([]);
    expect(view.problems, 'console errors, CSP refusals').toEqual([]);
  };

  it('renders an AI readiness report: score, label, counts, foundation, top findings with severity', async () => {
    const report = structured<{
      score: number;
      evaluatedChecks: number;
      totalChecks: number;
      findingsTotal: number;
      topFindings: { severity: string; title: string }[];
    }>(await call('get_report', { runId: runs.ai }));
    const view = await open('get_report', { runId: runs.ai });
    const { frame } = view;
    expect(await frame.locator('h1').textContent()).toBe('AI readiness report');
    // A loopback audit is a local on-page scan: its score is partial, said first (issue 24).
    expect(await frame.locator('.score-basis').textContent()).toBe(
      `Partial: ${report.evaluatedChecks} of ${report.totalChecks} AI readiness checks evaluated`,
    );
    expect(await frame.locator('.score-block').innerText()).toContain(`Score on those checks: ${report.score}/100`);
    expect(await frame.locator('#counts-heading').textContent()).toBe(`Findings: ${report.findingsTotal}`);
    expect(await frame.locator('.counts li').allInnerTexts()).toHaveLength(5);
    expect(await frame.locator('.foundation li').count()).toBe(3);
    const findings = frame.locator('.finding');
    expect(await findings.count()).toBe(report.topFindings.length);
    expect(report.topFindings.length).toBeGreaterThan(0);
    const first = report.topFindings[0] as { severity: string; title: string };
    expect((await findings.first().locator('.badge').textContent())?.toLowerCase()).toBe(first.severity);
    await screenshot(view, 'ai-readiness-light-1280');
    clean(view);
    const phone = await open('get_report', { runId: runs.ai }, { width: 390 });
    expect(await phone.frame.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    await screenshot(phone, 'ai-readiness-light-390');
    clean(phone);
  });

  it('shows a full score large with its label, and an unverified one as unverified', async () => {
    // The loopback audits are local scans (partial): a deployed site's report has no coverage fields.
    const real = await call('get_report', { runId: runs.ai });
    const {
      notEvaluated: _n,
      evaluatedChecks: _e,
      totalChecks: _t,
      ...full
    } = structured<Record<string, unknown>>(real);
    const result = (view: Record<string, unknown>) => ({ ...real, structuredContent: view });
    const scored = await open(
      'get_report',
      { runId: runs.ai },
      { result: result({ ...full, score: 91, scoreLabel: 'Excellent' }) },
    );
    expect(await scored.frame.locator('.score-number').textContent()).toBe('91');
    expect(await scored.frame.locator('.score-label').textContent()).toBe('Excellent');
    expect(await scored.frame.locator('.score-block').getAttribute('class')).toContain('band-good');
    expect(await axeViolations(scored.frame)).toEqual([]);
    await screenshot(scored, 'full-score-light-1280');
    clean(scored);
    const { score: _s, ...unscored } = full;
    const unverified = await open(
      'get_report',
      { runId: runs.ai },
      { result: result({ ...unscored, scoreStatus: 'unverified', scoreLabel: 'Needs work' }) },
    );
    expect(await unverified.frame.locator('.score-number').textContent()).toBe('?');
    expect(await unverified.frame.locator('.score-label').textContent()).toBe('Needs workUnverified');
    expect(await unverified.frame.locator('.score-block .notice').textContent()).toMatch(/not authoritative/);
    clean(unverified);
  });

  it('asks the host to call page_findings for a finding’s details and shows them', async () => {
    const report = structured<{ topFindings: { findingId: string; severity: string }[] }>(
      await call('get_report', { runId: runs.ai }),
    );
    const view = await open('get_report', { runId: runs.ai });
    const button = view.frame.locator('.finding').first().getByRole('button');
    expect(await button.textContent()).toMatch(/^Show details of /);
    await button.click();
    await view.frame.locator('.detail .detail-facts').first().waitFor();
    const first = report.topFindings[0];
    expect(view.calls).toHaveLength(1);
    expect(view.calls[0]).toMatchObject({
      name: 'page_findings',
      arguments: { runId: runs.ai, severity: first?.severity, limit: 100 },
    });
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await button.textContent()).toMatch(/^Hide details of /);
    const detail = await view.frame.locator('.detail').first().innerText();
    expect(detail).toMatch(/What is wrong[\s\S]*Fix/);
    await screenshot(view, 'details-light-1280');
    await button.click();
    expect(await view.frame.locator('.detail').first().isHidden()).toBe(true);
    expect(view.calls).toHaveLength(1);
    clean(view);
  });

  it('opens the report’s page through the host', async () => {
    const report = structured<{ humanUrl: string }>(await call('get_report', { runId: runs.ai }));
    const view = await open('get_report', { runId: runs.ai });
    await view.frame.getByRole('link', { name: 'Open the full report' }).click();
    await expect.poll(() => view.links).toEqual([report.humanUrl]);
    clean(view);
  });

  it('passes axe in light, in dark and under a host palette, and reaches no network', async () => {
    const view = await open('get_report', { runId: runs.ai });
    await view.frame
      .getByRole('button', { name: /^Show details/ })
      .first()
      .click();
    await view.frame.locator('.detail .detail-facts').first().waitFor();
    expect(await themeOf(view.frame)).toEqual({ theme: 'light', background: 'rgb(255, 255, 255)' });
    expect(await axeViolations(view.frame)).toEqual([]);
    await view.page.evaluate(() => (globalThis as unknown as HostWindow).setHostTheme('dark', {}));
    await expect.poll(() => themeOf(view.frame)).toEqual({ theme: 'dark', background: 'rgb(24, 24, 27)' });
    expect(await axeViolations(view.frame)).toEqual([]);
    await view.page.evaluate(
      (variables) => (globalThis as unknown as HostWindow).setHostTheme('dark', variables),
      HOST_DARK,
    );
    await expect.poll(() => themeOf(view.frame)).toEqual({ theme: 'dark', background: 'rgb(31, 31, 30)' });
    expect(await axeViolations(view.frame)).toEqual([]);
    clean(view);
  });

  it('shows stage bars with their numbers as text (marketing signal), at two widths', async () => {
    const report = structured<{ stageScores: { stage: string; score: number; status: string }[] }>(
      await call('get_report', { runId: runs.marketing }),
    );
    for (const [width, theme] of [
      [1280, 'light'],
      [390, 'light'],
      [1280, 'dark'],
      [390, 'dark'],
    ] as const) {
      const view = await open('get_report', { runId: runs.marketing }, { width, theme });
      const bars = await view.frame.locator('.bar').allInnerTexts();
      expect(bars).toHaveLength(report.stageScores.length);
      report.stageScores.forEach((stage, i) => {
        expect(bars[i]?.toLowerCase()).toContain(stage.stage);
        expect(bars[i]).toContain(stage.status === 'unverified' ? 'unverified' : `${stage.score}/100`);
      });
      // No sideways scrolling on a phone.
      expect(await view.frame.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
      expect(await axeViolations(view.frame)).toEqual([]);
      await screenshot(view, `marketing-${theme}-${width}`);
      await view.frame
        .getByRole('button', { name: /^Show details/ })
        .first()
        .click();
      await view.frame.locator('.detail .detail-facts').first().waitFor();
      expect(await view.frame.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
      expect(await axeViolations(view.frame)).toEqual([]);
      clean(view);
      await view.close();
    }
  });

  it('leads a partial score with what it stands on, and shows pillar bars (website security)', async () => {
    const report = structured<{
      evaluatedChecks?: number;
      totalChecks?: number;
      pillars: { label: string }[];
    }>(await call('get_report', { runId: runs.security }));
    const view = await open('get_report', { runId: runs.security });
    expect(report.evaluatedChecks).toBeDefined();
    expect(await view.frame.locator('.score-basis').textContent()).toBe(
      `Partial: ${report.evaluatedChecks} of ${report.totalChecks} security checks evaluated`,
    );
    expect(await view.frame.locator('.bar-label').allTextContents()).toEqual(report.pillars.map((p) => p.label));
    expect(await axeViolations(view.frame)).toEqual([]);
    await screenshot(view, 'security-light-1280');
    clean(view);
  });

  it('renders compare_runs: the score change, the counts, the findings per state', async () => {
    const comparison = structured<{
      score: { current?: number; baseline?: number };
      counts: { new: number; persisting: number; notFound: number };
      baselineRunId: string;
      findings: { comparison: string; findingId: string; severity: string }[];
    }>(await call('compare_runs', { runId: runs.aiLater }));
    expect(comparison.counts.new).toBeGreaterThan(0);
    expect(comparison.counts.notFound).toBeGreaterThan(0);
    const view = await open('compare_runs', { runId: runs.aiLater });
    expect(await view.frame.locator('h1').textContent()).toBe('Run compared with its baseline');
    expect(await view.frame.locator('.score-change').textContent()).toContain(
      `${comparison.score.baseline} → ${comparison.score.current}`,
    );
    expect(await view.frame.locator('.counts li').allTextContents()).toEqual([
      `${comparison.counts.new} new`,
      `${comparison.counts.persisting} persisting`,
      `${comparison.counts.notFound} not found`,
    ]);
    expect(await view.frame.locator('#state-new').textContent()).toBe(`New: ${comparison.counts.new}`);
    // A finding not found is read from the baseline run.
    const notFound = view.frame.locator('section[aria-labelledby="state-notFound"] .finding').first();
    await notFound.getByRole('button', { name: /^Show details/ }).click();
    await notFound.locator('.detail-facts').waitFor();
    const first = comparison.findings.find((f) => f.comparison === 'notFound');
    expect(view.calls[0]?.arguments).toMatchObject({ runId: comparison.baselineRunId, severity: first?.severity });
    expect(await axeViolations(view.frame)).toEqual([]);
    await screenshot(view, 'compare-light-1280');
    clean(view);
  });

  it('asks the assistant instead when the host cannot call tools, and says what to ask when it cannot either', async () => {
    const report = structured<{ topFindings: { findingId: string; severity: string }[] }>(
      await call('get_report', { runId: runs.ai }),
    );
    const first = report.topFindings[0] as { findingId: string; severity: string };
    const asking = await open('get_report', { runId: runs.ai }, { capabilities: { message: { text: {} } } });
    await asking.frame
      .getByRole('button', { name: /^Show details/ })
      .first()
      .click();
    await expect.poll(() => asking.messages).toHaveLength(1);
    expect(JSON.stringify(asking.messages[0])).toContain(`runId ${runs.ai}`);
    expect(JSON.stringify(asking.messages[0])).toContain(`finding ${first.findingId}`);
    expect(asking.calls).toEqual([]);
    clean(asking);

    const bare = await open('get_report', { runId: runs.ai }, { capabilities: {} });
    await bare.frame
      .getByRole('button', { name: /^Show details/ })
      .first()
      .click();
    expect(await bare.frame.locator('.details .status').first().textContent()).toBe(
      `Ask your assistant: Call page_findings with runId ${runs.ai} and severity ${first.severity}, and explain finding ${first.findingId}.`,
    );
    // Without openLinks the link is a plain one, for the host's own handling.
    const link = bare.frame.getByRole('link', { name: 'Open the full report' });
    expect(await link.getAttribute('href')).toMatch(/^https?:\/\//);
    expect(bare.calls).toEqual([]);
    clean(bare);
  });
});
