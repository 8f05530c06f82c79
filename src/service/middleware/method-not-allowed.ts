// A known path asked with an unsupported method: 405 with Allow (RFC 9110 15.5.6), in the envelope.
import type { Handler } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

export function methodNotAllowed(allow: string): Handler<AppEnv> {
  return function refuseMethod(c) {
    throw new ApiError(405, 'method_not_allowed', `${c.req.method} is not supported here; use ${allow}`, {
      headers: { Allow: allow },
    });
  };
}
