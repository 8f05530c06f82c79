// spec 4.8 to 4.10: the project's marketing report, integrations and signals.
import { Hono } from 'hono';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { INTEGRATIONS, INTEGRATIONS_NOTE, SIGNALS_NOTE } from '../integrations.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { findVisibleProject } from './visible-project.ts';

export function projectDiscoveryRoutes({ store }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const project = (c: AppContext) => findVisibleProject(c, store);

  app.get('/:projectId/integrations', requireScope('projects:read', project), async (c) => {
    const project = await findVisibleProject(c, store);
    return c.json({ projectId: project.id, integrations: INTEGRATIONS, note: INTEGRATIONS_NOTE });
  });

  app.get('/:projectId/signals', requireScope('projects:read', project), async (c) => {
    const project = await findVisibleProject(c, store);
    return c.json({
      projectId: project.id,
      sourceCoverage: 'public_only',
      connectedSources: [],
      signals: [],
      note: SIGNALS_NOTE,
    });
  });

  app.get('/:projectId/marketing/report', requireScope('reports:read', project), async (c) => {
    const project = await findVisibleProject(c, store);
    const run = await store.runs.latestCompleted(project.organization_id, project.id, 'marketing_signal');
    if (!run)
      throw new ApiError(404, 'no_marketing_run', 'no Marketing Signal audit has completed for this project yet');
    if (!run.report) throw new ApiError(404, 'results_unavailable', `the results of run ${run.id} are unavailable`);
    return c.body(run.report, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'private, max-age=300' });
  });

  app.all('/:projectId/integrations', methodNotAllowed('GET'));
  app.all('/:projectId/signals', methodNotAllowed('GET'));
  app.all('/:projectId/marketing/report', methodNotAllowed('GET'));
  return app;
}
