// Webhook endpoints of spec 4.12: create, page, read, change, rotate the secret, delete. Every
// query names the organization, so an endpoint of another organization is simply not found.
import { newestFirstPage, nowIso, type Queryable, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { WebhookEndpointRow } from './tables.ts';

export interface NewWebhookEndpoint {
  organizationId: string;
  url: string;
  events: readonly string[];
  description: string | null;
  secretCiphertext: string;
}

export interface WebhookEndpointChange {
  url?: string;
  events?: readonly string[];
  description?: string | null;
  active?: boolean;
}

export interface WebhookPageQuery {
  organizationId: string;
  limit: number;
  after?: { createdAt: string; id: string };
}

export function webhookStore({ db, backend }: StoreContext) {
  const find = (organizationId: string, id: string) =>
    db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();

  /** A new endpoint, active, with no delivery yet. */
  async function insert(q: Queryable, input: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    const now = nowIso();
    const row: WebhookEndpointRow = {
      id: uuidv7(),
      organization_id: input.organizationId,
      url: input.url,
      events: JSON.stringify(input.events),
      description: input.description,
      active: 1,
      disabled_reason: null,
      secret_ciphertext: input.secretCiphertext,
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      failing_since: null,
      next_due_at: null,
      created_at: now,
      updated_at: now,
    };
    await q.insertInto('webhook_endpoints').values(row).execute();
    return row;
  }

  return {
    create: (input: NewWebhookEndpoint): Promise<WebhookEndpointRow> => insert(db, input),

    /**
     * Creates an endpoint unless the organization has `limit` already (issue 28: one organization's
     * endpoints multiply each of its events). The count and the insert are one transaction,
     * serialized per organization (row lock on PostgreSQL, SQLite's write lock), as projects' limit is.
     */
    async createWithin(
      input: NewWebhookEndpoint,
      limit: number,
    ): Promise<{ outcome: 'created'; row: WebhookEndpointRow } | { outcome: 'limit_reached'; limit: number }> {
      return db.transaction().execute(async (trx) => {
        if (backend === 'postgres')
          await trx
            .selectFrom('organizations')
            .select('id')
            .where('id', '=', input.organizationId)
            .forUpdate()
            .execute();
        const { n } = await trx
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('organization_id', '=', input.organizationId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= limit) return { outcome: 'limit_reached' as const, limit };
        return { outcome: 'created' as const, row: await insert(trx, input) };
      });
    },

    get: find,

    async page(query: WebhookPageQuery): Promise<WebhookEndpointRow[]> {
      const q = db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', query.organizationId);
      return newestFirstPage(q, query.after, query.limit).execute();
    },

    /** Applies the change; re-enabling clears the reason the service disabled it for. */
    async update(
      organizationId: string,
      id: string,
      change: WebhookEndpointChange,
    ): Promise<WebhookEndpointRow | undefined> {
      const values: Partial<WebhookEndpointRow> = { updated_at: nowIso() };
      if (change.url !== undefined) values.url = change.url;
      if (change.events !== undefined) values.events = JSON.stringify(change.events);
      if (change.description !== undefined) values.description = change.description;
      if (change.active !== undefined) {
        values.active = change.active ? 1 : 0;
        values.disabled_reason = null;
      }
      const result = await db
        .updateTable('webhook_endpoints')
        .set(values)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 0 ? undefined : find(organizationId, id);
    },

    /** A new secret; the current one becomes the previous one until `previousExpiresAt`. */
    async rotate(
      organizationId: string,
      id: string,
      secretCiphertext: string,
      previousExpiresAt: string | null,
    ): Promise<WebhookEndpointRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('webhook_endpoints')
          .select('secret_ciphertext')
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!current) return undefined;
        await trx
          .updateTable('webhook_endpoints')
          .set({
            secret_ciphertext: secretCiphertext,
            previous_secret_ciphertext: previousExpiresAt ? current.secret_ciphertext : null,
            previous_secret_expires_at: previousExpiresAt,
            updated_at: nowIso(),
          })
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .execute();
        return trx
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .executeTakeFirst();
      });
    },

    /** Deletes the endpoint; what it had waiting ends failed (no claim would take it: deliveries.ts). */
    async remove(organizationId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('webhook_endpoints')
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', next_attempt_at: null, last_error: 'the endpoint was deleted' })
          .where('status', '=', 'pending')
          .where('endpoint_id', '=', id)
          .execute();
        return true;
      });
    },
  };
}
