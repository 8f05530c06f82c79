// Organizations: the tenants every key, project and run belongs to.

import { nowIso, type Queryable, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { OrganizationRow } from './tables.ts';

export interface NewOrganization {
  name: string;
  slug: string;
  plan: string;
  credits: number;
  monthlyCredits: number;
}

export function organizationStore({ db }: StoreContext) {
  return {
    async create(input: NewOrganization): Promise<OrganizationRow> {
      const now = nowIso();
      const row: OrganizationRow = {
        id: uuidv7(),
        name: input.name,
        slug: input.slug,
        plan: input.plan,
        credits_remaining: input.credits,
        credits_monthly: input.monthlyCredits,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('organizations').values(row).execute();
      return row;
    },

    async get(id: string, trx: Queryable = db): Promise<OrganizationRow | undefined> {
      return trx.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findByIdOrSlug(idOrSlug: string): Promise<OrganizationRow | undefined> {
      return db
        .selectFrom('organizations')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
        .executeTakeFirst();
    },

    async slugExists(slug: string): Promise<boolean> {
      const row = await db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirst();
      return row !== undefined;
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
