// The run claim's fairness (issue 28), on both backends: a cap of runs in progress per organization
// (the operator's, or its plan's) and per host, a gap between the starts on one host, all held by
// claimers of several store connections at once (as many `serve` processes on one database), and an
// order among organizations in which one tenant's burst delays another's run by one run at most.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_TERMS, planRunCaps } from '../../src/service/plans.ts';
import { startUrlFor } from '../../src/service/runs.ts';
import { eventId } from '../../src/service/store/ids.ts';
import { openStore, type ProjectRow, type RunRow, type Store } from '../../src/service/store/index.ts';
import { type ClaimLimits, runHost } from '../../src/service/store/runs.ts';
import {
  DEFAULT_HOST_MAX_RUNNING_RUNS,
  DEFAULT_HOST_MIN_GAP_MS,
  DEFAULT_ORG_MAX_RUNNING_RUNS,
} from '../../src/service/worker.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { migrateTo, rawDb } from '../support/schema-versions.ts';
import { startTestService, type TestService } from '../support/service.ts';

const LEASE_MS = 60_000;

/** The caps `serve` keeps unless told otherwise. */
const DEFAULTS: ClaimLimits = {
  orgMaxRunning: DEFAULT_ORG_MAX_RUNNING_RUNS,
  hostMaxRunning: DEFAULT_HOST_MAX_RUNNING_RUNS,
  hostMinGapMs: DEFAULT_HOST_MIN_GAP_MS,
};

let slugs = 0;

async function tenant(store: Store, plan = 'pro'): Promise<string> {
  slugs++;
  const org = await store.organizations.create({
    name: `tenant ${slugs}`,
    slug: `tenant-${slugs}`,
    plan,
    credits: 10_000,
    monthlyCredits: 0,
  });
  return org.id;
}

/** A project on `domain` and a run of it waiting, as POST /runs makes them. */
async function queue(store: Store, organizationId: string, domain: string): Promise<RunRow> {
  slugs++;
  const made = await store.projects.createOrRestore(
    { organizationId, domain, name: domain, slug: `site-${slugs}` },
    10_000,
  );
  if (made.outcome === 'limit_reached') throw new Error('project limit');
  const target = startUrlFor(made.project);
  const started = await store.runs.create({
    organizationId,
    projectId: made.project.id,
    product: 'ai_readiness',
    url: target.url,
    local: target.local,
    scanMode: null,
    credits: 1,
    keyPrefix: null,
    idempotencyKey: null,
    requestFingerprint: 'fair',
  });
  if (started.outcome !== 'created') throw new Error(`run not created: ${started.outcome}`);
  return started.run;
}

/**
 * A burst of `count` runs of one organization, each on a site of its own, queued an hour ago (in
 * bulk: a thousand starts one by one would be most of the test's time).
 */
async function burst(store: Store, organizationId: string, count: number): Promise<void> {
  const template = await queue(store, organizationId, 'burst-0.example');
  const start = Date.now() - 3_600_000;
  for (let from = 1; from < count; from += 100) {
    const projects: ProjectRow[] = [];
    const runs: RunRow[] = [];
    for (let i = from; i < Math.min(count, from + 100); i++) {
      const at = new Date(start + i).toISOString();
      const domain = `burst-${i}.example`;
      const project: ProjectRow = {
        id: `burst-project-${i}`,
        organization_id: organizationId,
        name: domain,
        domain,
        slug: `burst-${i}`,
        status: 'active',
        created_at: at,
        updated_at: at,
        archived_at: null,
      };
      projects.push(project);
      const target = startUrlFor(project);
      runs.push({
        ...template,
        id: `burst-run-${String(i).padStart(5, '0')}`,
        project_id: project.id,
        url: target.url,
        host: runHost(target.url, target.local),
        created_at: at,
        next_attempt_at: at,
      });
    }
    await store.db.insertInto('projects').values(projects).execute();
    await store.db.insertInto('runs').values(runs).execute();
  }
  // The first one queued first too.
  const first = new Date(start).toISOString();
  await store.db
    .updateTable('runs')
    .set({ created_at: first, next_attempt_at: first })
    .where('id', '=', template.id)
    .execute();
}

/** Ends a run in hand as the worker does when its audit completed. */
async function finish(store: Store, run: RunRow): Promise<void> {
  const ended = await store.runs.complete(run.id, run.lease_owner as string, {
    score: 100,
    scoreStatus: null,
    severityCounts: '{}',
    findingsTotal: 0,
    coverage: null,
    report: '{}',
    keyPages: null,
    findings: [],
    event: { id: eventId(), type: 'run.completed', created_at: new Date().toISOString(), data: '{}' },
  });
  expect(ended).toBe(true);
}

/** Runs of `organizationId` (or on `host`) in progress, as the database has them. */
async function inProgress(store: Store, where: { organizationId?: string; host?: string }): Promise<number> {
  let q = store.db
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'running')
    .where('lease_expires_at', '>=', new Date().toISOString());
  if (where.organizationId) q = q.where('organization_id', '=', where.organizationId);
  if (where.host) q = q.where('host', '=', where.host);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Claims by `claimers` (each a store of its own, as each process has) at once, `perClaimer` each,
 * round after round until a round claims nothing; checks after each round that `bound` holds.
 */
async function claimUntilDry(
  claimers: Store[],
  perClaimer: number,
  limits: ClaimLimits,
  bound: () => Promise<void>,
): Promise<RunRow[]> {
  const claimed: RunRow[] = [];
  for (let round = 0; ; round++) {
    const outcomes = await Promise.all(
      claimers.flatMap((store, c) =>
        Array.from({ length: perClaimer }, (_, k) =>
          store.runs.claim(`claimer-${c}-${k}-${round}`, LEASE_MS, [], undefined, limits),
        ),
      ),
    );
    await bound();
    const got = outcomes.filter((run): run is RunRow => run !== undefined);
    if (got.length === 0) return claimed;
    claimed.push(...got);
  }
}

describe.each(testBackends())('fair run claims on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let location: TestLocation;
  let store: Store;
  /**
   * Four claimers at once. On PostgreSQL each a store of its own, as each process has its pool; on
   * SQLite the one store, whose connection is the process's (a second in the same process would wait
   * for the first's write lock with the event loop blocked, and one process serves a data directory).
   */
  let claimers: Store[];

  beforeEach(async () => {
    if (!backend.available) return;
    location = await backend.create();
    store = await openStore(location);
    claimers =
      backend.name === 'postgres'
        ? [store, await openStore(location), await openStore(location), await openStore(location)]
        : [store, store, store, store];
  });

  afterEach(async () => {
    if (!backend.available) return;
    for (const claimer of new Set(claimers)) await claimer.close();
    await location.cleanup();
  });

  test("an organization's runs in progress stay under its cap with four claimers at once, and the claims go on to others", async () => {
    const busy = await tenant(store);
    for (let i = 0; i < 12; i++) await queue(store, busy, `busy-${i}.example`);
    const limits: ClaimLimits = { ...DEFAULTS, orgMaxRunning: 3 };
    const claimed = await claimUntilDry(claimers, 3, limits, async () => {
      expect(await inProgress(store, { organizationId: busy })).toBeLessThanOrEqual(3);
    });
    expect(claimed).toHaveLength(3);
    expect(await inProgress(store, { organizationId: busy })).toBe(3);
    // A claim does not wait on the capped organization: another's run is taken at once.
    const other = await tenant(store);
    const waiting = await queue(store, other, 'other.example');
    expect((await claimers[1]?.runs.claim('claimer-other', LEASE_MS, [], undefined, limits))?.id).toBe(waiting.id);
    // A run that ends makes room for the next one of the organization.
    await finish(store, claimed[0] as RunRow);
    const next = await store.runs.claim('claimer-next', LEASE_MS, [], undefined, limits);
    expect(next?.organization_id).toBe(busy);
    expect(await inProgress(store, { organizationId: busy })).toBe(3);
    // A lapsed lease is no run in progress: its organization may start another.
    await store.db
      .updateTable('runs')
      .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', next?.id as string)
      .execute();
    expect((await store.runs.claim('claimer-after-lapse', LEASE_MS, [], undefined, limits))?.organization_id).toBe(
      busy,
    );
  });

  test("a plan's own cap wins over the operator's, which holds for the plans that set none", async () => {
    const pro = await tenant(store, 'pro');
    const free = await tenant(store, 'free');
    for (let i = 0; i < 5; i++) {
      await queue(store, pro, `pro-${i}.example`);
      await queue(store, free, `free-${i}.example`);
    }
    const limits: ClaimLimits = { ...DEFAULTS, orgMaxRunning: 1, planMaxRunning: { pro: 3 } };
    const claimed = await claimUntilDry(claimers, 2, limits, async () => {
      expect(await inProgress(store, { organizationId: pro })).toBeLessThanOrEqual(3);
      expect(await inProgress(store, { organizationId: free })).toBeLessThanOrEqual(1);
    });
    expect(claimed.filter((run) => run.organization_id === pro)).toHaveLength(3);
    expect(claimed.filter((run) => run.organization_id === free)).toHaveLength(1);
    // What the worker passes: the plans that set a cap in PLAN_TERMS, and only those.
    expect(planRunCaps()).toEqual({});
    const terms = PLAN_TERMS.pro;
    try {
      terms.maxRunningRuns = 7;
      expect(planRunCaps()).toEqual({ pro: 7 });
    } finally {
      delete terms.maxRunningRuns;
    }
  });

  test('one host is audited by one claim at a time across organizations, its starts a gap apart; a local target has no cap', async () => {
    const [a, b, c, d] = [await tenant(store), await tenant(store), await tenant(store), await tenant(store)];
    // The same site for politeness: case and a leading www. aside.
    const first = await queue(store, a, 'shared.example');
    const second = await queue(store, b, 'www.shared.example');
    const third = await queue(store, c, 'Shared.Example');
    expect([first.host, second.host, third.host]).toEqual(['shared.example', 'shared.example', 'shared.example']);
    const elsewhere = await queue(store, b, 'elsewhere.example');
    const limits: ClaimLimits = { ...DEFAULTS, hostMaxRunning: 1, hostMinGapMs: 3_600_000 };
    const claimed = await claimUntilDry(claimers, 2, limits, async () => {
      expect(await inProgress(store, { host: 'shared.example' })).toBeLessThanOrEqual(1);
    });
    // One run of the host (the oldest, unless two claimers raced for it), and the run elsewhere of
    // an organization whose run on the host waits.
    const shared = [first.id, second.id, third.id];
    const onHost = claimed.find((run) => shared.includes(run.id)) as RunRow;
    expect(claimed.map((run) => run.id).sort()).toEqual([onHost.id, elsewhere.id].sort());
    // Ended, the host is free, but the gap since its last start has not passed: the others wait.
    await finish(store, onHost);
    expect(await store.runs.claim('after-end', LEASE_MS, [], undefined, limits)).toBeUndefined();
    // An hour later (the start moved back rather than the clock forward) the next one starts.
    await store.db
      .updateTable('runs')
      .set({ claimed_at: new Date(Date.now() - 3_600_001).toISOString() })
      .where('id', '=', onHost.id)
      .execute();
    const next = await store.runs.claim('after-gap', LEASE_MS, [], undefined, limits);
    expect(shared.filter((id) => id !== onHost.id)).toContain(next?.id);
    expect(await store.runs.claim('after-gap-2', LEASE_MS, [], undefined, limits)).toBeUndefined();
    // Two at once where the operator allows two, and no gap where it is 0.
    const two: ClaimLimits = { ...limits, hostMaxRunning: 2, hostMinGapMs: 0 };
    expect((await store.runs.claim('two', LEASE_MS, [], undefined, two))?.host).toBe('shared.example');
    expect(await inProgress(store, { host: 'shared.example' })).toBe(2);
    // Targets on this machine are the operator's own: no host cap, no gap.
    const local = [await queue(store, d, '127.0.0.1:8080'), await queue(store, a, '127.0.0.1:8080')];
    expect(local.map((run) => run.host)).toEqual([null, null]);
    const both = [
      await store.runs.claim('local-1', LEASE_MS, [], undefined, limits),
      await store.runs.claim('local-2', LEASE_MS, [], undefined, limits),
    ];
    expect(both.map((run) => run?.id).sort()).toEqual(local.map((run) => run.id).sort());
  });

  test("a tenant's run queued behind another's burst of 1,000 is taken at the first free slot", async () => {
    const big = await tenant(store);
    await burst(store, big, 1000);
    // Two worker slots, both busy with the burst.
    const slots = [
      await store.runs.claim('slot-1', LEASE_MS, [], undefined, DEFAULTS),
      await store.runs.claim('slot-2', LEASE_MS, [], undefined, DEFAULTS),
    ];
    expect(slots.map((run) => run?.organization_id)).toEqual([big, big]);
    const small = await tenant(store);
    const waiting = await queue(store, small, 'small.example');
    // One run's length later a slot frees: the small tenant's run is next, not the burst's 998 others.
    await finish(store, slots[0] as RunRow);
    const next = await claimers[1]?.runs.claim('slot-1', LEASE_MS, [], undefined, DEFAULTS);
    expect(next?.id).toBe(waiting.id);
    // Then the burst goes on, oldest first.
    await finish(store, slots[1] as RunRow);
    const after = await store.runs.claim('slot-2', LEASE_MS, [], undefined, DEFAULTS);
    expect(after?.id).toBe('burst-run-00002');
  });
});

describe.each(testBackends())('migration 0012 on $name', (backend) => {
  const test = it.skipIf(!backend.available);

  test('names the host of the runs a claim can still see, www. aside, and no other', async () => {
    const location = await backend.create();
    try {
      await migrateTo(location, '0011_events_dispatch_queue');
      const db = rawDb(location) as unknown as Store['db'];
      const at = new Date().toISOString();
      await db
        .insertInto('organizations')
        .values({
          id: 'org',
          name: 'org',
          slug: 'org',
          plan: 'pro',
          credits_remaining: 9,
          credits_monthly: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const rows: Array<[id: string, domain: string, status: string]> = [
        ['waiting', 'www.shop.example', 'pending'],
        ['running', 'blog.example', 'running'],
        ['bare-www', 'www.com', 'pending'],
        ['local', '127.0.0.1:8080', 'pending'],
        ['done', 'www.old.example', 'completed'],
      ];
      for (const [id, domain, status] of rows) {
        await db
          .insertInto('projects')
          .values({
            id,
            organization_id: 'org',
            name: id,
            domain,
            slug: id,
            status: 'active',
            created_at: at,
            updated_at: at,
            archived_at: null,
          })
          .execute();
        const target = startUrlFor({ domain } as ProjectRow);
        await db
          .insertInto('runs')
          .values({
            id,
            organization_id: 'org',
            project_id: id,
            product: 'ai_readiness',
            status,
            progress_pct: 0,
            url: target.url,
            local: target.local ? 1 : 0,
            credits_spent: 1,
            created_at: at,
            attempts: 0,
            next_attempt_at: at,
          } as never)
          .execute();
      }
      await db.destroy();
      const migrated = await openStore(location);
      try {
        const hosts = await migrated.db.selectFrom('runs').select(['id', 'host', 'claimed_at']).orderBy('id').execute();
        expect(hosts).toEqual([
          { id: 'bare-www', host: 'www.com', claimed_at: null },
          { id: 'done', host: null, claimed_at: null },
          { id: 'local', host: null, claimed_at: null },
          { id: 'running', host: 'blog.example', claimed_at: null },
          { id: 'waiting', host: 'shop.example', claimed_at: null },
        ]);
        // As a run started now would name them.
        for (const [id, domain] of rows.slice(0, 4)) {
          const target = startUrlFor({ domain } as ProjectRow);
          expect(hosts.find((row) => row.id === id)?.host).toBe(runHost(target.url, target.local));
        }
      } finally {
        await migrated.close();
      }
    } finally {
      await location.cleanup();
    }
  });
});

/** A site whose pages wait until it is let go: an audit of it stays running until then. */
async function heldSite(): Promise<{ site: FixtureSite; asked: Promise<void>; letGo(): void }> {
  let letGo = () => {};
  const gate = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let asked = () => {};
  const firstAsk = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const site = await startFixtureSite({
    '/': (_req, res) => {
      asked();
      void gate.then(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('<title>Held</title>', '<main><h1>Held</h1></main>'));
      });
    },
  });
  return { site, asked: firstAsk, letGo };
}

describe.each(testBackends())('the worker keeps the caps on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService | undefined;
  const sites: Array<Awaited<ReturnType<typeof heldSite>>> = [];

  afterEach(async () => {
    for (const held of sites) held.letGo();
    await s?.close();
    for (const held of sites.splice(0)) await held.site.close();
  });

  test('an organization at its cap of 1 waits while another organization is audited', async () => {
    const service = await startTestService(backend, {
      allowLocalTargets: true,
      worker: { pollMs: 50, concurrency: 3, fairness: { orgMaxRunningRuns: 1 } },
    });
    s = service;
    for (let i = 0; i < 3; i++) sites.push(await heldSite());
    const [one, two, three] = sites as [(typeof sites)[0], (typeof sites)[0], (typeof sites)[0]];
    const a = await service.tenant();
    const b = await service.tenant();
    const start = async (key: string, site: FixtureSite) => {
      const projectId = await service.createProject(key, site.host);
      const res = await service.request<{ runId: string }>('/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId },
      });
      expect(res.status).toBe(202);
      return res.body.runId;
    };
    const status = async (key: string, runId: string) =>
      (await service.request<{ status: string }>(`/api/v1/runs/${runId}`, { key })).body.status;
    const a1 = await start(a.key, one.site);
    await one.asked;
    const a2 = await start(a.key, two.site);
    const b1 = await start(b.key, three.site);
    // The worker has three slots and looked past a2 to take b1: a2 waits for a1 to end.
    await three.asked;
    expect(await status(a.key, a1)).toBe('running');
    expect(await status(a.key, a2)).toBe('pending');
    expect(await status(b.key, b1)).toBe('running');
    one.letGo();
    three.letGo();
    await two.asked;
    two.letGo();
    for (const [key, runId] of [
      [a.key, a1],
      [a.key, a2],
      [b.key, b1],
    ] as const) {
      for (let i = 0; i < 300 && ['pending', 'running'].includes(await status(key, runId)); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await status(key, runId)).toBe('completed');
    }
  });
});
