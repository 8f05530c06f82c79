// Plans, credit costs and project limits. The spec leaves the figures open; they are decided in
// docs/decisions.md and kept here, in one place.
import type { CreditCosts } from '../contract/index.ts';

export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

interface PlanTerms {
  /** spec 2.2: the plan tier shown in the key context; null on the Free plan. */
  label: string | null;
  /** spec 5.3: starting scans needs an active paid plan. */
  canScan: boolean;
  monthlyCredits: number;
  projectLimit: number;
}

export const PLAN_TERMS: Record<Plan, PlanTerms> = {
  free: { label: null, canScan: false, monthlyCredits: 0, projectLimit: 3 },
  pro: { label: 'pro', canScan: true, monthlyCredits: 100, projectLimit: 100 },
};

// spec 2.2: credit cost per product; keys are the spec's (`marketing`, not `marketing_signal`).
export const CREDIT_COSTS: CreditCosts = { ai_readiness: 1, marketing: 1, website_security: 1 };

export function planTerms(plan: string): PlanTerms {
  return PLAN_TERMS[plan as Plan] ?? PLAN_TERMS.free;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}
