// What every store module receives: the query builder and which backend it speaks to.
import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
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

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/**
 * True when the database could not be reached or is busy (a passing condition the client may retry),
 * as opposed to a fault in a query.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string } | null;
  if (!e) return false;
  if (e.code && UNAVAILABLE_NODE_CODES.has(e.code)) return true;
  // PostgreSQL: connection exceptions (08xxx), admin shutdown and cannot-connect-now (57P0x), too many connections.
  if (e.code && (/^08/.test(e.code) || /^57P0/.test(e.code) || e.code === '53300')) return true;
  // SQLite: SQLITE_BUSY (5) and SQLITE_LOCKED (6) after busy_timeout ran out.
  if (e.errcode === 5 || e.errcode === 6) return true;
  return /pool after calling end|Connection terminated|database is not open|driver has already been destroyed/i.test(
    e.message ?? '',
  );
}

/** A keyset position of a newest-first listing: rows strictly older than this (createdAt, id). */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

/** Rows strictly older than `position` in the (created_at, id) order; plain SQL both dialects read alike. */
export const olderThan = (position: KeysetPosition) =>
  sql<boolean>`(created_at, id) < (${position.createdAt}, ${position.id})`;

/**
 * Orders a listing newest first by (created_at, id), starts after `after`, and asks for one row
 * more than `limit`, which tells whether a next page exists. The position is a row-value comparison,
 * which both SQLite (3.15 and later) and PostgreSQL read as a range of an index ending in
 * (created_at, id): a page costs the same at any depth. The equivalent `created_at < ? or
 * (created_at = ? and id < ?)` is not a range to either planner, and read every newer row.
 */
export function newestFirstPage<
  TB extends 'projects' | 'runs' | 'webhook_endpoints' | 'webhook_deliveries' | 'monitor_checks',
  O,
>(
  q: SelectQueryBuilder<Database, TB, O>,
  after: KeysetPosition | undefined,
  limit: number,
): SelectQueryBuilder<Database, TB, O> {
  return (after ? q.where(olderThan(after)) : q)
    .orderBy('created_at' as never, 'desc')
    .orderBy('id' as never, 'desc')
    .limit(limit + 1);
}
