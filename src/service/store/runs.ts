// Runs: the queue the worker claims with leases, and each state change as one transaction together
// with the event row (outbox) that announces it.
import { sql } from 'kysely';
import { isUniqueViolation, newestFirstPage, nowIso, olderThan, type Queryable, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { EventsTable, FindingsTable, RunRow } from './tables.ts';

export interface NewRun {
  organizationId: string;
  projectId: string;
  product: string;
  url: string;
  local: boolean;
  scanMode: string | null;
  credits: number;
  keyPrefix: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string;
}

export type CreateRunOutcome =
  | { outcome: 'created' | 'replayed'; run: RunRow }
  | {
      outcome: 'idempotency_mismatch' | 'project_missing' | 'project_archived' | 'in_flight' | 'insufficient_credits';
      run?: RunRow;
    };

export interface RunPageQuery {
  organizationId: string;
  projectId?: string;
  status?: string;
  product?: string;
  limit: number;
  after?: { createdAt: string; id: string };
}

export interface Completion {
  score: number;
  scoreStatus: string | null;
  severityCounts: string;
  findingsTotal: number;
  coverage: string | null;
  report: string;
  /** JSON array of the pages monitoring watches besides the home page, or null. */
  keyPages: string | null;
  findings: Array<Omit<FindingsTable, 'run_id'>>;
  event: Omit<EventsTable, 'run_id' | 'organization_id' | 'dispatched_at'>;
}

const IN_FLIGHT = ['pending', 'running'];

/** What a list of runs shows (spec 4.11 GET /runs): no report, findings or queue bookkeeping. */
const LIST_COLUMNS = [
  'id',
  'project_id',
  'product',
  'status',
  'url',
  'scan_mode',
  'progress_pct',
  'score',
  'score_status',
  'findings_total',
  'created_at',
  'completed_at',
] as const;

export type RunListRow = Pick<RunRow, (typeof LIST_COLUMNS)[number]>;

/** The run.failed event of a run that just failed for good. */
export type FailureEvent = (run: RunRow) => Omit<EventsTable, 'run_id' | 'organization_id' | 'dispatched_at'>;

/** Ends a run `failed_auto_credit`: its credits back to the organization and its run.failed event, in `trx`. */
async function endFailed(trx: Queryable, run: RunRow, error: string, event: FailureEvent): Promise<void> {
  const now = nowIso();
  const failed = await trx
    .updateTable('runs')
    .set({
      status: 'failed_auto_credit',
      current_step: 'failed',
      completed_at: now,
      error,
      last_error: error,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', run.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('organizations')
    .set({ credits_remaining: sql`credits_remaining + ${run.credits_spent}`, updated_at: now })
    .where('id', '=', run.organization_id)
    .execute();
  await trx
    .insertInto('events')
    .values({ ...event(failed), run_id: run.id, organization_id: run.organization_id })
    .execute();
}

export function runStore({ db, backend }: StoreContext) {
  const byId = (q: Queryable, id: string) => q.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    get(organizationId: string, id: string): Promise<RunRow | undefined> {
      return db
        .selectFrom('runs')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    getById: (id: string) => byId(db, id),

    /**
     * spec 4.11 POST /runs: the idempotent replay, the checks, the credits and the insert, in one
     * transaction; the organization row is locked so two starts cannot both spend the last credit.
     */
    async create(input: NewRun): Promise<CreateRunOutcome> {
      try {
        return await db.transaction().execute(async (trx): Promise<CreateRunOutcome> => {
          let orgQuery = trx
            .selectFrom('organizations')
            .select(['credits_remaining'])
            .where('id', '=', input.organizationId);
          if (backend === 'postgres') orgQuery = orgQuery.forUpdate();
          const org = await orgQuery.executeTakeFirstOrThrow();
          if (input.idempotencyKey) {
            const previous = await trx
              .selectFrom('runs')
              .selectAll()
              .where('organization_id', '=', input.organizationId)
              .where('idempotency_key', '=', input.idempotencyKey)
              .executeTakeFirst();
            if (previous) {
              return previous.request_fingerprint === input.requestFingerprint
                ? { outcome: 'replayed', run: previous }
                : { outcome: 'idempotency_mismatch' };
            }
          }
          const project = await trx
            .selectFrom('projects')
            .select(['status'])
            .where('organization_id', '=', input.organizationId)
            .where('id', '=', input.projectId)
            .executeTakeFirst();
          if (!project) return { outcome: 'project_missing' };
          if (project.status === 'archived') return { outcome: 'project_archived' };
          const inFlight = await trx
            .selectFrom('runs')
            .selectAll()
            .where('project_id', '=', input.projectId)
            .where('status', 'in', IN_FLIGHT)
            .executeTakeFirst();
          if (inFlight) return { outcome: 'in_flight', run: inFlight };
          if (org.credits_remaining < input.credits) return { outcome: 'insufficient_credits' };
          const now = nowIso();
          const run: RunRow = {
            id: uuidv7(),
            organization_id: input.organizationId,
            project_id: input.projectId,
            product: input.product,
            status: 'pending',
            progress_pct: 0,
            current_step: 'queued',
            url: input.url,
            local: input.local ? 1 : 0,
            scan_mode: input.scanMode,
            error: null,
            credits_spent: input.credits,
            key_prefix: input.keyPrefix,
            idempotency_key: input.idempotencyKey,
            request_fingerprint: input.requestFingerprint,
            created_at: now,
            started_at: null,
            completed_at: null,
            score: null,
            score_status: null,
            severity_counts: null,
            findings_total: null,
            coverage: null,
            report: null,
            attempts: 0,
            next_attempt_at: now,
            lease_owner: null,
            lease_expires_at: null,
            last_error: null,
            key_pages: null,
          };
          await trx.insertInto('runs').values(run).execute();
          await trx
            .updateTable('organizations')
            .set({ credits_remaining: sql`credits_remaining - ${input.credits}`, updated_at: now })
            .where('id', '=', input.organizationId)
            .execute();
          return { outcome: 'created', run };
        });
      } catch (error) {
        // A concurrent start of the same project or the same idempotency key lost the race to the
        // partial unique indexes: answer as the winner's request would have.
        if (!isUniqueViolation(error)) throw error;
        const winner = input.idempotencyKey
          ? await db
              .selectFrom('runs')
              .selectAll()
              .where('organization_id', '=', input.organizationId)
              .where('idempotency_key', '=', input.idempotencyKey)
              .executeTakeFirst()
          : undefined;
        if (winner)
          return winner.request_fingerprint === input.requestFingerprint
            ? { outcome: 'replayed', run: winner }
            : { outcome: 'idempotency_mismatch' };
        return { outcome: 'in_flight' };
      }
    },

    /**
     * Newest first, the columns a list shows (a report can weigh megabytes); one row more than
     * `limit` when there is a next page. Each filter has an index that ends in the keyset.
     */
    page(query: RunPageQuery): Promise<RunListRow[]> {
      let q = db.selectFrom('runs').select(LIST_COLUMNS).where('organization_id', '=', query.organizationId);
      if (query.projectId) q = q.where('project_id', '=', query.projectId);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.product) q = q.where('product', '=', query.product);
      return newestFirstPage(q, query.after, query.limit).execute();
    },

    /**
     * A project's runs of one product, newest first, for its dashboard page: what a list shows, not
     * the reports; one row more than `limit` when older ones exist.
     */
    projectHistory(organizationId: string, projectId: string, product: string, limit: number) {
      const q = db
        .selectFrom('runs')
        .select([
          'id',
          'product',
          'status',
          'created_at',
          'completed_at',
          'score',
          'score_status',
          'severity_counts',
          'findings_total',
          'coverage',
        ])
        .where('organization_id', '=', organizationId)
        .where('project_id', '=', projectId)
        .where('product', '=', product);
      return newestFirstPage(q, undefined, limit).execute();
    },

    /**
     * The oldest due run (pending and past its next attempt time, or running with an expired lease:
     * its worker died), leased to `owner`; never one of `held` (runs the caller is still working on).
     * A run whose lease lapsed on its last attempt is not claimed again: an attempt that never ended
     * (it took its process down, or froze it) counts, so the run ends `failed_auto_credit` with its
     * credits returned and `gaveUp` is told, and the next due run is looked at.
     */
    async claim(
      owner: string,
      leaseMs: number,
      held: readonly string[] = [],
      exhausted?: {
        maxAttempts: number;
        error: (run: RunRow) => string;
        event: FailureEvent;
        gaveUp?: (id: string) => void;
      },
    ): Promise<RunRow | undefined> {
      // The oldest due run of one status: walking a partial index of that status (runs_pending,
      // runs_running) from its oldest entry, it stops at the first due run. One read of `pending and
      // due or running and lapsed` read and sorted every due run of the backlog.
      const oldest = (q: Queryable, status: 'pending' | 'running', now: string) =>
        q
          .selectFrom('runs')
          .select(['id', 'status', 'attempts', 'created_at'])
          .where('status', '=', status)
          .where((eb) => (status === 'pending' ? eb('next_attempt_at', '<=', now) : eb('lease_expires_at', '<', now)))
          .$if(held.length > 0, (query) => query.where('id', 'not in', held))
          .orderBy('created_at', 'asc')
          .limit(1);
      /** The oldest of both, in one plain read. */
      const oldestDue = (q: Queryable, now: string) =>
        q
          .selectFrom(oldest(q, 'pending', now).as('p'))
          .selectAll()
          .unionAll(q.selectFrom(oldest(q, 'running', now).as('r')).selectAll())
          .orderBy('created_at', 'asc')
          .limit(1)
          .executeTakeFirst();
      for (;;) {
        const now = nowIso();
        // Most looks find nothing: a plain read then, not a write transaction (on SQLite, the
        // database's write lock) on every look of every worker.
        if (!(await oldestDue(db, now))) return undefined;
        const outcome = await db.transaction().execute(async (trx) => {
          let due: Awaited<ReturnType<typeof oldestDue>>;
          if (backend === 'postgres') {
            // Many workers on one PostgreSQL each take a different run without waiting on each other.
            const pending = await oldest(trx, 'pending', now).forUpdate().skipLocked().executeTakeFirst();
            const lapsed = await oldest(trx, 'running', now).forUpdate().skipLocked().executeTakeFirst();
            due = lapsed && (!pending || lapsed.created_at < pending.created_at) ? lapsed : pending;
          } else due = await oldestDue(trx, now);
          if (!due) return undefined;
          if (exhausted && due.status === 'running' && due.attempts >= exhausted.maxAttempts) {
            const run = (await byId(trx, due.id)) as RunRow;
            await endFailed(trx, run, exhausted.error(run), exhausted.event);
            return { gaveUp: due.id };
          }
          return trx
            .updateTable('runs')
            .set({
              status: 'running',
              lease_owner: owner,
              lease_expires_at: new Date(Date.now() + leaseMs).toISOString(),
              attempts: sql`attempts + 1`,
              started_at: sql`coalesce(started_at, ${now})`,
            })
            .where('id', '=', due.id)
            .returningAll()
            .executeTakeFirst();
        });
        if (outcome && 'gaveUp' in outcome) {
          exhausted?.gaveUp?.(outcome.gaveUp);
          continue;
        }
        return outcome;
      }
    },

    /** Extends the lease of a run in hand; false when it was lost (another worker owns the run now). */
    async renewLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('runs')
        .set({ lease_expires_at: new Date(Date.now() + leaseMs).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Records progress and extends the lease; false when the lease was lost (another worker owns the run). */
    async progress(id: string, owner: string, progressPct: number, step: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('runs')
        .set({
          progress_pct: progressPct,
          current_step: step,
          lease_expires_at: new Date(Date.now() + leaseMs).toISOString(),
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Findings, report, score, terminal status and the run.completed event: all or nothing. */
    async complete(id: string, owner: string, completion: Completion): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const updated = await trx
          .updateTable('runs')
          .set({
            status: 'completed',
            progress_pct: 100,
            current_step: 'completed',
            completed_at: now,
            score: completion.score,
            score_status: completion.scoreStatus,
            severity_counts: completion.severityCounts,
            findings_total: completion.findingsTotal,
            coverage: completion.coverage,
            report: completion.report,
            key_pages: completion.keyPages,
            lease_owner: null,
            lease_expires_at: null,
            error: null,
          })
          .where('id', '=', id)
          .where('status', '=', 'running')
          .where('lease_owner', '=', owner)
          .returning(['organization_id'])
          .executeTakeFirst();
        if (!updated) return false;
        if (completion.findings.length > 0) {
          for (let i = 0; i < completion.findings.length; i += 100) {
            await trx
              .insertInto('findings')
              .values(completion.findings.slice(i, i + 100).map((f) => ({ ...f, run_id: id })))
              .execute();
          }
        }
        await trx
          .insertInto('events')
          .values({ ...completion.event, run_id: id, organization_id: updated.organization_id })
          .execute();
        return true;
      });
    },

    /**
     * Ends an attempt that failed: back to pending after `retryInMs`, or, when `final`, terminal
     * `failed_auto_credit` with the credits returned and a run.failed event, in one transaction.
     */
    async failAttempt(
      id: string,
      owner: string,
      error: string,
      retry: { final: false; retryInMs: number } | { final: true; event: FailureEvent },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const run = await byId(trx, id);
        if (run?.status !== 'running' || run.lease_owner !== owner) return false;
        if (!retry.final) {
          await trx
            .updateTable('runs')
            .set({
              status: 'pending',
              current_step: 'retrying',
              lease_owner: null,
              lease_expires_at: null,
              last_error: error,
              next_attempt_at: new Date(Date.now() + retry.retryInMs).toISOString(),
            })
            .where('id', '=', id)
            .execute();
          return true;
        }
        await endFailed(trx, run, error, retry.event);
        return true;
      });
    },

    /** Gives a run back to the queue without counting the attempt (a clean shutdown). */
    async release(id: string, owner: string): Promise<void> {
      await db
        .updateTable('runs')
        .set({
          status: 'pending',
          current_step: 'queued',
          lease_owner: null,
          lease_expires_at: null,
          attempts: sql`attempts - 1`,
          next_attempt_at: nowIso(),
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Findings of a run in their order, one more than `limit` when there is a next page. */
    findingsPage(runId: string, query: { limit: number; severity?: string; afterPosition?: number }) {
      let q = db.selectFrom('findings').selectAll().where('run_id', '=', runId);
      if (query.severity) q = q.where('severity', '=', query.severity);
      if (query.afterPosition !== undefined) q = q.where('position', '>', query.afterPosition);
      return q
        .orderBy('position', 'asc')
        .limit(query.limit + 1)
        .execute();
    },

    latestCompleted(organizationId: string, projectId: string, product: string): Promise<RunRow | undefined> {
      return db
        .selectFrom('runs')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('project_id', '=', projectId)
        .where('product', '=', product)
        .where('status', '=', 'completed')
        .orderBy('completed_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /**
     * The completed run of the project and product started last before `run` (the baseline a
     * comparison takes by default): newest first by the keyset the lists use.
     */
    async previousCompleted(run: RunRow): Promise<RunRow | undefined> {
      if (!run.project_id) return undefined;
      // Not newestFirstPage: its look-ahead row would read a second report.
      return db
        .selectFrom('runs')
        .selectAll()
        .where('organization_id', '=', run.organization_id)
        .where('project_id', '=', run.project_id)
        .where('product', '=', run.product)
        .where('status', '=', 'completed')
        .where(olderThan({ createdAt: run.created_at, id: run.id }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Every finding of a run, in order (one run has one finding per check at most). */
    allFindings(runId: string) {
      return db.selectFrom('findings').selectAll().where('run_id', '=', runId).orderBy('position', 'asc').execute();
    },

    /** The key pages of the project's newest completed run of any product that found some. */
    async latestKeyPages(projectId: string): Promise<string[]> {
      const row = await db
        .selectFrom('runs')
        .select('key_pages')
        .where('project_id', '=', projectId)
        .where('status', '=', 'completed')
        .where('key_pages', 'is not', null)
        .orderBy('completed_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.key_pages ? (JSON.parse(row.key_pages) as string[]) : [];
    },

    events(organizationId: string, limit = 100) {
      return db
        .selectFrom('events')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
    },
  };
}
