// Runs: the queue the worker claims with leases, and each state change as one transaction together
// with the event row (outbox) that announces it.
import { type RawBuilder, sql } from 'kysely';
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

/**
 * The host a run is polite to: its target's hostname, lowercase, without a leading `www.` (almost
 * always the same site); null for a target on this machine, whose only visitor is its own operator.
 * Other subdomains are hosts of their own: grouping them by site would take a public suffix list.
 */
export function runHost(url: string, local: boolean): string | null {
  if (local) return null;
  const host = new URL(url).hostname.toLowerCase();
  return host.startsWith('www.') && host.indexOf('.', 4) > 0 ? host.slice(4) : host;
}

/**
 * What a claim keeps to (issue 28), counting runs in progress: `running` under a live lease (a
 * lapsed one's worker is gone). A run over a cap waits; the claim takes the next one that is not.
 */
export interface ClaimLimits {
  /** Runs in progress of one organization whose plan sets none (`serve --org-max-running-runs`). */
  orgMaxRunning: number;
  /** The plans' own caps, by plan name (plans.ts maxRunningRuns). */
  planMaxRunning?: Readonly<Record<string, number>>;
  /** Runs in progress on one host, across every process (`--host-max-running-runs`). */
  hostMaxRunning: number;
  /** Least time between the starts of two attempts on one host (`--host-min-gap-seconds`). */
  hostMinGapMs: number;
}

/** No caps: the order among organizations stays fair. */
const UNLIMITED: ClaimLimits = { orgMaxRunning: 2 ** 31 - 1, hostMaxRunning: 2 ** 31 - 1, hostMinGapMs: 0 };

/**
 * Organizations under their cap a look weighs runs of, the fairest first (the fewest runs in progress,
 * then the oldest run waiting): the cost of a look stays a seek or three per organization waiting.
 */
const ORGANIZATIONS_PER_LOOK = 16;

/**
 * Due runs looked at per organization: its oldest, and a few behind them in case the first ones'
 * hosts are busy, so one busy host does not hold up an organization's other sites.
 */
const DUE_PER_ORGANIZATION = 4;

/** Of the eligible runs a look finds, how many a claim tries before it gives up until the next look. */
const CLAIM_TRIES = 8;

/** Looks a claim makes when other claimers took or held every run it tried (then it waits to be woken). */
const CLAIM_LOOKS = 3;

/** Classes of the PostgreSQL advisory locks (first key) that serialize claims per organization and per host. */
const ORGANIZATION_LOCK = 28_001;
const HOST_LOCK = 28_002;

/** A due run and what its caps depend on, as of one read. */
interface ClaimCandidate {
  id: string;
  status: 'pending' | 'running';
  attempts: number;
  created_at: string;
  organization_id: string;
  plan: string;
  host: string | null;
  /** PostgreSQL's count(*) is a bigint, which pg gives as a string. */
  org_running: number | string;
  host_running: number | string | null;
  host_claimed_at: string | null;
}

/** Runs in progress of the organization `organizationId` names (a column or a value). */
const organizationLoad = (organizationId: RawBuilder<unknown>, now: string) =>
  sql`(select count(*) from runs org_run where org_run.status = 'running' and org_run.organization_id = ${organizationId}
    and org_run.lease_expires_at >= ${now})`;
const hostLoad = (host: RawBuilder<unknown>, now: string) =>
  sql`(select count(*) from runs host_run where host_run.status = 'running' and host_run.host = ${host}
    and host_run.lease_expires_at >= ${now})`;
/** The latest start of an attempt on the host. */
const hostLastClaim = (host: RawBuilder<unknown>) =>
  sql`(select max(host_claim.claimed_at) from runs host_claim where host_claim.host = ${host})`;

/** The cap of an organization on `plan` (a column), from the limits, as SQL. */
function capOf(plan: RawBuilder<unknown>, limits: ClaimLimits): RawBuilder<unknown> {
  const whole = (n: number) => sql.lit(Math.min(Math.max(0, Math.floor(n)), 2 ** 31 - 1));
  const plans = Object.entries(limits.planMaxRunning ?? {});
  if (plans.length === 0) return whole(limits.orgMaxRunning);
  return sql`case ${plan} ${sql.join(
    plans.map(([name, cap]) => sql`when ${name} then ${whole(cap)}`),
    sql` `,
  )} else ${whole(limits.orgMaxRunning)} end`;
}

/**
 * Whether `run` may start now: a lapsed run on its last attempt always (it only ends, failed);
 * any other under its organization's cap and, unless it is on this machine, its host's cap and gap.
 */
function mayStart(run: ClaimCandidate, limits: ClaimLimits, doomed: boolean, gapStart: string): boolean {
  if (doomed) return true;
  const plans = limits.planMaxRunning ?? {};
  const cap = Object.hasOwn(plans, run.plan) ? (plans[run.plan] as number) : limits.orgMaxRunning;
  if (Number(run.org_running) >= cap) return false;
  if (run.host === null) return true;
  return (
    Number(run.host_running) < limits.hostMaxRunning &&
    (run.host_claimed_at === null || run.host_claimed_at <= gapStart)
  );
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
            host: runHost(input.url, input.local),
            claimed_at: null,
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
     * A due run (pending and past its next attempt time, or running with an expired lease: its worker
     * died), leased to `owner`; never one of `held` (runs the caller is still working on).
     *
     * Fair (issue 28): of the runs `limits` let start now (their organization under its cap of runs in
     * progress; their host, unless it is this machine, under its cap and past its gap since the last
     * start), the one of the organization with the fewest runs in progress, then the oldest. A run
     * over a cap waits, and the claim takes the next; so a burst of one organization delays another's
     * run by one run's length at most, and never all of the workers crawl one organization or host.
     * The caps hold across processes: on PostgreSQL a claim locks its run's organization and host
     * (transaction-level advisory locks, tried, never waited for: one another claimer holds is skipped)
     * and counts again under them; SQLite's write transactions run one at a time.
     *
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
      limits: ClaimLimits = UNLIMITED,
    ): Promise<RunRow | undefined> {
      const notHeld = (column: string) =>
        held.length > 0 ? sql`and ${sql.ref(column)} not in (${sql.join(held)})` : sql``;
      const doomed = (run: ClaimCandidate) =>
        exhausted !== undefined && run.status === 'running' && run.attempts >= exhausted.maxAttempts;
      /**
       * The runs that may start now, the fairest first, in one plain read whatever the backlog: each
       * organization with runs waiting (a skip scan of runs_pending_org, one seek per organization
       * however many runs it has queued), its runs in progress and its oldest due run; of the fairest
       * under their cap, the oldest due runs with their hosts' load; and the lapsed runs (one per
       * worker slot at most).
       */
      const look = async (now: string, gapStart: string): Promise<ClaimCandidate[]> => {
        const oldestDue = (columns: RawBuilder<unknown>, organizationId: string, limit: number) =>
          sql`select ${columns} from runs due_run
            where due_run.status = 'pending' and due_run.organization_id = ${sql.ref(organizationId)}
            and due_run.next_attempt_at <= ${now} ${notHeld('due_run.id')}
            order by due_run.created_at limit ${sql.lit(limit)}`;
        // PostgreSQL reads each organization's oldest through a lateral join; SQLite, which has none,
        // looks its rows up by id from the same ordered, limited subquery.
        const dueOfOpen =
          backend === 'postgres'
            ? sql`from open l cross join lateral (${oldestDue(
                sql`due_run.id, due_run.status, due_run.attempts, due_run.created_at, due_run.organization_id, due_run.host`,
                'l.organization_id',
                DUE_PER_ORGANIZATION,
              )}) r`
            : sql`from open l join runs r on r.id in (${oldestDue(sql`due_run.id`, 'l.organization_id', DUE_PER_ORGANIZATION)})`;
        const { rows } = await sql<ClaimCandidate>`
          with recursive queued(organization_id) as (
            select (select waiting.organization_id from runs waiting where waiting.status = 'pending'
              order by waiting.organization_id limit 1)
            union all
            select (select waiting.organization_id from runs waiting
                where waiting.status = 'pending' and waiting.organization_id > q.organization_id
                order by waiting.organization_id limit 1)
            from queued q where q.organization_id is not null
          ),
          loads as materialized (
            select q.organization_id, (select org.plan from organizations org where org.id = q.organization_id) as plan,
              ${organizationLoad(sql.ref('q.organization_id'), now)} as org_running
            from queued q where q.organization_id is not null
          ),
          under_cap as materialized (
            select u.*, (${oldestDue(sql`due_run.created_at`, 'u.organization_id', 1)}) as oldest
            from loads u where u.org_running < ${capOf(sql.ref('u.plan'), limits)}
          ),
          open as (
            select * from under_cap where oldest is not null
            order by org_running, oldest limit ${sql.lit(ORGANIZATIONS_PER_LOOK)}
          ),
          due as (
            select r.id, r.status, r.attempts, r.created_at, r.organization_id, r.host, l.plan, l.org_running
            ${dueOfOpen}
            union all
            select lapsed.id, lapsed.status, lapsed.attempts, lapsed.created_at, lapsed.organization_id, lapsed.host,
              lapsed_org.plan, ${organizationLoad(sql.ref('lapsed.organization_id'), now)}
            from runs lapsed join organizations lapsed_org on lapsed_org.id = lapsed.organization_id
            where lapsed.status = 'running' and lapsed.lease_expires_at < ${now} ${notHeld('lapsed.id')}
          )
          select d.*, ${hostLoad(sql.ref('d.host'), now)} as host_running, ${hostLastClaim(sql.ref('d.host'))} as host_claimed_at
          from due d`.execute(db);
        return rows
          .filter((run) => mayStart(run, limits, doomed(run), gapStart))
          .sort(
            (a, b) =>
              Number(doomed(b)) - Number(doomed(a)) ||
              Number(a.org_running) - Number(b.org_running) ||
              (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1),
          )
          .slice(0, CLAIM_TRIES);
      };
      /** The run again, locked (PostgreSQL: unless another claimer holds it), with its load now. */
      const again = async (trx: Queryable, id: string, now: string) => {
        const { rows } = await sql<ClaimCandidate>`
          select r.id, r.status, r.attempts, r.created_at, r.organization_id, r.host, o.plan,
            ${organizationLoad(sql.ref('r.organization_id'), now)} as org_running,
            ${hostLoad(sql.ref('r.host'), now)} as host_running, ${hostLastClaim(sql.ref('r.host'))} as host_claimed_at
          from runs r join organizations o on o.id = r.organization_id
          where r.id = ${id}
            and ((r.status = 'pending' and r.next_attempt_at <= ${now}) or (r.status = 'running' and r.lease_expires_at < ${now}))
          ${backend === 'postgres' ? sql`for update of r skip locked` : sql``}`.execute(trx);
        return rows[0];
      };
      for (let looks = 1; ; looks++) {
        const now = nowIso();
        const gapStart = new Date(Date.parse(now) - limits.hostMinGapMs).toISOString();
        // Most looks find nothing: a plain read then, not a write transaction (on SQLite, the
        // database's write lock) on every look of every worker.
        const candidates = await look(now, gapStart);
        if (candidates.length === 0) return undefined;
        const outcome = await db.transaction().execute(async (trx) => {
          /** Organizations and hosts whose lock another claimer holds: their runs are skipped. */
          const taken = new Set<string>();
          /** Whether another claimer took or held a run tried (rather than a cap keeping it). */
          let contended = false;
          for (const candidate of candidates) {
            const organizationKey = `organization ${candidate.organization_id}`;
            const hostKey = candidate.host === null ? undefined : `host ${candidate.host}`;
            if (taken.has(organizationKey) || (hostKey && taken.has(hostKey))) continue;
            if (backend === 'postgres' && !doomed(candidate)) {
              // Locked before the count below, in a statement of their own: that count's snapshot then
              // holds every claim committed by whoever had the locks before.
              const { rows } = await sql<{ organization: boolean; host: boolean }>`
                select l.locked as organization,
                  case when l.locked and ${candidate.host}::text is not null
                    then pg_try_advisory_xact_lock(${sql.lit(HOST_LOCK)}, hashtext(${candidate.host}::text))
                    else l.locked end as host
                from (select pg_try_advisory_xact_lock(${sql.lit(ORGANIZATION_LOCK)}, hashtext(${candidate.organization_id}::text)) as locked) l`.execute(
                trx,
              );
              const locked = rows[0];
              if (!locked?.organization || !locked.host) {
                taken.add(locked?.organization ? (hostKey as string) : organizationKey);
                contended = true;
                continue;
              }
            }
            const run = await again(trx, candidate.id, now);
            if (!run) contended = true;
            if (!run || !mayStart(run, limits, doomed(run), gapStart)) continue;
            if (exhausted && doomed(run)) {
              const row = (await byId(trx, run.id)) as RunRow;
              await endFailed(trx, row, exhausted.error(row), exhausted.event);
              return { gaveUp: run.id };
            }
            return trx
              .updateTable('runs')
              .set({
                status: 'running',
                lease_owner: owner,
                lease_expires_at: new Date(Date.now() + leaseMs).toISOString(),
                attempts: sql`attempts + 1`,
                started_at: sql`coalesce(started_at, ${now})`,
                claimed_at: now,
              })
              .where('id', '=', run.id)
              .returningAll()
              .executeTakeFirst();
          }
          return contended ? ('contended' as const) : undefined;
        });
        if (typeof outcome === 'object' && 'gaveUp' in outcome) {
          exhausted?.gaveUp?.(outcome.gaveUp);
          continue;
        }
        // Others took what this look saw: a new look sees what is left (a few times, not for ever).
        if (outcome === 'contended') {
          if (looks < CLAIM_LOOKS) continue;
          return undefined;
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
