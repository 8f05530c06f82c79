// The invitation takeover (issue 23, High 3) on both backends: a workspace owner makes an invitation
// link for someone who has an account elsewhere on the service, then, not signed in, guesses that
// person's password through the invitation form. The form must never check an existing account's
// password, never sign the guesser in as that person, never add them to the workspace, and answer a
// right guess exactly as a wrong one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { testBackends } from '../support/backends.ts';
import { type Page, TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const VICTIM = 'vic@example.com';
const VICTIM_PASSWORD = 'the victim password, long enough';
const MALLORY = 'mallory@example.com';
const MALLORY_PASSWORD = 'mallory password, long enough';

/** What a person sees of an answer: its status, where it sends them, and its notice. */
const seen = (page: Page) => ({
  status: page.status,
  location: page.location,
  notice: /role="alert">([^<]+)</.exec(page.html)?.[1] ?? null,
  session: page.headers.getSetCookie().some((c) => c.startsWith('siteaudit_session=')),
});

describe.each(testBackends())('invitation takeover on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let acme: string;
  let victimId: string;

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { worker: false, deliverer: false, monitor: false });
    acme = (await s.createOrg({ name: 'Acme' })).id;
    const globex = (await s.createOrg({ name: 'Globex' })).id;
    const mallory = await createUser(s.store, { email: MALLORY, name: 'Mallory', password: MALLORY_PASSWORD });
    await addMember(s.store, mallory.id, acme, 'owner');
    const victim = await createUser(s.store, { email: VICTIM, name: 'Vic', password: VICTIM_PASSWORD });
    await addMember(s.store, victim.id, globex, 'owner');
    victimId = victim.id;
  });
  afterAll(async () => {
    await s?.close();
  });

  test('an owner guessing a password through an invitation link never signs in as its person', async () => {
    // Mallory, an owner of Acme, makes an invitation for Vic's email and keeps the link.
    const mallory = new TestBrowser(s.url);
    expect((await mallory.signIn(MALLORY, MALLORY_PASSWORD)).status).toBe(303);
    const members = await mallory.get('/members');
    const made = await mallory.post('/members/invitations', { role: 'owner', email: VICTIM }, { from: members });
    const link = /id="invitation-link" value="([^"]+)"/.exec(made.html)?.[1] as string;
    const path = new URL(link).pathname;

    // The throttles count per clock minute: start early in one, so the guesses fall inside it.
    const left = 60 - new Date().getSeconds();
    if (left < 15) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
    // Then, not signed in, she guesses: two wrong, the right one, 27 wrong, the right one again.
    const attacker = new TestBrowser(s.url);
    const form = await attacker.get(path);
    expect(form.status).toBe(200);
    const guesses = [
      'wrong guess number 0',
      'wrong guess number 1',
      VICTIM_PASSWORD,
      ...Array.from({ length: 27 }, (_, i) => `wrong guess number ${i + 2}`),
      VICTIM_PASSWORD,
    ];
    const answers: Array<ReturnType<typeof seen>> = [];
    const started = Date.now();
    for (const password of guesses)
      answers.push(seen(await attacker.post(path, { name: 'Vic', email: VICTIM, password }, { from: form })));
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    console.log(
      `battery: invitation takeover (${backend.name}): ${guesses.length} guesses in ${Date.now() - started} ms (${[
        ...statuses,
      ]
        .map(([k, v]) => `${k} x${v}`)
        .join(', ')}); never signed in as the victim`,
    );

    // No answer signs anyone in or redirects into the dashboard; the right password gets the wrong one's answer.
    expect(answers.filter((a) => a.session || a.status === 303)).toEqual([]);
    expect(answers[2]).toEqual(answers[1]);
    expect(answers.at(-1)).toEqual(answers.at(-2));
    // Nothing on the answers says the email has an account, and a clear throttle answer comes at last.
    for (const a of answers) expect(a.notice ?? '').not.toMatch(/exists|already|password/i);
    expect(answers.at(-1)?.status).toBe(429);
    // The guesser is not signed in as Vic, and Vic did not join Acme.
    const home = await attacker.get('/');
    expect(home.status).toBe(303);
    expect(home.html).not.toContain(VICTIM);
    expect((await s.store.accounts.workspaces(victimId)).map((w) => w.organization.id)).not.toContain(acme);
  }, 120_000);
});
