// `siteaudit admin migrate` and `serve --no-migrate` (issue 28), and the pool size flag and env, as
// an operator runs them: the real binary, on both backends.
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from '../../src/service/store/index.ts';
import { MIGRATIONS } from '../../src/service/store/migrations.ts';
import { openSqliteFile } from '../../src/service/store/node-sqlite-dialect.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { runCli, startServe } from '../support/cli.ts';
import { migrateTo } from '../support/schema-versions.ts';

const NAMES = Object.keys(MIGRATIONS).sort();
const LATEST = NAMES.at(-1);
/** A PostgreSQL nobody listens on: where a command that used it would fail. */
const NOWHERE = 'postgres://nobody@127.0.0.1:9/nowhere';

function whereArgs(location: TestLocation): string[] {
  return location.databaseUrl
    ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
    : ['--data-dir', location.dataDir];
}

/** `serve --no-migrate ...`: its exit code and stderr when it refuses; fails the test if it starts. */
async function serveRefuses(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const started = await startServe(['--no-migrate', '--no-worker', '--no-monitor', ...args], env).catch(
    (error: Error) => error,
  );
  if (!(started instanceof Error)) {
    await started.stop();
    throw new Error(`serve --no-migrate started: ${started.stderr()}`);
  }
  expect(started.message).toMatch(/^serve exited 1 before listening/);
  return started.message;
}

describe.each(testBackends())('admin migrate and serve --no-migrate on $name', (backend) => {
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

  test('serve --no-migrate refuses an empty database, naming the migrations and what to run', async () => {
    const location = await fresh();
    const message = await serveRefuses(whereArgs(location));
    expect(message).toContain('the database schema is older than this siteaudit');
    expect(message).toContain(NAMES.join(', '));
    expect(message).toContain('run `siteaudit admin migrate`');
    expect(message).not.toMatch(/\n\s+at /); // a message, not a stack
  });

  test('serve --no-migrate refuses an older schema, naming only what it lacks', async () => {
    const location = await fresh();
    await migrateTo(location, '0008_oauth_secrets_hashed');
    const message = await serveRefuses(whereArgs(location));
    const lacking = NAMES.slice(NAMES.indexOf('0008_oauth_secrets_hashed') + 1);
    expect(message).toContain(`migrations ${lacking.join(', ')} are not applied`);
  });

  test('admin migrate applies the migrations, then has nothing to do, and serve --no-migrate starts', async () => {
    const location = await fresh();
    const first = await runCli(['admin', 'migrate', ...whereArgs(location), '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ applied: NAMES, schema: LATEST });

    const again = await runCli(['admin', 'migrate', ...whereArgs(location)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('applied');
    expect(again.stdout).toMatch(new RegExp(`^nothing to apply: .* is at ${LATEST}\\n$`));

    const serve = await startServe([
      '--no-migrate',
      '--no-worker',
      '--no-monitor',
      '--database-pool-size',
      '3',
      ...whereArgs(location),
    ]);
    expect(await serve.stop()).toBe(0);
    if (location.databaseUrl) expect(serve.stderr()).toContain('pool of 3)');
  });

  test('admin migrate from an older schema applies only what it lacks', async () => {
    const location = await fresh();
    await migrateTo(location, '0008_oauth_secrets_hashed');
    const result = await runCli(['admin', 'migrate', ...whereArgs(location)]);
    expect(result.code, result.stderr).toBe(0);
    const lacking = NAMES.slice(NAMES.indexOf('0008_oauth_secrets_hashed') + 1);
    expect(result.stdout.trim().split('\n')).toEqual([
      ...lacking.map((name) => `applied ${name}`),
      expect.stringMatching(new RegExp(` is at ${LATEST}$`)),
    ]);
  });

  test('admin migrate and serve --no-migrate refuse a schema newer than this version', async () => {
    const location = await fresh();
    await migrateTo(location, LATEST as string);
    const db = location.databaseUrl
      ? new pg.Client({ connectionString: location.databaseUrl })
      : openSqliteFile(join(location.dataDir, SQLITE_FILE));
    const insert = `insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '${new Date().toISOString()}')`;
    if (db instanceof pg.Client) {
      await db.connect();
      await db.query(insert);
      await db.end();
    } else {
      db.exec(insert);
      db.close();
    }
    const migrate = await runCli(['admin', 'migrate', ...whereArgs(location), '--json']);
    expect(migrate.code).toBe(1);
    expect(JSON.parse(migrate.stdout)).toEqual({
      error: {
        code: 'schema_ahead',
        message: expect.stringContaining('newer than this siteaudit: it has migration 9999_from_the_future'),
      },
    });
    expect(await serveRefuses(whereArgs(location))).toContain('newer than this siteaudit');
  });
});

const postgres = testBackends().find((b) => b.name === 'postgres');

describe.skipIf(!postgres?.available)('admin migrate with SITEAUDIT_DATABASE_MIGRATION_URL', () => {
  it('migrates the migration URL, not SITEAUDIT_DATABASE_URL (the PgBouncer one)', async () => {
    const location = await (postgres as NonNullable<typeof postgres>).create();
    try {
      const result = await runCli(['admin', 'migrate', '--data-dir', location.dataDir, '--json'], {
        SITEAUDIT_DATABASE_MIGRATION_URL: location.databaseUrl,
        SITEAUDIT_DATABASE_URL: NOWHERE,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ applied: NAMES, schema: LATEST });
    } finally {
      await location.cleanup();
    }
  });
});

describe.concurrent('a database that cannot be used', () => {
  const ONE_LINE = /^siteaudit: [^\n]+\n$/;

  it.each([
    [['serve', '--port', '0', '--no-worker', '--database-url', NOWHERE]],
    [['serve', '--port', '0', '--no-worker', '--no-migrate', '--database-url', NOWHERE]],
    [['admin', 'migrate', '--database-url', NOWHERE]],
    [['admin', 'org', 'create', '--name', 'X', '--database-url', NOWHERE]],
  ])('%j says where and why in one line, with no stack', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(ONE_LINE);
    expect(result.stderr).toContain('siteaudit: cannot use the database at PostgreSQL 127.0.0.1:9/nowhere: ');
    expect(result.stderr).toContain('ECONNREFUSED');
  });

  it('answers --json with the error object', async () => {
    const result = await runCli(['admin', 'migrate', '--database-url', NOWHERE, '--json']);
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toMatch(/^cannot use the database at PostgreSQL 127\.0\.0\.1:9\/nowhere: .*ECONNREFUSED/);
  });

  it('says so in one line when something other than PostgreSQL answers on the port', async () => {
    // A server that hangs up at once, as something else on the port (a proxy in the wrong place) may.
    const other = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as AddressInfo;
      const result = await runCli(['admin', 'migrate', '--database-url', `postgres://nobody@127.0.0.1:${port}/x`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `siteaudit: cannot use the database at PostgreSQL 127.0.0.1:${port}/x: Connection terminated unexpectedly\n`,
      );
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it.each([
    'notaurl',
    'host=db.internal dbname=siteaudit',
    'mysql://root@127.0.0.1/x',
    'postgres://u@127.0.0.1:99999/x',
  ])('refuses %j as a database URL before dialling anything', async (url) => {
    const result = await runCli(['admin', 'migrate', '--database-url', url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'siteaudit: the database URL must be a valid postgres:// or postgresql:// URL, such as postgres://user@host:5432/dbname\n',
    );
  });

  it.skipIf(!postgres?.available)('names a database that does not exist', async () => {
    const location = await (postgres as NonNullable<typeof postgres>).create();
    try {
      const url = new URL(location.databaseUrl as string);
      url.pathname = '/siteaudit_no_such_database';
      url.search = '';
      const result = await runCli(['serve', '--port', '0', '--no-worker', '--database-url', url.href]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(ONE_LINE);
      expect(result.stderr).toContain(
        '/siteaudit_no_such_database: database "siteaudit_no_such_database" does not exist',
      );
    } finally {
      await location.cleanup();
    }
  });
});

describe.concurrent('the database pool size', () => {
  // Refused before any connection: NOWHERE is never dialled (a dial would fail otherwise).
  it.each([
    ['--database-pool-size', '0'],
    ['--database-pool-size', '101'],
    ['--database-pool-size', '1.5'],
    ['--database-pool-size', 'ten'],
    ['SITEAUDIT_DATABASE_POOL_SIZE', '0'],
    ['SITEAUDIT_DATABASE_POOL_SIZE', '-3'],
  ])('serve refuses %s %s with a message', async (name, value) => {
    const flag = name.startsWith('--') ? [name, value] : [];
    const env = name.startsWith('--') ? {} : { [name]: value };
    const result = await runCli(['serve', '--port', '0', '--database-url', NOWHERE, ...flag], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`siteaudit: ${name} must be a whole number from 1 to 100, not "${value}"\n`);
  });

  it('every command that opens the store honours SITEAUDIT_DATABASE_POOL_SIZE, so refuses a bad one', async () => {
    const result = await runCli(['admin', 'org', 'create', '--name', 'X', '--database-url', NOWHERE, '--json'], {
      SITEAUDIT_DATABASE_POOL_SIZE: '500',
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        code: 'invalid_argument',
        message: 'SITEAUDIT_DATABASE_POOL_SIZE must be a whole number from 1 to 100, not "500"',
      },
    });
  });
});
