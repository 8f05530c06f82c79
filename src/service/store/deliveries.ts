// Webhook deliveries (spec 6.5): events of the outbox turned into one delivery per subscribed
// endpoint, leased by one deliverer at a time (many processes share them, like runs), each attempt
// logged. Times are passed in, so a test's clock drives the retry schedule.
import { sql } from 'kysely';
import { newestFirstPage, type Queryable, type StoreContext } from './context.ts';
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

export function deliveryStore({ db, backend }: StoreContext) {
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
        return { events: events.length, deliveries: deliveries.length };
      });
    },

    /** One due delivery (pending and due, or leased by a deliverer that vanished), leased to `owner`. */
    async claim(owner: string, now: string, leaseMs: number): Promise<ClaimedDelivery | undefined> {
      // The earliest due delivery of one kind: a range of webhook_deliveries_due (status,
      // next_attempt_at) that stops at its first row. One read of `pending and due or delivering and
      // lapsed` read and sorted the whole backlog for each delivery.
      const earliest = (q: Queryable, status: 'pending' | 'delivering') =>
        q
          .selectFrom('webhook_deliveries')
          .select(['id', 'next_attempt_at'])
          .where('status', '=', status)
          .where((eb) => (status === 'pending' ? eb('next_attempt_at', '<=', now) : eb('lease_expires_at', '<', now)))
          .orderBy('next_attempt_at', 'asc')
          .limit(1);
      /** The earliest of both, in one plain read. */
      const earliestDue = (q: Queryable) =>
        q
          .selectFrom(earliest(q, 'pending').as('p'))
          .selectAll()
          .unionAll(q.selectFrom(earliest(q, 'delivering').as('l')).selectAll())
          .orderBy('next_attempt_at', 'asc')
          .limit(1)
          .executeTakeFirst();
      // Most looks find nothing: a plain read then, not a write transaction (on SQLite, a write lock)
      // every second in every process.
      if (!(await earliestDue(db))) return undefined;
      return db.transaction().execute(async (trx) => {
        let picked: Awaited<ReturnType<typeof earliestDue>>;
        if (backend === 'postgres') {
          // Deliverers of several processes each take a different delivery without waiting.
          const pending = await earliest(trx, 'pending').forUpdate().skipLocked().executeTakeFirst();
          const lapsed = await earliest(trx, 'delivering').forUpdate().skipLocked().executeTakeFirst();
          picked =
            lapsed && (!pending || (lapsed.next_attempt_at ?? '') < (pending.next_attempt_at ?? '')) ? lapsed : pending;
        } else picked = await earliestDue(trx);
        if (!picked) return undefined;
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
        const endpoint = await trx
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', '=', delivery.endpoint_id)
          .executeTakeFirst();
        const event = await trx.selectFrom('events').selectAll().where('id', '=', delivery.event_id).executeTakeFirst();
        if (!endpoint || !event || endpoint.active !== 1) {
          // The endpoint was deleted or disabled since: nothing more to send.
          await trx
            .updateTable('webhook_deliveries')
            .set({
              status: 'failed',
              lease_owner: null,
              lease_expires_at: null,
              next_attempt_at: null,
              last_error: endpoint ? 'the endpoint is disabled' : 'the endpoint was deleted',
            })
            .where('id', '=', delivery.id)
            .execute();
          return undefined;
        }
        return { delivery, endpoint, event };
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
        if (outcome.delivered) {
          await trx
            .updateTable('webhook_endpoints')
            .set({ failing_since: null })
            .where('id', '=', delivery.endpoint_id)
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
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', lease_owner: null, lease_expires_at: null, next_attempt_at: now })
        .where('status', '=', 'delivering')
        .where('lease_owner', '=', owner)
        .execute();
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
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: now, attempts: 0, lease_owner: null, lease_expires_at: null })
        .where('organization_id', '=', organizationId)
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', deliveryId)
        .where('status', '!=', 'delivering')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return 'queued';
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
