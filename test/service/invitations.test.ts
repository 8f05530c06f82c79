// Invitations (issue 23) on both backends: an invitation is made for one email address; signed out,
// its page is the same whether that address has an account or not and its form only makes new
// accounts; a person with an account accepts it signed in, and nobody signed in as someone else can.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { testBackends } from '../support/backends.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';
const notice = (html: string) => /role="alert">([^<]+)</.exec(html)?.[1];

describe.each(testBackends())('invitations on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let acme: string;
  let owner: TestBrowser;

  const person = async (name: string, organizationId?: string) => {
    const email = `${name}-${randomBytes(3).toString('hex')}@example.com`;
    const user = await createUser(s.store, { email, name, password: PASSWORD });
    if (organizationId) await addMember(s.store, user.id, organizationId, 'owner');
    return { email, id: user.id };
  };
  /** Makes an invitation on the Members page as Acme's owner; answers its path. */
  const invite = async (email: string, role = 'member') => {
    const made = await owner.post('/members/invitations', { role, email }, { from: await owner.get('/members') });
    expect(made.status, made.html).toBe(200);
    return new URL(/id="invitation-link" value="([^"]+)"/.exec(made.html)?.[1] as string).pathname;
  };
  const inAcme = async (userId: string) =>
    (await s.store.accounts.workspaces(userId)).some((w) => w.organization.id === acme);

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { worker: false, deliverer: false, monitor: false });
    acme = (await s.createOrg({ name: 'Acme' })).id;
    const ann = await person('ann', acme);
    owner = new TestBrowser(s.url);
    expect((await owner.signIn(ann.email, PASSWORD)).status).toBe(303);
  });
  afterAll(async () => {
    await s?.close();
  });

  test('an invitation names the address it is for; one without an address is not made', async () => {
    const before = (await s.store.db.selectFrom('invitations').select('id').execute()).length;
    const members = await owner.get('/members');
    const none = await owner.post('/members/invitations', { role: 'member' }, { from: members });
    expect(none.status).toBe(400);
    expect(notice(none.html)).toBe('Enter the email address of the person you invite.');
    expect((await s.store.db.selectFrom('invitations').select('id').execute()).length).toBe(before);
    await invite('Dana@Example.COM');
    const page = await owner.get('/members');
    expect(page.html).toContain('<td>dana@example.com</td>');
  });

  test('signed out, the page for an address with an account and for one without is the same', async () => {
    const existing = await person('erin');
    const pages = await Promise.all(
      [existing.email, `frank-${randomBytes(3).toString('hex')}@example.com`].map(async (email) => {
        const path = await invite(email);
        const page = await new TestBrowser(s.url).get(path);
        expect(page.status).toBe(200);
        // The link's own token and the browser's CSRF token are all that differ.
        return page.html.replaceAll(path.split('/').at(-1) as string, 'TOKEN').replace(/value="[\w-]{43}"/, 'CSRF');
      }),
    );
    expect(pages[0]).toBe(pages[1]);
    expect(pages[0]).toContain('href="/sign-in?next=%2Finvitations%2FTOKEN"');
    expect(pages[0]).not.toMatch(/exists|already/i);
  });

  test('signed out, the form never takes an existing account’s password and never signs in as it', async () => {
    const gail = await person('gail');
    const path = await invite(gail.email);
    const stranger = new TestBrowser(s.url);
    const form = await stranger.get(path);
    const right = await stranger.post(path, { name: 'G', email: gail.email, password: PASSWORD }, { from: form });
    const wrong = await stranger.post(
      path,
      { name: 'G', email: gail.email, password: 'not the password at all' },
      { from: form },
    );
    for (const answer of [right, wrong]) {
      expect(answer.status).toBe(400);
      expect(notice(answer.html)).toBe(
        'No new account was made. To join with this email address, sign in with it, then accept here.',
      );
      expect(answer.headers.getSetCookie().some((c) => c.startsWith('siteaudit_session='))).toBe(false);
    }
    expect(await inAcme(gail.id)).toBe(false);
    // Gail's password is unchanged, and the invitation is still open for her.
    expect((await new TestBrowser(s.url).signIn(gail.email, PASSWORD)).status).toBe(303);
    expect((await new TestBrowser(s.url).get(path)).status).toBe(200);
  });

  test('a person with an account accepts by signing in first; someone signed in as another cannot', async () => {
    const hank = await person('hank', (await s.createOrg({ name: 'Globex' })).id);
    const ivy = await person('ivy');
    const path = await invite(hank.email, 'owner');

    // Ivy, signed in, holds Hank's link: the page says it is not hers, and accepting is refused.
    const ivys = new TestBrowser(s.url);
    await ivys.signIn(ivy.email, PASSWORD);
    const seen = await ivys.get(path);
    expect(seen.html).toContain('this invitation was made for another email address');
    expect(seen.html).not.toContain(hank.email);
    const refused = await ivys.post(path, {}, { from: seen });
    expect(refused.status).toBe(403);
    expect(await inAcme(ivy.id)).toBe(false);

    // Hank follows the page's sign-in link, signs in, lands back on the invitation and accepts it.
    const hanks = new TestBrowser(s.url);
    const signedOut = await hanks.get(path);
    const signInPath = /href="(\/sign-in\?next=[^"]+)"/.exec(signedOut.html)?.[1] as string;
    const signInForm = await hanks.get(signInPath);
    const next = /name="next" value="([^"]+)"/.exec(signInForm.html)?.[1] as string;
    const signedIn = await hanks.post(
      '/sign-in',
      { email: hank.email, password: PASSWORD, next },
      { from: signInForm },
    );
    expect(signedIn.location).toBe(path);
    const accept = await hanks.get(path);
    expect(accept.html).toContain(`Signed in as ${hank.email}.`);
    const joined = await hanks.post(path, {}, { from: accept });
    expect(joined.location).toBe('/');
    expect((await hanks.get('/')).html).toMatch(/<h1>Acme<\/h1>/);
    expect((await s.store.accounts.workspaces(hank.id)).find((w) => w.organization.id === acme)?.role).toBe('owner');
    expect((await ivys.get(path)).status).toBe(410);
  });

  test('a new person makes an account only with the address the invitation is for', async () => {
    const jo = `jo-${randomBytes(3).toString('hex')}@example.com`;
    const path = await invite(jo);
    const browser = new TestBrowser(s.url);
    const form = await browser.get(path);
    const other = `kim-${randomBytes(3).toString('hex')}@example.com`;
    const wrong = await browser.post(path, { name: 'Kim', email: other, password: PASSWORD }, { from: form });
    expect(wrong.status).toBe(400);
    expect(notice(wrong.html)).toBe('This invitation was made for another email address.');
    expect(await s.store.accounts.findUserByEmail(other)).toBeUndefined();
    const joined = await browser.post(
      path,
      { name: 'Jo', email: jo.toUpperCase(), password: PASSWORD },
      { from: form },
    );
    expect(joined.location).toBe('/');
    const user = await s.store.accounts.findUserByEmail(jo);
    expect(user && (await inAcme(user.id))).toBe(true);
  });

  test('an invitation made before invitations named an address is accepted as it was issued', async () => {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await s.store.accounts.insertInvitation({
      token_hash: createHash('sha256').update(token).digest('hex'),
      id: `00000000-0000-7000-8000-${randomBytes(6).toString('hex')}`,
      organization_id: acme,
      role: 'member',
      invited_by: 'someone',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 86_400_000).toISOString(),
      used_at: null,
      used_by: null,
      email: null,
    });
    const lee = await person('lee');
    const browser = new TestBrowser(s.url);
    await browser.signIn(lee.email, PASSWORD);
    const page = await browser.get(`/invitations/${token}`);
    expect((await browser.post(`/invitations/${token}`, {}, { from: page })).location).toBe('/');
    expect(await inAcme(lee.id)).toBe(true);
  });
});
