// The store: one interface over the embedded SQLite file (node:sqlite) or a shared PostgreSQL (pg).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import pg from 'pg';
import { logger } from '../logger.ts';
import { accountStore } from './accounts.ts';
import { apiKeyStore } from './api-keys.ts';
import { auditLogStore } from './audit-log.ts';
import { cliCodeStore } from './cli-codes.ts';
import type { Backend, StoreContext } from './context.ts';
import { deliveryStore } from './deliveries.ts';
import { lockMigrations, migrateToLatest, SchemaMismatch, schemaState } from './migrations.ts';
import { monitorStore } from './monitors.ts';
import { nodeSqliteDialect, openSqliteFile } from './node-sqlite-dialect.ts';
import { oauthRecordStore } from './oauth-records.ts';
import { organizationStore } from './organizations.ts';
import { projectAccessStore } from './project-access.ts';
import { projectStore } from './projects.ts';
import { rateLimitStore } from './rate-limits.ts';
import { runStore } from './runs.ts';
import { settingsStore } from './settings.ts';
import type { Database } from './tables.ts';
import { webhookStore } from './webhooks.ts';

export type { AuditEntry } from './audit-log.ts';
export type { Backend } from './context.ts';
export { SchemaMismatch } from './migrations.ts';
export type * from './tables.ts';

export const SQLITE_FILE = 'siteaudit.db';

/** PostgreSQL connections one process opens at most, unless told otherwise. */
export const DEFAULT_POOL_SIZE = 5;
export const MAX_POOL_SIZE = 100;

export interface StoreLocation {
  /** PostgreSQL connection string; when set, the data directory's SQLite file is not used. */
  databaseUrl?: string;
  /** Directory of the embedded SQLite file. */
  dataDir: string;
  /**
   * PostgreSQL connections this process opens at most (1 to 100, default 5); queries beyond them
   * wait their turn. Processes times this must stay under the server's max_connections.
   */
  poolSize?: number;
}

/**
 * What opening does to the schema: `latest` applies the migrations the database lacks; `check`
 * changes nothing and refuses a schema older or newer than this code (SchemaMismatch), for
 * processes behind PgBouncer while `siteaudit admin migrate` migrates on a direct connection.
 */
export type MigrateMode = 'latest' | 'check';

export interface OpenOptions {
  migrate?: MigrateMode;
}

/** How busy this process's PostgreSQL pool is (`/metrics`: siteaudit_db_pool_connections). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

function buildStore(context: StoreContext, pool?: pg.Pool) {
  return {
    backend: context.backend,
    db: context.db,
    /** The pool's connections now; undefined on SQLite, which has none. */
    poolStats: (): PoolStats | undefined =>
      pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max },
    organizations: organizationStore(context),
    apiKeys: apiKeyStore(context),
    projects: projectStore(context),
    projectAccess: projectAccessStore(context),
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

/**
 * Kysely's PostgreSQL adapter with the migration lock of migrations.ts, held by the migration's
 * transaction, instead of Kysely's session-level pg_advisory_lock, which is unsafe behind PgBouncer
 * in transaction mode (locked on one server connection, unlocked on another).
 */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    // Outside a transaction the lock would end with its own statement.
    if (!db.isTransaction) throw new Error('store migrations run in a transaction (see migrateToLatest)');
    await lockMigrations(db);
  }
  override async releaseMigrationLock(): Promise<void> {
    // Released when the transaction ends.
  }
}

class StoreDialect extends PostgresDialect {
  override createAdapter() {
    return new TransactionLockAdapter();
  }
}

/** The pool size, checked: a bad one is refused here rather than becoming a pool of NaN. */
function poolSizeOf(location: StoreLocation): number {
  const size = location.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_SIZE)
    throw new RangeError(`the database pool size must be a whole number from 1 to ${MAX_POOL_SIZE}, not ${size}`);
  return size;
}

/**
 * A database this process cannot use: not there, not listening, or refusing this role. The
 * operator's to fix, so it is said in one line, where it is and why, without a stack.
 */
export class DatabaseUnavailable extends Error {
  override readonly name = 'DatabaseUnavailable';
  readonly code = 'database_unavailable';
}

/** pg's own connection failures, which carry no code: something else on the port, or no TLS there. */
const PG_CONNECTION_MESSAGES = ['Connection terminated unexpectedly', 'The server does not support SSL connections'];

/** Socket errors of a connection that could not be made, as Node's net and dns give them. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A PostgreSQL URL the pool can use; anything else (a bare word, a libpq key=value string) is refused. */
function checkDatabaseUrl(text: string): void {
  let protocol = '';
  try {
    protocol = new URL(text).protocol;
  } catch {
    // not a URL at all
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:')
    throw new DatabaseUnavailable(
      'the database URL must be a valid postgres:// or postgresql:// URL, such as postgres://user@host:5432/dbname',
    );
}

/**
 * The connection failure behind `error`, as a DatabaseUnavailable, or undefined when it is something
 * else: socket errors, and PostgreSQL's connection (08), authorization (28) and unknown-database
 * (3D000) errors, and its refusal while it starts or stops (57P03).
 */
function unavailable(location: StoreLocation, error: unknown): DatabaseUnavailable | undefined {
  const failure = error as { code?: unknown; message?: unknown; errors?: Array<{ message?: unknown }> };
  const code = typeof failure.code === 'string' ? failure.code : '';
  const pgCode = /^[0-9A-Z]{5}$/.test(code) ? code : '';
  const said = typeof failure.message === 'string' ? failure.message : '';
  const connectionFailure =
    UNREACHABLE.has(code) ||
    pgCode.startsWith('08') ||
    pgCode.startsWith('28') ||
    pgCode === '3D000' ||
    pgCode === '57P03' ||
    PG_CONNECTION_MESSAGES.some((start) => said.startsWith(start));
  if (!connectionFailure) return undefined;
  // A refused connection to a name with several addresses is an AggregateError with no message of its own.
  const why = String(said || failure.errors?.[0]?.message || code);
  return new DatabaseUnavailable(`cannot use the database at ${describeLocation(location)}: ${why}`);
}

function connect(location: StoreLocation): { db: Kysely<Database>; backend: Backend; pool?: pg.Pool } {
  const poolSize = poolSizeOf(location);
  if (location.databaseUrl) {
    checkDatabaseUrl(location.databaseUrl);
    // application_name names our backends in pg_stat_activity; one given in the URL wins.
    const pool = new pg.Pool({ connectionString: location.databaseUrl, max: poolSize, application_name: 'siteaudit' });
    // An idle client's connection error must not crash the process; the next query reconnects.
    pool.on('error', (error) => logger().warn(`database connection error: ${error.message}`));
    return { db: new Kysely<Database>({ dialect: new StoreDialect({ pool }) }), backend: 'postgres', pool };
  }
  mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
  const file = openSqliteFile(join(location.dataDir, SQLITE_FILE));
  return { db: new Kysely<Database>({ dialect: nodeSqliteDialect(file) }), backend: 'sqlite' };
}

/** Brings the schema up to date (`latest`) or refuses one that is not this code's (`check`). */
async function prepareSchema(context: StoreContext, mode: MigrateMode): Promise<string[]> {
  const db = context.db as Kysely<unknown>;
  if (mode === 'latest') return migrateToLatest(db, context.backend);
  const { missing, unknown } = await schemaState(db, context.backend);
  if (unknown.length > 0) throw new SchemaMismatch('schema_ahead', unknown);
  if (missing.length > 0) throw new SchemaMismatch('schema_behind', missing);
  return [];
}

/** Opens the store and brings its schema up to date, or with `migrate: 'check'` checks it is. */
export async function openStore(location: StoreLocation, options: OpenOptions = {}): Promise<Store> {
  const context = connect(location);
  try {
    await prepareSchema(context, options.migrate ?? 'latest');
  } catch (error) {
    await context.db.destroy();
    throw unavailable(location, error) ?? error;
  }
  return buildStore(context, context.pool);
}

/**
 * Applies the migrations the database lacks, for `siteaudit admin migrate`: the names applied
 * (none when up to date) and the schema's latest migration after.
 */
export async function migrateStore(location: StoreLocation): Promise<{ applied: string[]; schema: string | null }> {
  const context = connect(location);
  try {
    const applied = await prepareSchema(context, 'latest');
    const { applied: all } = await schemaState(context.db as Kysely<unknown>, context.backend);
    return { applied, schema: all.at(-1) ?? null };
  } catch (error) {
    throw unavailable(location, error) ?? error;
  } finally {
    await context.db.destroy();
  }
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
