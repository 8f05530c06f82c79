// Issue 28: the webhook outbox's queue as an index of its own. Each deliverer claims the oldest
// undispatched events (deliveries.dispatch); a partial index of those alone, in claim order, gives
// them at the cost of the batch, whatever the history. The index it replaces held every event, and
// PostgreSQL read every undispatched one and sorted them for each batch (`dispatched_at is null`
// does not fix the order of the columns after it).
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const dispatchQueue: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('events_dispatch_queue')
      .on('events')
      .columns(['created_at', 'id'])
      .where(sql.ref('dispatched_at'), 'is', null)
      .execute();
    // Nothing else reads it, and without statistics SQLite preferred it to the new one.
    await db.schema.dropIndex('events_undispatched').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.createIndex('events_undispatched').on('events').columns(['dispatched_at', 'created_at']).execute();
    await db.schema.dropIndex('events_dispatch_queue').execute();
  },
};
