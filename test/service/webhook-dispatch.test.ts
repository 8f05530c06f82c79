// Webhook dispatch by many processes on one store (issue 28), on both backends: real processes, each
// with a connection of its own, turn one backlog of outbox events into deliveries at once. Each
// event reaches each active subscribed endpoint once, a batch costs one transaction however many
// processes dispatch, a pass with nothing to do is one read, and the queue is read through its index
// whatever the history. Each process counts the statements it sends (BEGIN among them) on its
// connection; PostgreSQL's own counters would mix in every other suite sharing the server.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, SQLITE_FILE, type Store } from '../../src/service/store/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STORE_SOURCES = pathToFileURL(join(ROOT, 'src/service/store/')).href;
const BATCH = 100;
const PROCESSES = 5;
const QUEUE_INDEX = 'events_dispatch_queue';

/**
 * One dispatching process: opens its own connection to the store, says `ready`, waits for a line on
 * stdin (so all start at once), then dispatches pass after pass, as a deliverer's looks would, until
 * a pass finds nothing; prints what it did and every statement it sent, counted by kind.
 */
const DISPATCHER = `
import { once } from 'node:events';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
const config = JSON.parse(process.env.SITEAUDIT_TEST_DISPATCHER);
const { deliveryStore } = await import(config.sources + 'deliveries.ts');
const { nodeSqliteDialect, openSqliteFile } = await import(config.sources + 'node-sqlite-dialect.ts');
/** target, with the methods of overrides in place of its own. */
const proxy = (target, overrides) =>
  new Proxy(target, {
    get(t, p) {
      if (Object.hasOwn(overrides, p)) return overrides[p];
      const value = Reflect.get(t, p);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
const sent = [];
const inner = config.databaseUrl
  ? new PostgresDialect({ pool: new pg.Pool({ connectionString: config.databaseUrl, max: 2 }) })
  : nodeSqliteDialect(openSqliteFile(config.sqliteFile));
const dialect = proxy(inner, {
  createDriver() {
    const driver = inner.createDriver();
    return proxy(driver, {
      async acquireConnection() {
        const connection = await driver.acquireConnection();
        return proxy(connection, {
          executeQuery(query) {
            sent.push(query);
            return connection.executeQuery(query);
          },
        });
      },
    });
  },
});
const db = new Kysely({ dialect });
await sql\`select 1\`.execute(db);
sent.length = 0;
const store = deliveryStore({ db, backend: config.databaseUrl ? 'postgres' : 'sqlite' });
process.stdout.write('ready\\n');
await once(process.stdin, 'data');
const report = { passes: 0, events: 0, deliveries: 0, counts: {}, eventReads: [] };
for (;;) {
  const pass = await store.dispatch(new Date().toISOString(), config.batch);
  report.passes++;
  report.events += pass.events;
  report.deliveries += pass.deliveries;
  if (pass.events === 0) break;
}
const seen = new Set();
for (const query of sent) {
  const kind = query.sql.trim().split(/\\s/)[0].toLowerCase();
  report.counts[kind] = (report.counts[kind] ?? 0) + 1;
  if (kind === 'select' && query.sql.includes('from "events"') && !seen.has(query.sql)) {
    seen.add(query.sql);
    report.eventReads.push({ sql: query.sql, parameters: query.parameters });
  }
}
await db.destroy();
process.stdout.write(JSON.stringify(report) + '\\n');
`;

interface DispatchReport {
  passes: number;
  events: number;
  deliveries: number;
  /** Statements sent, by their first word: begin, select, update, insert, commit. */
  counts: Record<string, number>;
  /** Each distinct read of the events table, with the parameters of its first run. */
  eventReads: Array<{ sql: string; parameters: unknown[] }>;
}

/** Runs `count` dispatching processes on `location` at once; answers their reports. */
async function dispatchers(location: TestLocation, count: number): Promise<DispatchReport[]> {
  const config = JSON.stringify({
    sources: STORE_SOURCES,
    databaseUrl: location.databaseUrl,
    sqliteFile: join(location.dataDir, SQLITE_FILE),
    batch: BATCH,
  });
  const children: ChildProcess[] = [];
  const runs = Array.from({ length: count }, () => {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', DISPATCHER],
      {
        cwd: ROOT,
        env: { ...process.env, SITEAUDIT_TEST_DISPATCHER: config },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let out = '';
    let err = '';
    let readyNow: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      readyNow = resolve;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) readyNow();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const done = new Promise<DispatchReport>((resolve, reject) => {
      child.on('close', (code) => {
        readyNow();
        const last = out.trim().split('\n').at(-1) ?? '';
        if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as DispatchReport);
        else reject(new Error(`a dispatching process exited with ${code}: ${err || out}`));
      });
    });
    return { ready, done };
  });
  try {
    await Promise.all(runs.map((run) => run.ready));
    for (const child of children) child.stdin?.end('go\n');
    return await Promise.all(runs.map((run) => run.done));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}

const total = (reports: DispatchReport[], of: (r: DispatchReport) => number) => reports.reduce((n, r) => n + of(r), 0);
const transactions = (reports: DispatchReport[]) => total(reports, (r) => r.counts.begin ?? 0);

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PgNode[];
}

const flatten = (node: PgNode): PgNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

describe.each(testBackends())('webhook dispatch by several processes on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let location: TestLocation;
  let store: Store;
  /** The endpoints subscribed to run.completed and active, by organization. */
  const subscribed = new Map<string, string[]>();
  let clock = Date.parse('2026-03-01T00:00:00.000Z');

  /** `count` undispatched events (or dispatched ones, the history), alternating between the organizations. */
  async function addEvents(prefix: string, count: number, dispatched = false): Promise<string[]> {
    const organizations = [...subscribed.keys()];
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
        const n = i + j;
        const createdAt = new Date(clock++).toISOString();
        ids.push(`evt_${prefix}_${String(n).padStart(6, '0')}`);
        return {
          id: ids.at(-1) as string,
          type: 'run.completed',
          organization_id: organizations[n % organizations.length] as string,
          run_id: null,
          created_at: createdAt,
          data: '{}',
          dispatched_at: dispatched ? createdAt : null,
        };
      });
      await store.db.insertInto('events').values(rows).execute();
    }
    return ids;
  }

  /** Each of `ids` dispatched, and delivered once to each endpoint it was due to, and to no other. */
  async function expectDispatchedOnce(ids: string[]): Promise<void> {
    const events = await store.db
      .selectFrom('events')
      .select(['id', 'organization_id', 'dispatched_at'])
      .where('id', 'in', ids)
      .execute();
    expect(events.filter((e) => e.dispatched_at === null)).toEqual([]);
    const expected = events.flatMap((e) => (subscribed.get(e.organization_id) ?? []).map((ep) => `${e.id} ${ep}`));
    const rows = await store.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'endpoint_id'])
      .where('event_id', 'in', ids)
      .execute();
    const pairs = rows.map((r) => `${r.event_id} ${r.endpoint_id}`);
    expect(pairs).toHaveLength(expected.length);
    expect(new Set(pairs)).toEqual(new Set(expected));
  }

  beforeAll(async () => {
    if (!backend.available) return;
    location = await backend.create();
    store = await openStore(location);
    const endpoint = async (organizationId: string, events: string[], active = true) => {
      const row = await store.webhooks.create({
        organizationId,
        url: `https://hooks.example.com/${organizationId}`,
        events,
        description: null,
        secretCiphertext: 'sealed',
      });
      if (!active)
        await store.db.updateTable('webhook_endpoints').set({ active: 0 }).where('id', '=', row.id).execute();
      return row.id;
    };
    for (const organizationId of ['org_dispatch_a', 'org_dispatch_b']) {
      subscribed.set(organizationId, [
        await endpoint(organizationId, ['run.completed']),
        await endpoint(organizationId, ['run.completed', 'run.failed']),
        await endpoint(organizationId, ['monitor.changed', 'run.completed']),
      ]);
      // Due nothing: disabled, or subscribed to other events.
      await endpoint(organizationId, ['run.completed'], false);
      await endpoint(organizationId, ['run.failed']);
    }
  });
  afterAll(async () => {
    if (!backend.available) return;
    await store.close();
    await location.cleanup();
  });

  test(`${PROCESSES} processes dispatch 500 events to 3 endpoints each: one delivery per event and endpoint, one transaction per batch`, async () => {
    const ids = await addEvents('five', 500);
    const reports = await dispatchers(location, PROCESSES);
    await expectDispatchedOnce(ids);
    // A full batch each, then at most a short one and one that finds the rest taken, per process.
    // Racing per event, as every process once did, costs a transaction per event and process.
    const spent = transactions(reports);
    expect(spent, `${spent} transactions for 500 events by ${PROCESSES} processes`).toBeLessThanOrEqual(
      500 / BATCH + 2 * PROCESSES,
    );
    // Each event counted by the one process that dispatched it.
    expect(total(reports, (r) => r.events)).toBe(500);
    expect(total(reports, (r) => r.deliveries)).toBe(1500);
  }, 60_000);

  test('one process dispatches 500 events in 5 transactions, and stops at a pass that finds nothing', async () => {
    const ids = await addEvents('one', 500);
    const [report] = await dispatchers(location, 1);
    await expectDispatchedOnce(ids);
    expect(report).toMatchObject({ passes: 6, events: 500, deliveries: 1500 });
    expect(transactions([report as DispatchReport]), 'transactions for 500 events by one process').toBe(500 / BATCH);
  }, 60_000);

  test('claims the queue through its index, at the cost of the batch, whatever the history', async () => {
    await addEvents('history', 20_000, true);
    const backlog = await addEvents('backlog', 1000);
    if (backend.name === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze events'));
    const [report] = await dispatchers(location, 1);
    await expectDispatchedOnce(backlog);
    // The pass's reads again, on a backlog of the same size: the look for work and the claim.
    await addEvents('again', 1000);
    if (backend.name === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze events'));
    const reads = (report as DispatchReport).eventReads;
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      if (backend.name === 'sqlite') {
        const { rows } = await store.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${read.sql}`, read.parameters),
        );
        const plan = rows.map((r) => r.detail);
        expect(plan.filter((line) => /^(SCAN|SEARCH) events\b/.test(line) && !line.includes(QUEUE_INDEX))).toEqual([]);
        expect(
          plan.filter((line) => line.includes('TEMP B-TREE')),
          read.sql,
        ).toEqual([]);
      } else {
        const { rows } = await store.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>(
          CompiledQuery.raw(`explain (analyze, format json) ${read.sql}`, read.parameters),
        );
        const nodes = flatten(rows[0]?.['QUERY PLAN'][0]?.Plan as PgNode);
        const scans = nodes.filter((n) => n['Relation Name'] === 'events');
        expect(
          scans.map((n) => n['Index Name']),
          read.sql,
        ).toEqual([QUEUE_INDEX]);
        expect(
          nodes.map((n) => n['Node Type']),
          read.sql,
        ).not.toContain('Sort');
        const scanned = (scans[0]?.['Actual Rows'] ?? 0) + (scans[0]?.['Rows Removed by Filter'] ?? 0);
        expect(scanned, read.sql).toBeLessThanOrEqual(BATCH);
      }
    }
    await dispatchers(location, 1);
  }, 120_000);

  test('a pass with nothing to dispatch is one read and no transaction', async () => {
    const [report] = await dispatchers(location, 1);
    expect(report).toMatchObject({ passes: 1, events: 0, deliveries: 0, counts: { select: 1 } });
    expect(Object.keys((report as DispatchReport).counts)).toEqual(['select']);
  }, 30_000);
});
