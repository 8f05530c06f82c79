// API keys: looked up by the hash of their secret; the secret itself is kept only encrypted.
import { nowIso, type StoreContext } from './context.ts';
import type { ApiKeyRow, OrganizationRow } from './tables.ts';

export interface AuthenticatedKey {
  key: ApiKeyRow;
  organization: OrganizationRow;
}

export function apiKeyStore({ db }: StoreContext) {
  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },

    /** The live key with this secret hash, with its organization; revoked keys are not found. */
    async findActiveByHash(secretHash: string): Promise<AuthenticatedKey | undefined> {
      const row = await db
        .selectFrom('api_keys as k')
        .innerJoin('organizations as o', 'o.id', 'k.organization_id')
        .selectAll('k')
        .select([
          'o.name as org_name',
          'o.slug as org_slug',
          'o.plan as org_plan',
          'o.credits_remaining as org_credits_remaining',
          'o.credits_monthly as org_credits_monthly',
          'o.created_at as org_created_at',
          'o.updated_at as org_updated_at',
        ])
        .where('k.secret_hash', '=', secretHash)
        .where('k.revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const {
        org_name,
        org_slug,
        org_plan,
        org_credits_remaining,
        org_credits_monthly,
        org_created_at,
        org_updated_at,
        ...key
      } = row;
      return {
        key,
        organization: {
          id: key.organization_id,
          name: org_name,
          slug: org_slug,
          plan: org_plan,
          credits_remaining: org_credits_remaining,
          credits_monthly: org_credits_monthly,
          created_at: org_created_at,
          updated_at: org_updated_at,
        },
      };
    },

    async findByPrefix(prefix: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst();
    },

    async listForOrganization(organizationId: string): Promise<ApiKeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at', 'asc')
        .execute();
    },

    async markUsed(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    /** The organization's key with this id (revoked or not). */
    get(organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Revokes the organization's key with this id; false when there is none live. */
    async revoke(organizationId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: nowIso() })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Revokes the key; answers the row as it now is, or undefined when no key has this prefix. */
    async revokeByPrefix(prefix: string): Promise<ApiKeyRow | undefined> {
      await db
        .updateTable('api_keys')
        .set({ revoked_at: nowIso() })
        .where('prefix', '=', prefix)
        .where('revoked_at', 'is', null)
        .execute();
      return db.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst();
    },
  };
}
