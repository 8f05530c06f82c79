// spec 2.1 and 7: the error envelope and every machine-readable error code.
import { z } from 'zod';

export const ERROR_CODES = [
  'invalid_json',
  'invalid_domain',
  'validation_failed',
  'confirmation_required',
  'confirmation_mismatch',
  'invalid_request',
  'invalid_grant',
  'unauthorized',
  'insufficient_credits',
  'no_active_subscription',
  'insufficient_scope',
  'project_scoped_key',
  'not_found',
  'no_marketing_run',
  'results_unavailable',
  'project_limit_reached',
  'project_exists',
  'project_not_archived',
  'run_in_flight',
  'rate_limited',
  'internal_error',
  'key_encryption_unavailable',
  'service_unavailable',
  // Not in section 7; decided in docs/decisions.md.
  'project_archived',
  'payload_too_large',
  'method_not_allowed',
  'delivery_in_progress',
  // Issue 28: an organization at its plan's number of webhook endpoints.
  'webhook_limit_reached',
  // Run comparison (issue 26): no earlier completed run to compare with; a baseline of another project or product.
  'no_baseline',
  'baseline_mismatch',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

// spec 2.1: extra properties inside `error` are allowed, so the inner object is loose.
export const ErrorEnvelope = z.object({
  error: z.looseObject({
    code: z.string().min(1),
    message: z.string().min(1),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
