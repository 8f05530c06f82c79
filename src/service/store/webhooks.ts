// Webhook endpoints of spec 4.12: create, page, read, change, rotate the secret, delete. Every
// query names the organization, so an endpoint of another organization is simply not found.
import { newestFirstPage, nowIso, type StoreContext } from './context.ts';
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

export function webhookStore({ db }: StoreContext) {
  const find = (organizationId: string, id: string) =>
    db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();

  return {
    async create(input: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
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
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('webhook_endpoints').values(row).execute();
      return row;
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

    async remove(organizationId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
