// The store's connections (issue 28): a pool of --database-pool-size connections per process, a
// migration lock that lasts one transaction (safe behind PgBouncer in transaction mode), and the
// `check` mode of `serve --no-migrate` that refuses a schema older or newer than the code.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, SchemaMismatch, type StoreLocation } from '../../src/service/store/index.ts';
import { MIGRATIONS } from '../../src/service/store/migrations.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { migrateTo, rawDb } from '../support/schema-versions.ts';

const NAMES = Object.keys(MIGRATIONS).sort();
/** Kysely's migration lock key, which the store's transaction-level lock keeps. */
const LOCK_KEY = '3853314791062309107';

/** The location with an application_name of its own, to find its backends in pg_stat_activity. */
function named(location: TestLocation): { location: StoreLocation; app: string } {
  const app = `siteaudit-test-${randomBytes(4).toString('hex')}`;
  const url = new URL(location.databaseUrl as string);
  url.searchParams.set('application_name', app);
  return { location: { dataDir: location.dataDir, databaseUrl: url.toString() }, app };
}

/** A client of its own (not the store's pool) watching the server. */
async function observer(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function backendsOf(client: pg.Client, app: string): Promise<number> {
  const result = await client.query('select count(*)::int as n from pg_stat_activity where application_name = $1', [
    app,
  ]);
  return result.rows[0].n as number;
}

/** Runs `work` while sampling how many backends `app` has; answers the most seen and the time taken. */
async function sampleBackends(client: pg.Client, app: string, work: () => Promise<unknown>) {
  let most = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      most = Math.max(most, await backendsOf(client, app));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  running = false;
  await sampling;
  return { most, ms };
}

/** The tables the location's database (its schema, on PostgreSQL) holds, through a connection of its own. */
async function tablesIn(location: TestLocation): Promise<string[]> {
  const db = rawDb(location);
  try {
    const { rows } = location.databaseUrl
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    return rows.map((row) => row.name);
  } finally {
    await db.destroy();
  }
}

describe.each(testBackends())('opening the store on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  const locations: TestLocation[] = [];
  const fresh = async () => {
    const location = await backend.create();
    locations.push(location);
    return location;
  };
  afterAll(async () => {
    for (const location of locations) await location.cleanup();
  });

  test.each([0, 101, 2.5, Number.NaN, -1])('refuses a pool size of %s', async (poolSize) => {
    const location = await fresh();
    await expect(openStore({ ...location, poolSize })).rejects.toThrow(
      /pool size must be a whole number from 1 to 100/,
    );
  });

  test('check refuses an empty database, naming every migration, and creates nothing', async () => {
    const location = await fresh();
    const refused = await openStore(location, { migrate: 'check' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SchemaMismatch);
    expect(refused).toMatchObject({ code: 'schema_behind', migrations: NAMES });
    expect((refused as Error).message).toContain('older than this siteaudit');
    expect((refused as Error).message).toContain(NAMES.join(', '));
    expect((refused as Error).message).toContain('run `siteaudit admin migrate`');
    expect(await tablesIn(location)).toEqual([]);
  });

  test('check refuses an older schema, naming only the migrations it lacks', async () => {
    const location = await fresh();
    await migrateTo(location, '0008_oauth_secrets_hashed');
    const refused = await openStore(location, { migrate: 'check' }).catch((error: unknown) => error);
    const lacking = NAMES.slice(NAMES.indexOf('0008_oauth_secrets_hashed') + 1);
    expect(lacking.length).toBeGreaterThan(0);
    expect(refused).toMatchObject({ code: 'schema_behind', migrations: lacking });
  });

  test('check opens a schema at the latest migration without changing it', async () => {
    const location = await fresh();
    await (await openStore(location)).close();
    const store = await openStore(location, { migrate: 'check' });
    expect(await store.organizations.count()).toBe(0);
    await store.close();
  });

  test('both modes refuse a schema newer than the code, naming what they do not know', async () => {
    const location = await fresh();
    const store = await openStore(location);
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', ${new Date().toISOString()})`.execute(
      store.db,
    );
    await store.close();
    for (const migrate of ['check', 'latest'] as const) {
      const refused = await openStore(location, { migrate }).catch((error: unknown) => error);
      expect(refused, migrate).toBeInstanceOf(SchemaMismatch);
      expect(refused, migrate).toMatchObject({ code: 'schema_ahead', migrations: ['9999_from_the_future'] });
      expect((refused as Error).message).toContain('newer than this siteaudit');
    }
  });
});

const postgres = testBackends().find((b) => b.name === 'postgres');

describe.skipIf(!postgres?.available)('PostgreSQL connections', () => {
  let location: TestLocation;
  let watcher: pg.Client;

  beforeAll(async () => {
    location = await (postgres as NonNullable<typeof postgres>).create();
    watcher = await observer(location.databaseUrl as string);
  });
  afterAll(async () => {
    await watcher?.end();
    await location?.cleanup();
  });

  it('opens at most poolSize connections: 5 slow queries on a pool of 2 wait their turn', async () => {
    const { location: where, app } = named(location);
    const store = await openStore({ ...where, poolSize: 2 });
    try {
      const { most, ms } = await sampleBackends(watcher, app, () =>
        Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.3)`.execute(store.db))),
      );
      expect(most).toBe(2);
      // Three rounds of 0.3 s (2 + 2 + 1), not one.
      expect(ms).toBeGreaterThanOrEqual(850);
    } finally {
      await store.close();
    }
  });

  it('opens 5 connections by default: 6 slow queries take two rounds', async () => {
    const { location: where, app } = named(location);
    const store = await openStore(where);
    try {
      const { most, ms } = await sampleBackends(watcher, app, () =>
        Promise.all(Array.from({ length: 6 }, () => sql`select pg_sleep(0.3)`.execute(store.db))),
      );
      expect(most).toBe(5);
      expect(ms).toBeGreaterThanOrEqual(550);
    } finally {
      await store.close();
    }
  });

  it('names its connections siteaudit in pg_stat_activity unless the URL names them', async () => {
    const store = await openStore(location);
    try {
      const { rows } = await sql<{ name: string }>`select current_setting('application_name') as name`.execute(
        store.db,
      );
      expect(rows[0]?.name).toBe('siteaudit');
    } finally {
      await store.close();
    }
  });

  it('takes the migration lock for one transaction: it is gone at commit, with no unlock on another connection', async () => {
    const store = await openStore(location);
    const adapter = store.db.getExecutor().adapter;
    const options = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' };
    try {
      // Outside a transaction the lock would last one statement: refused.
      await expect(adapter.acquireMigrationLock(store.db, options)).rejects.toThrow(/in a transaction/);
      await store.db.connection().execute(async (connection) => {
        await connection.transaction().execute(async (trx) => {
          await adapter.acquireMigrationLock(trx, options);
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks
            where locktype = 'advisory' and pid = pg_backend_pid() and granted`.execute(trx);
          expect(rows[0]?.n).toBe(1);
        });
        // The same server connection after commit holds nothing (a session lock would still be held).
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks
          where locktype = 'advisory' and pid = pg_backend_pid()`.execute(connection);
        expect(rows[0]?.n).toBe(0);
      });
    } finally {
      await store.close();
    }
  });

  it('waits for another migrator in its own transaction, and leaves no lock behind', async () => {
    const empty = await (postgres as NonNullable<typeof postgres>).create();
    const { location: where, app } = named(empty);
    // Another migrator holds the lock: ours must wait for it, in its own transaction.
    const holder = await observer(empty.databaseUrl as string);
    await holder.query('begin');
    await holder.query(`select pg_advisory_xact_lock(${LOCK_KEY})`);
    let opened = false;
    const opening = openStore(where).then((store) => {
      opened = true;
      return store;
    });
    try {
      let waiting: { query: string; wait_event_type: string | null }[] = [];
      for (let i = 0; i < 100 && waiting.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        waiting = (
          await watcher.query(
            "select query, wait_event_type from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
            [app],
          )
        ).rows;
      }
      expect(waiting).toHaveLength(1);
      expect(waiting[0]?.query).toContain('pg_advisory_xact_lock');
      expect(opened).toBe(false);
    } finally {
      await holder.query('commit');
      await holder.end();
    }
    const store = await opening;
    try {
      // No session-level lock is left behind on any of the store's connections.
      const held = await watcher.query(
        "select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid) where l.locktype = 'advisory' and a.application_name = $1",
        [app],
      );
      expect(held.rows[0].n).toBe(0);
      expect(await store.organizations.count()).toBe(0);
    } finally {
      await store.close();
      await empty.cleanup();
    }
  });
});
