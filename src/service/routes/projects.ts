// spec 4.3 to 4.7: list, create (idempotent by domain), get, restore and archive projects.
import { Hono } from 'hono';
import {
  ArchiveProjectBody,
  CreateProjectBody,
  type Project,
  ProjectStatusFilter,
  RestoreProjectBody,
} from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { normalizeDomain, slugify } from '../domains.ts';
import { ApiError, notFound } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { planTerms } from '../plans.ts';
import { enumQuery, idParam, pageParams, parseWith, readJson } from '../request.ts';
import { toProject } from '../serialize.ts';
import { findVisibleProject, visibleTo } from './visible-project.ts';

const projectScopedKey = (action: string) =>
  new ApiError(403, 'project_scoped_key', `a key pinned to one project cannot ${action} projects`);

const limitReached = (limit: number) =>
  new ApiError(409, 'project_limit_reached', `the organization's plan allows ${limit} projects that are not archived`, {
    details: { limit },
  });

export function projectRoutes({ store, cursors, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const project = (c: AppContext) => findVisibleProject(c, store);

  app.get('/', requireScope('projects:read'), async (c) => {
    const { organization, key } = c.get('auth');
    const { limit, cursor } = pageParams(c);
    const status = enumQuery(c, 'status', ProjectStatusFilter.options);
    const scope = `projects|${organization.id}|${status ?? ''}|${key.project_id ?? ''}`;
    const { page, nextCursor } = await cursors.newestFirst(scope, cursor, limit, (after) =>
      store.projects.page({
        organizationId: organization.id,
        onlyProjectId: key.project_id ?? undefined,
        status,
        limit,
        after,
      }),
    );
    return c.json({ projects: page.map(toProject), pagination: { nextCursor, limit } });
  });

  app.post('/', requireScope('projects:write'), async (c) => {
    const { organization, key } = c.get('auth');
    if (key.project_id) throw projectScopedKey('create');
    const body = await readJson(c);
    if (body === undefined)
      throw new ApiError(400, 'invalid_json', 'send a JSON body such as {"domain": "example.com"}');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, 'invalid_json', 'the request body must be a JSON object');
    }
    const rawDomain = (body as { domain?: unknown }).domain;
    if (typeof rawDomain !== 'string')
      throw new ApiError(400, 'invalid_domain', 'domain is required and must be a string');
    const input = parseWith(CreateProjectBody.omit({ domain: true }), body, 'validation_failed');
    const normalized = normalizeDomain(rawDomain, options.allowLocalTargets);
    if (!normalized.ok)
      throw new ApiError(400, 'invalid_domain', normalized.reason, { details: { domain: rawDomain.slice(0, 300) } });
    const result = await store.projects.createOrRestore(
      {
        organizationId: organization.id,
        domain: normalized.domain,
        name: input.name ?? normalized.domain,
        slug: slugify(normalized.domain, 'project'),
      },
      planTerms(organization.plan).projectLimit,
    );
    if (result.outcome === 'limit_reached') throw limitReached(result.limit);
    const project: Project = toProject(result.project);
    if (result.outcome === 'created') return c.json(project, 201);
    return c.json({ ...project, idempotent: true, restored: result.outcome === 'restored' }, 200);
  });

  app.get('/:projectId', requireScope('projects:read', project), async (c) => {
    return c.json(toProject(await findVisibleProject(c, store)));
  });

  app.patch('/:projectId', requireScope('projects:write', project), async (c) => {
    const id = idParam(c, 'projectId', 'project');
    if (!visibleTo(c, id)) throw notFound('project');
    const body = await readJson(c);
    parseWith(RestoreProjectBody, body, 'validation_failed');
    const { organization } = c.get('auth');
    const result = await store.projects.restore(organization.id, id, planTerms(organization.plan).projectLimit);
    switch (result.outcome) {
      case 'not_found':
        throw notFound('project');
      case 'not_archived':
        throw new ApiError(409, 'project_not_archived', 'only an archived project can be restored; this one is paused');
      case 'limit_reached':
        throw limitReached(result.limit);
      default:
        return c.json({
          ...toProject(result.project),
          restored: result.outcome === 'restored',
          idempotent: result.outcome === 'idempotent',
        });
    }
  });

  app.delete('/:projectId', requireScope('projects:delete', project), async (c) => {
    const { organization, key } = c.get('auth');
    // spec 5.4.2: a project the key cannot see (another organization's) is 404 before anything else.
    if (key.project_id) {
      await project(c);
      throw projectScopedKey('archive');
    }
    const id = idParam(c, 'projectId', 'project');
    // spec 4.7: confirm as a query parameter or in a JSON body.
    let confirm = c.req.query('confirm');
    if (confirm === undefined) {
      const body = await readJson(c);
      if (body !== undefined) confirm = parseWith(ArchiveProjectBody.partial(), body, 'validation_failed').confirm;
    }
    if (confirm === undefined || confirm === '') {
      throw new ApiError(
        400,
        'confirmation_required',
        "send confirm equal to the project's exact domain to archive it",
      );
    }
    const result = await store.projects.archive(organization.id, id, confirm);
    if (result.outcome === 'not_found') throw notFound('project');
    if (result.outcome === 'confirmation_mismatch') {
      throw new ApiError(400, 'confirmation_mismatch', "confirm does not match the project's exact domain");
    }
    // spec 3.1: archiving an archived project again changes nothing and answers the same.
    return c.json({ ok: true, projectId: id, archived: true, deleted: false });
  });

  app.all('/', methodNotAllowed('GET, POST'));
  app.all('/:projectId', methodNotAllowed('GET, PATCH, DELETE'));
  return app;
}
