// spec 2.2: the key context returned by GET /api/v1/me.
import { z } from 'zod';
import { Uuid } from './common.ts';
import { Scope } from './scopes.ts';

export const CreditCosts = z.object({
  ai_readiness: z.int().min(0),
  marketing: z.int().min(0),
  website_security: z.int().min(0),
});
export type CreditCosts = z.infer<typeof CreditCosts>;

export const Credits = z.object({
  remaining: z.int(),
  monthlyIncluded: z.int().min(0),
});

export const KeyContext = z.object({
  // A key's own prefix; for an OAuth access token (issue 12), `oauth_` and the client's id start.
  keyPrefix: z.string().regex(/^(?:svc_|oauth_)/),
  keyName: z.string(),
  organizationId: Uuid,
  organizationName: z.string(),
  organizationSlug: z.string(),
  projectId: Uuid.nullable(),
  scopes: z.array(Scope),
  // spec 2.2: best-effort billing fields; null plan means the Free plan.
  plan: z.string().nullable().optional(),
  credits: Credits.nullable().optional(),
  apiVersion: z.literal('v1'),
  contractVersion: z.literal(2),
  latestCliVersion: z.string(),
  creditCosts: CreditCosts,
});
export type KeyContext = z.infer<typeof KeyContext>;
