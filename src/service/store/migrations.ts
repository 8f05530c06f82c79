// Versioned schema migrations, run on start by every process that opens the store (or once by
// `siteaudit admin migrate`, with `serve --no-migrate` only checking). On PostgreSQL they run in one
// transaction under a transaction-level advisory lock, so concurrent starts apply each migration once
// and no lock outlives its transaction, even through PgBouncer's transaction mode (issue 28).
import { type DatabaseIntrospector, type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { oauthSecretsHashed } from './migration-0008-oauth.ts';
import { invitationEmails } from './migration-0009-accounts.ts';
import { storeIndexes } from './migration-0010-indexes.ts';
import { dispatchQueue } from './migration-0011-dispatch-queue.ts';
import { fairClaims } from './migration-0012-fair-claims.ts';
import { fairDeliveries } from './migration-0013-fair-deliveries.ts';
import { retention } from './migration-0014-retention.ts';
import { projectAccess } from './migration-0015-project-access.ts';

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

const runs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('progress_pct', 'integer', (c) => c.notNull())
      .addColumn('current_step', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('local', 'integer', (c) => c.notNull())
      .addColumn('scan_mode', 'text')
      .addColumn('error', 'text')
      .addColumn('credits_spent', 'integer', (c) => c.notNull())
      .addColumn('key_prefix', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('request_fingerprint', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('score', 'integer')
      .addColumn('score_status', 'text')
      .addColumn('severity_counts', 'text')
      .addColumn('findings_total', 'integer')
      .addColumn('coverage', 'text')
      .addColumn('report', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_error', 'text')
      .execute();
    // spec 4.11: one run in flight per project (409 run_in_flight), guaranteed by the database.
    await db.schema
      .createIndex('runs_one_in_flight')
      .on('runs')
      .column('project_id')
      .unique()
      .where(sql.ref('status'), 'in', sql`('pending', 'running')`)
      .execute();
    await db.schema
      .createIndex('runs_idempotency')
      .on('runs')
      .columns(['organization_id', 'idempotency_key'])
      .unique()
      .where('idempotency_key', 'is not', null)
      .execute();
    await db.schema
      .createIndex('runs_org_listing')
      .on('runs')
      .columns(['organization_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('runs_queue').on('runs').columns(['status', 'next_attempt_at']).execute();

    await db.schema
      .createTable('findings')
      .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
      .addColumn('finding_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('findings_pk', ['run_id', 'finding_id'])
      .execute();
    await db.schema.createIndex('findings_run_position').on('findings').columns(['run_id', 'position']).execute();

    // The outbox of spec 6: events written with the state change they announce, delivered later.
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('run_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_org_created').on('events').columns(['organization_id', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['events', 'findings', 'runs']) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  },
};

// Refused unauthenticated requests are kept as one row per burst: the address they came from and how
// many requests the row stands for (issue 9). Retention deletes by time, so the time index stays.
const auditBursts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('client_address', 'text').execute();
    await db.schema
      .alterTable('audit_log')
      .addColumn('request_count', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').dropColumn('request_count').execute();
    await db.schema.alterTable('audit_log').dropColumn('client_address').execute();
  },
};

// Webhook endpoints (spec 2.13, 4.12; issue 11). The signing secret is stored sealed under the
// key-encryption key, because every delivery needs it; during a rotation the previous one signs
// until it expires.
const webhookEndpoints: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
      .addColumn('previous_secret_ciphertext', 'text')
      .addColumn('previous_secret_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_endpoints_org_created')
      .on('webhook_endpoints')
      .columns(['organization_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists webhook_endpoints`.execute(db);
  },
};

// Webhook delivery (spec 6.5, issue 11): each event of the outbox becomes one delivery per
// subscribed endpoint when it is dispatched; a delivery is leased like a run, and every attempt is
// logged. An endpoint remembers since when it has been failing, to disable it after a while.
const webhookDeliveries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('events').addColumn('dispatched_at', 'text').execute();
    await db.schema.createIndex('events_undispatched').on('events').columns(['dispatched_at', 'created_at']).execute();
    await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', 'text').execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_endpoint')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('delivery_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('attempted_at', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('response_excerpt', 'text')
      .execute();
    await db.schema
      .createIndex('webhook_attempts_delivery')
      .on('webhook_attempts')
      .columns(['delivery_id', 'attempt'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['webhook_attempts', 'webhook_deliveries'])
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.schema.alterTable('webhook_endpoints').dropColumn('failing_since').execute();
    await db.schema.dropIndex('events_undispatched').execute();
    await db.schema.alterTable('events').dropColumn('dispatched_at').execute();
  },
};

// Monitoring (issue 11): a project's schedule and what it last saw (one row, leased by a checker
// like a run), every check's result as history, and the key pages each run found.
const monitoring: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('runs').addColumn('key_pages', 'text').execute();
    await db.schema
      .createTable('monitors')
      .addColumn('project_id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('interval_minutes', 'integer')
      .addColumn('next_check_at', 'text')
      .addColumn('last_checked_at', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('pages', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('monitors_due').on('monitors').columns(['enabled', 'next_check_at']).execute();
    await db.schema
      .createTable('monitor_checks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('up', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text')
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('event_id', 'text')
      .execute();
    await db.schema
      .createIndex('monitor_checks_project')
      .on('monitor_checks')
      .columns(['project_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('monitor_checks_created').on('monitor_checks').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['monitor_checks', 'monitors']) await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.schema.alterTable('runs').dropColumn('key_pages').execute();
  },
};

// People (issue 12): accounts with a password, their memberships of organizations (workspaces) with
// a role, browser sessions, invitation links and one-time sign-in links. Keys remember their last use.
const accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('memberships')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'organization_id'])
      .execute();
    await db.schema.createIndex('memberships_org').on('memberships').column('organization_id').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('reauthenticated_at', 'text')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema
      .createTable('invitations')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('used_by', 'text')
      .execute();
    await db.schema
      .createTable('sign_in_links')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('created_by', 'text').execute();
    await db.schema.alterTable('cli_auth_codes').addColumn('user_id', 'text').execute();
    await db.schema
      .createTable('run_shares')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('run_shares_run').on('run_shares').column('run_id').execute();
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    // The OAuth authorization server's records (issue 12): every model of oidc-provider in one table.
    await db.schema
      .createTable('oauth_records')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('user_code', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('consumed_at', 'integer')
      .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
    await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid']).execute();
    await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_at').execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('challenge', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'webauthn_challenges',
      'passkeys',
      'run_shares',
      'sign_in_links',
      'invitations',
      'sessions',
      'memberships',
      'users',
    ])
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.schema.alterTable('cli_auth_codes').dropColumn('user_id').execute();
    await db.schema.alterTable('api_keys').dropColumn('created_by').execute();
    await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  },
};

// Append only: a released migration is never edited, a change is a new entry.
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_runs': runs,
  '0003_audit_bursts': auditBursts,
  '0004_webhook_endpoints': webhookEndpoints,
  '0005_webhook_deliveries': webhookDeliveries,
  '0006_monitoring': monitoring,
  '0007_accounts': accounts,
  '0008_oauth_secrets_hashed': oauthSecretsHashed,
  '0009_invitation_emails': invitationEmails,
  '0010_store_indexes': storeIndexes,
  '0011_events_dispatch_queue': dispatchQueue,
  '0012_fair_claims': fairClaims,
  '0013_fair_deliveries': fairDeliveries,
  '0014_retention': retention,
  '0015_project_access': projectAccess,
};

/** The migrator of this store's migrations, its tables in the connection's own schema. */
export async function storeMigrator(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<Migrator> {
  // Kysely looks for its migration tables in every schema unless told one; on a PostgreSQL database
  // that holds several siteaudit schemas, it would find another schema's and skip creating its own.
  const migrationTableSchema =
    backend === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: migrationTableSchema ? inSchema(db, migrationTableSchema) : db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/**
 * `db` whose introspection sees `schema` alone. Kysely's migrator lists the tables of every schema
 * to find its own, and that listing fails when another schema is dropped meanwhile (a test suite, a
 * tenant's schema); it only needs to know whether its tables exist in its schema.
 */
function inSchema(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () =>
      (
        await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db)
      ).rows.map((row) => ({ name: row.name, schema, isView: false, isForeign: false, columns: [] })),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      // Kysely's methods read private fields: called on the database itself, not on this proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Kysely's own lock key: processes of an older siteaudit, which lock with Kysely's, still wait for ours. */
const MIGRATION_LOCK_KEY = 3853314791062309107n;

/** Kysely's table of applied migrations (its default name, which storeMigrator keeps). */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Takes the PostgreSQL migration lock until the transaction `trx` ends. A transaction-level lock,
 * not Kysely's session-level one: behind PgBouncer in transaction mode one transaction keeps one
 * server connection, while a session lock could be taken on one connection, released on another
 * and left held for ever.
 */
export async function lockMigrations(trx: Kysely<unknown>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
}

/** Where the database's schema stands against this code's migrations. */
export interface SchemaState {
  /** Migrations the database has applied, by name. */
  applied: string[];
  /** This code's migrations the database lacks (it is older). */
  missing: string[];
  /** Migrations the database has that this code does not know (a newer version applied them). */
  unknown: string[];
}

/** A database whose schema is not the one this code was built for. */
export class SchemaMismatch extends Error {
  override readonly name = 'SchemaMismatch';
  readonly code: 'schema_behind' | 'schema_ahead';
  /** The migrations the database lacks (behind) or has that this code does not know (ahead). */
  readonly migrations: string[];
  constructor(code: 'schema_behind' | 'schema_ahead', migrations: string[]) {
    super(
      code === 'schema_behind'
        ? `the database schema is older than this siteaudit: ${migrations.length === 1 ? 'migration' : 'migrations'} ${migrations.join(', ')} ${migrations.length === 1 ? 'is' : 'are'} not applied; run \`siteaudit admin migrate\` (on PostgreSQL with a direct database URL), then start again`
        : `the database schema is newer than this siteaudit: it has ${migrations.length === 1 ? 'migration' : 'migrations'} ${migrations.join(', ')}, which this version does not know; run the newer siteaudit that applied them`,
    );
    this.code = code;
    this.migrations = migrations;
  }
}

async function appliedMigrations(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  const present =
    backend === 'postgres'
      ? sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = ${MIGRATION_TABLE}`
      : sql`select 1 from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`;
  if ((await present.execute(db)).rows.length === 0) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return rows.rows.map((row) => row.name).sort();
}

/** Compares the database's applied migrations with this code's list; changes nothing. */
export async function schemaState(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<SchemaState> {
  const applied = await appliedMigrations(db, backend);
  const done = new Set(applied);
  return {
    applied,
    missing: Object.keys(MIGRATIONS)
      .sort()
      .filter((name) => !done.has(name)),
    unknown: applied.filter((name) => !Object.hasOwn(MIGRATIONS, name)),
  };
}

async function applyPending(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  // Kysely would only say "corrupted migrations"; a newer schema gets its own message.
  const { unknown } = await schemaState(db, backend);
  if (unknown.length > 0) throw new SchemaMismatch('schema_ahead', unknown);
  const { error, results } = await (await storeMigrator(db, backend)).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies the migrations the database lacks and answers their names (none when up to date). On
 * PostgreSQL all of them run in one transaction that first takes the migration lock, so concurrent
 * processes apply each migration once, and the lock is safe through PgBouncer's transaction mode;
 * the store's dialect (index.ts) keeps Kysely from taking its session-level lock as well.
 */
export async function migrateToLatest(db: Kysely<unknown>, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  if (backend === 'sqlite') return applyPending(db, backend);
  return db.transaction().execute(async (trx) => {
    await lockMigrations(trx);
    return applyPending(trx, backend);
  });
}
