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
  /** Webhook endpoints of one organization, active or not (issue 28: each multiplies its events). */
  webhookEndpointLimit: number;
  /**
   * Runs of one organization in progress at once across the service (issue 28); none: the operator's
   * `serve --org-max-running-runs`. No plan sets one yet: one that sells more throughput would.
   */
  maxRunningRuns?: number;
}

export const PLAN_TERMS: Record<Plan, PlanTerms> = {
  free: { label: null, canScan: false, monthlyCredits: 0, projectLimit: 3, webhookEndpointLimit: 5 },
  pro: { label: 'pro', canScan: true, monthlyCredits: 100, projectLimit: 100, webhookEndpointLimit: 20 },
};

// spec 2.2: credit cost per product; keys are the spec's (`marketing`, not `marketing_signal`).
export const CREDIT_COSTS: CreditCosts = { ai_readiness: 1, marketing: 1, website_security: 1 };

export function planTerms(plan: string): PlanTerms {
  return PLAN_TERMS[plan as Plan] ?? PLAN_TERMS.free;
}

/** The plans that set their own cap of runs in progress, by name: the run claim's (worker.ts). */
export function planRunCaps(): Record<string, number> {
  return Object.fromEntries(
    PLANS.flatMap((plan) => {
      const cap = PLAN_TERMS[plan].maxRunningRuns;
      return cap === undefined ? [] : [[plan, cap]];
    }),
  );
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}
