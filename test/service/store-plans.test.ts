// The store's lists, lookups and claims on a large store (issue 28): 10^5 runs, 10^5 pending webhook
// deliveries, thousands of projects and endpoints. Every statement a store function issues is caught
// as it runs and explained on the same database; a plan that reads a big table whole, sorts what it
// found, or (PostgreSQL) reads far more rows than it answers, fails.
import { CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seeded, seedStore } from '../../bench/store.ts';
import type { StoreContext } from '../../src/service/store/context.ts';
import { deliveryStore } from '../../src/service/store/deliveries.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { backfillDeliveryHeads } from '../../src/service/store/migration-0013-fair-deliveries.ts';
import { monitorStore } from '../../src/service/store/monitors.ts';
import { projectStore } from '../../src/service/store/projects.ts';
import { type ClaimLimits, runStore } from '../../src/service/store/runs.ts';
import type { Database, RunRow } from '../../src/service/store/tables.ts';
import { webhookStore } from '../../src/service/store/webhooks.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

/** Tables that grow with use: reading one whole is what this suite forbids. */
const BIG_TABLES = new Set([
  'runs',
  'webhook_deliveries',
  'monitor_checks',
  'projects',
  'webhook_endpoints',
  // One row per monitored project: the check claim passes over busy organizations' due ones.
  'monitors',
  // One row per tenant: the run claim looks up the plan of each organization with runs waiting.
  'organizations',
]);
/** Rows a PostgreSQL scan of a big table may read for one call: a page is 51 rows, a lookup 1 or 2. */
const MAX_ROWS_READ = 200;

function stores(context: StoreContext) {
  return {
    runs: runStore(context),
    deliveries: deliveryStore(context),
    projects: projectStore(context),
    webhooks: webhookStore(context),
    monitors: monitorStore(context),
  };
}
type Stores = ReturnType<typeof stores>;

interface PlanCase {
  name: string;
  call(s: Stores, seeded: Seeded): Promise<unknown>;
  /**
   * SQLite: columns the WHERE compares that the index need not hold, with why; every other compared
   * column must be a constraint of the index search.
   */
  residual?: Record<string, string>;
}

const PRODUCT = 'website_security';

/** The run claim's caps in the cases that keep them (the burst organization is at 4). */
const CAPS: ClaimLimits = { orgMaxRunning: 4, planMaxRunning: { pro: 4 }, hostMaxRunning: 1, hostMinGapMs: 2000 };
/** Caps no organization is under (the pro plan's own, 0, wins over the default). */
const NONE_OPEN: ClaimLimits = { ...CAPS, planMaxRunning: { pro: 0 } };

/**
 * Forty more organizations with three runs waiting each, ten of them with two in progress, two
 * sharing a host; the burst organization at its cap of 4; and a run waiting on the big project,
 * whose host has tens of thousands of runs behind it: what a fair claim weighs.
 */
async function queueTenants(store: Store, seeded: Seeded): Promise<void> {
  const later = new Date(Date.now() + 3_600_000).toISOString();
  // Tenants with nothing queued, so that reading the organizations whole would show.
  const created = new Date().toISOString();
  for (let batch = 0; batch < 10; batch++)
    await store.db
      .insertInto('organizations')
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          id: `idle-${batch}-${i}`,
          name: 'idle',
          slug: `idle-${batch}-${i}`,
          plan: 'pro',
          credits_remaining: 0,
          credits_monthly: 0,
          created_at: created,
          updated_at: created,
        })),
      )
      .execute();
  for (let t = 0; t < 40; t++) {
    const org = await store.organizations.create({
      name: `queue ${t}`,
      slug: `queue-${t}`,
      plan: 'pro',
      credits: 100,
      monthlyCredits: 100,
    });
    for (let i = 0; i < 3; i++) {
      const domain = t < 2 && i === 0 ? 'shared.example' : `queue-${t}-${i}.example`;
      const created = await store.projects.createOrRestore(
        { organizationId: org.id, domain, name: domain, slug: `site-${i}` },
        100,
      );
      if (created.outcome === 'limit_reached') throw new Error('project limit');
      const started = await store.runs.create({
        organizationId: org.id,
        projectId: created.project.id,
        product: 'ai_readiness',
        url: `https://${domain}/`,
        local: false,
        scanMode: null,
        credits: 1,
        keyPrefix: null,
        idempotencyKey: null,
        requestFingerprint: 'plans',
      });
      if (t < 10 && i < 2 && started.outcome === 'created')
        await store.db
          .updateTable('runs')
          .set({ status: 'running', lease_owner: 'plans', lease_expires_at: later, claimed_at: started.run.created_at })
          .where('id', '=', started.run.id)
          .execute();
    }
  }
  const big = await store.db
    .selectFrom('projects')
    .select('domain')
    .where('id', '=', seeded.bigProject)
    .executeTakeFirstOrThrow();
  await store.runs.create({
    organizationId: seeded.bigOrg,
    projectId: seeded.bigProject,
    product: 'ai_readiness',
    url: `https://${big.domain}/`,
    local: false,
    scanMode: null,
    credits: 1,
    keyPrefix: null,
    idempotencyKey: null,
    requestFingerprint: 'plans',
  });
  const oldest = await store.db
    .selectFrom('runs')
    .select('id')
    .where('organization_id', '=', seeded.burstOrg)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .limit(4)
    .execute();
  await store.db
    .updateTable('runs')
    .set({ status: 'running', lease_owner: 'plans', lease_expires_at: later })
    .where(
      'id',
      'in',
      oldest.map((r) => r.id),
    )
    .execute();
}

/** When the deliveries and checks of queueHooksAndChecks are due (their leases run to 2200). */
const FAIR_NOW = '2150-01-01T00:00:00.000Z';

/**
 * Issue 28, the webhook and check claims: organizations busy (a delivery in progress, the big one
 * too), one at its cap, their endpoints' heads due first; a failing organization with its failing
 * lane full and one with none in progress; a healthy organization due last. A hundred organizations
 * of a hundred monitored sites each, due at FAIR_NOW: the first at its cap of checks, and a host
 * being checked by another organization.
 */
async function queueHooksAndChecks(store: Store, seeded: Seeded): Promise<void> {
  const db = store.db;
  const created = new Date().toISOString();
  const at = (ms: number) => new Date(Date.parse(FAIR_NOW) + ms).toISOString();
  const until = '2200-01-01T00:00:00.000Z';
  const orgIds = [
    ...Array.from({ length: 6 }, (_, i) => `fair-busy-${i}`),
    'fair-failing',
    'fair-failing-idle',
    'fair-healthy',
    ...Array.from({ length: 100 }, (_, i) => `fair-checks-${i}`),
  ];
  await db
    .insertInto('organizations')
    .values(
      orgIds.map((id) => ({
        id,
        name: id,
        slug: id,
        plan: 'pro',
        credits_remaining: 0,
        credits_monthly: 0,
        created_at: created,
        updated_at: created,
      })),
    )
    .execute();
  const endpoints: Array<Record<string, unknown>> = [];
  const deliveries: Array<Record<string, unknown>> = [];
  const endpoint = (org: string, n: number, failing: boolean, due: number, pending: number) => {
    const id = `${org}-endpoint-${n}`;
    endpoints.push({
      id,
      organization_id: org,
      url: `https://${org}.example/${n}`,
      events: '["run.completed"]',
      description: null,
      active: 1,
      disabled_reason: null,
      secret_ciphertext: 'sealed',
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      failing_since: failing ? created : null,
      next_due_at: null,
      created_at: created,
      updated_at: created,
    });
    for (let i = 0; i < pending; i++) delivery(org, id, 'pending', at(due + i), null);
    return id;
  };
  const delivery = (org: string, endpointId: string, status: string, next: string | null, lease: string | null) =>
    deliveries.push({
      id: `${endpointId}-delivery-${deliveries.length}`,
      organization_id: org,
      endpoint_id: endpointId,
      event_id: `evt_fair_${deliveries.length}`,
      event_type: 'run.completed',
      status,
      attempts: 1,
      next_attempt_at: next,
      lease_owner: lease ? 'another process' : null,
      lease_expires_at: lease,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: created,
    });
  // Five busy organizations and one at its cap of 2: twenty endpoints each, due before anyone else's.
  for (let o = 0; o < 6; o++) {
    const org = `fair-busy-${o}`;
    for (let n = 0; n < 20; n++) endpoint(org, n, false, -3_600_000 + o * 1000 + n, 3);
    for (let i = 0; i < (o === 5 ? 2 : 1); i++) delivery(org, `${org}-endpoint-0`, 'delivering', null, until);
  }
  delivery(seeded.bigOrg, seeded.endpoint, 'delivering', null, until);
  for (let n = 0; n < 20; n++) endpoint('fair-failing', n, true, -1_800_000 + n, 50);
  delivery('fair-failing', 'fair-failing-endpoint-0', 'delivering', null, until);
  endpoint('fair-failing-idle', 0, true, -1_000_000, 5);
  endpoint('fair-healthy', 0, false, -60_000, 1);
  const events = deliveries.map((d) => ({
    id: d.event_id,
    type: 'run.completed',
    organization_id: d.organization_id,
    run_id: null,
    created_at: created,
    data: '{}',
    dispatched_at: created,
  }));
  for (const [table, rows] of [
    ['webhook_endpoints', endpoints],
    ['webhook_deliveries', deliveries],
    ['events', events],
  ] as const)
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto(table)
        .values(rows.slice(i, i + 500) as never)
        .execute();
  await backfillDeliveryHeads(db as never);

  const projects: Array<Record<string, unknown>> = [];
  const monitors: Array<Record<string, unknown>> = [];
  for (let o = 0; o < 100; o++)
    for (let n = 0; n < 100; n++) {
      const org = `fair-checks-${o}`;
      const domain = o === 1 && n === 0 ? 'shared-host.example' : `site-${o}-${n}.example`;
      const id = `${org}-project-${n}`;
      projects.push({
        id,
        organization_id: org,
        name: domain,
        domain,
        slug: `site-${n}`,
        status: 'active',
        created_at: created,
        updated_at: created,
        archived_at: null,
      });
      // The first organization at its cap of 2; the second's first site's host checked for the third.
      const leased = (o === 0 && n < 2) || (o === 2 && n === 0);
      monitors.push({
        project_id: id,
        organization_id: org,
        enabled: 1,
        interval_minutes: null,
        next_check_at: at(-3_600_000 + o * 100_000 + n),
        last_checked_at: null,
        lease_owner: leased ? 'another process' : null,
        lease_expires_at: leased ? until : null,
        pages: '{}',
        host: o === 2 && n === 0 ? 'shared-host.example' : domain,
        slow: n % 10 === 9 ? 1 : 0,
        created_at: created,
        updated_at: created,
      });
    }
  for (const [table, rows] of [
    ['projects', projects],
    ['monitors', monitors],
  ] as const)
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto(table)
        .values(rows.slice(i, i + 500) as never)
        .execute();
}

const CASES: PlanCase[] = [
  { name: 'runs page, newest', call: (s, d) => s.runs.page({ organizationId: d.bigOrg, limit: 50 }) },
  {
    name: 'runs page, 90% deep',
    call: (s, d) => s.runs.page({ organizationId: d.bigOrg, limit: 50, after: d.deep.runs }),
  },
  {
    name: 'runs page of a project, 90% deep',
    call: (s, d) =>
      s.runs.page({ organizationId: d.bigOrg, projectId: d.bigProject, limit: 50, after: d.deep.projectRuns }),
  },
  {
    name: 'runs page of a product, 90% deep',
    call: (s, d) => s.runs.page({ organizationId: d.bigOrg, product: PRODUCT, limit: 50, after: d.deep.productRuns }),
  },
  {
    name: 'runs page of a status, 90% deep',
    call: (s, d) =>
      s.runs.page({ organizationId: d.bigOrg, status: 'failed_auto_credit', limit: 50, after: d.deep.statusRuns }),
  },
  {
    name: 'runs page of a project and product, 90% deep',
    call: (s, d) =>
      s.runs.page({
        organizationId: d.bigOrg,
        projectId: d.bigProject,
        product: PRODUCT,
        limit: 50,
        after: d.deep.projectProductRuns,
      }),
  },
  {
    name: 'project history (dashboard)',
    call: (s, d) => s.runs.projectHistory(d.bigOrg, d.bigProject, PRODUCT, 10),
  },
  {
    name: 'latestCompleted',
    call: (s, d) => s.runs.latestCompleted(d.bigOrg, d.bigProject, 'marketing_signal'),
    residual: { organization_id: 'a project is in one organization' },
  },
  {
    name: 'previousCompleted, 90% deep',
    call: (s, d) => s.runs.previousCompleted(d.deepRun as RunRow),
    residual: { status: 'the runs that did not complete, a few among a project’s runs of a product' },
  },
  { name: 'latestKeyPages', call: (s, d) => s.runs.latestKeyPages(d.bigProject) },
  {
    name: 'run claim, 2,000 pending',
    call: (s) => s.runs.claim('plans', 60_000),
    residual: {
      next_attempt_at: 'pending runs not yet due: the ones waiting to retry',
      lease_expires_at: 'running runs, one per worker slot',
    },
  },
  {
    // Issue 28: the fair claim looks at each organization with runs waiting (42 here, the burst one
    // with 2,000 and at its cap), its runs in progress, its oldest due runs and their hosts' load.
    name: 'run claim under caps, 42 organizations waiting, the burst one at its cap',
    call: (s) => s.runs.claim('plans', 60_000, [], undefined, CAPS),
    residual: {
      next_attempt_at: 'pending runs not yet due: the ones waiting to retry',
      lease_expires_at: 'running runs, one per worker slot',
    },
  },
  {
    name: 'run claim, every organization at its cap (a look that finds nothing)',
    call: async (s) => expect(await s.runs.claim('plans', 60_000, [], undefined, NONE_OPEN)).toBe(undefined),
    residual: {
      next_attempt_at: 'pending runs not yet due: the ones waiting to retry',
      lease_expires_at: 'running runs, one per worker slot',
    },
  },
  {
    name: 'webhook claim, 100,000 pending',
    call: (s) => s.deliveries.claim('plans', new Date().toISOString(), 60_000),
    residual: { lease_expires_at: 'deliveries being sent, one per deliverer lane' },
  },
  {
    // Issue 28: the claim passes over the heads of busy organizations (twenty endpoints each), never
    // their backlogs, to the healthy organization's delivery due last.
    name: 'webhook claim under caps, busy, capped and failing organizations due first',
    call: async (s) =>
      expect((await s.deliveries.claim('plans', FAIR_NOW, 60_000))?.delivery.organization_id).toBe('fair-healthy'),
    residual: { lease_expires_at: 'deliveries being sent, one per deliverer lane' },
  },
  {
    name: 'webhook claim of a failing endpoint, every organization with healthy ones at its cap',
    call: async (s) =>
      expect(
        (await s.deliveries.claim('plans', FAIR_NOW, 60_000, { organizationLanes: 1, failingLanes: 1 }))?.delivery
          .organization_id,
      ).toBe('fair-failing-idle'),
    residual: { lease_expires_at: 'deliveries being sent, one per deliverer lane' },
  },
  {
    // Issue 28: a check claim passes over the due sites of a capped organization and a busy host.
    name: 'monitor claim under caps, 10,000 sites due, an organization at its cap and a host busy',
    call: async (s) =>
      expect((await s.monitors.claim('plans', FAIR_NOW, 60_000))?.project.id).toBe('fair-checks-1-project-1'),
    residual: { lease_expires_at: 'checks in progress, one per checker lane' },
  },
  {
    name: 'webhook deliveries page, 90% deep',
    call: (s, d) => s.deliveries.page(d.bigOrg, d.endpoint, 50, d.deep.deliveries),
    residual: { organization_id: 'an endpoint is in one organization' },
  },
  {
    name: 'monitor checks page, 90% deep',
    call: (s, d) => s.monitors.page(d.bigProject, 50, d.deep.checks, false),
  },
  {
    name: 'monitor changes page, 90% deep',
    call: (s, d) => s.monitors.page(d.bigProject, 50, d.deep.checks, true),
  },
  {
    name: 'webhook endpoints page, 90% deep',
    call: (s, d) => s.webhooks.page({ organizationId: d.bigOrg, limit: 50, after: d.deep.endpoints }),
  },
  {
    name: 'projects page, 90% deep',
    call: (s, d) =>
      s.projects.page({ organizationId: d.burstOrg, status: undefined, limit: 50, after: d.deep.projects }),
  },
];

const SQL_WORDS = new Set(['and', 'or', 'not', 'is']);

/** A WHERE clause: the columns it compares with a value, and the names it qualifies them with. */
interface WhereClause {
  columns: Set<string>;
  /** `x` of `x.host = ?`: the table, or its alias, in a statement that reads a table twice. */
  qualifiers: Set<string>;
}

/**
 * The columns each WHERE clause of `sqlText` compares with a value (`col = ?`, `<`, `<=`, `>`, `>=`,
 * `in`, the keyset's `(created_at, id) <`), quoted as Kysely writes them or bare as in hand-written
 * SQL; one per clause, as a union has a clause per branch and a subquery its own.
 */
function whereClauses(sqlText: string): WhereClause[] {
  const lower = sqlText.toLowerCase().replace(/\s+/g, ' ');
  const clauses: WhereClause[] = [];
  for (let at = lower.indexOf(' where '); at >= 0; at = lower.indexOf(' where ', at + 1)) {
    const ends = [' order by ', ' limit ', ') as ', ' union ', ' where ']
      .map((word) => lower.indexOf(word, at + 1))
      .filter((i) => i > at);
    const clause = lower.slice(at, ends.length > 0 ? Math.min(...ends) : undefined);
    const columns = new Set<string>();
    const qualifiers = new Set<string>();
    for (const match of clause.matchAll(/(?:(?:"(\w+)"|\b(\w+))\.)?(?:"(\w+)"|\b(\w+)) (?:=|<|<=|>|>=|in) /g)) {
      const column = (match[3] ?? match[4]) as string;
      if (SQL_WORDS.has(column)) continue;
      columns.add(column);
      const qualifier = match[1] ?? match[2];
      if (qualifier) qualifiers.add(qualifier);
    }
    if (clause.includes('(created_at, id) <')) columns.add('created_at');
    clauses.push({ columns, qualifiers });
  }
  return clauses;
}

/** Words that may follow a table's name in FROM or JOIN and are not its alias. */
const NOT_ALIASES = new Set(['where', 'on', 'inner', 'left', 'cross', 'join', 'order', 'limit', 'union', 'group']);

/** The tables `sqlText` names otherwise (`from runs x`): alias to table. SQLite's plan shows the alias. */
function tableAliases(sqlText: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const lower = sqlText.toLowerCase();
  for (const match of lower.matchAll(/\b(?:from|join) (?:"(\w+)"|(\w+))(?: as)? (?:"(\w+)"|(\w+))/g)) {
    const alias = (match[3] ?? match[4]) as string;
    if (!NOT_ALIASES.has(alias)) aliases.set(alias, (match[1] ?? match[2]) as string);
  }
  return aliases;
}

/** A line of SQLite's EXPLAIN QUERY PLAN, under the line `parent`. */
interface PlanLine {
  id: number;
  parent: number;
  detail: string;
}

/** SQLite's partial indexes and the column each one's WHERE names. */
type PartialIndexes = ReadonlyMap<string, string>;

/**
 * What is wrong with a SQLite plan (EXPLAIN QUERY PLAN lines) of statement `sqlText`: a big table
 * read whole, rows sorted after they were found, or a compared column that is not a constraint of the
 * index searched (so every row of the index range is read to test it), unless it is `residual`.
 */
function sqliteProblems(
  sqlText: string,
  plan: PlanLine[],
  residual: Record<string, string>,
  partial: PartialIndexes,
): string[] {
  const problems: string[] = [];
  const clauses = whereClauses(sqlText).map(({ columns, qualifiers }) => ({
    columns: [...columns].filter((c) => !(c in residual)),
    qualifiers,
  }));
  const aliases = tableAliases(sqlText);
  const tableOf = (name: string) => aliases.get(name) ?? name;
  /**
   * True when one clause's columns all are in `sought` (the index's constraints or predicate): of
   * the clauses that qualify their columns with `name`, when some do (a table read twice under two
   * aliases is judged by the clause of each), else of them all.
   */
  const served = (name: string, sought: (column: string) => boolean) => {
    const own = clauses.filter((clause) => clause.qualifiers.has(name));
    const judged = own.length > 0 ? own : clauses;
    return judged.length === 0 || judged.some(({ columns }) => columns.every(sought));
  };
  // A read of a big table at `line` or under it (as the branches of a MULTI-INDEX OR), not inside a
  // subquery, which has its own order and limit and is judged by its own lines.
  const readsBigTable = (line: PlanLine): boolean =>
    BIG_TABLES.has(tableOf(/^(?:SCAN|SEARCH) (\w+)/.exec(line.detail)?.[1] ?? '')) ||
    (!/^(?:CO-ROUTINE|MATERIALIZE)/.test(line.detail) &&
      plan.some((child) => child.parent === line.id && readsBigTable(child)));
  for (const { detail: line, parent } of plan) {
    // A sort beside a read of a big table sorts every row that read found.
    if (line.startsWith('USE TEMP B-TREE') && plan.some((other) => other.parent === parent && readsBigTable(other)))
      problems.push(`sorts every row it found: ${line}`);
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line);
    if (scan && BIG_TABLES.has(tableOf(scan[1] as string))) {
      // A partial index read whole is the few rows it holds (the claim's queue), in its order.
      const predicate = partial.get(scan[2] ?? '');
      if (predicate === undefined || !served(scan[1] as string, (column) => column === predicate))
        problems.push(`reads the whole table: ${line}`);
    }
    const search = /^SEARCH (\w+) USING (?:COVERING )?INDEX (\w+) \((.*)\)$/.exec(line);
    if (search && BIG_TABLES.has(tableOf(search[1] as string))) {
      const constraint = search[3] as string;
      // A lookup by primary key reads one row, whatever else its clause tests.
      if (constraint === 'id=?') continue;
      const predicate = partial.get(search[2] as string);
      if (!served(search[1] as string, (column) => constraint.includes(column) || column === predicate))
        problems.push(`tests a compared column row by row instead of seeking it in the index: ${line}`);
    }
  }
  return problems;
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PgNode[];
}

/** What is wrong with a PostgreSQL plan (EXPLAIN (ANALYZE, FORMAT JSON)). */
function postgresProblems(node: PgNode, problems: string[] = []): string[] {
  const table = node['Relation Name'];
  if (table && BIG_TABLES.has(table)) {
    const loops = node['Actual Loops'] ?? 1;
    const read =
      ((node['Actual Rows'] ?? 0) +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0)) *
      loops;
    const where = `${node['Node Type']} on ${table}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`;
    if (node['Node Type'] === 'Seq Scan') problems.push(`reads the whole table: ${where}`);
    else if (read > MAX_ROWS_READ)
      problems.push(`reads ${read} rows (${node['Rows Removed by Filter'] ?? 0} removed by a filter): ${where}`);
  }
  for (const child of node.Plans ?? []) postgresProblems(child, problems);
  return problems;
}

describe.each(testBackends())('query plans of the store on $name at 10^5 rows', (backend) => {
  let location: TestLocation;
  let store: Store;
  let seeded: Seeded;
  let traced: Stores;
  let capture: RootOperationNode[] | undefined;
  let partial: PartialIndexes;

  beforeAll(async () => {
    if (!backend.available) return;
    location = await backend.create();
    store = await openStore(location);
    seeded = await seedStore(store.db, store.backend, {
      runs: 100_000,
      deliveries: 100_000,
      monitorChecks: 20_000,
      reportBytes: 200,
      pendingRuns: 2000,
      endpoints: 2000,
      projects: 100,
    });
    await queueTenants(store, seeded);
    await queueHooksAndChecks(store, seeded);
    // PostgreSQL's planner needs statistics to choose (autovacuum gathers them in service); SQLite's
    // store is never analyzed, so its plans are the ones it makes without.
    if (backend.name === 'postgres')
      for (const table of BIG_TABLES) await store.db.executeQuery(CompiledQuery.raw(`analyze ${table}`));
    if (backend.name === 'sqlite') {
      const { rows } = await store.db.executeQuery<{ name: string; sql: string }>(
        CompiledQuery.raw(`select name, sql from sqlite_master where type = 'index' and sql like '% where %'`),
      );
      partial = new Map(rows.map((r) => [r.name, /\bwhere "?(\w+)"?/i.exec(r.sql)?.[1] ?? '']));
    }
    // The store functions run on a handle that notes each statement's tree as it is executed.
    const tracer: KyselyPlugin = {
      transformQuery: ({ node }) => {
        capture?.push(node);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    traced = stores({ db: store.db.withPlugin(tracer) as Kysely<Database>, backend: store.backend });
  }, 180_000);

  afterAll(async () => {
    if (!backend.available) return;
    await store.close();
    await location.cleanup();
  });

  async function explain(statement: CompiledQuery, residual: Record<string, string>): Promise<string[]> {
    const parameters = [...statement.parameters];
    if (backend.name === 'sqlite') {
      const { rows } = await store.db.executeQuery<PlanLine>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, parameters),
      );
      const lines = rows.map((r) => r.detail).join(' | ');
      return sqliteProblems(statement.sql, rows, residual, partial).map((p) => `${p}\n    plan: ${lines}`);
    }
    const { rows } = await store.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>(
      CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, parameters),
    );
    const plan = rows[0]?.['QUERY PLAN'][0]?.Plan as PgNode;
    return postgresProblems(plan);
  }

  const test = it.skipIf(!backend.available);

  for (const planCase of CASES) {
    test(`${planCase.name}: every statement reads through an index`, async () => {
      capture = [];
      await planCase.call(traced, seeded);
      const nodes = capture;
      capture = undefined;
      const statements = nodes
        .map((node, i) => store.db.getExecutor().compileQuery(node, { queryId: `plan-${i}` }))
        .filter((s) => /^\s*(\(\s*)?(select|with) /i.test(s.sql));
      expect(statements.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const statement of statements)
        for (const problem of await explain(statement, planCase.residual ?? {}))
          problems.push(`${statement.sql}\n  ${problem}`);
      expect(problems).toEqual([]);
    });
  }

  test('the runs list reads no report, and pages to the same rows at any depth', async () => {
    capture = [];
    const page = await traced.runs.page({ organizationId: seeded.bigOrg, limit: 50, after: seeded.deep.runs });
    const [statement] = (capture as RootOperationNode[]).map((node) =>
      store.db.getExecutor().compileQuery(node, { queryId: 'list' }),
    );
    capture = undefined;
    expect(statement?.sql).not.toMatch(/report|\*/);
    expect(page).toHaveLength(51);
    const first = page[0] as { created_at: string; id: string };
    const position = seeded.deep.runs;
    expect(
      first.created_at < position.createdAt || (first.created_at === position.createdAt && first.id < position.id),
    ).toBe(true);
    // The same rows as the old form of the keyset, which read every newer row.
    const expected = await store.db
      .selectFrom('runs')
      .select(['id'])
      .where('organization_id', '=', seeded.bigOrg)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', seeded.deep.runs.createdAt),
          eb.and([eb('created_at', '=', seeded.deep.runs.createdAt), eb('id', '<', seeded.deep.runs.id)]),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(51)
      .execute();
    expect(page.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });
});
