// Retention (issue 28): what has outlived the operator's settings, deleted by age in bounded batches,
// each batch one short transaction. A walk reads a table's rows that may go oldest first, `batchSize`
// at a time, through the partial (created_at, id) indexes of migration 0014, and resumes after the
// last row it read, so rows it keeps (a project's latest run, an event a delivery still needs) are
// read once per walk and a batch costs the same however deep the history. The housekeeper
// (src/service/housekeeper.ts) walks; between batches it renews its lease and lets other work in.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Queryable, StoreContext } from './context.ts';

/** A position in a walk: rows strictly after this (created_at, id). */
export interface Keyset {
  createdAt: string;
  id: string;
}

export interface PruneOptions {
  /** Rows a batch reads from the table walked, and so deletes at most. */
  batchSize: number;
  /** Where to start (exclusive); from the oldest row when absent. */
  from?: Keyset;
  /** Called between batches (a pause, the lease renewed); false ends the walk there. */
  between?: () => Promise<boolean>;
}

export interface Pruned {
  /** Rows deleted from the table walked. */
  deleted: number;
  /** Rows deleted with them: a run's findings and shares; a delivery's attempts and, once it has no delivery left, its event. */
  related: number;
  /** Batches made, each one transaction. */
  batches: number;
  /** The last row read (the events walk goes on from there at the next pass). */
  last?: Keyset;
}

interface Batch {
  /** Rows read: fewer than the batch size means the walk reached the cut-off. */
  read: number;
  deleted: number;
  related: number;
  last?: Keyset;
}

// The predicates of migration 0014's partial indexes, written as there: a planner uses a partial
// index only for a query whose WHERE states its predicate.
const RUN_ENDED = sql<SqlBool>`${sql.ref('r.status')} not in ('pending', 'running')`;
const EVENT_DISPATCHED = sql<SqlBool>`${sql.ref('e.dispatched_at')} is not null`;
const DELIVERY_ENDED = sql<SqlBool>`${sql.ref('d.status')} in ('delivered', 'failed')`;

const after = (table: 'r' | 'e' | 'd', from: Keyset): Expression<SqlBool> =>
  sql<SqlBool>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) > (${from.createdAt}, ${from.id})`;

const count = (result: { numDeletedRows: bigint } | undefined) => Number(result?.numDeletedRows ?? 0);

/**
 * Which of `eventIds` a delivery still refers to: one lookup of webhook_deliveries_event per id. A
 * separate statement, not an EXISTS in the walk's, which PostgreSQL may answer by hashing the whole
 * table of deliveries.
 */
async function stillDelivered(trx: Queryable, eventIds: string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select('event_id')
    .where('event_id', 'in', eventIds)
    .execute();
  return new Set(rows.map((row) => row.event_id));
}

/** A batch that read `rows` (oldest first) and has deleted nothing yet: the walk resumes after the last. */
function batchOf(rows: ReadonlyArray<{ id: string; created_at: string }>): Batch {
  const last = rows.at(-1);
  return {
    read: rows.length,
    deleted: 0,
    related: 0,
    ...(last ? { last: { createdAt: last.created_at, id: last.id } } : {}),
  };
}

/** Batch after batch until one reads fewer rows than the batch size, or `between` says stop. */
async function walk(batch: (from: Keyset | undefined) => Promise<Batch>, options: PruneOptions): Promise<Pruned> {
  const total: Pruned = { deleted: 0, related: 0, batches: 0, ...(options.from ? { last: options.from } : {}) };
  for (;;) {
    const done = await batch(total.last);
    total.batches++;
    total.deleted += done.deleted;
    total.related += done.related;
    if (done.last) total.last = done.last;
    if (done.read < options.batchSize) return total;
    if (options.between && !(await options.between())) return total;
  }
}

export function retentionStore({ db }: StoreContext) {
  /** Deletes `table`'s rows made before `before`, a batch per statement (every row in the range goes). */
  async function pruneByAge(table: 'audit_log' | 'monitor_checks', before: string, options: PruneOptions) {
    return walk(async () => {
      const oldest = db
        .selectFrom(table)
        .select('id')
        .where('created_at', '<', before)
        .orderBy('created_at')
        .limit(options.batchSize);
      const deleted = count(await db.deleteFrom(table).where('id', 'in', oldest).executeTakeFirst());
      return { read: deleted, deleted, related: 0 };
    }, options);
  }

  return {
    /**
     * Runs made before `before` that ended, whole: each with its findings, report and shares, in one
     * transaction. Never a run pending or running, and never the latest completed run of its project
     * and product, whatever its age: monitoring's key pages, a comparison's default baseline and
     * discovery's marketing evidence read it.
     */
    pruneRuns(before: string, options: PruneOptions): Promise<Pruned> {
      return walk(
        (from) =>
          db.transaction().execute(async (trx): Promise<Batch> => {
            const rows = await trx
              .selectFrom('runs as r')
              .select(['r.id', 'r.created_at', 'r.status'])
              .select((eb) =>
                eb
                  .exists(
                    eb
                      .selectFrom('runs as n')
                      .select('n.id')
                      .whereRef('n.project_id', '=', 'r.project_id')
                      .whereRef('n.product', '=', 'r.product')
                      .where('n.status', '=', 'completed')
                      .where(sql<SqlBool>`(n.completed_at, n.id) > (r.completed_at, r.id)`),
                  )
                  .as('superseded'),
              )
              .where(RUN_ENDED)
              .where('r.created_at', '<', before)
              .$if(from !== undefined, (q) => q.where(after('r', from as Keyset)))
              .orderBy('r.created_at')
              .orderBy('r.id')
              .limit(options.batchSize)
              .execute();
            const ids = rows
              .filter((row) => row.status !== 'completed' || Boolean(row.superseded))
              .map((row) => row.id);
            const batch = batchOf(rows);
            if (ids.length === 0) return batch;
            // Findings first: they reference the run (a foreign key on both backends).
            batch.related += count(await trx.deleteFrom('findings').where('run_id', 'in', ids).executeTakeFirst());
            batch.related += count(await trx.deleteFrom('run_shares').where('run_id', 'in', ids).executeTakeFirst());
            batch.deleted = count(
              await trx
                .deleteFrom('runs')
                .where('id', 'in', ids)
                .where('status', 'not in', ['pending', 'running'])
                .executeTakeFirst(),
            );
            return batch;
          }),
        options,
      );
    },

    /**
     * Webhook deliveries made before `before` that are over (delivered, or failed for good), with their
     * attempts; and their events, once no delivery of them is left, when made before `eventsBefore`
     * (undefined: events are kept for ever). A delivery being sent or waiting to retry is kept.
     */
    pruneDeliveries(before: string, eventsBefore: string | undefined, options: PruneOptions): Promise<Pruned> {
      return walk(
        (from) =>
          db.transaction().execute(async (trx): Promise<Batch> => {
            const rows = await trx
              .selectFrom('webhook_deliveries as d')
              .select(['d.id', 'd.created_at'])
              .where(DELIVERY_ENDED)
              .where('d.created_at', '<', before)
              .$if(from !== undefined, (q) => q.where(after('d', from as Keyset)))
              .orderBy('d.created_at')
              .orderBy('d.id')
              .limit(options.batchSize)
              .execute();
            const batch = batchOf(rows);
            if (rows.length === 0) return batch;
            // The status again: a delivery sent again (redeliver) since it was read is pending now, and kept.
            const gone = await trx
              .deleteFrom('webhook_deliveries')
              .where(
                'id',
                'in',
                rows.map((row) => row.id),
              )
              .where('status', 'in', ['delivered', 'failed'])
              .returning(['id', 'event_id'])
              .execute();
            batch.deleted = gone.length;
            if (gone.length === 0) return batch;
            batch.related += count(
              await trx
                .deleteFrom('webhook_attempts')
                .where(
                  'delivery_id',
                  'in',
                  gone.map((row) => row.id),
                )
                .executeTakeFirst(),
            );
            if (eventsBefore === undefined) return batch;
            // Their events, once no delivery of them is left (dispatched events get no new ones).
            const events = [...new Set(gone.map((row) => row.event_id))];
            const left = await stillDelivered(trx, events);
            const done = events.filter((id) => !left.has(id));
            if (done.length > 0)
              batch.related += count(
                await trx
                  .deleteFrom('events')
                  .where('id', 'in', done)
                  .where('created_at', '<', eventsBefore)
                  .where('dispatched_at', 'is not', null)
                  .executeTakeFirst(),
              );
            return batch;
          }),
        options,
      );
    },

    /**
     * Events made before `before` that were dispatched and that no delivery refers to (a delivery's
     * log and redelivery need its event: an event goes with its last delivery, pruneDeliveries). An
     * event not yet dispatched is the outbox's queue and is kept.
     */
    pruneEvents(before: string, options: PruneOptions): Promise<Pruned> {
      return walk(
        (from) =>
          db.transaction().execute(async (trx): Promise<Batch> => {
            const rows = await trx
              .selectFrom('events as e')
              .select(['e.id', 'e.created_at'])
              .where(EVENT_DISPATCHED)
              .where('e.created_at', '<', before)
              .$if(from !== undefined, (q) => q.where(after('e', from as Keyset)))
              .orderBy('e.created_at')
              .orderBy('e.id')
              .limit(options.batchSize)
              .execute();
            const delivered = await stillDelivered(
              trx,
              rows.map((row) => row.id),
            );
            const ids = rows.map((row) => row.id).filter((id) => !delivered.has(id));
            const batch = batchOf(rows);
            if (ids.length === 0) return batch;
            // A dispatched event gets no new deliveries: the ones read are all it will ever have.
            batch.deleted = count(await trx.deleteFrom('events').where('id', 'in', ids).executeTakeFirst());
            return batch;
          }),
        options,
      );
    },

    /** Audit log rows written before `before`. */
    pruneAuditLog: (before: string, options: PruneOptions) => pruneByAge('audit_log', before, options),

    /** Monitoring checks made before `before`. */
    pruneMonitorChecks: (before: string, options: PruneOptions) => pruneByAge('monitor_checks', before, options),
  };
}

export type RetentionStore = ReturnType<typeof retentionStore>;
