// Creating organizations with a unique slug and the plan's credit allowance.
import { slugify } from './domains.ts';
import { type Plan, planTerms } from './plans.ts';
import { isUniqueViolation } from './store/context.ts';
import type { OrganizationRow, Store } from './store/index.ts';

export interface CreateOrganizationInput {
  name: string;
  plan: Plan;
  /** Opening balance; the plan's monthly allowance when omitted. */
  credits?: number;
}

export async function createOrganization(store: Store, input: CreateOrganizationInput): Promise<OrganizationRow> {
  const terms = planTerms(input.plan);
  const base = slugify(input.name, 'org');
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (await store.organizations.slugExists(slug)) continue;
    try {
      return await store.organizations.create({
        name: input.name,
        slug,
        plan: input.plan,
        credits: input.credits ?? terms.monthlyCredits,
        monthlyCredits: terms.monthlyCredits,
      });
    } catch (error) {
      // Another process took the slug between the check and the insert: try the next one.
      if (!isUniqueViolation(error) || n > 50) throw error;
    }
  }
}
