// A test database at the schema of an older (or newer) siteaudit: opened raw, with no migration run
// on open, and migrated to a chosen point (issue 28: `serve --no-migrate`, `admin migrate`).
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { SQLITE_FILE } from '../../src/service/store/index.ts';
import { storeMigrator } from '../../src/service/store/migrations.ts';
import { nodeSqliteDialect, openSqliteFile } from '../../src/service/store/node-sqlite-dialect.ts';
import type { TestLocation } from './backends.ts';

/** The location's database on one connection, the store's migrations not applied. */
export function rawDb(location: TestLocation): Kysely<unknown> {
  return location.databaseUrl
    ? new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location.databaseUrl, max: 1 }) }),
      })
    : new Kysely<unknown>({ dialect: nodeSqliteDialect(openSqliteFile(join(location.dataDir, SQLITE_FILE))) });
}

/** A database at the schema of an older version (migration `upTo`). */
export async function migrateTo(location: TestLocation, upTo: string): Promise<void> {
  const db = rawDb(location);
  try {
    const { error } = await (await storeMigrator(db, location.databaseUrl ? 'postgres' : 'sqlite')).migrateTo(upTo);
    if (error) throw error;
  } finally {
    await db.destroy();
  }
}
