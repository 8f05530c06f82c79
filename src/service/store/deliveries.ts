// Webhook deliveries (spec 6.5): events of the outbox turned into one delivery per subscribed
// endpoint, leased by one deliverer at a time (many processes share them, like runs), each attempt
// logged. Times are passed in, so a test's clock drives the retry schedule.
//
// The claim is fair between organizations (issue 28): an organization has at most so many deliveries
// in progress, its failing endpoints fewer (one attempt at a time each) and after everyone's healthy
// ones, across every process. Each endpoint keeps the due time of its earliest pending delivery
// (`next_due_at`, its queue's head), lowered by whatever makes a delivery pending and set again by the
// claim that takes one, so a claim passes over an organization at its cap by its endpoints, never by
// its backlog.
import { sql } from 'kysely';
import { type Backend, newestFirstPage, type Queryable, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { EventRow, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './tables.ts';

export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
  event: EventRow;
}

export interface AttemptOutcome {
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  delivered: boolean;
  /** When to try again; null when this was the last try. */
  nextAttemptAt: string | null;
}

/** Deliveries per insert statement: 14 parameters each. */
const INSERT_ROWS = 500;

/**
 * What a claim keeps to, counting deliveries in progress (`delivering` under a live lease; a lapsed
 * one's deliverer is gone). An endpoint is failing from a failed attempt until a delivery to it succeeds.
 */
export interface DeliveryLimits {
  /** Deliveries of one organization in progress at once, across every process (`serve --org-max-webhook-deliveries`). */
  organizationLanes: number;
  /** Of those, to its failing endpoints, each of which has one at a time (`--org-max-failing-webhook-deliveries`). */
  failingLanes: number;
}

export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { organizationLanes: 2, failingLanes: 1 };

/** Class of the PostgreSQL advisory lock (first key) that serializes delivery claims per organization. */
const ORGANIZATION_LOCK = 28_011;
/** Candidates one claim tries (each skipped for a lock another claimer holds, a stale head, a dead endpoint). */
const CLAIM_TRIES = 16;
/** Pending deliveries of a disabled endpoint ended per claim that meets it. */
const END_BATCH = 500;

/** A delivery being sent, or one whose deliverer vanished (a lapsed lease). */
interface Flight {
  id: string;
  organization_id: string;
  endpoint_id: string;
  lease_expires_at: string | null;
  /** Its endpoint is failing now (null when the endpoint was deleted). */
  failing_since: string | null;
}

/** Who may not start another delivery now, as of one read of the deliveries in progress. */
interface Load {
  /** Organizations with a delivery in progress, those at their cap, those whose failing lanes are full. */
  busy: Set<string>;
  full: Set<string>;
  failingFull: Set<string>;
  /** Endpoints with a delivery in progress (a failing one may have only one). */
  endpoints: Set<string>;
}

const live = (flight: Pick<Flight, 'lease_expires_at'>, now: string) =>
  flight.lease_expires_at !== null && flight.lease_expires_at >= now;

function loadOf(flights: Flight[], now: string, limits: DeliveryLimits): Load {
  const counts = new Map<string, { all: number; failing: number }>();
  const endpoints = new Set<string>();
  for (const flight of flights) {
    if (!live(flight, now)) continue;
    const count = counts.get(flight.organization_id) ?? { all: 0, failing: 0 };
    count.all += 1;
    if (flight.failing_since !== null) count.failing += 1;
    counts.set(flight.organization_id, count);
    endpoints.add(flight.endpoint_id);
  }
  const load: Load = { busy: new Set(counts.keys()), full: new Set(), failingFull: new Set(), endpoints };
  for (const [organization, count] of counts) {
    if (count.all >= limits.organizationLanes) load.full.add(organization);
    if (count.all >= limits.organizationLanes || count.failing >= limits.failingLanes)
      load.failingFull.add(organization);
  }
  return load;
}

/** What a claim passes over: organizations whose lock another claimer holds, endpoints and deliveries tried. */
interface Skip {
  organizations: Set<string>;
  endpoints: Set<string>;
  deliveries: Set<string>;
}

/** What a claim may take: a delivery whose deliverer vanished, or the earliest of an endpoint's queue. */
type Candidate =
  | { kind: 'lapsed'; deliveryId: string; organizationId: string }
  | { kind: 'head'; endpointId: string; organizationId: string; failing: boolean };

const union = (...sets: Array<Set<string>>) => [...new Set(sets.flatMap((set) => [...set]))];

/**
 * Lowers the heads of `endpointIds` to `at`, after deliveries of theirs became pending then. On
 * PostgreSQL the update waits for a claim that holds an endpoint's row and reads the head it wrote,
 * so a head is never later than its earliest pending delivery.
 */
async function lowerHeads(q: Queryable, endpointIds: readonly string[], at: string): Promise<void> {
  if (endpointIds.length === 0) return;
  await q
    .updateTable('webhook_endpoints')
    .set({ next_due_at: at })
    .where('id', 'in', [...new Set(endpointIds)].sort())
    .where((eb) => eb.or([eb('next_due_at', 'is', null), eb('next_due_at', '>', at)]))
    .execute();
}

/** Ends deliveries for good, with `reason`: their endpoint is gone or disabled. */
async function endDeliveries(q: Queryable, ids: readonly string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await q
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', lease_owner: null, lease_expires_at: null, next_attempt_at: null, last_error: reason })
    .where('id', 'in', ids)
    .execute();
}

/**
 * Sets an endpoint's head from its pending deliveries, holding its row first (as `lowerHeads` does
 * on PostgreSQL; on SQLite the transaction holds the only write lock), so no lowering is lost.
 */
async function resetHead(q: Queryable, backend: Backend, endpointId: string): Promise<void> {
  if (backend === 'postgres')
    await q.selectFrom('webhook_endpoints').select('id').where('id', '=', endpointId).forUpdate().execute();
  const next = await q
    .selectFrom('webhook_deliveries')
    .select('next_attempt_at')
    .where('status', '=', 'pending')
    .where('endpoint_id', '=', endpointId)
    .orderBy('next_attempt_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  await q
    .updateTable('webhook_endpoints')
    .set({ next_due_at: next?.next_attempt_at ?? null })
    .where('id', '=', endpointId)
    .execute();
}

export function deliveryStore({ db, backend }: StoreContext) {
  /**
   * Every delivery being sent, live or lapsed, with whether its endpoint is failing: one per lane of
   * every process (webhook_deliveries_delivering), or an organization's alone.
   */
  const flights = (q: Queryable, organizationId?: string): Promise<Flight[]> =>
    q
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.organization_id', 'd.endpoint_id', 'd.lease_expires_at', 'e.failing_since'])
      .where('d.status', '=', 'delivering')
      .$if(organizationId !== undefined, (b) => b.where('d.organization_id', '=', organizationId as string))
      .execute();

  /**
   * The endpoint whose queue's head is due earliest, of the healthy or the failing ones, not excluded:
   * a range of webhook_endpoints_due_healthy or _failing, passing over at most the excluded
   * organizations' endpoints.
   */
  const earliestHead = (
    q: Queryable,
    now: string,
    pass: { failing: boolean; organizations: string[]; endpoints: string[] },
  ) =>
    q
      .selectFrom('webhook_endpoints')
      .select(['id', 'organization_id'])
      .where('failing_since', pass.failing ? 'is not' : 'is', null)
      .where('next_due_at', '<=', now)
      .$if(pass.organizations.length > 0, (b) => b.where('organization_id', 'not in', pass.organizations))
      .$if(pass.endpoints.length > 0, (b) => b.where('id', 'not in', pass.endpoints))
      .orderBy('next_due_at', 'asc')
      .limit(1)
      .executeTakeFirst();

  /**
   * What a claim should take next, as of one read of the deliveries in progress: a delivery whose
   * deliverer vanished (it was due before anything waiting now); then healthy endpoints of
   * organizations with nothing in progress, then of those under their cap; then failing endpoints
   * with nothing in progress, of organizations whose failing lanes are not full.
   */
  async function choose(q: Queryable, now: string, limits: DeliveryLimits, skip: Skip): Promise<Candidate | undefined> {
    const all = await flights(q);
    const load = loadOf(all, now, limits);
    const barred = (organizationId: string, endpointId: string, failing: boolean) =>
      skip.organizations.has(organizationId) ||
      (failing
        ? load.failingFull.has(organizationId) || load.endpoints.has(endpointId)
        : load.full.has(organizationId));
    for (const flight of all) {
      const failing = flight.failing_since !== null;
      if (live(flight, now) || skip.deliveries.has(flight.id)) continue;
      if (barred(flight.organization_id, flight.endpoint_id, failing)) continue;
      return { kind: 'lapsed', deliveryId: flight.id, organizationId: flight.organization_id };
    }
    const tried = [...skip.endpoints];
    const passes = [
      { failing: false, organizations: union(load.busy, skip.organizations), endpoints: tried },
      ...(load.full.size < load.busy.size
        ? [{ failing: false, organizations: union(load.full, skip.organizations), endpoints: tried }]
        : []),
      {
        failing: true,
        organizations: union(load.failingFull, skip.organizations),
        endpoints: union(load.endpoints, skip.endpoints),
      },
    ];
    for (const pass of passes) {
      const head = await earliestHead(q, now, pass);
      if (head)
        return { kind: 'head', endpointId: head.id, organizationId: head.organization_id, failing: pass.failing };
    }
    return undefined;
  }

  /** Takes the organization's claim lock until the transaction ends, unless another claimer holds it. */
  async function tryLock(trx: Queryable, organizationId: string): Promise<boolean> {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${sql.lit(ORGANIZATION_LOCK)}, hashtext(${organizationId}::text)) as locked`.execute(
      trx,
    );
    return rows[0]?.locked === true;
  }

  /** May a delivery of this organization (to a failing endpoint or not) start, by the load read now? */
  async function mayStart(trx: Queryable, now: string, limits: DeliveryLimits, candidate: Candidate) {
    const mine = await flights(trx, candidate.organizationId);
    const load = loadOf(mine, now, limits);
    if (candidate.kind === 'lapsed') {
      const flight = mine.find((f) => f.id === candidate.deliveryId);
      if (!flight) return false;
      return flight.failing_since === null
        ? !load.full.has(candidate.organizationId)
        : !load.failingFull.has(candidate.organizationId) && !load.endpoints.has(flight.endpoint_id);
    }
    return candidate.failing
      ? !load.failingFull.has(candidate.organizationId) && !load.endpoints.has(candidate.endpointId)
      : !load.full.has(candidate.organizationId);
  }

  return {
    /**
     * Turns up to `limit` undispatched events, oldest first, into deliveries for the active endpoints
     * subscribed to them at that moment, and marks them dispatched, all in one transaction. Each event
     * is dispatched once, and a batch costs one transaction however many processes dispatch at once
     * (issue 28): on PostgreSQL each takes a different batch, skipping the events another holds; on
     * SQLite the transaction holds the only write lock from its start (the dialect's BEGIN
     * IMMEDIATE), so the batch it reads is its own.
     */
    async dispatch(now: string, limit = 100): Promise<{ events: number; deliveries: number }> {
      // The queue, oldest first: a range of events_dispatch_queue, which holds only these events.
      const queue = (q: Queryable) =>
        q.selectFrom('events').where('dispatched_at', 'is', null).orderBy('created_at').orderBy('id');
      // Most passes find nothing: one plain read of one index entry then, no transaction (on SQLite,
      // no write lock) every second in every process.
      if (!(await queue(db).select('id').limit(1).executeTakeFirst())) return { events: 0, deliveries: 0 };
      return db.transaction().execute(async (trx) => {
        const events = await queue(trx)
          .select(['id', 'organization_id', 'type'])
          .limit(limit)
          .$if(backend === 'postgres', (q) => q.forUpdate().skipLocked())
          .execute();
        if (events.length === 0) return { events: 0, deliveries: 0 };
        await trx
          .updateTable('events')
          .set({ dispatched_at: now })
          .where(
            'id',
            'in',
            events.map((e) => e.id),
          )
          .execute();
        const endpoints = await trx
          .selectFrom('webhook_endpoints')
          .select(['id', 'organization_id', 'events'])
          .where('organization_id', 'in', [...new Set(events.map((e) => e.organization_id))])
          .where('active', '=', 1)
          .execute();
        const byOrganization = new Map<string, Array<{ id: string; types: Set<string> }>>();
        for (const endpoint of endpoints) {
          const list = byOrganization.get(endpoint.organization_id) ?? [];
          list.push({ id: endpoint.id, types: new Set(JSON.parse(endpoint.events) as string[]) });
          byOrganization.set(endpoint.organization_id, list);
        }
        const deliveries = events.flatMap((event) =>
          (byOrganization.get(event.organization_id) ?? [])
            .filter((endpoint) => endpoint.types.has(event.type))
            .map((endpoint) => ({
              id: uuidv7(),
              organization_id: event.organization_id,
              endpoint_id: endpoint.id,
              event_id: event.id,
              event_type: event.type,
              status: 'pending',
              attempts: 0,
              next_attempt_at: now,
              lease_owner: null,
              lease_expires_at: null,
              last_status: null,
              last_error: null,
              delivered_at: null,
              created_at: now,
            })),
        );
        // A statement's parameters are bounded (SQLite's 32,766): an organization with many endpoints
        // makes a batch of events many rows.
        for (let i = 0; i < deliveries.length; i += INSERT_ROWS)
          await trx
            .insertInto('webhook_deliveries')
            .values(deliveries.slice(i, i + INSERT_ROWS))
            .execute();
        await lowerHeads(
          trx,
          deliveries.map((d) => d.endpoint_id),
          now,
        );
        return { events: events.length, deliveries: deliveries.length };
      });
    },

    /**
     * One due delivery (pending and due, or leased by a deliverer that vanished), leased to `owner`,
     * within `limits` (see choose). On PostgreSQL, claimers of several processes serialize per
     * organization with a transaction-level advisory lock (safe behind PgBouncer's transaction mode),
     * taken without waiting: a claimer that finds it held passes to another organization.
     */
    async claim(
      owner: string,
      now: string,
      leaseMs: number,
      limits: DeliveryLimits = DEFAULT_DELIVERY_LIMITS,
    ): Promise<ClaimedDelivery | undefined> {
      const skip: Skip = { organizations: new Set(), endpoints: new Set(), deliveries: new Set() };
      // Most looks find nothing they may take: plain reads then, not a write transaction (on SQLite,
      // the write lock) every second in every process.
      if (!(await choose(db, now, limits, skip))) return undefined;
      return db.transaction().execute(async (trx) => {
        for (let tries = 0; tries < CLAIM_TRIES; tries++) {
          let candidate = await choose(trx, now, limits, skip);
          if (!candidate) return undefined;
          // SQLite's transaction holds the only write lock, so what choose read stands. PostgreSQL's
          // claimer first becomes the organization's only one, then holds the endpoint's row (its
          // head, which only a claim sets back), then reads the organization's load again.
          if (backend === 'postgres') {
            if (!(await tryLock(trx, candidate.organizationId))) {
              skip.organizations.add(candidate.organizationId);
              continue;
            }
            if (candidate.kind === 'head') {
              const head = await trx
                .selectFrom('webhook_endpoints')
                .select('failing_since')
                .where('id', '=', candidate.endpointId)
                .where('next_due_at', '<=', now)
                .forUpdate()
                .skipLocked()
                .executeTakeFirst();
              if (!head) {
                skip.endpoints.add(candidate.endpointId);
                continue;
              }
              candidate = { ...candidate, failing: head.failing_since !== null };
            }
            if (!(await mayStart(trx, now, limits, candidate))) {
              skip.organizations.add(candidate.organizationId);
              continue;
            }
          }
          const picked =
            candidate.kind === 'lapsed'
              ? await trx
                  .selectFrom('webhook_deliveries')
                  .select('id')
                  .where('id', '=', candidate.deliveryId)
                  .where('status', '=', 'delivering')
                  .where('lease_expires_at', '<', now)
                  .$if(backend === 'postgres', (b) => b.forUpdate().skipLocked())
                  .executeTakeFirst()
              : await trx
                  .selectFrom('webhook_deliveries')
                  .select('id')
                  .where('status', '=', 'pending')
                  .where('endpoint_id', '=', candidate.endpointId)
                  .where('next_attempt_at', '<=', now)
                  .orderBy('next_attempt_at', 'asc')
                  .limit(1)
                  .$if(backend === 'postgres', (b) => b.forUpdate().skipLocked())
                  .executeTakeFirst();
          if (!picked) {
            if (candidate.kind === 'lapsed') skip.deliveries.add(candidate.deliveryId);
            else {
              // A head earlier than its queue (a delivery taken back by redeliver, say): set it right.
              await resetHead(trx, backend, candidate.endpointId);
              skip.endpoints.add(candidate.endpointId);
            }
            continue;
          }
          const delivery = await trx
            .updateTable('webhook_deliveries')
            .set({
              status: 'delivering',
              lease_owner: owner,
              lease_expires_at: new Date(Date.parse(now) + leaseMs).toISOString(),
              attempts: sql`attempts + 1`,
            })
            .where('id', '=', picked.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (candidate.kind === 'head') await resetHead(trx, backend, candidate.endpointId);
          const endpoint = await trx
            .selectFrom('webhook_endpoints')
            .selectAll()
            .where('id', '=', delivery.endpoint_id)
            .executeTakeFirst();
          const event = await trx
            .selectFrom('events')
            .selectAll()
            .where('id', '=', delivery.event_id)
            .executeTakeFirst();
          if (endpoint && event && endpoint.active === 1) return { delivery, endpoint, event };
          // The endpoint was deleted or disabled since: nothing more to send, to it at all.
          const reason = endpoint ? 'the endpoint is disabled' : 'the endpoint was deleted';
          await endDeliveries(trx, [delivery.id], reason);
          if (endpoint && endpoint.active !== 1) {
            const waiting = await trx
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('status', '=', 'pending')
              .where('endpoint_id', '=', endpoint.id)
              .limit(END_BATCH)
              .$if(backend === 'postgres', (b) => b.forUpdate().skipLocked())
              .execute();
            await endDeliveries(
              trx,
              waiting.map((w) => w.id),
              reason,
            );
            await resetHead(trx, backend, endpoint.id);
          }
        }
        return undefined;
      });
    },

    /**
     * Logs an attempt and moves the delivery on: delivered, pending again at `nextAttemptAt`, or
     * failed for good. Nothing is written when the lease was lost. An endpoint failing without a
     * success since `disableAfterMs` is disabled, with the reason in its record.
     */
    async finish(
      deliveryId: string,
      owner: string,
      outcome: AttemptOutcome,
      disableAfterMs: number,
    ): Promise<'recorded' | 'lease_lost' | 'endpoint_disabled'> {
      return db.transaction().execute(async (trx) => {
        const delivery = await trx
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('id', '=', deliveryId)
          .where('status', '=', 'delivering')
          .where('lease_owner', '=', owner)
          .executeTakeFirst();
        if (!delivery) return 'lease_lost';
        await trx
          .insertInto('webhook_attempts')
          .values({
            id: uuidv7(),
            delivery_id: deliveryId,
            attempt: delivery.attempts,
            attempted_at: outcome.attemptedAt,
            duration_ms: Math.round(outcome.durationMs),
            status_code: outcome.statusCode,
            error: outcome.error,
            response_excerpt: outcome.responseExcerpt,
          })
          .execute();
        await trx
          .updateTable('webhook_deliveries')
          .set({
            status: outcome.delivered ? 'delivered' : outcome.nextAttemptAt ? 'pending' : 'failed',
            next_attempt_at: outcome.delivered ? null : outcome.nextAttemptAt,
            lease_owner: null,
            lease_expires_at: null,
            last_status: outcome.statusCode,
            last_error: outcome.error,
            delivered_at: outcome.delivered ? outcome.attemptedAt : null,
          })
          .where('id', '=', deliveryId)
          .execute();
        if (!outcome.delivered && outcome.nextAttemptAt)
          await lowerHeads(trx, [delivery.endpoint_id], outcome.nextAttemptAt);
        if (outcome.delivered) {
          // Only when it was failing: the row is the queue's head a claim may hold meanwhile.
          await trx
            .updateTable('webhook_endpoints')
            .set({ failing_since: null })
            .where('id', '=', delivery.endpoint_id)
            .where('failing_since', 'is not', null)
            .execute();
          return 'recorded';
        }
        const endpoint = await trx
          .selectFrom('webhook_endpoints')
          .select(['failing_since', 'active'])
          .where('id', '=', delivery.endpoint_id)
          .executeTakeFirst();
        if (!endpoint) return 'recorded';
        const since = endpoint.failing_since ?? outcome.attemptedAt;
        const disable = endpoint.active === 1 && Date.parse(outcome.attemptedAt) - Date.parse(since) >= disableAfterMs;
        await trx
          .updateTable('webhook_endpoints')
          .set({
            failing_since: since,
            ...(disable
              ? {
                  active: 0,
                  disabled_reason:
                    `disabled by the service on ${outcome.attemptedAt}: every delivery failed since ${since} (last: ${outcome.error ?? `status ${outcome.statusCode}`})`.slice(
                      0,
                      500,
                    ),
                  updated_at: outcome.attemptedAt,
                }
              : {}),
          })
          .where('id', '=', delivery.endpoint_id)
          .execute();
        return disable ? 'endpoint_disabled' : 'recorded';
      });
    },

    /** Gives back the deliveries `owner` holds (a stopping process), due at once. */
    async release(owner: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const released = await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', lease_owner: null, lease_expires_at: null, next_attempt_at: now })
          .where('status', '=', 'delivering')
          .where('lease_owner', '=', owner)
          .returning('endpoint_id')
          .execute();
        await lowerHeads(
          trx,
          released.map((r) => r.endpoint_id),
          now,
        );
      });
    },

    /** The newest deliveries of an endpoint, with their attempts, oldest attempt first. */
    async page(
      organizationId: string,
      endpointId: string,
      limit: number,
      after?: { createdAt: string; id: string },
    ): Promise<Array<WebhookDeliveryRow & { attemptLog: WebhookAttemptRow[] }>> {
      const q = db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('endpoint_id', '=', endpointId);
      const rows = await newestFirstPage(q, after, limit).execute();
      if (rows.length === 0) return [];
      const attempts = await db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('attempted_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
      return rows.map((row) => ({ ...row, attemptLog: attempts.filter((a) => a.delivery_id === row.id) }));
    },

    /**
     * Sends a delivery again now with a fresh schedule, unless it is being sent at this moment; the
     * attempts so far stay in the log.
     */
    async redeliver(
      organizationId: string,
      endpointId: string,
      deliveryId: string,
      now: string,
    ): Promise<'queued' | 'in_progress' | 'not_found'> {
      const queued = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', next_attempt_at: now, attempts: 0, lease_owner: null, lease_expires_at: null })
          .where('organization_id', '=', organizationId)
          .where('endpoint_id', '=', endpointId)
          .where('id', '=', deliveryId)
          .where('status', '!=', 'delivering')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await lowerHeads(trx, [endpointId], now);
        return true;
      });
      if (queued) return 'queued';
      const exists = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      return exists ? 'in_progress' : 'not_found';
    },
  };
}
