// The MCP Inspector's web client (the 2.x line) connecting to `mcp --http` through its own OAuth
// flow, with no key or token given to it (issue 12): a person opens the Inspector in Chromium and
// switches the server on; the Inspector reads the 401's protected resource metadata, finds the
// service as authorization server, registers itself and sends the browser to the dashboard's
// consent screen; after Allow it finishes the flow, connects and calls a tool.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startLoopbackMcp } from '../support/mcp.ts';
import { ANN, PASSWORD, startPeopleService } from '../support/people.ts';
import type { TestService } from '../support/service.ts';

const INSPECTOR = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'mcp-inspector');

/** The Inspector's web server needs fixed ports (its origin allow-list is made from them). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `mcp-inspector --web` for one ad-hoc server and answers the address it prints (with its token). */
async function startInspector(serverUrl: string, home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(INSPECTOR, ['--web', '--transport', 'http', '--server-url', serverUrl], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOME: home,
      MCP_STORAGE_DIR: home,
      MCP_INSPECTOR_SECRET_STORE: 'memory',
      MCP_AUTO_OPEN_ENABLED: 'false',
      CLIENT_PORT: String(await freePort()),
      MCP_SANDBOX_PORT: String(await freePort()),
      MCP_APP_ORIGIN_PORT: String(await freePort()),
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Inspector did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /running at:\s+(http:\/\/\S+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`the Inspector exited (${code}):\n${output}`)));
  });
  return { child, url };
}

describe.skipIf(!hasChromium)('the MCP Inspector’s web client on OAuth alone', () => {
  let s: TestService;
  let mcp: McpHttpServer;
  let inspector: { child: ChildProcess; url: string };
  let browser: Browser;
  const home = mkdtempSync(join(tmpdir(), 'siteaudit-inspector-web-'));

  beforeAll(async () => {
    // A service that audits this machine accepts an MCP server on a loopback port as a resource.
    ({ service: s } = await startPeopleService({ allowLocalTargets: true }));
    mcp = await startLoopbackMcp(s.url);
    inspector = await startInspector(mcp.url, home);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (inspector?.child.pid) process.kill(-inspector.child.pid, 'SIGTERM');
    await mcp?.close();
    await s?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('connects through the consent screen and calls whoami with the token it was given', async () => {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(inspector.url);
    await expect.poll(() => tab.getByText('Disconnected').count(), { timeout: 15_000 }).toBe(1);
    // Switching the server on meets the 401; the Inspector sends the browser to sign in and consent.
    await tab.locator('.mantine-Switch-track').click();
    await tab.waitForURL(/\/sign-in/, { timeout: 20_000 });
    await tab.getByLabel('Email').fill(ANN);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(/\/oauth\/consent\//);
    await expect
      .poll(() => tab.getByRole('heading', { level: 1 }).innerText())
      .toBe('Allow MCP Inspector to use Acme?');
    expect(await tab.locator('main, body').first().innerText()).toContain(mcp.url);
    await tab.getByRole('button', { name: 'Allow' }).click();

    // Back in the Inspector, connected, with the twelve tools.
    await tab.waitForURL((url) => url.origin === new URL(inspector.url).origin, { timeout: 20_000 });
    await expect.poll(() => tab.getByText('Connected', { exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await tab.getByText('Tools', { exact: true }).first().click();
    await expect.poll(() => tab.getByText('Tools (12)').count(), { timeout: 15_000 }).toBe(1);
    await tab.getByText('whoami', { exact: true }).first().click();
    await tab.getByRole('button', { name: 'Execute Tool' }).click();
    await expect
      .poll(() => tab.locator('body').innerText(), { timeout: 15_000 })
      .toMatch(/\*\*Acme\*\* with key `oauth_[^`]*` "MCP Inspector \(OAuth client/);

    // It registered itself (RFC 7591) and holds a token bound to this MCP server.
    const records = await s.store.db.selectFrom('oauth_records').select(['model', 'payload']).execute();
    const client = records.find((r) => r.model === 'Client' && JSON.parse(r.payload).client_name === 'MCP Inspector');
    expect(client).toBeDefined();
    const clientId = JSON.parse(client?.payload ?? '{}').client_id;
    const tokens = records
      .filter((r) => r.model === 'AccessToken')
      .map((r) => JSON.parse(r.payload) as { clientId: string; aud: string });
    expect(tokens.filter((t) => t.clientId === clientId).map((t) => t.aud)).toContain(mcp.url);
  }, 120_000);
});
