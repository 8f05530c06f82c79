// What every store module receives: the query builder and which backend it speaks to.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './tables.ts';

export type Backend = 'sqlite' | 'postgres';

export interface StoreContext {
  readonly db: Kysely<Database>;
  readonly backend: Backend;
}

export type Queryable = Kysely<Database> | Transaction<Database>;

export const nowIso = (): string => new Date().toISOString();

/** True when `error` is a unique-constraint violation in either backend. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string } | null;
  if (!e) return false;
  if (e.code === '23505') return true; // PostgreSQL unique_violation
  return e.code === 'ERR_SQLITE_ERROR' && /UNIQUE constraint failed/.test(e.message ?? '');
}
