// The API Keys page (spec 5.2.1; issue 12) driven in headless Chromium as a person uses it: sign in,
// create a key (its secret shown once, copied with the button), reveal it again with the password,
// revoke it, and the key's very next request is refused. Also the consent flow in a real browser:
// the form's answer is a redirect to the loopback, which the page's policy must let through.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { PASSWORD, startPeopleService } from '../support/people.ts';
import type { TestService } from '../support/service.ts';

describe.skipIf(!hasChromium)('the API keys page in Chromium', () => {
  let s: TestService;
  let organizationId: string;
  let projectId: string;

  beforeAll(async () => {
    ({ service: s, organizationId } = await startPeopleService({ allowLocalTargets: true }));
    projectId = await s.createProject(await s.createKey(organizationId), '127.0.0.1:9');
  });
  afterAll(async () => {
    await s.close();
  });

  it('creates, copies, reveals and revokes a key; the revoked key is refused on its next request', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
      const tab = await context.newPage();
      const violations: string[] = [];
      tab.on('console', (message) => {
        if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
      });

      await tab.goto(`${s.url}/keys`);
      expect(new URL(tab.url()).pathname).toBe('/sign-in');
      await tab.getByLabel('Email').fill('ann@example.com');
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(`${s.url}/keys`);

      // Create: a name, two scopes, pinned to the project.
      await tab.getByLabel('Name').fill('deploy bot');
      for (const box of await tab.locator('input[name="scopes"]').all()) {
        const value = await box.getAttribute('value');
        if (value !== 'projects:read' && value !== 'runs:write') await box.uncheck();
      }
      await tab.getByLabel('Pinned to project').selectOption(projectId);
      await tab.getByRole('button', { name: 'Create key' }).click();
      const secret = await tab.locator('#key-secret').inputValue();
      expect(secret).toMatch(/^svc_[\w-]{43}$/);

      // Copy puts the secret on the clipboard.
      await tab.locator('#copy-key').click();
      await expect.poll(() => tab.locator('#copy-state').innerText()).toBe('Copied');
      expect(await tab.evaluate('navigator.clipboard.readText()')).toBe(secret);

      // The list masks it as prefix and suffix; the API takes it with exactly its scopes and pin.
      const prefix = secret.slice(0, 12);
      const row = tab.locator(`#key-${prefix}`);
      await expect(row.locator('code').innerText()).resolves.toBe(`${prefix}…${secret.slice(-4)}`);
      await expect(row.innerText()).resolves.toContain('projects:read, runs:write');
      const me = await s.request<{ scopes: string[]; projectId: string }>('/api/v1/me', { key: secret });
      expect(me.body).toMatchObject({ scopes: ['projects:read', 'runs:write'], projectId });
      // The page shows the use the key just made.
      await tab.goto(`${s.url}/keys`);
      await expect(tab.locator(`#key-${prefix}`).innerText()).resolves.not.toContain('never');
      expect(await tab.locator('#key-secret').count()).toBe(0);

      // Reveal: a wrong password shows nothing; the right one shows the same secret.
      const reveal = tab.locator(`#key-${prefix}`).getByLabel(/Your password, to reveal/);
      await reveal.fill('not my password at all');
      await tab.locator(`#key-${prefix}`).getByRole('button', { name: 'Reveal' }).click();
      await expect(tab.getByRole('alert').innerText()).resolves.toContain('Enter your password');
      expect(await tab.locator('#key-secret').count()).toBe(0);
      await tab
        .locator(`#key-${prefix}`)
        .getByLabel(/Your password, to reveal/)
        .fill(PASSWORD);
      await tab.locator(`#key-${prefix}`).getByRole('button', { name: 'Reveal' }).click();
      expect(await tab.locator('#key-secret').inputValue()).toBe(secret);

      // Revoke: the next request with the key is a 401.
      await tab.locator(`#key-${prefix}`).getByRole('button', { name: 'Revoke' }).click();
      await expect(tab.locator(`#key-${prefix}`).innerText()).resolves.toContain('revoked');
      expect((await s.request('/api/v1/me', { key: secret })).status).toBe(401);
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('lets the consent form send the browser back to the loopback client', async () => {
    let arrived: URL | undefined;
    const client = createServer((req, res) => {
      // Only the callback: Chromium asks for /favicon.ico after it, which must not overwrite it.
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/callback') arrived = url;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>done</title>Signed in');
    });
    await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
    const port = (client.address() as AddressInfo).port;
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        redirect_uri: `http://127.0.0.1:${port}/callback`,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'abc',
      });
      await tab.goto(`${s.url}/cli/authorize?${query}`);
      await tab.getByLabel('Email').fill('ann@example.com');
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('button', { name: 'Allow' }).click();
      await tab.waitForURL(/127\.0\.0\.1:\d+\/callback/);
      expect(arrived?.searchParams.get('state')).toBe('abc');
      const code = arrived?.searchParams.get('code') as string;
      const exchange = await s.request<{ organizationId: string }>('/api/v1/cli/token', {
        method: 'POST',
        json: { code, code_verifier: verifier, redirect_uri: `http://127.0.0.1:${port}/callback` },
      });
      expect(exchange.status).toBe(201);
      expect(exchange.body.organizationId).toBe(organizationId);
    } finally {
      await browser.close();
      client.close();
    }
  }, 60_000);
});
