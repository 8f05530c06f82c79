// Issue 22, the live switch on both backends: a single-user service that allows local targets stops
// when a second member joins through an invitation, and a local run queued before then is not
// audited (it fails at once, credits returned) rather than reaching this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink, localUser } from '../../src/service/accounts.ts';
import { LocalTargets } from '../../src/service/local-targets.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { PASSWORD } from '../support/people.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.each(testBackends())('local targets on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let policyStore: Store;
  let localTargets: LocalTargets;
  const refusals: number[] = [];
  let hanging: FixtureSite;
  let site: FixtureSite;

  beforeAll(async () => {
    if (!backend.available) return;
    // A home page that never answers keeps the worker's one slot busy, so the next run stays queued.
    hanging = await startFixtureSite({ '/': () => {} });
    site = await startFixtureSite({ '/': { body: html('<title>Dev server</title>', '<h1>Dev server</h1>') } });
    const location = await backend.create();
    policyStore = await openStore(location);
    ({ localTargets } = await LocalTargets.whileSingleUser(policyStore, (members) => refusals.push(members)));
    s = await startTestService(backend, { location, localTargets, worker: { pollMs: 50, concurrency: 1 } });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await policyStore.close();
    await site.close();
    await hanging.close().catch(() => {});
    await s.location.cleanup();
  });

  test('a second member joining turns them off at once; the run queued before is refused, not audited', async () => {
    expect(localTargets.allowed).toBe(true);
    const { organizationId, key } = await s.tenant('pro', 20);
    const start = (projectId: string) =>
      s.request<{ runId: string }>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
    const busy = await start(await s.createProject(key, hanging.host));
    expect(busy.status).toBe(202);
    const projectId = await s.createProject(key, site.host);
    const queued = await start(projectId);
    expect(queued.status).toBe(202);
    const credits = async () =>
      (await s.request<{ credits: { remaining: number } }>('/api/v1/me', { key })).body.credits.remaining;
    const before = await credits();

    // The local owner, signed in through a one-time link, invites a colleague, who joins.
    const owner = new TestBrowser(s.url);
    const link = new URL(await createSignInLink(s.store, s.url, (await localUser(s.store, organizationId)).id));
    const members = await owner.open(`${link.pathname}?next=/members`);
    expect(localTargets.allowed).toBe(true);
    const invited = await owner.post(
      '/members/invitations',
      { role: 'member', email: 'cleo@example.com' },
      { from: members },
    );
    const invitation = new URL(/id="invitation-link" value="([^"]+)"/.exec(invited.html)?.[1] as string).pathname;
    const colleague = new TestBrowser(s.url);
    const joined = await colleague.post(
      invitation,
      { name: 'Cleo', email: 'cleo@example.com', password: PASSWORD },
      { from: await colleague.get(invitation) },
    );
    expect(joined.location).toBe('/');
    expect(localTargets.allowed).toBe(false);
    expect(refusals).toEqual([1]);

    expectError(
      await s.request('/api/v1/projects', { key, method: 'POST', json: { domain: 'localhost:5432' } }),
      400,
      'invalid_domain',
    );
    expectError(await start(projectId), 400, 'validation_failed');

    // The busy run ends when its site goes away; the queued one is claimed next and refused.
    await hanging.close();
    let run: { status: string; error: string | null } = { status: 'pending', error: null };
    for (let i = 0; i < 200 && ['pending', 'running'].includes(run.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await s.request<typeof run>(`/api/v1/runs/${queued.body.runId}`, { key })).body;
    }
    expect(run).toMatchObject({
      status: 'failed_auto_credit',
      error: expect.stringContaining('local targets are not allowed on this service'),
    });
    expect(site.requests).toEqual([]);
    expect(await credits()).toBeGreaterThan(before);
  });
});
