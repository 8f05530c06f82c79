// Adapts Node's built-in `node:sqlite` to Kysely's SQLite dialect, so the embedded store needs no native build.
import { chmodSync, existsSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';

// node:sqlite binds only numbers, bigints, strings, null and bytes.
function toSqlValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value;
  return JSON.stringify(value);
}

class Statement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...parameters.map(toSqlValue));
  }

  run(parameters: ReadonlyArray<unknown>) {
    const { changes, lastInsertRowid } = this.#statement.run(...parameters.map(toSqlValue));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...parameters.map(toSqlValue)) as IterableIterator<unknown>;
  }
}

export function openSqliteFile(path: string): DatabaseSync {
  const isNew = !existsSync(path);
  const database = new DatabaseSync(path);
  // The file holds key hashes and sealed secrets: owner only. SQLite gives -wal and -shm the same mode.
  if (isNew) chmodSync(path, 0o600);
  // WAL lets `serve` and operator commands share the file; busy_timeout waits out another writer.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA busy_timeout = 10000');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  return database;
}

// Kysely's SQL is parameterized, so a few hundred texts cover every query the service makes.
const STATEMENT_CACHE_SIZE = 256;

export function nodeSqliteDialect(database: DatabaseSync): SqliteDialect {
  // Preparing a statement costs more than running a small one; keep them (least recently used out).
  const statements = new Map<string, Statement>();
  return new SqliteDialect({
    database: {
      close: () => {
        statements.clear();
        database.close();
      },
      prepare: (query: string) => {
        const cached = statements.get(query);
        if (cached) {
          statements.delete(query);
          statements.set(query, cached);
          return cached;
        }
        // A deferred BEGIN that later writes fails at once with SQLITE_BUSY when another process wrote
        // meanwhile; BEGIN IMMEDIATE takes the write lock up front and so waits on busy_timeout instead.
        const text = query.trim().toLowerCase() === 'begin' ? 'begin immediate' : query;
        const statement = new Statement(database.prepare(text));
        statements.set(query, statement);
        if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        return statement;
      },
    },
  });
}
