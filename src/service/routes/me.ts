// spec 4.1: the key context; no scope needed.
import { Hono } from 'hono';
import type { AppEnv, ServiceDeps } from '../context.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { toKeyContext } from '../serialize.ts';

export function meRoutes({ options }: ServiceDeps) {
  return new Hono<AppEnv>()
    .get('/', (c) => c.json(toKeyContext(c.get('auth'), options.version)))
    .all('/', methodNotAllowed('GET'));
}
