// Monitoring of a project (issue 11; docs/decisions.md, "Monitoring"): read and change its setting,
// and read its history. Reading needs projects:read, changing projects:write; a project-pinned key
// may do both for its own project.
import { Hono } from 'hono';
import { UpdateMonitoringBody } from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { enumQuery, pageParams, parseWith, readJson } from '../request.ts';
import { toMonitorCheck, toMonitoring } from '../serialize.ts';
import type { ProjectRow } from '../store/index.ts';
import { findVisibleProject } from './visible-project.ts';

/**
 * Switches a project's monitoring on or off with its interval (null: the service's default): the
 * API's PUT and the dashboard's switch both change it here. Throws the API's errors for an interval
 * under this service's minimum and for switching on an archived project.
 */
export async function changeMonitoring(
  { store, options, onMonitoringChanged }: Pick<ServiceDeps, 'store' | 'options' | 'onMonitoringChanged'>,
  project: ProjectRow,
  setting: { enabled: boolean; intervalMinutes: number | null },
): Promise<void> {
  const interval = setting.intervalMinutes;
  if (interval !== null && interval < options.monitorMinIntervalMinutes)
    throw new ApiError(
      400,
      'validation_failed',
      `intervalMinutes must be at least ${options.monitorMinIntervalMinutes} minutes on this service`,
      { details: { field: 'intervalMinutes', minimum: options.monitorMinIntervalMinutes } },
    );
  if (setting.enabled && project.status === 'archived')
    throw new ApiError(409, 'project_archived', 'the project is archived; restore it before monitoring it');
  await store.monitors.set(
    project,
    { enabled: setting.enabled, intervalMinutes: interval },
    interval ?? options.monitorIntervalMinutes,
    new Date().toISOString(),
  );
  if (setting.enabled) onMonitoringChanged?.();
}

export function monitoringRoutes(deps: ServiceDeps) {
  const { store, cursors, options } = deps;
  const app = new Hono<AppEnv>();
  const project = (c: AppContext) => findVisibleProject(c, store);
  const answer = async (projectRow: Awaited<ReturnType<typeof project>>) =>
    toMonitoring(
      projectRow,
      await store.monitors.get(projectRow.organization_id, projectRow.id),
      options.monitorIntervalMinutes,
      options.publicUrl,
    );

  app.get('/:projectId/monitoring', requireScope('projects:read', project), async (c) =>
    c.json(await answer(await project(c))),
  );

  app.put('/:projectId/monitoring', requireScope('projects:write', project), async (c) => {
    const row = await project(c);
    const raw = await readJson(c);
    if (raw === undefined) throw new ApiError(400, 'invalid_json', 'send a JSON body such as {"enabled": true}');
    const setting = parseWith(UpdateMonitoringBody, raw, 'validation_failed');
    await changeMonitoring(deps, row, { enabled: setting.enabled, intervalMinutes: setting.intervalMinutes ?? null });
    return c.json(await answer(row));
  });

  app.get('/:projectId/monitoring/checks', requireScope('projects:read', project), async (c) => {
    const row = await project(c);
    const { limit, cursor } = pageParams(c);
    const changesOnly = enumQuery(c, 'changesOnly', ['true', 'false'] as const) === 'true';
    const { page, nextCursor } = await cursors.newestFirst(
      `monitor-checks|${row.id}|${changesOnly}`,
      cursor,
      limit,
      (after) => store.monitors.page(row.id, limit, after, changesOnly),
    );
    return c.json({ checks: page.map(toMonitorCheck), pagination: { nextCursor, limit } });
  });

  app.all('/:projectId/monitoring', methodNotAllowed('GET, PUT'));
  app.all('/:projectId/monitoring/checks', methodNotAllowed('GET'));
  return app;
}
