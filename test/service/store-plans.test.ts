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
import { monitorStore } from '../../src/service/store/monitors.ts';
import { projectStore } from '../../src/service/store/projects.ts';
import { runStore } from '../../src/service/store/runs.ts';
import type { Database, RunRow } from '../../src/service/store/tables.ts';
import { webhookStore } from '../../src/service/store/webhooks.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

/** Tables that grow with use: reading one whole is what this suite forbids. */
const BIG_TABLES = new Set(['runs', 'webhook_deliveries', 'monitor_checks', 'projects', 'webhook_endpoints']);
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
    name: 'webhook claim, 100,000 pending',
    call: (s) => s.deliveries.claim('plans', new Date().toISOString(), 60_000),
    residual: { lease_expires_at: 'deliveries being sent, one per deliverer lane' },
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

/**
 * The columns each WHERE clause of `sqlText` compares with a value (`col = ?`, `<`, `<=`, `>`, `>=`,
 * `in`, the keyset's `(created_at, id) <`), quoted as Kysely writes them or bare as in hand-written
 * SQL; one set per clause, as a union has a clause per branch.
 */
function whereClauses(sqlText: string): Array<Set<string>> {
  const lower = sqlText.toLowerCase();
  const clauses: Array<Set<string>> = [];
  for (let at = lower.indexOf(' where '); at >= 0; at = lower.indexOf(' where ', at + 1)) {
    const ends = [' order by ', ' limit ', ') as ', ' union ']
      .map((word) => lower.indexOf(word, at))
      .filter((i) => i > at);
    const clause = lower.slice(at, ends.length > 0 ? Math.min(...ends) : undefined);
    const columns = new Set<string>();
    for (const match of clause.matchAll(/(?:"(\w+)"|\b(\w+)) (?:=|<|<=|>|>=|in) /g)) {
      const column = (match[1] ?? match[2]) as string;
      if (!SQL_WORDS.has(column)) columns.add(column);
    }
    if (clause.includes('(created_at, id) <')) columns.add('created_at');
    clauses.push(columns);
  }
  return clauses;
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
  const clauses = whereClauses(sqlText).map((columns) => [...columns].filter((c) => !(c in residual)));
  /** True when one clause's columns all are in `sought` (the index's constraints or predicate). */
  const served = (sought: (column: string) => boolean) =>
    clauses.length === 0 || clauses.some((columns) => columns.every(sought));
  // A read of a big table at `line` or under it (as the branches of a MULTI-INDEX OR), not inside a
  // subquery, which has its own order and limit and is judged by its own lines.
  const readsBigTable = (line: PlanLine): boolean =>
    BIG_TABLES.has(/^(?:SCAN|SEARCH) (\w+)/.exec(line.detail)?.[1] ?? '') ||
    (!/^(?:CO-ROUTINE|MATERIALIZE)/.test(line.detail) &&
      plan.some((child) => child.parent === line.id && readsBigTable(child)));
  for (const { detail: line, parent } of plan) {
    // A sort beside a read of a big table sorts every row that read found.
    if (line.startsWith('USE TEMP B-TREE') && plan.some((other) => other.parent === parent && readsBigTable(other)))
      problems.push(`sorts every row it found: ${line}`);
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line);
    if (scan && BIG_TABLES.has(scan[1] as string)) {
      // A partial index read whole is the few rows it holds (the claim's queue), in its order.
      const predicate = partial.get(scan[2] ?? '');
      if (predicate === undefined || !served((column) => column === predicate))
        problems.push(`reads the whole table: ${line}`);
    }
    const search = /^SEARCH (\w+) USING (?:COVERING )?INDEX (\w+) \((.*)\)$/.exec(line);
    if (search && BIG_TABLES.has(search[1] as string)) {
      const constraint = search[3] as string;
      const predicate = partial.get(search[2] as string);
      if (!served((column) => constraint.includes(column) || column === predicate))
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
    // PostgreSQL's planner needs statistics to choose (autovacuum gathers them in service); SQLite's
    // store is never analyzed, so its plans are the ones it makes without.
    if (backend.name === 'postgres')
      for (const table of BIG_TABLES) await store.db.executeQuery(CompiledQuery.raw(`analyze ${table}`));
    if (backend.name === 'sqlite') {
      const { rows } = await store.db.executeQuery<{ name: string; sql: string }>(
        CompiledQuery.raw(`select name, sql from sqlite_master where type = 'index' and sql like '% where %'`),
      );
      partial = new Map(rows.map((r) => [r.name, /\bwhere "(\w+)"/i.exec(r.sql)?.[1] ?? '']));
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
        .filter((s) => /^\s*(\(\s*)?select /i.test(s.sql));
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
