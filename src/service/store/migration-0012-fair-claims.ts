// Issue 28: the run claim is fair between organizations and polite to sites (runs.ts `claim`). Each
// run names the host it audits (`host`, null for a target on this machine, which has no one to be
// polite to) and when its latest attempt began (`claimed_at`); indexes let a claim find each
// organization with runs waiting, its oldest due ones, and the runs in progress of an organization or
// a host, each with a seek, whatever the backlog or the history.
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const fairClaims: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('runs').addColumn('host', 'text').execute();
    await db.schema.alterTable('runs').addColumn('claimed_at', 'text').execute();
    // Only the runs a claim can still see: a finished run's host matters to no claim (the gap after
    // its start has long passed), and rewriting the whole history would hold the migration for long.
    // Every run's url is `https://<domain>/` (startUrlFor); `www.` goes as runHost takes it off.
    await sql`update runs set host = substr(url, 9, length(url) - 9)
      where status in ('pending', 'running') and local = 0 and url like 'https://%/'`.execute(db);
    await sql`update runs set host = substr(host, 5)
      where status in ('pending', 'running') and host like 'www.%.%'`.execute(db);

    // The organizations with runs waiting (one seek each, skipping the rest of an organization's
    // backlog) and each one's oldest: replaces runs_pending of 0010, which held the same rows in
    // creation order across organizations.
    await db.schema
      .createIndex('runs_pending_org')
      .on('runs')
      .columns(['organization_id', 'created_at'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema.dropIndex('runs_pending').execute();
    // Runs in progress (a live lease) of a host: its cap. An organization's are a range of
    // runs_org_status_listing (0010), whose leading columns are the organization and the status.
    await db.schema
      .createIndex('runs_running_host')
      .on('runs')
      .columns(['host', 'lease_expires_at'])
      .where(sql.ref('status'), '=', 'running')
      .execute();
    // The latest start on a host (its minimum gap between starts).
    await db.schema
      .createIndex('runs_host_claims')
      .on('runs')
      .columns(['host', 'claimed_at'])
      .where(sql.ref('host'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('runs_host_claims').execute();
    await db.schema.dropIndex('runs_running_host').execute();
    await db.schema
      .createIndex('runs_pending')
      .on('runs')
      .column('created_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema.dropIndex('runs_pending_org').execute();
    await db.schema.alterTable('runs').dropColumn('claimed_at').execute();
    await db.schema.alterTable('runs').dropColumn('host').execute();
  },
};
