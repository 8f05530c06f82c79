// Versioned schema migrations, run on start by every process that opens the store (Kysely's migrator
// takes a lock, so concurrent `serve` processes on one PostgreSQL apply each migration once).
import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('credits_remaining', 'integer', (c) => c.notNull())
      .addColumn('credits_monthly', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      // spec 3.1: one project per domain in an organization; archive keeps the row.
      .addUniqueConstraint('projects_org_domain', ['organization_id', 'domain'])
      .execute();
    await db.schema
      .createIndex('projects_org_listing')
      .on('projects')
      .columns(['organization_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('project_id', 'text', (c) => c.references('projects.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull().unique())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();

    await db.schema
      .createTable('rate_limit_windows')
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('window_start', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key_id', 'window_start'])
      .execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text')
      .addColumn('key_prefix', 'text')
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_at']).execute();

    await db.schema
      .createTable('cli_auth_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('code_challenge', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('key_name', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'cli_auth_codes',
      'audit_log',
      'rate_limit_windows',
      'api_keys',
      'projects',
      'organizations',
      'settings',
    ]) {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  },
};

// Append only: a released migration is never edited, a change is a new entry.
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
};

export async function migrateToLatest(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told one; on a PostgreSQL database
  // that holds several siteaudit schemas, it would find another schema's and skip creating its own.
  const migrationTableSchema =
    backend === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed`, { cause: error });
  }
}
