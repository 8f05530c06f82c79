// Passkeys (issue 12) in headless Chromium with a virtual authenticator (the DevTools WebAuthn
// domain): a signed-in person adds a passkey on the Account page, signs out, and signs in with it;
// a removed passkey no longer signs in; a service reached by IP address offers none. On both
// backends, the challenges anyone may ask for are bounded (issue 23): per address a minute, pruned
// when expired, and under a ceiling for every address together.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { MAX_CHALLENGES, relyingParty, SIGN_IN_CHALLENGES_PER_MINUTE } from '../../src/service/routes/passkeys.ts';
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

describe.each(testBackends())('passkey challenges on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let origin: string;

  beforeAll(async () => {
    if (!backend.available) return;
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // Behind a proxy, so each test speaks from addresses of its own (X-Forwarded-For).
    s = await startTestService(backend, {
      port,
      publicUrl: origin,
      trustProxy: true,
      worker: false,
      deliverer: false,
      monitor: false,
    });
    const org = await s.createOrg({ name: 'Acme' });
    const ann = await createUser(s.store, { email: 'ann@example.com', name: 'Ann', password: PASSWORD });
    await addMember(s.store, ann.id, org.id, 'owner');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A signed-out (or, with `signIn`, signed-in) browser's cookie and CSRF token for the passkey requests. */
  const browserOf = async (signIn = false) => {
    const page = new TestBrowser(origin);
    if (signIn) await page.signIn('ann@example.com', PASSWORD);
    const html = (await page.get(signIn ? '/account' : '/sign-in')).html;
    const csrf = /data-csrf="([^"]+)"/.exec(html)?.[1] as string;
    const cookie = [...page.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    return (path: string, from: string) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-forwarded-for': from },
        body: '{}',
      });
  };
  const rows = async (purpose?: string) =>
    (
      await s.store.db
        .selectFrom('webauthn_challenges')
        .selectAll()
        .$if(purpose !== undefined, (q) => q.where('purpose', '=', purpose as string))
        .execute()
    ).length;

  test('one address gets a bounded number of sign-in challenges a minute, then a 429 in the envelope', async () => {
    // The limit counts per clock minute: start early in one, so the burst falls inside it.
    const left = 60 - new Date().getSeconds();
    if (left < 15) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
    const post = await browserOf();
    const before = await rows();
    const statuses: number[] = [];
    let refusal: { status: number; retryAfter: string | null; body: unknown } | undefined;
    const started = Date.now();
    for (let batch = 0; batch < 40; batch++)
      await Promise.all(
        Array.from({ length: 25 }, async () => {
          const response = await post('/account/sign-in/options', '203.0.113.7');
          statuses.push(response.status);
          const body = await response.json();
          if (response.status === 429)
            refusal ??= { status: response.status, retryAfter: response.headers.get('retry-after'), body };
        }),
      );
    console.log(
      `battery: passkey sign-in options (${backend.name}): 1000 requests from one address in ${Date.now() - started} ms, ${statuses.filter((x) => x === 200).length} challenges made`,
    );
    expect(statuses.filter((x) => x === 200)).toHaveLength(SIGN_IN_CHALLENGES_PER_MINUTE);
    expect(statuses.filter((x) => x === 429)).toHaveLength(1000 - SIGN_IN_CHALLENGES_PER_MINUTE);
    expect(Number(refusal?.retryAfter)).toBeGreaterThan(0);
    expect(refusal?.body).toMatchObject({
      error: {
        code: 'rate_limited',
        message: 'too many passkey sign-in requests from this address; wait a minute',
        retryAfterSeconds: Number(refusal?.retryAfter),
      },
    });
    expect((await rows()) - before).toBeLessThanOrEqual(SIGN_IN_CHALLENGES_PER_MINUTE);
    // Another address is not held back by this one.
    expect((await post('/account/sign-in/options', '203.0.113.8')).status).toBe(200);
  }, 60_000);

  test('expired challenges are pruned, and all addresses together stay under a ceiling', async () => {
    const post = await browserOf();
    const now = Date.now();
    const seed = async (count: number, expiresAt: string, tag: string) => {
      for (let at = 0; at < count; at += 1000) {
        const values = Array.from({ length: Math.min(1000, count - at) }, (_, i) => ({
          id: `${tag}-${at + i}`,
          challenge: 'c',
          user_id: null,
          purpose: 'sign-in',
          expires_at: expiresAt,
        }));
        await s.store.db.insertInto('webauthn_challenges').values(values).execute();
      }
    };
    await s.store.db.deleteFrom('webauthn_challenges').execute();
    await seed(500, new Date(now - 60_000).toISOString(), 'expired');
    await seed(MAX_CHALLENGES, new Date(now + 4 * 60_000).toISOString(), 'live');
    // Full: a new address is refused, clearly, and nothing is added.
    const full = await post('/account/sign-in/options', '198.51.100.1');
    expect(full.status).toBe(429);
    expect(await full.json()).toMatchObject({
      error: { code: 'rate_limited', message: expect.stringContaining('under way') },
    });
    expect(await rows()).toBe(MAX_CHALLENGES + 500);
    // Room again (live ones used up): the next challenge is made, and the expired ones are gone.
    await s.store.db.deleteFrom('webauthn_challenges').where('id', 'like', 'live-1%').execute();
    expect((await post('/account/sign-in/options', '198.51.100.2')).status).toBe(200);
    const left = await s.store.db.selectFrom('webauthn_challenges').select(['id', 'expires_at']).execute();
    expect(left.filter((r) => r.expires_at <= new Date().toISOString())).toEqual([]);
    expect(left.length).toBeLessThanOrEqual(MAX_CHALLENGES);
    await s.store.db.deleteFrom('webauthn_challenges').execute();
  }, 60_000);

  test('a signed-in person has one passkey registration challenge at a time', async () => {
    const post = await browserOf(true);
    for (let i = 0; i < 5; i++) expect((await post('/account/passkeys/options', '192.0.2.9')).status).toBe(200);
    expect(await rows('register')).toBe(1);
  });
});
