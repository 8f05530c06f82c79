// Passkeys (issue 12) in headless Chromium with a virtual authenticator (the DevTools WebAuthn
// domain): a signed-in person adds a passkey on the Account page, signs out, and signs in with it;
// a removed passkey no longer signs in; a service reached by IP address offers none.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { relyingParty } from '../../src/service/routes/passkeys.ts';
import { testBackends } from '../support/backends.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('passkeys', () => {
  let s: TestService;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    // WebAuthn takes a host name, not an IP: the service is reached as localhost.
    origin = `http://localhost:${port}`;
    s = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], {
      port,
      publicUrl: origin,
      worker: false,
      deliverer: false,
      monitor: false,
    });
    const org = await s.createOrg({ name: 'Acme' });
    const ann = await createUser(s.store, { email: 'ann@example.com', name: 'Ann', password: PASSWORD });
    await addMember(s.store, ann.id, org.id, 'owner');
  });
  afterAll(async () => {
    await s.close();
  });

  it('are offered only at a host name', () => {
    expect(relyingParty('http://localhost:8787')).toEqual({ id: 'localhost', origin: 'http://localhost:8787' });
    expect(relyingParty('https://audit.example.com')).toEqual({
      id: 'audit.example.com',
      origin: 'https://audit.example.com',
    });
    expect(relyingParty('http://127.0.0.1:8787')).toBeUndefined();
    expect(relyingParty('http://[::1]:8787')).toBeUndefined();
  });

  it.skipIf(!hasChromium)(
    'are added on the Account page and sign the person in; a removed one does not',
    async () => {
      const browser = await launchChromium();
      try {
        const context = await browser.newContext();
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('WebAuthn.enable');
        await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: {
            protocol: 'ctap2',
            transport: 'internal',
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
          },
        });
        const violations: string[] = [];
        tab.on('console', (message) => {
          if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
        });

        await tab.goto(`${origin}/account`);
        await tab.getByLabel('Email').fill('ann@example.com');
        await tab.getByLabel('Password').fill(PASSWORD);
        await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
        await tab.waitForURL(`${origin}/account`);
        await tab.locator('#passkey-name').fill('laptop');
        await tab.getByRole('button', { name: 'Add a passkey' }).click();
        await expect
          .poll(
            async () => `${await tab.locator('tr.passkey').count()} ${await tab.locator('#passkey-state').innerText()}`,
          )
          .toBe('1 ');
        await expect(tab.locator('tr.passkey').innerText()).resolves.toContain('laptop');

        // Signed out, the passkey signs in (no email, no password) and lands where the person was going.
        await tab.getByRole('button', { name: 'Sign out' }).click();
        await tab.goto(`${origin}/keys`);
        await tab.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await tab.waitForURL(`${origin}/keys`);
        await expect(tab.locator('h1').innerText()).resolves.toBe('API keys of Acme');
        const stored = await s.store.db.selectFrom('passkeys').selectAll().execute();
        expect(stored).toHaveLength(1);
        expect(stored[0]?.last_used_at).not.toBeNull();

        // Removed: the authenticator still holds it, but the service no longer accepts it.
        await tab.goto(`${origin}/account`);
        await tab.getByRole('button', { name: 'Remove' }).click();
        await expect.poll(() => tab.locator('tr.passkey').count()).toBe(0);
        await tab.getByRole('button', { name: 'Sign out' }).click();
        await tab.goto(`${origin}/sign-in`);
        await tab.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await expect.poll(() => tab.locator('#passkey-state').innerText()).toContain('Not signed in');
        expect(new URL(tab.url()).pathname).toBe('/sign-in');
        expect(violations).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  it('refuse requests without the page’s CSRF token, stale challenges and forged answers', async () => {
    const page = new TestBrowser(origin);
    await page.signIn('ann@example.com', PASSWORD);
    const home = await page.get('/account');
    const csrf = /data-csrf="([^"]+)"/.exec(home.html)?.[1] as string;
    const cookie = [...page.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...(token ? { 'x-csrf-token': token } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post('/account/passkeys/options', {})).status).toBe(403);
    expect((await post('/account/sign-in/options', {}, 'forged')).status).toBe(403);
    const options = await post('/account/passkeys/options', {}, csrf);
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({
      rp: { id: 'localhost', name: 'siteaudit' },
      user: { name: 'ann@example.com' },
    });
    // No challenge cookie with it, and a made-up answer: refused, never a 500.
    expect((await post('/account/passkeys', { response: { id: 'x', response: {} } }, csrf)).status).toBe(400);
    const forged = await post(
      '/account/sign-in',
      {
        response: {
          id: 'no-such-credential',
          rawId: 'x',
          type: 'public-key',
          response: {},
          clientExtensionResults: {},
        },
      },
      csrf,
    );
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({
      error: { message: 'this passkey was not accepted; sign in with your password' },
    });
    expect((await post('/account/sign-in', 'junk', csrf)).status).toBe(401);
  });
});
