// The housekeeper's lease (issue 28): one row per job in `housekeeping` (migration 0014), held by one
// process until it expires. Taking it is one statement, an upsert that writes only when the lease is
// free, lapsed or already the taker's; PostgreSQL locks the row for it and checks the condition again
// on the row's latest version, and SQLite writes one statement at a time, so two processes never
// both hold it. No session state: safe behind PgBouncer's transaction mode, unlike pg_try_advisory_lock.
// Times are each process's own clock, as for the leases of runs and deliveries.
import type { Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import type { Database } from './tables.ts';

export interface HousekeepingTable {
  /** The job the lease is for (`housekeeper`). */
  name: string;
  /** The process holding it; null when given back. */
  owner: string | null;
  expires_at: string;
}

type LeaseDatabase = Database & { housekeeping: HousekeepingTable };

/** A lease given back: expired since long ago. */
const FREE = new Date(0).toISOString();

export function housekeepingStore(context: StoreContext) {
  // The table is this module's alone; the store's other modules never read it.
  const db = context.db as unknown as Kysely<LeaseDatabase>;
  return {
    /** Who holds the lease of `job` and until when (undefined: nobody ever took it). */
    holder(job: string): Promise<{ owner: string | null; expiresAt: string } | undefined> {
      return db
        .selectFrom('housekeeping')
        .select(['owner', 'expires_at as expiresAt'])
        .where('name', '=', job)
        .executeTakeFirst();
    },

    /**
     * Takes or renews the lease of `job` for `owner` until `now + leaseMs`, unless another owner holds
     * it unexpired. True when `owner` holds it now. A plain read first: most looks (every process but
     * the housekeeper, each minute) find it held and write nothing.
     */
    async take(job: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
      const at = now.toISOString();
      const current = await this.holder(job);
      if (current && current.owner !== owner && current.owner !== null && current.expiresAt >= at) return false;
      const expiresAt = new Date(now.getTime() + leaseMs).toISOString();
      const taken = await db
        .insertInto('housekeeping')
        .values({ name: job, owner, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ owner, expires_at: expiresAt })
            .where((eb) =>
              eb.or([
                eb('housekeeping.owner', '=', owner),
                eb('housekeeping.owner', 'is', null),
                eb('housekeeping.expires_at', '<', at),
              ]),
            ),
        )
        .returning('owner')
        .executeTakeFirst();
      return taken?.owner === owner;
    },

    /** Gives the lease back (a stopping process), so another takes it at its next look. */
    async release(job: string, owner: string): Promise<void> {
      await db
        .updateTable('housekeeping')
        .set({ owner: null, expires_at: FREE })
        .where('name', '=', job)
        .where('owner', '=', owner)
        .execute();
    },
  };
}

export type HousekeepingStore = ReturnType<typeof housekeepingStore>;
