// Options every operator command shares: where the store is, and how to print the result.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { DatabaseUnavailable, SchemaMismatch, type StoreLocation } from '../service/store/index.ts';

/** A mistake of the person at the keyboard: printed as a message, never as a stack. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** A store the operator must fix (a schema of another version, a database it cannot use): a message, not a stack. */
export function storeError(error: unknown): unknown {
  return error instanceof SchemaMismatch || error instanceof DatabaseUnavailable
    ? new CliError(error.code, error.message)
    : error;
}

export interface StoreFlags {
  dataDir?: string;
  databaseUrl?: string;
  /** --database-pool-size, on the commands that take it (serve). */
  databasePoolSize?: string;
  json?: boolean;
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SITEAUDIT_DATA_DIR) return env.SITEAUDIT_DATA_DIR;
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'siteaudit');
}

export function withStoreOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory of the embedded SQLite store (env SITEAUDIT_DATA_DIR)')
    .option('--database-url <url>', 'PostgreSQL connection string (env SITEAUDIT_DATABASE_URL)')
    .option('--json', 'print one JSON object on stdout');
}

export function storeLocation(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const databaseUrl = flags.databaseUrl ?? env.SITEAUDIT_DATABASE_URL;
  const poolSize = poolSizeOf(flags, env);
  return {
    dataDir: flags.dataDir ?? defaultDataDir(env),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(poolSize === undefined ? {} : { poolSize }),
  };
}

/**
 * The store's MAX_POOL_SIZE, written out: every command loads this file, and importing the store's
 * value would load the store (pg, kysely) into `audit` and `mcp` too.
 */
const MAX_POOL_SIZE = 100;

/** --database-pool-size, else SITEAUDIT_DATABASE_POOL_SIZE (empty is unset), else the store's default. */
function poolSizeOf(flags: StoreFlags, env: NodeJS.ProcessEnv): number | undefined {
  const [name, value] =
    flags.databasePoolSize === undefined
      ? ['SITEAUDIT_DATABASE_POOL_SIZE', env.SITEAUDIT_DATABASE_POOL_SIZE || undefined]
      : ['--database-pool-size', flags.databasePoolSize];
  if (value === undefined) return undefined;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_POOL_SIZE)
    throw new CliError('invalid_argument', `${name} must be a whole number from 1 to ${MAX_POOL_SIZE}, not "${value}"`);
  return Number(value);
}

/** Prints a result: the object as JSON with --json, else the human lines. */
export function report(flags: StoreFlags, result: Record<string, unknown>, human: string[]): void {
  process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${human.join('\n')}\n`);
}

export function parsePositiveInt(name: string, value: string, min = 0): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < min)
    throw new CliError('invalid_argument', `${name} must be a whole number of at least ${min}`);
  return Number(value);
}
