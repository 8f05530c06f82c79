// `siteaudit login` end to end (spec 4.2, 5.2.2; RFC 8252, RFC 7636): the real binary listens on the
// loopback and prints the consent address; the test plays the person's browser (signs in, allows or
// denies) and the brought-back code becomes a saved key (mode 0600) that whoami names as its source.
// `siteaudit logout` revokes it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { PASSWORD, startPeopleService } from '../support/people.ts';
import type { TestService } from '../support/service.ts';

interface LoginProcess {
  child: ChildProcess;
  /** The consent address the client printed. */
  authorizeUrl: Promise<URL>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startLogin(args: string[], env: NodeJS.ProcessEnv): LoginProcess {
  const child = spawn(process.execPath, [BIN, 'login', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const authorizeUrl = new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const found = /(http:\/\/\S+\/cli\/authorize\?\S+)/.exec(stderr)?.[1];
      if (found) resolve(new URL(found));
    });
    child.on('exit', () => reject(new Error(`login exited before printing an address: ${stderr}`)));
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, authorizeUrl, exited };
}

describe('siteaudit login and logout', () => {
  let s: TestService;
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let browser: TestBrowser;

  beforeAll(async () => {
    ({ service: s } = await startPeopleService());
    configDir = mkdtempSync(join(tmpdir(), 'siteaudit-login-'));
    env = { SITEAUDIT_CONFIG_DIR: configDir, SITEAUDIT_DATA_DIR: join(configDir, 'data'), SITEAUDIT_API_URL: '' };
    browser = new TestBrowser(s.url);
    expect((await browser.signIn('ann@example.com', PASSWORD)).status).toBe(303);
  });
  afterAll(async () => {
    await s.close();
  });

  /** The person's part: open the consent screen, press a button, and follow the redirect home. */
  async function decide(login: LoginProcess, decision: 'allow' | 'deny') {
    const url = await login.authorizeUrl;
    expect(url.origin).toBe(s.url);
    const consent = await browser.get(url.pathname + url.search);
    expect(consent.status).toBe(200);
    const answer = await browser.post(
      '/cli/authorize',
      { ...Object.fromEntries(url.searchParams), decision },
      { from: consent },
    );
    const back = answer.location as string;
    expect(back).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    // A page that does not carry the request's state is turned away and the client keeps waiting.
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
    const landed = await fetch(back);
    return { landed, text: await landed.text() };
  }

  it('signs in through the browser, saves the key with mode 0600, and whoami says where the key came from', async () => {
    const login = startLogin(['--api-url', s.url, '--no-browser', '--json'], env);
    const { landed, text } = await decide(login, 'allow');
    expect(landed.status).toBe(200);
    expect(text).toContain('Signed in');
    const done = await login.exited;
    expect(done.code, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout) as { keyPrefix: string; organizationSlug: string; savedTo: string };
    expect(result.savedTo).toBe(join(configDir, 'credentials.json'));
    expect(statSync(result.savedTo).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o077).toBe(0);

    const me = await runCli(['whoami', '--json'], env);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({
      keyPrefix: result.keyPrefix,
      organizationSlug: result.organizationSlug,
      keySource: 'login',
    });
    expect((await runCli(['whoami'], env)).stdout).toContain('from the key saved by siteaudit login');
    // A key given on the command line or in the environment comes first, and whoami says so.
    const other = await s.createKey((await s.store.organizations.findByIdOrSlug('acme'))?.id as string);
    const byFlag = await runCli(['whoami', '--json', '--api-key', other], { ...env, SITEAUDIT_API_URL: s.url });
    expect(JSON.parse(byFlag.stdout)).toMatchObject({ keySource: 'flag', keyPrefix: other.slice(0, 12) });
    const byEnv = await runCli(['whoami', '--json'], { ...env, SITEAUDIT_API_URL: s.url, SITEAUDIT_API_KEY: other });
    expect(JSON.parse(byEnv.stdout)).toMatchObject({ keySource: 'environment' });

    // Logout revokes the key on the service before forgetting it: its very next request is refused.
    const saved = JSON.parse((await import('node:fs')).readFileSync(result.savedTo, 'utf8')) as { apiKey: string };
    expect((await s.request('/api/v1/me', { key: saved.apiKey })).status).toBe(200);
    const out = await runCli(['logout', '--json'], env);
    expect(JSON.parse(out.stdout)).toMatchObject({ loggedOut: true, revoked: true, keyPrefix: result.keyPrefix });
    expect((await s.request('/api/v1/me', { key: saved.apiKey })).status).toBe(401);
    expect((await runCli(['logout'], env)).stdout).toBe('not signed in\n');
  });

  it('ends with access_denied when the person denies, and saves nothing', async () => {
    const login = startLogin(['--api-url', s.url, '--no-browser', '--json'], env);
    const { text } = await decide(login, 'deny');
    expect(text).toContain('Not signed in');
    const done = await login.exited;
    expect(done.code).toBe(1);
    expect(JSON.parse(done.stdout)).toMatchObject({ error: { code: 'access_denied' } });
    expect((await runCli(['logout'], env)).stdout).toBe('not signed in\n');
  });

  it('refuses to start without a service address, and a key without one', async () => {
    const bare = await runCli(['login', '--json'], env);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.stdout)).toMatchObject({ error: { code: 'invalid_argument' } });
    const keyOnly = await runCli(['whoami', '--json', '--api-key', 'svc_abc'], env);
    expect(JSON.parse(keyOnly.stdout)).toMatchObject({ error: { code: 'invalid_argument' } });
  });
});
