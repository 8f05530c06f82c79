// People on the dashboard (issue 12) on both backends: sign-in and sign-out, CSRF refusal, no account
// enumeration, throttled attempts, workspaces and their switcher, invitations, the one-time sign-in
// link of the embedded default, and the consent screen of `siteaudit login` with its redirects.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliTokenResponse } from '../../src/contract/index.ts';
import {
  addMember,
  createSignInLink,
  createUser,
  localUser,
  SIGN_IN_LINK_SECONDS,
  verifyPassword,
} from '../../src/service/accounts.ts';
import { SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL } from '../../src/service/routes/account.ts';
import { testBackends } from '../support/backends.ts';
import { csrfOf, TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';

describe.each(testBackends())('people on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let acme: { id: string; slug: string };
  let globex: { id: string; slug: string };

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { worker: false, deliverer: false, monitor: false });
    acme = await s.createOrg({ name: 'Acme' });
    globex = await s.createOrg({ name: 'Globex' });
    const ann = await createUser(s.store, { email: 'Ann@Example.com', name: 'Ann', password: PASSWORD });
    await addMember(s.store, ann.id, acme.id, 'owner');
    await addMember(s.store, ann.id, globex.id, 'member');
  });
  afterAll(async () => {
    await s?.close();
  });

  test('stores passwords as scrypt hashes that verify, never in clear', async () => {
    const row = await s.store.accounts.findUserByEmail('ann@example.com');
    expect(row?.password_hash).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword(PASSWORD, row?.password_hash ?? '')).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, row?.password_hash ?? '')).toBe(false);
  });

  test('signs in with email and password, keeps a session in an HttpOnly cookie, and signs out', async () => {
    const browser = new TestBrowser(s.url);
    expect((await browser.get('/')).location).toBe('/sign-in?next=%2F');
    const signedIn = await browser.signIn('ANN@example.com', PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/');
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('siteaudit_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const home = await browser.get('/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('ann@example.com');
    expect(home.html).toContain('Acme (owner)');
    expect(home.html).toContain('Globex (member)');
    // The session is stored as a hash: the cookie's token is not in the database.
    const token = browser.cookies.get('siteaudit_session') as string;
    const sessions = await s.store.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(sessions)).not.toContain(token);

    // The switcher moves the session to another workspace.
    const switched = await browser.post('/workspace', { organizationId: globex.id }, { from: home });
    expect(switched.status).toBe(303);
    expect((await browser.get('/')).html).toMatch(/<h1>Globex<\/h1>/);
    // A workspace the person does not belong to is not taken.
    const other = await s.createOrg({ name: 'Initech' });
    await browser.post('/workspace', { organizationId: other.id }, { from: home });
    expect((await browser.get('/')).html).toMatch(/<h1>Globex<\/h1>/);

    const out = await browser.post('/sign-out', {}, { from: await browser.get('/') });
    expect(out.location).toBe('/sign-in');
    expect((await browser.get('/')).status).toBe(303);
    // The old token is dead even if replayed.
    const replay = await fetch(`${s.url}/`, { redirect: 'manual', headers: { cookie: `siteaudit_session=${token}` } });
    expect(replay.status).toBe(303);
  });

  test('refuses forms without the CSRF token of this browser, or sent from another site', async () => {
    const browser = new TestBrowser(s.url);
    const form = await browser.get('/sign-in');
    const token = csrfOf(form.html) as string;
    // No token; another browser's token; a forged Origin.
    expect((await browser.post('/sign-in', { email: 'ann@example.com', password: PASSWORD })).status).toBe(403);
    const stranger = new TestBrowser(s.url);
    const strangerToken = csrfOf((await stranger.get('/sign-in')).html) as string;
    expect(
      (await browser.post('/sign-in', { email: 'ann@example.com', password: PASSWORD, csrf: strangerToken })).status,
    ).toBe(403);
    expect(
      (
        await browser.post(
          '/sign-in',
          { email: 'ann@example.com', password: PASSWORD, csrf: token },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    // Signed in, the forms of signed-in pages are refused the same way.
    await browser.signIn('ann@example.com', PASSWORD);
    const before = (await s.store.db.selectFrom('invitations').select('id').execute()).length;
    expect((await browser.post('/members/invitations', { role: 'member' })).status).toBe(403);
    expect((await browser.post('/sign-out', { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await s.store.db.selectFrom('invitations').select('id').execute()).length).toBe(before);
    expect((await browser.get('/')).status).toBe(200);
  });

  test('an owner makes an invitation link for an address; its new person joins with it once, as a member', async () => {
    const owner = new TestBrowser(s.url);
    await owner.signIn('ann@example.com', PASSWORD);
    await owner.post('/workspace', { organizationId: acme.id }, { from: await owner.get('/') });
    const members = await owner.get('/members');
    const made = await owner.post(
      '/members/invitations',
      { role: 'member', email: 'Cleo@Example.com' },
      { from: members },
    );
    const link = /id="invitation-link" value="([^"]+)"/.exec(made.html)?.[1] as string;
    expect(link).toMatch(new RegExp(`^${s.url}/invitations/[\\w-]{43}$`));
    const path = new URL(link).pathname;

    const newcomer = new TestBrowser(s.url);
    const invitation = await newcomer.get(path);
    expect(invitation.html).toContain('Join Acme');
    const tooShort = await newcomer.post(
      path,
      { name: 'Cleo', email: 'cleo@example.com', password: 'short' },
      { from: invitation },
    );
    expect(tooShort.status).toBe(400);
    const joined = await newcomer.post(
      path,
      { name: 'Cleo', email: 'cleo@example.com', password: PASSWORD },
      { from: invitation },
    );
    expect(joined.location).toBe('/');
    expect((await newcomer.get('/')).html).toContain('Acme (member)');
    // Used: the link works once.
    expect((await new TestBrowser(s.url).get(path)).status).toBe(410);
    // A member cannot invite.
    const page = await newcomer.get('/members');
    expect(page.html).toContain('cleo@example.com');
    expect((await newcomer.post('/members/invitations', { role: 'owner' }, { from: page })).status).toBe(403);
  });

  test('signs the local user in through a one-time link that works once and briefly', async () => {
    const local = await localUser(s.store, acme.id);
    expect(local.password_hash).toBeNull();
    const link = await createSignInLink(s.store, s.url, local.id);
    const browser = new TestBrowser(s.url);
    const first = await browser.get(new URL(link).pathname);
    expect(first.status).toBe(303);
    expect((await browser.get('/')).status).toBe(200);
    expect((await new TestBrowser(s.url).get(new URL(link).pathname)).status).toBe(410);
    // An expired link: written as if made long ago.
    const token = randomBytes(32).toString('base64url');
    await s.store.accounts.insertSignInLink({
      token_hash: createHash('sha256').update(token).digest('hex'),
      user_id: local.id,
      created_at: new Date(Date.now() - 2 * SIGN_IN_LINK_SECONDS * 1000).toISOString(),
      expires_at: new Date(Date.now() - SIGN_IN_LINK_SECONDS * 1000).toISOString(),
    });
    expect((await new TestBrowser(s.url).get(`/auth/link/${token}`)).status).toBe(410);
    // A user with no password cannot sign in with the form.
    expect((await new TestBrowser(s.url).signIn(local.email, '')).status).toBe(400);
  });

  test('the consent screen names the client, the workspace and the scopes, and sends a code or a denial back', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirect = 'http://127.0.0.1:45123/callback';
    const query = new URLSearchParams({
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st4te',
      client_name: 'siteaudit command line',
      key_name: 'CLI on laptop',
    });
    const browser = new TestBrowser(s.url);
    const toSignIn = await browser.get(`/cli/authorize?${query}`);
    expect(toSignIn.location).toBe(`/sign-in?next=${encodeURIComponent(`/cli/authorize?${query}`)}`);
    await browser.signIn('ann@example.com', PASSWORD);
    await browser.post('/workspace', { organizationId: acme.id }, { from: await browser.get('/') });
    const consent = await browser.get(`/cli/authorize?${query}`);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Allow siteaudit command line to use Acme?');
    expect(consent.html).toContain('127.0.0.1:45123');
    expect(consent.html).toContain('<code>runs:write</code>');
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:45123");

    const hidden = Object.fromEntries(query);
    const denied = await browser.post('/cli/authorize', { ...hidden, decision: 'deny' }, { from: consent });
    expect(denied.location).toBe(`${redirect}?error=access_denied&state=st4te`);
    const allowed = await browser.post('/cli/authorize', { ...hidden, decision: 'allow' }, { from: consent });
    const back = new URL(allowed.location as string);
    expect(back.origin + back.pathname).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('st4te');
    const code = back.searchParams.get('code') as string;
    const exchange = await s.request('/api/v1/cli/token', {
      method: 'POST',
      json: { code, code_verifier: verifier, redirect_uri: redirect },
    });
    expect(exchange.status, exchange.text).toBe(201);
    const issued = CliTokenResponse.parse(exchange.body);
    expect(issued).toMatchObject({ keyName: 'CLI on laptop', organizationId: acme.id, organizationSlug: acme.slug });
    const row = await s.store.apiKeys.findByPrefix(issued.keyPrefix);
    expect(row?.created_by).toBe((await s.store.accounts.findUserByEmail('ann@example.com'))?.id);

    // Requests that are not loopback redirects, or lack PKCE, are never sent anywhere.
    const bad = (change: Record<string, string>) =>
      browser.get(`/cli/authorize?${new URLSearchParams({ ...hidden, ...change })}`);
    expect((await bad({ redirect_uri: 'https://evil.example/cb' })).status).toBe(400);
    expect((await bad({ redirect_uri: 'http://127.0.0.1/cb' })).status).toBe(400);
    const noPkce = await bad({ code_challenge_method: 'plain' });
    expect(noPkce.location).toMatch(/^http:\/\/127\.0\.0\.1:45123\/callback\?error=invalid_request/);
  });
  test('on the keys page a member manages the keys they made, and an owner every key', async () => {
    const member = await createUser(s.store, {
      email: `member-${randomBytes(3).toString('hex')}@example.com`,
      name: 'M',
      password: PASSWORD,
    });
    await addMember(s.store, member.id, acme.id, 'member');
    const memberBrowser = new TestBrowser(s.url);
    await memberBrowser.signIn(member.email, PASSWORD);
    await memberBrowser.post('/workspace', { organizationId: acme.id }, { from: await memberBrowser.get('/') });
    const keys = await memberBrowser.get('/keys');
    const made = await memberBrowser.post('/keys', { name: 'mine', scopes: ['projects:read'] }, { from: keys });
    expect(made.status).toBe(201);
    const secret = /id="key-secret" value="([^"]+)"/.exec(made.html)?.[1] as string;
    const mine = await s.store.apiKeys.findByPrefix(secret.slice(0, 12));
    const ownersKey = await s.createKey(acme.id, { name: 'owner key' });
    const theirs = await s.store.apiKeys.findByPrefix(ownersKey.slice(0, 12));
    // Their own key: revealed with the password. The owner's: neither revealed nor revoked.
    const revealed = await memberBrowser.post(`/keys/${mine?.id}/reveal`, { password: PASSWORD }, { from: keys });
    expect(revealed.html).toContain(secret);
    const denied = await memberBrowser.post(`/keys/${theirs?.id}/reveal`, { password: PASSWORD }, { from: keys });
    expect(denied.status).toBe(403);
    expect(denied.html).not.toContain(ownersKey);
    expect((await memberBrowser.post(`/keys/${theirs?.id}/revoke`, {}, { from: keys })).status).toBe(403);
    expect((await s.request('/api/v1/me', { key: ownersKey })).status).toBe(200);
    // The owner revokes the member's key.
    const owner = new TestBrowser(s.url);
    await owner.signIn('ann@example.com', PASSWORD);
    await owner.post('/workspace', { organizationId: acme.id }, { from: await owner.get('/') });
    const ownerKeys = await owner.get('/keys');
    expect((await owner.post(`/keys/${mine?.id}/revoke`, {}, { from: ownerKeys })).status).toBe(200);
    expect((await s.request('/api/v1/me', { key: secret })).status).toBe(401);
  });

  test('answers junk sent to every form with a page, never a 500 or a trace, and changes nothing', async () => {
    const browser = new TestBrowser(s.url);
    await browser.signIn('ann@example.com', PASSWORD);
    const home = await browser.get('/');
    const csrf = csrfOf(home.html) as string;
    const cookie = [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const keysBefore = (await s.store.db.selectFrom('api_keys').select('id').execute()).length;
    const forms = [
      '/sign-in',
      '/sign-out',
      '/workspace',
      '/members/invitations',
      '/invitations/not-a-token',
      '/cli/authorize',
      '/keys',
      '/keys/not-an-id/reveal',
      '/keys/00000000-0000-7000-8000-000000000000/revoke',
      '/runs/not-a-run/share',
      '/auth/link/x',
      '/account/passkeys',
      '/account/passkeys/options',
      '/account/passkeys/x/delete',
      '/account/sign-in',
      '/account/sign-in/options',
    ];
    const bodies: Array<[string, string | FormData]> = [
      ['application/json', JSON.stringify({ csrf, email: 'ann@example.com', password: PASSWORD })],
      [
        'application/x-www-form-urlencoded',
        `csrf=${csrf}&email=%00%FF&password=${'x'.repeat(5000)}&name=&scopes=root&projectId=%27`,
      ],
      [
        'application/x-www-form-urlencoded',
        `csrf=${csrf}&csrf=${csrf}&email=a&email=b&decision=allow&redirect_uri=http://evil.example/`,
      ],
      ['application/x-www-form-urlencoded', `csrf=${csrf}&${'a='.repeat(20_000)}`],
      ['text/plain', 'hello'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\nbad\r\n--x--'],
      ['application/x-www-form-urlencoded', `csrf=${csrf}&${'z'.repeat(70_000)}`],
    ];
    const seen = new Map<number, number>();
    for (const path of forms)
      for (const [type, body] of bodies) {
        const response = await fetch(`${s.url}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie, 'content-type': type, origin: s.url },
          body,
        });
        const text = await response.text();
        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
        expect(response.status, `${path} ${type}`).toBeLessThan(500);
        expect(text, `${path} ${type}`).not.toMatch(/\n\s+at |Error:|TypeError|stack/);
      }
    console.log(
      `battery: dashboard form junk: ${forms.length * bodies.length} cases (${[...seen].map(([k, v]) => `${k} x${v}`).join(', ')}); none 5xx`,
    );
    // No key was made or revoked by junk (a well-formed sign-out in the list did sign out, as it should).
    expect((await s.store.db.selectFrom('api_keys').select('id').execute()).length).toBe(keysBefore);
  });

  // Last: it spends this address's sign-in budget for the minute.
  test('answers an unknown email exactly as a wrong password, and throttles attempts by email and by address', async () => {
    const unknown = new TestBrowser(s.url);
    const wrong = new TestBrowser(s.url);
    const a = await unknown.signIn('nobody@example.com', PASSWORD);
    const b = await wrong.signIn('ann@example.com', 'not the password at all');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    const message = (page: string) => /role="alert">([^<]+)</.exec(page)?.[1];
    expect(message(a.html)).toBe(message(b.html));
    expect(message(a.html)).toBe('That email and password do not match an account.');
    expect(a.headers.getSetCookie().some((c) => c.startsWith('siteaudit_session'))).toBe(false);

    // The limits count per clock minute: start early in one, so the whole test falls inside it.
    const left = 60 - new Date().getSeconds();
    if (left < 20) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
    // By email: the attempts after SIGN_IN_PER_EMAIL in a minute are refused, right password or not.
    const email = `target-${randomBytes(3).toString('hex')}@example.com`;
    const target = await createUser(s.store, { email, name: 'T', password: PASSWORD });
    await addMember(s.store, target.id, acme.id, 'member');
    const guesser = new TestBrowser(s.url);
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_EMAIL; i++)
      statuses.push((await guesser.signIn(email, `guess number ${i}!`)).status);
    const blocked = await guesser.signIn(email, PASSWORD);
    expect(statuses).toEqual(Array(SIGN_IN_PER_EMAIL).fill(401));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // An unknown email is throttled alike, so the limit tells nothing either.
    const ghost = `ghost-${randomBytes(3).toString('hex')}@example.com`;
    for (let i = 0; i < SIGN_IN_PER_EMAIL; i++) await guesser.signIn(ghost, 'whatever it is');
    expect((await guesser.signIn(ghost, 'whatever it is')).status).toBe(429);
    // By address: many emails from one address run out too.
    const spray: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_ADDRESS; i++)
      spray.push((await guesser.signIn(`spray-${i}-${randomBytes(2).toString('hex')}@example.com`, 'x')).status);
    expect(spray.at(-1)).toBe(429);
  }, 60_000);
});
