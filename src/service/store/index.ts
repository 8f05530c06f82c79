// The store: one interface over the embedded SQLite file (node:sqlite) or a shared PostgreSQL (pg).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { accountStore } from './accounts.ts';
import { apiKeyStore } from './api-keys.ts';
import { auditLogStore } from './audit-log.ts';
import { cliCodeStore } from './cli-codes.ts';
import type { Backend, StoreContext } from './context.ts';
import { deliveryStore } from './deliveries.ts';
import { migrateToLatest } from './migrations.ts';
import { monitorStore } from './monitors.ts';
import { nodeSqliteDialect, openSqliteFile } from './node-sqlite-dialect.ts';
import { oauthRecordStore } from './oauth-records.ts';
import { organizationStore } from './organizations.ts';
import { projectStore } from './projects.ts';
import { rateLimitStore } from './rate-limits.ts';
import { runStore } from './runs.ts';
import { settingsStore } from './settings.ts';
import type { Database } from './tables.ts';
import { webhookStore } from './webhooks.ts';

export type { AuditEntry } from './audit-log.ts';
export type { Backend } from './context.ts';
export type * from './tables.ts';

export const SQLITE_FILE = 'siteaudit.db';

export interface StoreLocation {
  /** PostgreSQL connection string; when set, the data directory's SQLite file is not used. */
  databaseUrl?: string;
  /** Directory of the embedded SQLite file. */
  dataDir: string;
}

function buildStore(context: StoreContext) {
  return {
    backend: context.backend,
    db: context.db,
    organizations: organizationStore(context),
    apiKeys: apiKeyStore(context),
    projects: projectStore(context),
    rateLimits: rateLimitStore(context),
    runs: runStore(context),
    auditLog: auditLogStore(context),
    cliCodes: cliCodeStore(context),
    settings: settingsStore(context),
    webhooks: webhookStore(context),
    deliveries: deliveryStore(context),
    monitors: monitorStore(context),
    accounts: accountStore(context),
    oauthRecords: oauthRecordStore(context),
    close: () => context.db.destroy(),
  };
}

export type Store = ReturnType<typeof buildStore>;

function connect(location: StoreLocation): { db: Kysely<Database>; backend: Backend } {
  if (location.databaseUrl) {
    const pool = new pg.Pool({ connectionString: location.databaseUrl, max: 10 });
    // An idle client's connection error must not crash the process; the next query reconnects.
    pool.on('error', (error) => process.stderr.write(`siteaudit: database connection error: ${error.message}\n`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), backend: 'postgres' };
  }
  mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
  const file = openSqliteFile(join(location.dataDir, SQLITE_FILE));
  return { db: new Kysely<Database>({ dialect: nodeSqliteDialect(file) }), backend: 'sqlite' };
}

/** Opens the store and brings its schema up to date. */
export async function openStore(location: StoreLocation): Promise<Store> {
  const context = connect(location);
  try {
    await migrateToLatest(context.db as Kysely<unknown>, context.backend);
  } catch (error) {
    await context.db.destroy();
    throw error;
  }
  return buildStore(context);
}

/** Where the store lives, in words for logs (a database URL's password is never shown). */
export function describeLocation(location: StoreLocation): string {
  if (!location.databaseUrl) return `SQLite ${join(location.dataDir, SQLITE_FILE)}`;
  try {
    const url = new URL(location.databaseUrl);
    return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}
