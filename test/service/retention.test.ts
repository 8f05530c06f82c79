// Retention by age and the elected housekeeper (issue 28), on both backends. A real service whose
// housekeeper deletes what has outlived its settings: ended runs whole (findings, report, shares),
// never one in flight nor a project's latest completed run of a product; webhook deliveries with
// their attempts, and events only once no delivery of them is left; monitoring checks. The deletes
// go in bounded batches through indexes, and of two services on one store only the one holding the
// lease prunes, the other taking over when it stops or when its lease lapses.
import { randomBytes } from 'node:crypto';
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/service/api-keys.ts';
import type { RetentionPass } from '../../src/service/housekeeper.ts';
import { createOrganization } from '../../src/service/organizations.ts';
import { housekeepingStore } from '../../src/service/store/housekeeping.ts';
import { uuidv7 } from '../../src/service/store/ids.ts';
import { type Database, openStore, type Store } from '../../src/service/store/index.ts';
import { type PruneOptions, retentionStore } from '../../src/service/store/retention.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { startServe } from '../support/cli.ts';
import { startTestService, type TestService } from '../support/service.ts';

const DAY = 86_400_000;
const ago = (days: number, plusMs = 0) => new Date(Date.now() - days * DAY + plusMs).toISOString();

/** Waits until `check` answers something other than undefined (every 50 ms, at most `ms`). */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A service whose housekeeper looks every 100 ms and passes at every look, reporting each pass. */
async function housekeepingService(
  backend: Parameters<typeof startTestService>[0],
  options: Parameters<typeof startTestService>[1] = {},
  housekeeping: { tickMs?: number; leaseMs?: number } = {},
): Promise<TestService & { passes: RetentionPass[] }> {
  const passes: RetentionPass[] = [];
  const service = await startTestService(backend, {
    worker: false,
    deliverer: false,
    monitor: false,
    ...options,
    housekeeping: {
      firstTickMs: 0,
      tickMs: 100,
      passEveryMs: 0,
      pauseMs: 0,
      runBatch: 10,
      rowBatch: 10,
      ...housekeeping,
      onPass: (pass) => passes.push(pass),
    },
  });
  return Object.assign(service, { passes });
}

/** A pass that began after `since`: one that saw everything written before it. */
const passAfter = (service: { passes: RetentionPass[] }, since: number) =>
  until('a retention pass', () => service.passes.find((pass) => pass.startedAt > since));

/**
 * A housekeeping service on a store seeded before it starts (its first pass sees all of it): an
 * organization with a full-scope key, and what `seed` writes.
 */
async function seededService<T>(
  backend: Parameters<typeof startTestService>[0],
  options: Parameters<typeof startTestService>[1],
  seed: (store: Store, organizationId: string) => Promise<T>,
): Promise<{ s: TestService & { passes: RetentionPass[]; key: string }; data: T }> {
  const location = await backend.create();
  const kek = randomBytes(32);
  const store = await openStore(location);
  let data: T;
  let key: string;
  try {
    const organization = await createOrganization(store, { name: 'Retention', plan: 'pro' });
    key = (await issueKey(store, kek, { organizationId: organization.id, name: 'test', source: 'admin' })).secret;
    data = await seed(store, organization.id);
  } finally {
    await store.close();
  }
  const service = await housekeepingService(backend, { ...options, location, kek });
  const close = service.close;
  return {
    s: Object.assign(service, {
      key,
      close: async () => {
        await close();
        await location.cleanup();
      },
    }),
    data,
  };
}

async function insertProject(store: Store, organizationId: string): Promise<string> {
  const id = uuidv7();
  const at = ago(900);
  await store.db
    .insertInto('projects')
    .values({
      id,
      organization_id: organizationId,
      name: id,
      domain: `${id}.example`,
      slug: id,
      status: 'active',
      created_at: at,
      updated_at: at,
      archived_at: null,
    })
    .execute();
  return id;
}

interface RunSeed {
  organizationId: string;
  projectId: string;
  product?: string;
  status: string;
  createdAt: string;
  findings?: number;
}

async function insertRun(store: Store, seed: RunSeed): Promise<string> {
  const id = uuidv7();
  const ended = !['pending', 'running'].includes(seed.status);
  const completed = seed.status === 'completed';
  await store.db
    .insertInto('runs')
    .values({
      id,
      organization_id: seed.organizationId,
      project_id: seed.projectId,
      product: seed.product ?? 'ai_readiness',
      status: seed.status,
      progress_pct: ended ? 100 : 0,
      current_step: seed.status,
      url: 'https://site.example/',
      local: 0,
      scan_mode: null,
      error: completed || !ended ? null : 'the site did not answer',
      credits_spent: 1,
      key_prefix: null,
      idempotency_key: null,
      request_fingerprint: 'seed',
      created_at: seed.createdAt,
      started_at: seed.status === 'pending' ? null : seed.createdAt,
      completed_at: ended ? new Date(Date.parse(seed.createdAt) + 60_000).toISOString() : null,
      score: completed ? 80 : null,
      score_status: null,
      severity_counts: completed ? '{"high":1}' : null,
      findings_total: completed ? (seed.findings ?? 0) : null,
      coverage: null,
      report: completed ? JSON.stringify({ filler: 'x'.repeat(200) }) : null,
      attempts: 1,
      // Not due: no claim would take a pending run (there is no worker anyway).
      next_attempt_at: ago(-30),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      key_pages: completed ? '["https://site.example/pricing"]' : null,
    })
    .execute();
  for (let position = 0; position < (seed.findings ?? 0); position++)
    await store.db
      .insertInto('findings')
      .values({ run_id: id, finding_id: uuidv7(), position, severity: 'high', body: '{}' })
      .execute();
  return id;
}

async function insertEndpoint(store: Store, organizationId: string): Promise<string> {
  const id = uuidv7();
  const at = ago(200);
  await store.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      organization_id: organizationId,
      url: 'https://hooks.example/in',
      events: '["run.completed"]',
      description: null,
      active: 1,
      disabled_reason: null,
      secret_ciphertext: 'sealed',
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function insertEvent(store: Store, organizationId: string, createdAt: string, dispatched = true) {
  const id = `evt_${randomBytes(12).toString('hex')}`;
  await store.db
    .insertInto('events')
    .values({
      id,
      type: 'run.completed',
      organization_id: organizationId,
      run_id: null,
      created_at: createdAt,
      data: '{}',
      dispatched_at: dispatched ? createdAt : null,
    })
    .execute();
  return id;
}

async function insertDelivery(
  store: Store,
  seed: { organizationId: string; endpointId: string; eventId: string; status: string; createdAt: string },
  attempts = 1,
): Promise<string> {
  const id = uuidv7();
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      organization_id: seed.organizationId,
      endpoint_id: seed.endpointId,
      event_id: seed.eventId,
      event_type: 'run.completed',
      status: seed.status,
      attempts,
      next_attempt_at: seed.status === 'pending' ? ago(-1) : null,
      lease_owner: null,
      lease_expires_at: seed.status === 'delivering' ? ago(-1) : null,
      last_status: 200,
      last_error: null,
      delivered_at: seed.status === 'delivered' ? seed.createdAt : null,
      created_at: seed.createdAt,
    })
    .execute();
  for (let attempt = 1; attempt <= attempts; attempt++)
    await store.db
      .insertInto('webhook_attempts')
      .values({
        id: uuidv7(),
        delivery_id: id,
        attempt,
        attempted_at: seed.createdAt,
        duration_ms: 5,
        status_code: 200,
        error: null,
        response_excerpt: null,
      })
      .execute();
  return id;
}

async function insertCheck(store: Store, organizationId: string, projectId: string, createdAt: string) {
  const id = uuidv7();
  await store.db
    .insertInto('monitor_checks')
    .values({
      id,
      organization_id: organizationId,
      project_id: projectId,
      url: 'https://site.example/',
      created_at: createdAt,
      http_status: 200,
      up: 1,
      kind: null,
      changes: '[]',
      error: null,
      duration_ms: 5,
      event_id: null,
    })
    .execute();
  return id;
}

const countWhere = async (store: Store, table: 'findings' | 'run_shares', runId: string) =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('run_id', '=', runId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const idsOf = async (store: Store, table: 'events' | 'webhook_deliveries' | 'monitor_checks') =>
  new Set((await store.db.selectFrom(table).select('id').execute()).map((row) => row.id));

describe.each(testBackends())('retention on $name', (backend) => {
  const test = it.skipIf(!backend.available);

  test('ended runs past the setting go whole; newer ones, runs in flight and the latest completed of each project and product stay', async () => {
    const { s, data } = await seededService(backend, { retention: { runs: 400 } }, async (store, tenant) => {
      const one = await insertProject(store, tenant);
      const two = await insertProject(store, tenant);
      const three = await insertProject(store, tenant);
      const run = (projectId: string, status: string, days: number, product?: string) =>
        insertRun(store, {
          organizationId: tenant,
          projectId,
          status,
          createdAt: ago(days),
          findings: 3,
          ...(product ? { product } : {}),
        });
      const gone = {
        oldCompleted: await run(one, 'completed', 500),
        oldFailed: await run(one, 'failed_auto_credit', 490),
        olderCompleted: await run(one, 'completed', 480),
        otherProjectOld: await run(two, 'completed', 460),
        failedInThird: await run(three, 'failed_auto_credit', 420),
      };
      const kept = {
        // Past the setting, but the latest completed run of its project and product.
        latestOfProduct: await run(one, 'completed', 470, 'marketing_signal'),
        latestOfOtherProject: await run(two, 'completed', 450),
        // In flight, however old.
        pending: await run(two, 'pending', 440),
        running: await run(three, 'running', 430),
        // Within the setting (399 days), though not the latest.
        withinSetting: await run(one, 'completed', 399),
        latest: await run(one, 'completed', 10),
      };
      for (const runId of [gone.oldCompleted, kept.withinSetting])
        await store.accounts.insertRunShare({
          token_hash: randomBytes(16).toString('hex'),
          run_id: runId,
          created_by: 'someone',
          created_at: ago(1),
        });
      return { gone, kept };
    });
    try {
      const pass = await until('a retention pass', () => s.passes[0]);
      expect(pass.runs).toMatchObject({ deleted: 5, related: 5 * 3 + 1 });
      for (const [name, runId] of Object.entries(data.gone)) {
        expect((await s.request(`/api/v1/runs/${runId}`, { key: s.key })).status, name).toBe(404);
        expect(await countWhere(s.store, 'findings', runId), name).toBe(0);
        expect(await countWhere(s.store, 'run_shares', runId), name).toBe(0);
      }
      for (const [name, runId] of Object.entries(data.kept)) {
        expect((await s.request(`/api/v1/runs/${runId}`, { key: s.key })).status, name).toBe(200);
        expect(await countWhere(s.store, 'findings', runId), name).toBe(3);
      }
      expect(await countWhere(s.store, 'run_shares', data.kept.withinSetting)).toBe(1);
      // A kept run is whole: its report and its findings.
      const report = await s.request(`/api/v1/runs/${data.kept.latestOfProduct}/report`, { key: s.key });
      expect(report.status).toBe(200);
      const findings = await s.request<{ findings: unknown[] }>(`/api/v1/runs/${data.kept.latest}/findings`, {
        key: s.key,
      });
      expect(findings.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('deliveries that are over go by age with their attempts; events only once dispatched and no delivery of them is left; old monitoring checks go', async () => {
    const retention = { events: 30, deliveries: 30 };
    const { s, data } = await seededService(backend, { retention }, async (store, organizationId) => {
      const projectId = await insertProject(store, organizationId);
      const endpointId = await insertEndpoint(store, organizationId);
      const otherEndpointId = await insertEndpoint(store, organizationId);
      const event = (days: number, dispatched = true) => insertEvent(store, organizationId, ago(days), dispatched);
      const delivery = (eventId: string, status: string, days: number, attempts = 1, to = endpointId) =>
        insertDelivery(
          store,
          { organizationId, endpointId: to, eventId, status, createdAt: ago(days, 1000) },
          attempts,
        );
      const events = {
        lonelyOld: await event(60),
        deliveredOld: await event(60),
        retrying: await event(60),
        undispatched: await event(60, false),
        recent: await event(5),
        recentlyDelivered: await event(60),
        halfDone: await event(60),
      };
      return {
        endpointId,
        events,
        deliveries: {
          deliveredOld: await delivery(events.deliveredOld, 'delivered', 60, 2),
          retrying: await delivery(events.retrying, 'pending', 60, 3),
          recent: await delivery(events.recentlyDelivered, 'delivered', 5),
          halfDoneFailed: await delivery(events.halfDone, 'failed', 60, 7),
          halfDoneSending: await delivery(events.halfDone, 'delivering', 60, 1, otherEndpointId),
        },
        oldCheck: await insertCheck(store, organizationId, projectId, ago(100)),
        newCheck: await insertCheck(store, organizationId, projectId, ago(10)),
      };
    });
    const { events, deliveries } = data;
    try {
      const pass = await until('a retention pass', () => s.passes[0]);
      // Two deliveries, their 9 attempts, and the event of one of them; one event that had none.
      expect(pass.deliveries).toMatchObject({ deleted: 2, related: 2 + 7 + 1 });
      expect(pass.events).toMatchObject({ deleted: 1 });
      expect(pass.monitorChecks).toMatchObject({ deleted: 1 });

      const left = await idsOf(s.store, 'events');
      for (const name of ['lonelyOld', 'deliveredOld'] as const) expect(left.has(events[name]), name).toBe(false);
      for (const name of ['retrying', 'undispatched', 'recent', 'recentlyDelivered', 'halfDone'] as const)
        expect(left.has(events[name]), name).toBe(true);
      const listed = await s.request<{ deliveries: Array<{ deliveryId: string }> }>(
        `/api/v1/webhooks/${data.endpointId}/deliveries?limit=100`,
        { key: s.key },
      );
      expect(listed.status).toBe(200);
      expect(new Set(listed.body.deliveries.map((d) => d.deliveryId))).toEqual(
        new Set([deliveries.retrying, deliveries.recent]),
      );
      expect((await idsOf(s.store, 'webhook_deliveries')).has(deliveries.halfDoneSending)).toBe(true);
      const attempts = await s.store.db.selectFrom('webhook_attempts').select('delivery_id').execute();
      const attemptsOf = (id: string) => attempts.filter((a) => a.delivery_id === id).length;
      expect([deliveries.deliveredOld, deliveries.halfDoneFailed].map(attemptsOf)).toEqual([0, 0]);
      expect(attemptsOf(deliveries.retrying)).toBe(3);
      const checks = await idsOf(s.store, 'monitor_checks');
      expect([checks.has(data.oldCheck), checks.has(data.newCheck)]).toEqual([false, true]);

      // The delivery being sent ends: at the next pass it goes, with its attempt and now its event.
      await s.store.db
        .updateTable('webhook_deliveries')
        .set({ status: 'delivered' })
        .where('id', '=', deliveries.halfDoneSending)
        .execute();
      const later = await passAfter(s, Date.now());
      expect(later.deliveries).toMatchObject({ deleted: 1, related: 2 });
      expect((await idsOf(s.store, 'events')).has(events.halfDone)).toBe(false);
    } finally {
      await s.close();
    }
  });

  describe('the store, directly', () => {
    let location: TestLocation;
    let s: TestService;
    let organizationId: string;
    let projectId: string;

    beforeAll(async () => {
      if (!backend.available) return;
      location = await backend.create();
      s = await startTestService(backend, {
        location,
        worker: false,
        deliverer: false,
        monitor: false,
        housekeeping: false,
      });
      const tenant = await s.tenant();
      organizationId = tenant.organizationId;
      projectId = await s.createProject(tenant.key, 'retention-direct.example');
    });

    afterAll(async () => {
      if (!backend.available) return;
      await s.close();
      await location.cleanup();
    });

    /** The store's retention on a handle that counts the deletes of each table it sends. */
    function traced() {
      const deletes = new Map<string, number>();
      const counter: KyselyPlugin = {
        transformQuery: ({ node }: { node: RootOperationNode }) => {
          if (node.kind === 'DeleteQueryNode') {
            const compiled = s.store.db.getExecutor().compileQuery(node, { queryId: 'count' } as never);
            const table = /^delete from "(\w+)"/.exec(compiled.sql)?.[1] ?? '?';
            deletes.set(table, (deletes.get(table) ?? 0) + 1);
          }
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const db = s.store.db.withPlugin(counter) as Kysely<Database>;
      return { retention: retentionStore({ db, backend: s.store.backend }), deletes };
    }

    test('35 rows in batches of 10 are 4 batches, each one delete of the table walked; a walk stops when told', async () => {
      const cutoff = ago(400);
      const batch: PruneOptions = { batchSize: 10 };
      // 35 superseded runs and the latest, all old: the walk reads 36 and keeps the latest.
      for (let i = 0; i < 36; i++)
        await insertRun(s.store, { organizationId, projectId, status: 'completed', createdAt: ago(500, i * 1000) });
      const endpointId = await insertEndpoint(s.store, organizationId);
      for (let i = 0; i < 35; i++) {
        const eventId = await insertEvent(s.store, organizationId, ago(500));
        await insertDelivery(s.store, {
          organizationId,
          endpointId,
          eventId,
          status: 'delivered',
          createdAt: ago(500),
        });
        await insertEvent(s.store, organizationId, ago(500, i));
        await insertCheck(s.store, organizationId, projectId, ago(500, i));
      }

      const { retention, deletes } = traced();
      expect(await retention.pruneRuns(cutoff, batch)).toMatchObject({ deleted: 35, batches: 4 });
      expect(deletes.get('runs')).toBe(4);
      expect(await retention.pruneDeliveries(cutoff, undefined, batch)).toMatchObject({
        deleted: 35,
        related: 35,
        batches: 4,
      });
      expect(deletes.get('webhook_deliveries')).toBe(4);
      // The events the deliveries left, and 35 that had none: 70 in 8 batches.
      expect(await retention.pruneEvents(cutoff, batch)).toMatchObject({ deleted: 70, batches: 8 });
      expect(await retention.pruneMonitorChecks(cutoff, batch)).toMatchObject({ deleted: 35, batches: 4 });

      // A walk told to stop after its first batch (the housekeeper lost its lease).
      for (let i = 0; i < 25; i++) await insertCheck(s.store, organizationId, projectId, ago(500, i));
      let asked = 0;
      const stopped = await retention.pruneMonitorChecks(cutoff, {
        batchSize: 10,
        between: async () => {
          asked++;
          return false;
        },
      });
      expect([stopped.deleted, stopped.batches, asked]).toEqual([10, 1, 1]);
    });

    test('an event is kept while any delivery of it is, even past its own retention', async () => {
      const endpointId = await insertEndpoint(s.store, organizationId);
      const lonely = await insertEvent(s.store, organizationId, ago(60));
      const kept: string[] = [];
      for (const status of ['delivered', 'failed', 'pending', 'delivering']) {
        const eventId = await insertEvent(s.store, organizationId, ago(60));
        await insertDelivery(s.store, { organizationId, endpointId, eventId, status, createdAt: ago(60) });
        kept.push(eventId);
      }
      // Deliveries kept for ever: their events stay, whatever their own setting.
      const pruned = await retentionStore(s.store).pruneEvents(ago(30), { batchSize: 10 });
      expect(pruned.deleted).toBe(1);
      const events = await idsOf(s.store, 'events');
      expect(events.has(lonely)).toBe(false);
      for (const id of kept) expect(events.has(id), id).toBe(true);
    });

    test('each walk reads its table through its index: no table read whole, no sort', async () => {
      // Enough rows that PostgreSQL's planner prefers an index to reading a table whole, as at scale:
      // 20,000 runs (half past the cut-off), events and deliveries (a third of them still pending).
      const ROWS = 20_000;
      const endpointId = await insertEndpoint(s.store, organizationId);
      const rows = async (table: keyof Database, values: Array<Record<string, unknown>>) => {
        for (let i = 0; i < values.length; i += 500)
          await s.store.db
            .insertInto(table)
            .values(values.slice(i, i + 500) as never)
            .execute();
      };
      const projects = Array.from({ length: 50 }, (_, i) => ({
        id: uuidv7(),
        organization_id: organizationId,
        name: `p${i}`,
        domain: `plans-${i}.example`,
        slug: `plans-${i}`,
        status: 'active',
        created_at: ago(900),
        updated_at: ago(900),
        archived_at: null,
      }));
      await rows('projects', projects);
      const at = (i: number) => (i % 2 === 0 ? ago(600, i * 1000) : ago(100, i * 1000));
      await rows(
        'runs',
        Array.from({ length: ROWS }, (_, i) => ({
          id: uuidv7(),
          organization_id: organizationId,
          project_id: (projects[i % 50] as { id: string }).id,
          product: 'ai_readiness',
          status: i % 10 === 0 ? 'failed_auto_credit' : 'completed',
          progress_pct: 100,
          url: 'https://site.example/',
          local: 0,
          credits_spent: 1,
          request_fingerprint: 'seed',
          created_at: at(i),
          completed_at: at(i),
          attempts: 1,
          next_attempt_at: at(i),
        })),
      );
      await rows(
        'events',
        Array.from({ length: ROWS }, (_, i) => ({
          id: `evt_plan_${i}`,
          type: 'run.completed',
          organization_id: organizationId,
          created_at: at(i),
          data: '{}',
          dispatched_at: at(i),
        })),
      );
      await rows(
        'webhook_deliveries',
        Array.from({ length: ROWS }, (_, i) => ({
          id: uuidv7(),
          organization_id: organizationId,
          endpoint_id: endpointId,
          event_id: `evt_plan_${i}`,
          event_type: 'run.completed',
          status: i % 3 === 0 ? 'pending' : 'delivered',
          attempts: 1,
          created_at: at(i),
        })),
      );
      if (backend.name === 'postgres')
        for (const table of ['runs', 'events', 'webhook_deliveries'])
          await s.store.db.executeQuery(CompiledQuery.raw(`analyze ${table}`));

      // The statements of one batch of each walk, caught as they run, then explained.
      const caught: RootOperationNode[] = [];
      const catcher: KyselyPlugin = {
        transformQuery: ({ node }) => {
          if (node.kind === 'SelectQueryNode') caught.push(node);
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const retention = retentionStore({
        db: s.store.db.withPlugin(catcher) as Kysely<Database>,
        backend: s.store.backend,
      });
      const once: PruneOptions = { batchSize: 50, between: async () => false };
      const cutoff = ago(400);
      const first = await retention.pruneRuns(cutoff, once);
      // From the middle of the range as well, as later batches start.
      await retention.pruneRuns(cutoff, { ...once, from: first.last as NonNullable<typeof first.last> });
      await retention.pruneDeliveries(cutoff, cutoff, once);
      await retention.pruneEvents(cutoff, once);

      const problems: string[] = [];
      for (const node of caught) {
        const statement = s.store.db.getExecutor().compileQuery(node, { queryId: 'plan' } as never);
        if (backend.name === 'sqlite') {
          const { rows: plan } = await s.store.db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
          );
          const lines = plan.map((line) => line.detail);
          for (const line of lines)
            if (
              /^SCAN (runs|events|webhook_deliveries|r|e|d|n|w)\b(?! USING (COVERING )?INDEX \w+_age)/.test(line) ||
              /TEMP B-TREE/.test(line)
            )
              problems.push(`${statement.sql}\n  ${line}\n  plan: ${lines.join(' | ')}`);
        } else {
          const { rows: plan } = await s.store.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PgPlan }> }>(
            CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
          );
          const root = plan[0]?.['QUERY PLAN'][0]?.Plan;
          expect(root).toBeDefined();
          for (const problem of pgProblems(root as PgPlan)) problems.push(`${statement.sql}\n  ${problem}`);
        }
      }
      expect(caught.length).toBeGreaterThanOrEqual(4);
      expect(problems).toEqual([]);
    });
  });

  test('serve takes the settings from its flags and environment; a process without a monitor prunes monitoring checks', async () => {
    const location = await backend.create();
    const store = await openStore(location);
    let gone: string[];
    try {
      const organization = await createOrganization(store, { name: 'Serve retention', plan: 'pro' });
      const projectId = await insertProject(store, organization.id);
      const endpointId = await insertEndpoint(store, organization.id);
      const eventId = await insertEvent(store, organization.id, ago(60));
      gone = [
        await insertRun(store, {
          organizationId: organization.id,
          projectId,
          status: 'completed',
          createdAt: ago(500),
        }),
        await insertDelivery(store, {
          organizationId: organization.id,
          endpointId,
          eventId,
          status: 'delivered',
          createdAt: ago(60),
        }),
        eventId,
        await insertCheck(store, organization.id, projectId, ago(20)),
      ];
      await insertRun(store, { organizationId: organization.id, projectId, status: 'completed', createdAt: ago(450) });
    } finally {
      await store.close();
    }
    const where = location.databaseUrl ? ['--database-url', location.databaseUrl] : ['--data-dir', location.dataDir];
    const serve = await startServe(
      [
        ...where,
        ...['--no-local-org', '--no-worker', '--no-monitor', '--render', 'never', '--log-format', 'json'],
        ...['--run-retention-days', '400', '--monitor-history-days', '10'],
      ],
      { SITEAUDIT_EVENT_RETENTION_DAYS: '30', SITEAUDIT_DELIVERY_RETENTION_DAYS: '30' },
    );
    try {
      const said = [
        'retention: deleted 1 run older than 400 days, with 0 findings and shares (1 batch)',
        'retention: deleted 1 webhook delivery older than 30 days, with 2 attempts and events (1 batch)',
        'monitoring: deleted 1 check older than 10 days',
      ];
      const messages = () =>
        serve
          .stderr()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
      await until('the retention lines', () => (said.every((line) => messages().includes(line)) ? true : undefined));
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
    const after = await openStore(location);
    try {
      const left = [
        ...(await after.db.selectFrom('runs').select('id').execute()).map((row) => row.id),
        ...(await idsOf(after, 'webhook_deliveries')),
        ...(await idsOf(after, 'events')),
        ...(await idsOf(after, 'monitor_checks')),
      ];
      for (const id of gone) expect(left).not.toContain(id);
      expect(left).toHaveLength(1); // the latest completed run
    } finally {
      await after.close();
      await location.cleanup();
    }
  });

  test('of two services on one store only the lease holder prunes; the other takes over when it stops', async () => {
    const location = await backend.create();
    const a = await housekeepingService(backend, { location });
    const b = await housekeepingService(backend, { location });
    try {
      // Both look every 100 ms; whoever took the lease first passes at each of its looks.
      const [holder, other] = await until('five passes by one service', () =>
        a.passes.length >= 5 ? [a, b] : b.passes.length >= 5 ? [b, a] : undefined,
      );
      const lease = await housekeepingStore(holder.store).holder('housekeeper');
      expect(lease?.owner).toBe(holder.passes[0]?.owner);
      expect(other.passes).toEqual([]);
      // Old audit rows are deleted by the holder.
      const old = await holder.store.auditLog.append({
        organizationId: null,
        keyPrefix: null,
        method: 'GET',
        path: '/old',
        status: 200,
        durationMs: 1,
      });
      await holder.store.db
        .updateTable('audit_log')
        .set({ created_at: ago(100) })
        .where('id', '=', old)
        .execute();
      const pruning = await until('the old audit row deleted', () =>
        holder.passes.find((pass) => (pass.auditLog?.deleted ?? 0) > 0),
      );
      expect(pruning.owner).toBe(lease?.owner);
      expect(other.passes).toEqual([]);

      await holder.service.close();
      const takenOver = await until('a pass by the other service', () => other.passes[0]);
      const heldUntil = Math.max(...holder.passes.map((pass) => pass.endedAt));
      expect(takenOver.startedAt).toBeGreaterThanOrEqual(heldUntil);
      expect(takenOver.owner).not.toBe(lease?.owner);
      expect((await housekeepingStore(other.store).holder('housekeeper'))?.owner).toBe(takenOver.owner);
    } finally {
      await a.close();
      await b.close();
      await location.cleanup();
    }
  });

  test('a housekeeper that stops renewing (frozen, killed) is replaced once its lease lapses, not before', async () => {
    const location = await backend.create();
    // One look at start, then none for an hour: a process frozen while it holds the lease.
    const frozen = await housekeepingService(backend, { location }, { tickMs: 3_600_000, leaseMs: 1_500 });
    let waiting: (TestService & { passes: RetentionPass[] }) | undefined;
    try {
      const first = await until('the frozen service’s one pass', () => frozen.passes[0]);
      const lease = await housekeepingStore(frozen.store).holder('housekeeper');
      expect(lease?.owner).toBe(first.owner);
      waiting = await housekeepingService(backend, { location }, { leaseMs: 1_500 });
      const taken = await until('a pass by the waiting service', () => waiting?.passes[0]);
      expect(taken.startedAt).toBeGreaterThan(Date.parse(lease?.expiresAt as string));
      expect(frozen.passes).toHaveLength(1);
      expect((await housekeepingStore(frozen.store).holder('housekeeper'))?.owner).toBe(taken.owner);
    } finally {
      await frozen.close();
      await waiting?.close();
      await location.cleanup();
    }
  });
});

interface PgPlan {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PgPlan[];
}

/** A PostgreSQL plan's reads of the walked tables: none whole, none far beyond one batch. */
function pgProblems(node: PgPlan, problems: string[] = []): string[] {
  const table = node['Relation Name'];
  if (table && ['runs', 'events', 'webhook_deliveries'].includes(table)) {
    const read = ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
    if (node['Node Type'] === 'Seq Scan') problems.push(`reads ${table} whole`);
    else if (read > 200) problems.push(`reads ${read} rows of ${table} (${node['Node Type']})`);
  }
  for (const child of node.Plans ?? []) pgProblems(child, problems);
  return problems;
}
