// Issue 28: indexes that bound the store's lists, lookups and claims whatever the history or backlog.
// Each list's filters are an index's leading columns and its order the rest, so a page, at any depth,
// reads the rows it answers and no others (test/service/store-plans.test.ts checks the plans).
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

interface Index {
  name: string;
  table: string;
  columns: string[];
  /** A partial index: only the rows where this column has this value, or is not null. */
  only?: [column: string, value: string | null];
}

const INDEXES: readonly Index[] = [
  // GET /runs?projectId= (and every list of a project-pinned key), ?product=, ?status=.
  { name: 'runs_org_project_listing', table: 'runs', columns: ['organization_id', 'project_id', 'created_at', 'id'] },
  { name: 'runs_org_product_listing', table: 'runs', columns: ['organization_id', 'product', 'created_at', 'id'] },
  { name: 'runs_org_status_listing', table: 'runs', columns: ['organization_id', 'status', 'created_at', 'id'] },
  // A project's runs of one product: the dashboard's history, the comparison's previous run, ?projectId=&product=.
  {
    name: 'runs_project_product_listing',
    table: 'runs',
    columns: ['organization_id', 'project_id', 'product', 'created_at', 'id'],
  },
  // The newest completed run of a project (monitoring's key pages) and of a project and product.
  { name: 'runs_project_completed', table: 'runs', columns: ['project_id', 'status', 'completed_at'] },
  {
    name: 'runs_project_product_completed',
    table: 'runs',
    columns: ['project_id', 'product', 'status', 'completed_at'],
  },
  // The run claim: the oldest pending run that is due, or running one whose lease lapsed, in creation
  // order. Partial, so each holds the queue or the runs in progress, never the history; and an index
  // of (status, created_at) over every run made SQLite's planner take it for the lists above.
  { name: 'runs_pending', table: 'runs', columns: ['created_at'], only: ['status', 'pending'] },
  { name: 'runs_running', table: 'runs', columns: ['created_at'], only: ['status', 'running'] },
  // A project's checks that changed something (?changesOnly=true), a few among many.
  {
    name: 'monitor_checks_project_changes',
    table: 'monitor_checks',
    columns: ['project_id', 'created_at', 'id'],
    only: ['kind', null],
  },
];

export const storeIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const index of INDEXES) {
      let create = db.schema.createIndex(index.name).on(index.table).columns(index.columns);
      if (index.only) {
        const [column, value] = index.only;
        create = value === null ? create.where(column, 'is not', null) : create.where(column, '=', value);
      }
      await create.execute();
    }
    // The claim's old index: without statistics SQLite preferred it to runs_pending, and read and
    // sorted every due run by creation time on each claim. Nothing else reads it.
    await db.schema.dropIndex('runs_queue').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.createIndex('runs_queue').on('runs').columns(['status', 'next_attempt_at']).execute();
    for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
  },
};
