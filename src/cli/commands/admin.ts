// `siteaudit admin ...`: operator commands for organizations, keys, projects and the schema. The
// interface is fixed (scripts depend on it): each takes --data-dir or --database-url, and --json.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { counted, dateText, PlainText, SCOPES, type Scope, Uuid } from '../../contract/index.ts';
import {
  AccountExists,
  addMember,
  createUser,
  Email,
  PASSWORD_MIN_LENGTH,
  Password,
  ROLES,
  type Role,
} from '../../service/accounts.ts';
import { issueKey, maskSecret, parseScopes } from '../../service/api-keys.ts';
import { DEFAULT_AUDIT_LOG_DAYS, retentionCutoff } from '../../service/audit-retention.ts';
import { loadKeyEncryptionKey } from '../../service/key-encryption.ts';
import { createOrganization } from '../../service/organizations.ts';
import { isPlan, PLANS } from '../../service/plans.ts';
import { describeLocation, migrateStore, openStore, type Store } from '../../service/store/index.ts';
import {
  CliError,
  parsePositiveInt,
  report,
  type StoreFlags,
  storeError,
  storeLocation,
  withStoreOptions,
} from '../options.ts';

async function withStore<T>(flags: StoreFlags, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(storeLocation(flags)).catch((error) => {
    throw storeError(error);
  });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function parseName(text: string): string {
  const name = text.trim();
  if (!name || name.length > 100 || !PlainText.safeParse(name).success) {
    throw new CliError('invalid_argument', '--name must be 1 to 100 characters, without control characters');
  }
  return name;
}

function parseScopeList(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new CliError('invalid_argument', `unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`);
  if (scopes.length === 0) throw new CliError('invalid_argument', '--scopes needs at least one scope');
  return scopes as Scope[];
}

async function findOrganization(store: Store, idOrSlug: string) {
  const organization = await store.organizations.findByIdOrSlug(idOrSlug);
  if (!organization) throw new CliError('not_found', `no organization with id or slug ${idOrSlug}`);
  return organization;
}

function orgCommands(admin: Command): void {
  const org = admin.command('org').description('organizations');
  withStoreOptions(org.command('create'))
    .description('create an organization')
    .requiredOption('--name <name>', 'organization name')
    .option('--plan <plan>', `plan: ${PLANS.join(' or ')}`, 'free')
    .option('--credits <n>', "opening credit balance (default: the plan's monthly allowance)")
    .action(async (flags: StoreFlags & { name: string; plan: string; credits?: string }) => {
      const name = parseName(flags.name);
      if (!isPlan(flags.plan)) throw new CliError('invalid_argument', `--plan must be ${PLANS.join(' or ')}`);
      const plan = flags.plan;
      const credits = flags.credits === undefined ? undefined : parsePositiveInt('--credits', flags.credits);
      const row = await withStore(flags, (store) => createOrganization(store, { name, plan, credits }));
      report(
        flags,
        {
          organizationId: row.id,
          organizationName: row.name,
          organizationSlug: row.slug,
          plan: row.plan,
          credits: row.credits_remaining,
        },
        [`organization ${row.name} (${row.slug}): ${row.id}`, `plan ${row.plan}, ${row.credits_remaining} credits`],
      );
    });
}

function keyCommands(admin: Command): void {
  const key = admin.command('key').description('API keys');
  withStoreOptions(key.command('create'))
    .description('create an API key; its secret is shown this once')
    .requiredOption('--org <idOrSlug>', 'organization id or slug')
    .option('--name <name>', 'key name', 'API key')
    .option('--scopes <list>', `comma-separated scopes (default: all: ${SCOPES.join(',')})`)
    .option('--project <projectId>', "pin the key to one of the organization's projects")
    .action(async (flags: StoreFlags & { org: string; name: string; scopes?: string; project?: string }) => {
      const name = parseName(flags.name);
      const scopes = flags.scopes === undefined ? undefined : parseScopeList(flags.scopes);
      if (flags.project !== undefined && !Uuid.safeParse(flags.project).success) {
        throw new CliError('invalid_argument', '--project must be a project id (uuid)');
      }
      const location = storeLocation(flags);
      const issued = await withStore(flags, async (store) => {
        const organization = await findOrganization(store, flags.org);
        const projectId = flags.project?.toLowerCase() ?? null;
        if (projectId && !(await store.projects.get(organization.id, projectId))) {
          throw new CliError('not_found', `organization ${organization.slug} has no project ${projectId}`);
        }
        const kek = loadKeyEncryptionKey(location.dataDir);
        return issueKey(store, kek, { organizationId: organization.id, name, scopes, projectId, source: 'admin' });
      });
      const keyScopes = parseScopes(issued.row.scopes);
      report(
        flags,
        {
          secret: issued.secret,
          keyPrefix: issued.row.prefix,
          keyName: issued.row.name,
          scopes: keyScopes,
          organizationId: issued.row.organization_id,
          projectId: issued.row.project_id,
        },
        [issued.secret],
      );
      if (!flags.json)
        process.stderr.write(
          `key ${issued.row.prefix} (${keyScopes.join(', ')}): the secret above is shown this once\n`,
        );
    });

  withStoreOptions(key.command('revoke'))
    .description('revoke a key at once, also for a running service')
    .argument('<keyPrefix>', 'the key prefix (svc_ and 8 characters)')
    .action(async (prefix: string, flags: StoreFlags) => {
      const row = await withStore(flags, (store) => store.apiKeys.revokeByPrefix(prefix));
      if (!row) throw new CliError('not_found', `no key with prefix ${prefix}`);
      report(flags, { keyPrefix: row.prefix, revoked: true, revokedAt: row.revoked_at }, [`revoked ${row.prefix}`]);
    });

  withStoreOptions(key.command('list'))
    .description("list an organization's keys (masked)")
    .requiredOption('--org <idOrSlug>', 'organization id or slug')
    .action(async (flags: StoreFlags & { org: string }) => {
      const rows = await withStore(flags, async (store) =>
        store.apiKeys.listForOrganization((await findOrganization(store, flags.org)).id),
      );
      const keys = rows.map((row) => ({
        keyPrefix: row.prefix,
        masked: maskSecret(row.prefix),
        keyName: row.name,
        scopes: parseScopes(row.scopes),
        projectId: row.project_id,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
      }));
      report(
        flags,
        { keys },
        keys.length === 0
          ? ['no keys']
          : keys.map(
              (k) => `${k.masked}  ${k.keyName}  ${k.revokedAt ? `revoked ${dateText(k.revokedAt)}` : 'active'}`,
            ),
      );
    });
}

function projectCommands(admin: Command): void {
  const project = admin.command('project').description('projects');
  for (const [name, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    withStoreOptions(project.command(name))
      .description(paused ? 'pause an active project' : 'resume a paused project')
      .argument('<projectId>', 'project id')
      .action(async (projectId: string, flags: StoreFlags) => {
        if (!Uuid.safeParse(projectId).success) throw new CliError('invalid_argument', 'projectId must be a uuid');
        const row = await withStore(flags, (store) => store.projects.setPaused(projectId.toLowerCase(), paused));
        if (!row) throw new CliError('not_found', `no project ${projectId}`);
        const expected = paused ? 'paused' : 'active';
        if (row.status !== expected)
          throw new CliError('invalid_state', `project ${row.id} is ${row.status}; cannot ${name} it`);
        report(flags, { projectId: row.id, status: row.status }, [`project ${row.domain} is ${row.status}`]);
      });
  }
}

function auditLogCommands(admin: Command): void {
  const auditLog = admin.command('audit-log').description('the audit log of API requests');
  withStoreOptions(auditLog.command('prune'))
    .description(
      `delete rows older than --older-than-days (default ${DEFAULT_AUDIT_LOG_DAYS}, the service's own retention)`,
    )
    .option('--older-than-days <n>', 'keep this many days of rows', String(DEFAULT_AUDIT_LOG_DAYS))
    .action(async (flags: StoreFlags & { olderThanDays: string }) => {
      const days = parsePositiveInt('--older-than-days', flags.olderThanDays);
      const before = retentionCutoff(days);
      const deleted = await withStore(flags, (store) => store.auditLog.prune(before));
      report(flags, { deleted, before: before.toISOString() }, [
        `deleted ${counted(deleted, 'audit log row')} from before ${before.toISOString()}`,
      ]);
    });

  withStoreOptions(auditLog.command('list'))
    .description('the newest rows, newest first; a burst of refused requests is one row with its count')
    .option('--org <idOrSlug>', "only this organization's requests")
    .option('--limit <n>', 'rows to show (1 to 1000)', '50')
    .action(async (flags: StoreFlags & { org?: string; limit: string }) => {
      const limit = parsePositiveInt('--limit', flags.limit, 1);
      if (limit > 1000) throw new CliError('invalid_argument', '--limit must be at most 1000');
      const rows = await withStore(flags, async (store) =>
        store.auditLog.recent(limit, flags.org ? (await findOrganization(store, flags.org)).id : undefined),
      );
      const entries = rows.map((row) => ({
        at: row.created_at,
        method: row.method,
        path: row.path,
        status: row.status,
        durationMs: row.duration_ms,
        organizationId: row.organization_id,
        keyPrefix: row.key_prefix,
        clientAddress: row.client_address,
        requests: row.request_count,
      }));
      report(
        flags,
        { entries },
        entries.length === 0
          ? ['no rows']
          : entries.map(
              (e) =>
                `${e.at}  ${e.status}  ${e.method} ${e.path}  ${e.keyPrefix ?? e.clientAddress ?? '-'}${e.requests > 1 ? `  x${e.requests}` : ''}`,
            ),
      );
    });
}

async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.includes('\n') || text.length > 2048) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function userCommands(admin: Command): void {
  const user = admin.command('user').description('people who sign in to the dashboard');
  withStoreOptions(user.command('create'))
    .description('create a person in an organization (the first owner, say); they sign in with email and password')
    .requiredOption('--email <email>', 'their email, the sign-in name')
    .requiredOption('--org <idOrSlug>', 'the organization (workspace) they join')
    .option('--name <name>', 'their name (default: the part of the email before @)')
    .option('--role <role>', `${ROLES.join(' or ')}`, 'owner')
    .option(
      '--password-stdin',
      'read the password from the first line of standard input (else one is made and shown once)',
    )
    .action(
      async (
        flags: StoreFlags & { email: string; org: string; name?: string; role: string; passwordStdin?: boolean },
      ) => {
        const email = Email.safeParse(flags.email);
        if (!email.success) throw new CliError('invalid_argument', `--email is not an email address: ${flags.email}`);
        if (!(ROLES as readonly string[]).includes(flags.role))
          throw new CliError('invalid_argument', `--role must be ${ROLES.join(' or ')}`);
        const name = parseName(flags.name ?? email.data.split('@')[0] ?? email.data);
        const generated = flags.passwordStdin ? undefined : randomBytes(18).toString('base64url');
        const password = generated ?? (await readStdinLine());
        if (!Password.safeParse(password).success)
          throw new CliError('invalid_argument', `the password must have ${PASSWORD_MIN_LENGTH} to 1024 characters`);
        const created = await withStore(flags, async (store) => {
          const organization = await findOrganization(store, flags.org);
          let row: Awaited<ReturnType<typeof createUser>>;
          try {
            row = await createUser(store, { email: email.data, name, password });
          } catch (error) {
            if (error instanceof AccountExists) throw new CliError('conflict', error.message);
            throw error;
          }
          await addMember(store, row.id, organization.id, flags.role as Role);
          return { row, organization };
        });
        report(
          flags,
          {
            userId: created.row.id,
            email: created.row.email,
            name: created.row.name,
            organizationId: created.organization.id,
            role: flags.role,
            ...(generated ? { password: generated } : {}),
          },
          [
            `${created.row.email} (${flags.role} of ${created.organization.name}): ${created.row.id}`,
            ...(generated ? [`password (shown once; give it to them yourself): ${generated}`] : []),
          ],
        );
      },
    );
}

function migrateCommand(admin: Command): void {
  admin
    .command('migrate')
    .description(
      'apply the database migrations this version has and the database lacks, before starting `serve --no-migrate`; on PostgreSQL give a direct URL, not one through PgBouncer',
    )
    .option('--data-dir <dir>', 'data directory of the embedded SQLite store (env SITEAUDIT_DATA_DIR)')
    .option(
      '--database-url <url>',
      'PostgreSQL connection string, direct to the server (env SITEAUDIT_DATABASE_MIGRATION_URL, else SITEAUDIT_DATABASE_URL)',
    )
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: StoreFlags) => {
      // The migration URL first: where serve reaches the database through PgBouncer, migrations go direct.
      const databaseUrl = flags.databaseUrl ?? (process.env.SITEAUDIT_DATABASE_MIGRATION_URL || undefined);
      const location = storeLocation({ ...flags, ...(databaseUrl ? { databaseUrl } : {}) });
      const { applied, schema } = await migrateStore(location).catch((error) => {
        throw storeError(error);
      });
      report(flags, { applied, schema }, [
        ...applied.map((name) => `applied ${name}`),
        `${applied.length === 0 ? 'nothing to apply: ' : ''}${describeLocation(location)} is at ${schema}`,
      ]);
    });
}

export function adminCommands(program: Command): void {
  const admin = program
    .command('admin')
    .description('operator commands: organizations, people, keys, projects, the audit log, migrations');
  orgCommands(admin);
  keyCommands(admin);
  projectCommands(admin);
  auditLogCommands(admin);
  userCommands(admin);
  migrateCommand(admin);
}
