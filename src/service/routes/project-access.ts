// Issue 29: GET and PUT /api/v1/projects/{projectId}/access, a project's access settings for a site
// behind a login or a preview wall. Write-only: an answer names what is set, never a value.
import { Hono } from 'hono';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { clearsAccess, parseAccessBody, saveAccess, toProjectAccess } from '../project-access.ts';
import { readJson } from '../request.ts';
import { findVisibleProject } from './visible-project.ts';

export function projectAccessRoutes({ store, kek }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const project = (c: AppContext) => findVisibleProject(c, store);

  app.get('/:projectId/access', requireScope('projects:read', project), async (c) => {
    const row = await findVisibleProject(c, store);
    return c.json(toProjectAccess(row.id, await store.projectAccess.get(row.id)));
  });

  app.put('/:projectId/access', requireScope('projects:write', project), async (c) => {
    const row = await findVisibleProject(c, store);
    const body = await readJson(c);
    if (body === undefined)
      throw new ApiError(
        400,
        'invalid_json',
        'send a JSON body such as {"headers": {"x-preview-token": "..."}}, or {} to clear the settings',
      );
    const input = parseAccessBody(body);
    if (clearsAccess(input)) {
      await store.projectAccess.clear(row.id);
      return c.json(toProjectAccess(row.id, undefined));
    }
    return c.json(toProjectAccess(row.id, await saveAccess(store, kek, row.id, input)));
  });

  app.all('/:projectId/access', methodNotAllowed('GET, PUT'));
  return app;
}
