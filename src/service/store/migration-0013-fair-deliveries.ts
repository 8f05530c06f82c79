// Issue 28: webhook deliveries and monitor checks claimed fairly between organizations (deliveries.ts
// and monitors.ts `claim`). A claim must skip an organization at its cap without reading its backlog,
// so each endpoint keeps the due time of its earliest pending delivery (`next_due_at`, its queue's
// head): a claim walks heads, one per endpoint, healthy endpoints' apart from failing ones', and then
// takes that endpoint's earliest delivery with one seek. A monitor keeps its host (the one check of a
// host at a time) and whether its last check was slow (slow sites go after the others).
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { monitorHost } from './monitors.ts';

/** Sets each endpoint's head from its pending deliveries (the migration; a store seeded row by row). */
export async function backfillDeliveryHeads(db: Kysely<unknown>): Promise<void> {
  await sql`update webhook_endpoints set next_due_at = (
      select min(d.next_attempt_at) from webhook_deliveries d
      where d.endpoint_id = webhook_endpoints.id and d.status = 'pending'
    )`.execute(db);
}

const INDEXES: ReadonlyArray<{
  name: string;
  table: string;
  columns: string[];
  where: ReturnType<typeof sql<SqlBool>>;
}> = [
  // The heads of healthy and of failing endpoints, each in due order: a claim reads the first of a
  // queue that it may take, skipping only the endpoints of organizations at their cap.
  {
    name: 'webhook_endpoints_due_healthy',
    table: 'webhook_endpoints',
    columns: ['next_due_at'],
    where: sql<SqlBool>`failing_since is null and next_due_at is not null`,
  },
  {
    name: 'webhook_endpoints_due_failing',
    table: 'webhook_endpoints',
    columns: ['next_due_at'],
    where: sql<SqlBool>`failing_since is not null and next_due_at is not null`,
  },
  // An endpoint's earliest pending delivery: the one a claim takes, and the head after it.
  {
    name: 'webhook_deliveries_endpoint_pending',
    table: 'webhook_deliveries',
    columns: ['endpoint_id', 'next_attempt_at'],
    where: sql<SqlBool>`status = 'pending'`,
  },
  // Deliveries being sent (one per lane of every process): the caps count them.
  {
    name: 'webhook_deliveries_delivering',
    table: 'webhook_deliveries',
    columns: ['organization_id', 'lease_expires_at'],
    where: sql<SqlBool>`status = 'delivering'`,
  },
  // Checks in progress (one per lane of every process): the caps count them.
  {
    name: 'monitors_leased',
    table: 'monitors',
    columns: ['lease_expires_at'],
    where: sql<SqlBool>`lease_owner is not null`,
  },
];

export const fairDeliveries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webhook_endpoints').addColumn('next_due_at', 'text').execute();
    await db.schema.alterTable('monitors').addColumn('host', 'text').execute();
    await db.schema
      .alterTable('monitors')
      .addColumn('slow', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const index of INDEXES)
      await db.schema.createIndex(index.name).on(index.table).columns(index.columns).where(index.where).execute();
    // Due monitors by kind: healthy ones before slow ones. monitors_due (enabled, next_check_at) stays
    // for the queue-depth metric.
    await db.schema
      .createIndex('monitors_queue')
      .on('monitors')
      .columns(['enabled', 'slow', 'next_check_at'])
      .execute();
    // The claim's old index, which held every pending delivery in due order across endpoints; the
    // partial indexes above serve what else read it (the queue-depth metric).
    await db.schema.dropIndex('webhook_deliveries_due').execute();

    // Pending deliveries of endpoints deleted before now would never be claimed: they end as a claim
    // ended them before, failed.
    await sql`update webhook_deliveries set status = 'failed', next_attempt_at = null,
        lease_owner = null, lease_expires_at = null, last_error = 'the endpoint was deleted'
      where status = 'pending' and endpoint_id not in (select id from webhook_endpoints)`.execute(db);
    await backfillDeliveryHeads(db);
    const monitors = await sql<{ project_id: string; domain: string }>`select m.project_id, p.domain
      from monitors m join projects p on p.id = m.project_id`.execute(db);
    for (const row of monitors.rows)
      await sql`update monitors set host = ${monitorHost(row.domain)} where project_id = ${row.project_id}`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema.dropIndex('monitors_queue').execute();
    for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
    await db.schema.alterTable('monitors').dropColumn('slow').execute();
    await db.schema.alterTable('monitors').dropColumn('host').execute();
    await db.schema.alterTable('webhook_endpoints').dropColumn('next_due_at').execute();
  },
};
