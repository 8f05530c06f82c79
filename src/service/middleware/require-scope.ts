// spec 5.3: a key lacking the operation's scope gets 403 `insufficient_scope`. spec 5.4.2: an object
// id from another organization returns 404, never 403, so on routes that name an object the object
// is looked up first (only when the scope is missing: the usual path pays nothing).
import type { MiddlewareHandler } from 'hono';
import type { Scope } from '../../contract/index.ts';
import type { AppContext, AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

/** Throws the route's 404 when the object the path names is not visible to the key. */
export type ObjectLookup = (c: AppContext) => Promise<unknown>;

export function requireScope(scope: Scope, lookup?: ObjectLookup): MiddlewareHandler<AppEnv> {
  return async function checkScope(c, next) {
    if (!c.get('auth').scopes.includes(scope)) {
      if (lookup) await lookup(c);
      throw new ApiError(403, 'insufficient_scope', `this key lacks the ${scope} scope`, {
        details: { requiredScope: scope },
      });
    }
    await next();
  };
}
