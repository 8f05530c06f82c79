// Store benchmark (`npm run bench -- store`, issue 28): the cost of the store's lists, lookups and
// claims on a large store (10^5 runs, 10^5 pending webhook deliveries, a burst of 10^4 waiting runs),
// on SQLite and PostgreSQL: runs pages at the start and 90% deep, by project, product and status,
// the monitor's and the comparison's lookups, and both claims. `seedStore` also fills the store of
// test/service/store-plans.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Backend } from '../src/service/store/context.ts';
import { openStore, type Store } from '../src/service/store/index.ts';
import { backfillDeliveryHeads } from '../src/service/store/migration-0013-fair-deliveries.ts';
import type { Database, RunsTable } from '../src/service/store/tables.ts';
import { createPostgresSchema } from '../test/support/postgres-schema.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_STORE_RUNS ?? 100_000);
const DELIVERIES = Number(process.env.BENCH_STORE_DELIVERIES ?? 100_000);
/** One organization's burst: a run waiting in each of its projects. */
const PENDING = Number(process.env.BENCH_STORE_PENDING ?? 10_000);

const PRODUCTS = ['ai_readiness', 'marketing_signal', 'website_security'] as const;
const BASE_MS = Date.parse('2025-01-01T00:00:00.000Z');
/** About a million runs a month: one every 2.6 s. */
const RUN_GAP_MS = 2600;

export interface SeedOptions {
  runs: number;
  deliveries: number;
  monitorChecks: number;
  /** Size of each completed run's report JSON. */
  reportBytes: number;
  /** Projects of the burst organization, each with one pending run (the claim's backlog). */
  pendingRuns: number;
  /** Webhook endpoints and projects of the big organization (its lists). */
  endpoints: number;
  projects: number;
}

export interface Seeded {
  /** The organization with 80% of the runs, its projects, endpoints and deliveries. */
  bigOrg: string;
  /** Its project with a third of its runs. */
  bigProject: string;
  /** The organization whose projects each have a run waiting. */
  burstOrg: string;
  endpoint: string;
  /** A completed run of `bigProject`, 90% of the way back in its history. */
  deepRun: RunsTable;
  /** Keyset positions 90% of the way back in each list. */
  deep: {
    /** The big organization's runs: all, of the big project, of website_security, failed_auto_credit. */
    runs: Position;
    projectRuns: Position;
    productRuns: Position;
    statusRuns: Position;
    /** The big project's runs of website_security. */
    projectProductRuns: Position;
    /** The burst organization's projects. */
    projects: Position;
    endpoints: Position;
    deliveries: Position;
    checks: Position;
  };
}

export interface Position {
  createdAt: string;
  id: string;
}

/** A deterministic generator, so every seeding is the same. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUIDv7-shaped id for time `ms`, the sequence number `n` keeping ids of one millisecond ordered. */
function idAt(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, '0') + (n & 0xfff).toString(16).padStart(3, '0');
  const tail = n.toString(16).padStart(15, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(12, 15)}-8${tail.slice(0, 3)}-${tail.slice(3)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Inserts `rows` (all with the same keys). The SQL is written here, not built by Kysely, whose
 * compiler takes longer than the database for a hundred thousand rows. PostgreSQL takes one array per
 * column (a statement with tens of thousands of parameters takes it longer to parse than to insert).
 */
async function insertAll(
  db: Kysely<Database>,
  backend: Backend,
  table: keyof Database,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const columns = Object.keys(rows[0] ?? {});
  if (columns.length === 0) return;
  if (backend === 'postgres') {
    const { rows: types } = await sql<{ name: string; type: string }>`
      select column_name as name, data_type as type from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    const typeOf = new Map(types.map((t) => [t.name, t.type]));
    for (let i = 0; i < rows.length; i += 20_000) {
      const slice = rows.slice(i, i + 20_000);
      const arrays = columns.map((column) => slice.map((row) => row[column]));
      const unnest = columns.map((column, n) => `$${n + 1}::${typeOf.get(column)}[]`).join(',');
      await db.executeQuery(
        CompiledQuery.raw(`insert into ${table} (${columns.join(',')}) select * from unnest(${unnest})`, arrays),
      );
    }
    return;
  }
  // SQLite caps bound parameters at 32,766: batches stay below.
  const batch = Math.floor(30_000 / columns.length);
  for (let i = 0; i < rows.length; i += batch) {
    const slice = rows.slice(i, i + batch);
    const tuple = `(${columns.map(() => '?').join(',')})`;
    const parameters = slice.flatMap((row) => columns.map((column) => row[column]));
    await db.executeQuery(
      CompiledQuery.raw(
        `insert into ${table} (${columns.join(',')}) values ${slice.map(() => tuple).join(',')}`,
        parameters,
      ),
    );
  }
}

const SEEDED_TABLES = ['projects', 'runs', 'webhook_endpoints', 'webhook_deliveries', 'monitor_checks'];

/**
 * Drops the secondary indexes of `tables` (and on PostgreSQL their foreign keys) and answers the
 * statements that make them again: an index built once over the rows, and a key checked once by a
 * join, cost several times less than kept up row by row (35 s for the runs on PostgreSQL). The
 * indexes that back a primary key or unique constraint stay.
 */
async function dropIndexes(db: Kysely<Database>, backend: Backend, tables: string[]): Promise<string[]> {
  if (backend === 'sqlite') {
    const { rows } = await sql<{ name: string; definition: string }>`
      select name, sql as definition from sqlite_master
      where type = 'index' and sql is not null and tbl_name in (${sql.join(tables)})`.execute(db);
    for (const row of rows) await sql`drop index ${sql.id(row.name)}`.execute(db);
    return rows.map((row) => row.definition);
  }
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes i
    where schemaname = current_schema() and tablename in (${sql.join(tables)})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db);
  const { rows: keys } = await sql<{ table: string; name: string; definition: string }>`
    select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
    from pg_constraint
    where contype = 'f' and connamespace = current_schema()::regnamespace
      and conrelid::regclass::text in (${sql.join(tables)})`.execute(db);
  for (const row of indexes) await sql`drop index ${sql.id(row.name)}`.execute(db);
  for (const key of keys) await sql`alter table ${sql.id(key.table)} drop constraint ${sql.id(key.name)}`.execute(db);
  return [
    ...indexes.map((row) => row.definition),
    ...keys.map((key) => `alter table ${key.table} add constraint ${key.name} ${key.definition}`),
  ];
}

/** Fills an empty, migrated store with a large organization's history (see SeedOptions). */
export async function seedStore(db: Kysely<Database>, backend: Backend, options: SeedOptions): Promise<Seeded> {
  const random = mulberry32(28);
  const created = iso(BASE_MS - 86_400_000);
  const orgs = ['big', 'burst', 'c', 'd'].map((name, i) => ({
    id: idAt(BASE_MS - 86_400_000, i),
    name,
    slug: name,
    plan: 'pro',
    credits_remaining: 1_000_000,
    credits_monthly: 1_000_000,
    created_at: created,
    updated_at: created,
  }));
  const [big, burst, c, d] = orgs.map((o) => o.id) as [string, string, string, string];
  let n = 1000;
  const project = (organizationId: string, i: number, ms: number) => ({
    id: idAt(ms, n++),
    organization_id: organizationId,
    name: `site ${i}`,
    domain: `site-${organizationId.slice(-6)}-${i}.example`,
    slug: `site-${i}`,
    status: 'active',
    created_at: iso(ms),
    updated_at: iso(ms),
    archived_at: null,
  });
  const bigProjects = Array.from({ length: options.projects }, (_, i) => project(big, i, BASE_MS - 80_000_000 + i));
  const smallProjects = [c, d].flatMap((org) => Array.from({ length: 10 }, (_, i) => project(org, i, BASE_MS - 1000)));
  const burstProjects = Array.from({ length: options.pendingRuns }, (_, i) =>
    project(burst, i, BASE_MS - 50_000_000 + i),
  );
  const report = JSON.stringify({ filler: 'x'.repeat(Math.max(0, options.reportBytes - 14)) });
  /** Each project's domain: the host its runs audit (the claim's politeness). */
  const domains = new Map([...bigProjects, ...smallProjects, ...burstProjects].map((p) => [p.id, p.domain]));
  const runs: RunsTable[] = [];
  const run = (org: string, projectId: string, product: string, ms: number, status: string): RunsTable => {
    const done = status !== 'pending';
    const completed = status === 'completed';
    return {
      id: idAt(ms, n++),
      organization_id: org,
      project_id: projectId,
      product,
      status,
      progress_pct: done ? 100 : 0,
      current_step: done ? status : 'queued',
      url: 'https://site.example/',
      local: 0,
      scan_mode: null,
      error: completed || !done ? null : 'the site did not answer',
      credits_spent: 1,
      key_prefix: null,
      idempotency_key: null,
      request_fingerprint: 'seed',
      created_at: iso(ms),
      started_at: done ? iso(ms + 1000) : null,
      completed_at: done ? iso(ms + 20_000 + Math.floor(random() * 40_000)) : null,
      score: completed ? Math.floor(random() * 100) : null,
      score_status: null,
      severity_counts: completed ? '{"critical":0,"high":1,"medium":2,"low":3,"info":4}' : null,
      findings_total: completed ? 10 : null,
      coverage: null,
      report: completed ? report : null,
      attempts: done ? 1 : 0,
      next_attempt_at: iso(ms),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      key_pages: completed ? '["https://site.example/pricing"]' : null,
      host: domains.get(projectId) ?? null,
      claimed_at: done ? iso(ms + 1000) : null,
    };
  };
  const terminal = options.runs - options.pendingRuns;
  for (let i = 0; i < terminal; i++) {
    const ms = BASE_MS + i * RUN_GAP_MS;
    const product = PRODUCTS[Math.floor(random() * 3)] as string;
    const status = random() < 0.92 ? 'completed' : 'failed_auto_credit';
    const slot = i % 10;
    if (slot < 8) {
      // A third of the big organization's runs are one project's; the rest spread over the others.
      const p = random() < 1 / 3 ? 0 : 1 + Math.floor(random() * (bigProjects.length - 1));
      runs.push(run(big, (bigProjects[p] as { id: string }).id, product, ms, status));
    } else {
      const p = smallProjects[(slot - 8) * 10 + Math.floor(random() * 10)] as { id: string; organization_id: string };
      runs.push(run(p.organization_id, p.id, product, ms, status));
    }
  }
  const burstStart = BASE_MS + terminal * RUN_GAP_MS;
  burstProjects.forEach((p, i) => {
    runs.push(run(burst, p.id, 'ai_readiness', burstStart + i, 'pending'));
  });

  const endpoints = Array.from({ length: options.endpoints }, (_, i) => ({
    id: idAt(BASE_MS - 40_000_000 + i, n++),
    organization_id: big,
    url: `https://hooks.example/${i}`,
    events: '["run.completed"]',
    description: null,
    active: 1,
    disabled_reason: null,
    secret_ciphertext: 'sealed',
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
    failing_since: null,
    created_at: iso(BASE_MS - 40_000_000 + i),
    updated_at: iso(BASE_MS - 40_000_000 + i),
  }));
  const endpoint = (endpoints[0] as { id: string }).id;
  // A backlog of due deliveries to one endpoint (an endpoint that was down for a while).
  const deliveries = Array.from({ length: options.deliveries }, (_, i) => {
    const ms = BASE_MS + i * 1000;
    return {
      id: idAt(ms, n++),
      organization_id: big,
      endpoint_id: endpoint,
      event_id: `evt_${i}`,
      event_type: 'run.completed',
      status: 'pending',
      attempts: 1,
      next_attempt_at: iso(ms + 60_000),
      lease_owner: null,
      lease_expires_at: null,
      last_status: 503,
      last_error: null,
      delivered_at: null,
      created_at: iso(ms),
    };
  });
  const bigProject = (bigProjects[0] as { id: string }).id;
  const checks = Array.from({ length: options.monitorChecks }, (_, i) => {
    const ms = BASE_MS + i * 60_000;
    return {
      id: idAt(ms, n++),
      organization_id: big,
      project_id: bigProject,
      url: 'https://site.example/',
      created_at: iso(ms),
      http_status: 200,
      up: 1,
      kind: i % 50 === 0 ? 'changed' : null,
      changes: '[]',
      error: null,
      duration_ms: 40,
      event_id: null,
    };
  });

  await db.transaction().execute(async (trx) => {
    const rebuild = await dropIndexes(trx, backend, SEEDED_TABLES);
    await insertAll(trx, backend, 'organizations', orgs);
    await insertAll(trx, backend, 'projects', [...bigProjects, ...smallProjects, ...burstProjects]);
    await insertAll(trx, backend, 'runs', runs as unknown as Array<Record<string, unknown>>);
    await insertAll(trx, backend, 'webhook_endpoints', endpoints);
    await insertAll(trx, backend, 'webhook_deliveries', deliveries);
    await insertAll(trx, backend, 'monitor_checks', checks);
    for (const statement of rebuild) await trx.executeQuery(CompiledQuery.raw(statement));
  });
  // The webhook claim finds an endpoint's deliveries by when its earliest is due (migration 0013),
  // which the service keeps as it writes deliveries; rows written straight here need it set.
  await backfillDeliveryHeads(db as never);

  /** The row 90% of the way down a newest-first list. */
  const deepOf = <R extends { created_at: string; id: string }>(rows: readonly R[]): R => {
    const sorted = [...rows].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    return sorted[Math.floor(sorted.length * 0.9)] as R;
  };
  const position = (row: { created_at: string; id: string }): Position => ({ createdAt: row.created_at, id: row.id });
  const bigRuns = runs.filter((r) => r.organization_id === big);
  const projectRuns = bigRuns.filter((r) => r.project_id === bigProject);
  const deepRun = deepOf(projectRuns.filter((r) => r.status === 'completed'));
  return {
    bigOrg: big,
    bigProject,
    burstOrg: burst,
    endpoint,
    deepRun,
    deep: {
      runs: position(deepOf(bigRuns)),
      projectRuns: position(deepOf(projectRuns)),
      productRuns: position(deepOf(bigRuns.filter((r) => r.product === 'website_security'))),
      statusRuns: position(deepOf(bigRuns.filter((r) => r.status === 'failed_auto_credit'))),
      projectProductRuns: position(deepOf(projectRuns.filter((r) => r.product === 'website_security'))),
      projects: position(deepOf(burstProjects)),
      endpoints: position(deepOf(endpoints)),
      deliveries: position(deepOf(deliveries)),
      checks: position(deepOf(checks)),
    },
  };
}

/** Median milliseconds of `rounds` calls of `fn` (after one warm-up call). */
async function median(fn: () => Promise<unknown>, rounds = 15): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

async function measure(store: Store, backend: Backend): Promise<string[]> {
  const seeded = await seedStore(store.db, backend, {
    runs: RUNS,
    deliveries: DELIVERIES,
    monitorChecks: 20_000,
    reportBytes: 4000,
    pendingRuns: PENDING,
    endpoints: 2000,
    projects: 100,
  });
  if (backend === 'postgres') {
    for (const table of ['runs', 'projects', 'webhook_endpoints', 'webhook_deliveries', 'monitor_checks'])
      await sql`analyze ${sql.table(table)}`.execute(store.db);
  }
  const org = seeded.bigOrg;
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['runs page, first', () => store.runs.page({ organizationId: org, limit: 50 })],
    ['runs page, 90% deep', () => store.runs.page({ organizationId: org, limit: 50, after: seeded.deep.runs })],
    [
      'runs page by project, 90% deep',
      () =>
        store.runs.page({
          organizationId: org,
          projectId: seeded.bigProject,
          limit: 50,
          after: seeded.deep.projectRuns,
        }),
    ],
    [
      'runs page by product, 90% deep',
      () =>
        store.runs.page({
          organizationId: org,
          product: 'website_security',
          limit: 50,
          after: seeded.deep.productRuns,
        }),
    ],
    [
      'runs page by status, 90% deep',
      () =>
        store.runs.page({
          organizationId: org,
          status: 'failed_auto_credit',
          limit: 50,
          after: seeded.deep.statusRuns,
        }),
    ],
    ['latestCompleted', () => store.runs.latestCompleted(org, seeded.bigProject, 'marketing_signal')],
    ['previousCompleted, 90% deep', () => store.runs.previousCompleted(seeded.deepRun)],
    ['latestKeyPages', () => store.runs.latestKeyPages(seeded.bigProject)],
    ['deliveries page, 90% deep', () => store.deliveries.page(org, seeded.endpoint, 50, seeded.deep.deliveries)],
    ['monitor checks page, 90% deep', () => store.monitors.page(seeded.bigProject, 50, seeded.deep.checks, false)],
  ];
  const lines: string[] = [];
  for (const [name, fn] of cases) lines.push(`| ${backend} | ${name} | ${(await median(fn)).toFixed(2)} ms |`);
  // The claim leases a delivery each time (the seeded events do not exist, so it ends it failed):
  // each call sees one fewer pending delivery of the backlog.
  const now = new Date(BASE_MS + DELIVERIES * 2000).toISOString();
  lines.push(
    `| ${backend} | webhook claim, ${DELIVERIES} pending | ${(await median(() => store.deliveries.claim('bench', now, 60_000))).toFixed(2)} ms |`,
  );
  lines.push(
    `| ${backend} | run claim, ${PENDING} pending | ${(await median(() => store.runs.claim('bench', 60_000))).toFixed(2)} ms |`,
  );
  return lines;
}

export async function runStoreBenchmark(): Promise<string> {
  const lines = [
    `## Store: lists, lookups and claims at ${RUNS} runs and ${DELIVERIES} pending deliveries (median of 15)`,
    '',
    '| Backend | Query | Median |',
    '| --- | --- | --- |',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-store-'));
  try {
    const sqlite = await openStore({ dataDir: dir });
    try {
      lines.push(...(await measure(sqlite, 'sqlite')));
    } finally {
      await sqlite.close();
    }
    const scoped = await createPostgresSchema(DATABASE_URL, 'bench_store').catch(() => undefined);
    if (!scoped) lines.push(`| postgres | not reachable at ${DATABASE_URL} | |`);
    else {
      try {
        const postgres = await openStore({ dataDir: dir, databaseUrl: scoped.databaseUrl });
        try {
          lines.push(...(await measure(postgres, 'postgres')));
        } finally {
          await postgres.close();
        }
      } finally {
        await scoped.drop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join('\n');
}
