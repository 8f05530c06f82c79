// Wake-ups instead of polling (issue 28): on one PostgreSQL, processes wake each other with
// LISTEN/NOTIFY (a run queued wakes the claimers, a run changed wakes its long polls), fall back to
// fast polling when the listening connection drops and listen again when it is back; the waiters of
// one run share its re-reads, on both backends. Each wake-up is proved by a fallback poll set longer
// than the request's own deadline: an answer before the deadline can only come from a wake-up.
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/server.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { PostgresWakeups, RUN_CHANGED, RUNS_QUEUED } from '../../src/service/wakeups.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { type FixtureSite, startShopSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

interface Run {
  runId: string;
  status: string;
  progressPct: number;
  currentStep: string | null;
}

/** Longer than any request's wait (25 s at most): a re-read on this pace never answers one. */
const NEVER_MS = 60_000;
/** What a run's long poll waits at most here. */
const WAIT_SECONDS = 25;

/** Resolves once `ready()` holds, checking every 25 ms; fails after `ms` saying what it waited for. */
async function eventually(ready: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Counts the reads of one run through the store (the long polls' re-reads and each request's own):
 * those begun, and those answered (a long poll that has read its run waits on the watch after it).
 */
function countReads(store: Store, runId: string): { readonly count: number; readonly answered: number } {
  const get = store.runs.get.bind(store.runs);
  let count = 0;
  let answered = 0;
  store.runs.get = (organizationId: string, id: string) => {
    if (id !== runId) return get(organizationId, id);
    count++;
    return get(organizationId, id).finally(() => answered++);
  };
  return {
    get count() {
      return count;
    },
    get answered() {
      return answered;
    },
  };
}

/** The connection string with an application_name of its own, to find its backend in pg_stat_activity. */
function named(url: string, app: string, port?: number): string {
  const named = new URL(url);
  named.searchParams.set('application_name', app);
  if (port !== undefined) named.port = String(port);
  return named.toString();
}

/** A TCP relay to PostgreSQL that can refuse new connections (a server gone away, for a while). */
async function relay(target: URL): Promise<{ port: number; refusing: boolean; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { refusing: false };
  const server: Server = createServer((client) => {
    if (state.refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const postgres = testBackends().find((backend) => backend.name === 'postgres');

describe('wake-ups between processes on PostgreSQL', () => {
  const test = it.skipIf(!postgres?.available);
  let site: FixtureSite;
  let location: TestLocation;
  let watcher: pg.Client;
  /** What each test started, stopped after it (newest first), so no worker of one claims the next one's run. */
  let closing: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    if (!postgres?.available) return;
    site = await startShopSite();
    location = await postgres.create();
    watcher = new pg.Client({ connectionString: location.databaseUrl });
    await watcher.connect();
  });
  afterEach(async () => {
    for (const close of closing.reverse()) await close();
    closing = [];
  });
  afterAll(async () => {
    if (!postgres?.available) return;
    await watcher.end();
    await location.cleanup();
    await site.close();
  });

  /** Backends whose application_name is `app`. */
  const backendsOf = async (app: string): Promise<number[]> =>
    (await watcher.query('select pid from pg_stat_activity where application_name = $1', [app])).rows.map(
      (row) => row.pid as number,
    );

  /** Service A: the API, no worker; its long polls re-read only when woken. */
  async function apiProcess(options: Parameters<typeof startTestService>[1] = {}): Promise<TestService> {
    const app = `wake-a-${randomBytes(4).toString('hex')}`;
    const a = await startTestService(postgres as NonNullable<typeof postgres>, {
      location,
      allowLocalTargets: true,
      worker: false,
      databaseListenUrl: named(location.databaseUrl as string, app),
      pollPaces: { longPoll: { fastMs: NEVER_MS, listeningMs: NEVER_MS } },
      ...options,
    });
    closing.push(() => a.close());
    await eventually(() => a.service.wakeups.listening(RUN_CHANGED), "A's listener");
    return a;
  }

  /** Service B on the same database: a worker that looks for work only when woken (or once a minute). */
  async function workerProcess(a: TestService): Promise<RunningService> {
    const store = await openStore(location);
    const b = await startService({
      store,
      kek: a.kek,
      port: 0,
      allowLocalTargets: true,
      worker: { pollMs: NEVER_MS },
      pollPaces: { worker: { fastMs: NEVER_MS, listeningMs: NEVER_MS } },
      databaseListenUrl: location.databaseUrl as string,
    });
    closing.push(async () => {
      await b.close();
      await store.close();
    });
    await eventually(() => b.wakeups.listening(RUNS_QUEUED), "B's listener");
    return b;
  }

  async function pendingRun(a: TestService): Promise<{ key: string; runId: string }> {
    const tenant = await a.tenant();
    const projectId = await a.createProject(tenant.key, site.host);
    const started = await a.request<Run>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
    expect(started.status).toBe(202);
    return { key: tenant.key, runId: started.body.runId };
  }

  test("a long poll on A answers when B's worker claims the run, with one re-read", async () => {
    const a = await apiProcess();
    const { key, runId } = await pendingRun(a);
    const reads = countReads(a.store, runId);
    const waiting = a.request<Run>(`/api/v1/runs/${runId}?waitSeconds=${WAIT_SECONDS}`, { key });
    await eventually(() => reads.answered >= 1, 'the long poll to read its run');
    // Polling every 500 ms, the old long poll re-read the run four times in these two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await workerProcess(a);
    const answer = await waiting;
    // A's next re-read is a minute away, past the request's 25 s: only B's NOTIFY can have answered it.
    expect(answer.body.status).not.toBe('pending');
    // The request's own read, and the one the wake-up asked for (and perhaps one to settle a race).
    expect(reads.count).toBeLessThanOrEqual(3);
  });

  test("a run started on A is claimed by B's worker at once, not at B's next look", async () => {
    const a = await apiProcess();
    const b = await workerProcess(a);
    expect(b.wakeups.listening(RUNS_QUEUED)).toBe(true);
    // B's worker looked once when it started; its next look is a minute away.
    const { key, runId } = await pendingRun(a);
    let run = (await a.request<Run>(`/api/v1/runs/${runId}`, { key })).body;
    if (run.status === 'pending')
      run = (await a.request<Run>(`/api/v1/runs/${runId}?waitSeconds=${WAIT_SECONDS}`, { key })).body;
    expect(run.status).not.toBe('pending');
  });

  test('a process with no listener (--no-database-listen-url) still wakes the others', async () => {
    const a = await startTestService(postgres as NonNullable<typeof postgres>, {
      location,
      allowLocalTargets: true,
      worker: false,
      pollPaces: { longPoll: { fastMs: NEVER_MS, listeningMs: NEVER_MS } },
    });
    closing.push(() => a.close());
    expect(a.service.wakeups.listening(RUNS_QUEUED)).toBe(false);
    const b = await workerProcess(a);
    const { key, runId } = await pendingRun(a);
    const deadline = Date.now() + WAIT_SECONDS * 1000;
    let run = (await a.request<Run>(`/api/v1/runs/${runId}`, { key })).body;
    while (run.status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await a.request<Run>(`/api/v1/runs/${runId}`, { key })).body;
    }
    expect(run.status).not.toBe('pending');
    expect(b.wakeups.listening(RUNS_QUEUED)).toBe(true);
  });

  test('a dropped listener falls back to polling at once and listens again when the server is back', async () => {
    const target = new URL(location.databaseUrl as string);
    const gate = await relay(target);
    closing.push(() => gate.close());
    const app = `wake-a-${randomBytes(4).toString('hex')}`;
    const a = await apiProcess({
      databaseListenUrl: named(location.databaseUrl as string, app, gate.port),
      pollPaces: { longPoll: { fastMs: 200, listeningMs: NEVER_MS } },
      listenerTimings: { reconnectMinMs: 50, reconnectMaxMs: 200 },
    });
    const { key, runId } = await pendingRun(a);
    const reads = countReads(a.store, runId);
    // "Process B": a store and wake-ups of its own, writing progress as a worker does.
    const store = await openStore(location);
    const b = new PostgresWakeups({ listenUrl: location.databaseUrl as string, db: store.db });
    await b.start();
    closing.push(async () => {
      await b.close();
      await store.close();
    });
    const progress = async (pct: number) => {
      await store.db
        .updateTable('runs')
        .set({ progress_pct: pct, current_step: `step ${pct}` })
        .where('id', '=', runId)
        .execute();
      await b.notify(RUN_CHANGED, runId);
    };
    /** A long poll of the run while `change` happens on B: its answer. */
    const pollAcross = async (change: () => Promise<void>) => {
      const before = reads.answered;
      const waiting = a.request<Run>(`/api/v1/runs/${runId}?waitSeconds=${WAIT_SECONDS}`, { key });
      await eventually(() => reads.answered > before, 'the long poll to read its run');
      await change();
      return (await waiting).body;
    };

    // Listening: B's change reaches A's long poll, whose own re-read is a minute away.
    expect((await pollAcross(() => progress(10))).progressPct).toBe(10);

    // The listener's backend terminated, and the server refusing it for now: A polls every 200 ms.
    gate.refusing = true;
    const [pid, ...others] = await backendsOf(app);
    expect(pid).toBeDefined();
    expect(others).toEqual([]);
    await watcher.query('select pg_terminate_backend($1)', [pid]);
    await eventually(() => !a.service.wakeups.listening(RUN_CHANGED), 'A to notice its listener gone');
    // Not heard (nothing listens), yet answered well before the minute of the listening pace.
    expect((await pollAcross(() => progress(20))).progressPct).toBe(20);

    // The server back: A listens again, on a new backend, and wake-ups answer again.
    gate.refusing = false;
    await eventually(() => a.service.wakeups.listening(RUN_CHANGED), 'A to listen again');
    const [again] = await backendsOf(app);
    expect(again).toBeDefined();
    expect(again).not.toBe(pid);
    expect((await pollAcross(() => progress(30))).progressPct).toBe(30);

    // A stopped closes its listening connection.
    await a.close();
    await eventually(async () => (await backendsOf(app)).length === 0, "A's listener to close");
  });
});

describe.each(testBackends())('long polls of one run on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let site: FixtureSite;
  const TICK_MS = 250;
  const WAITERS = 40;

  beforeAll(async () => {
    if (!backend.available) return;
    site = await startShopSite();
    s = await startTestService(backend, {
      allowLocalTargets: true,
      worker: false,
      pollPaces: { longPoll: { fastMs: TICK_MS, listeningMs: TICK_MS } },
    });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await site.close();
  });

  test('share one re-read per tick, and one re-read answers them all at a change', async () => {
    const tenant = await s.tenant();
    const projectId = await s.createProject(tenant.key, site.host);
    const started = await s.request<Run>('/api/v1/runs', { key: tenant.key, method: 'POST', json: { projectId } });
    const runId = started.body.runId;
    const reads = countReads(s.store, runId);
    const poll = (seconds: number) =>
      s.request<Run>(`/api/v1/runs/${runId}?waitSeconds=${seconds}`, { key: tenant.key });

    // Nothing changes for 2 s: each waiter answers at its deadline with the run as it is.
    const began = performance.now();
    const idle = await Promise.all(Array.from({ length: WAITERS }, () => poll(2)));
    const ms = performance.now() - began;
    expect(idle.map((answer) => answer.body.status)).toEqual(Array(WAITERS).fill('pending'));
    // Each request's own read, and at most one shared re-read per tick while any waited (a timer
    // never fires early, so a slow machine only makes fewer). The old long polls re-read one each
    // every 500 ms: 160 here.
    expect(reads.count - WAITERS).toBeLessThanOrEqual(Math.ceil(ms / TICK_MS) + 1);

    // A change told to the watch: one re-read answers every waiter with it.
    const before = reads.answered;
    const waiting = Promise.all(Array.from({ length: WAITERS }, () => poll(WAIT_SECONDS)));
    await eventually(() => reads.answered - before >= WAITERS, 'every long poll to read its run');
    // (A tick's read counts too: a moment more for the last request to reach the watch.)
    await new Promise((resolve) => setTimeout(resolve, 300));
    await s.store.db
      .updateTable('runs')
      .set({ progress_pct: 40, current_step: 'crawl' })
      .where('id', '=', runId)
      .execute();
    const changedAt = reads.count;
    await s.service.wakeups.notify(RUN_CHANGED, runId);
    const answers = await waiting;
    expect(answers.map((answer) => answer.body.progressPct)).toEqual(Array(WAITERS).fill(40));
    // The change's re-read, perhaps a tick's on the way (40 of their own before).
    expect(reads.count - changedAt).toBeLessThanOrEqual(2);
  });
});
