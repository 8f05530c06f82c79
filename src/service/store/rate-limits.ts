// Per-key request counters in fixed one-minute windows, kept in the database so every `serve`
// process on one PostgreSQL draws on the same budget.
import { sql } from 'kysely';
import type { StoreContext } from './context.ts';

export function rateLimitStore({ db }: StoreContext) {
  return {
    /**
     * Counts one request in the window when it is under `limit`, in one statement (no read-then-write
     * race). Answers the new count, or null when the window is already full.
     */
    async take(keyId: string, windowStart: number, limit: number): Promise<number | null> {
      const row = await db
        .insertInto('rate_limit_windows')
        .values({ key_id: keyId, window_start: windowStart, count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'window_start'])
            .doUpdateSet({ count: sql<number>`rate_limit_windows.count + 1` })
            .where('rate_limit_windows.count', '<', limit),
        )
        .returning('count')
        .executeTakeFirst();
      return row ? Number(row.count) : null;
    },

    /** Returns one count taken in the window (an attempt that turned out not to count, such as a good sign-in). */
    async giveBack(keyId: string, windowStart: number): Promise<void> {
      await db
        .updateTable('rate_limit_windows')
        .set({ count: sql<number>`count - 1` })
        .where('key_id', '=', keyId)
        .where('window_start', '=', windowStart)
        .where('count', '>', 0)
        .execute();
    },

    /** Drops windows that ended before `before` (unix seconds). */
    async sweep(before: number): Promise<void> {
      await db.deleteFrom('rate_limit_windows').where('window_start', '<', before).execute();
    },
  };
}
