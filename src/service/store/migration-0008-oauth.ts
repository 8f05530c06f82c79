// Migration 0008 (issue 23): OAuth records no longer hold their secrets. Every existing code, token,
// session and interaction is re-keyed under its id's SHA-256 (not expired: hosts keep their
// connections across the upgrade, the hash of what they present finds the same record), the copy
// of the id in each payload and an interaction's copy of the session cookie are dropped, and a
// confidential client's secret is hashed. Each record also names its client (`client_id`), so a
// registration nothing was authorized with can expire with its registration token: those already
// here get an hour. Tokens stop depending on the browser session they were issued in
// (`expiresWithSession` dropped), as new ones do.
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import {
  type OAuthPayload,
  oauthClientOf,
  PENDING_REGISTRATION_SECONDS,
  storedOAuthId,
  storedOAuthPayload,
} from './oauth-records.ts';

export const oauthSecretsHashed: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oauth_records').addColumn('client_id', 'text').execute();
    await db.schema.createIndex('oauth_records_client').on('oauth_records').column('client_id').execute();
    const { rows } = await sql<{ model: string; id: string; payload: string }>`
      select model, id, payload from oauth_records`.execute(db);
    for (const row of rows) {
      const { expiresWithSession: _bound, ...payload } = JSON.parse(row.payload) as OAuthPayload;
      await sql`
        update oauth_records
        set id = ${storedOAuthId(row.model, row.id)},
            payload = ${JSON.stringify(storedOAuthPayload(row.model, payload))},
            client_id = ${oauthClientOf(row.model, row.id, payload)}
        where model = ${row.model} and id = ${row.id}`.execute(db);
    }
    const soon = new Date(Date.now() + PENDING_REGISTRATION_SECONDS * 1000).toISOString();
    await sql`
      update oauth_records set expires_at = ${soon}
      where model in ('Client', 'RegistrationAccessToken') and expires_at is null
        and client_id not in (
          select client_id from oauth_records
          where client_id is not null and model not in ('Client', 'RegistrationAccessToken'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    // A hash cannot be turned back into the token: the re-keyed records go, clients and grants stay.
    await sql`delete from oauth_records where model not in ('Client', 'Grant')`.execute(db);
    await db.schema.dropIndex('oauth_records_client').execute();
    await db.schema.alterTable('oauth_records').dropColumn('client_id').execute();
  },
};
