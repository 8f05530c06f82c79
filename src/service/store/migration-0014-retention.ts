// Issue 28: retention by age, done by one elected process. The housekeeper's lease is a row, taken
// with one conditional statement (store/housekeeping.ts): safe behind PgBouncer's transaction mode,
// where a session-level advisory lock is not. The indexes are the walks of store/retention.ts: each
// table's rows that may go, oldest first by (created_at, id), so a batch reads the rows it deletes;
// partial, so none holds the queue (pending runs, undispatched events, deliveries still being sent)
// and none is a candidate for the store's other statements, which each have an index of their own.
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const INDEXES = [
  // Runs that ended (the walk's WHERE repeats the predicate, as both planners need to use it).
  { name: 'runs_ended_age', table: 'runs', where: sql<SqlBool>`status not in ('pending', 'running')` },
  { name: 'events_dispatched_age', table: 'events', where: sql<SqlBool>`dispatched_at is not null` },
  {
    name: 'webhook_deliveries_ended_age',
    table: 'webhook_deliveries',
    where: sql<SqlBool>`status in ('delivered', 'failed')`,
  },
] as const;

export const retention: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('housekeeping')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    for (const index of INDEXES)
      await db.schema
        .createIndex(index.name)
        .on(index.table)
        .columns(['created_at', 'id'])
        .where(index.where)
        .execute();
    // Whether an event still has deliveries (it is kept while any delivery of it is).
    await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_event').execute();
    for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
    await db.schema.dropTable('housekeeping').execute();
  },
};
