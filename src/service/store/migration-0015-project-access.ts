// Issue 29: a project's access settings (a preview header, basic auth, cookies), for sites behind a
// login or a preview wall. A table of its own, not columns of projects: every read of a project
// would otherwise carry the sealed settings, and only the run worker, a recheck and monitoring need
// them. The values are sealed under the key-encryption key (as webhook secrets are); the names are
// plain, since the API lists them.
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const projectAccess: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('project_access')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id'))
      /** JSON: {headers: [name], cookies: [name], basicAuth: boolean}. */
      .addColumn('names', 'text', (c) => c.notNull())
      /** `v1.` AES-256-GCM of the JSON settings (key-encryption.ts). */
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('project_access').execute();
  },
};
