// spec 5.3: a key lacking the operation's scope gets 403 `insufficient_scope`.
import type { MiddlewareHandler } from 'hono';
import type { Scope } from '../../contract/index.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async function checkScope(c, next) {
    if (!c.get('auth').scopes.includes(scope)) {
      throw new ApiError(403, 'insufficient_scope', `this key lacks the ${scope} scope`, {
        details: { requiredScope: scope },
      });
    }
    await next();
  };
}
