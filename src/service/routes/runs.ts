// spec 4.11: start a run, list runs, get a run, its report context and its findings.
import { Hono } from 'hono';
import {
  PRODUCTS,
  RUN_STATUSES,
  RUN_WAIT_SECONDS_MAX,
  SEVERITIES,
  StartRunBody,
  TERMINAL_RUN_STATUSES,
  Uuid,
} from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { CREDIT_COSTS, planTerms } from '../plans.ts';
import { enumQuery, idParam, intQuery, pageParams, parseWith, readJson } from '../request.ts';
import { compareRuns } from '../run-comparison.ts';
import { creditKey, productFromScanMode, SCAN_MODES, startUrlFor, toRun, toRunListItem } from '../runs.ts';
import type { RunRow, Store } from '../store/index.ts';
import { visibleTo } from './visible-project.ts';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The run named by the path, or 404 when absent, in another organization, or outside a pinned key's project. */
export async function findRun(c: AppContext, store: Store): Promise<RunRow> {
  const id = idParam(c, 'runId', 'run');
  const row = await store.runs.get(c.get('auth').organization.id, id);
  if (!row || !visibleTo(c, row.project_id)) throw notFound('run');
  return row;
}

/**
 * 404 when the body of a start request names a project the key cannot see (spec 5.4.2: another
 * organization's id is 404, never 403). Asked only when the key lacks runs:write.
 */
async function namedProject(c: AppContext, store: Store): Promise<void> {
  const body = await readJson(c).catch(() => undefined);
  const id = Uuid.safeParse((body as { projectId?: unknown } | undefined)?.projectId);
  if (!id.success) return;
  const projectId = id.data.toLowerCase();
  const visible = visibleTo(c, projectId) && (await store.projects.get(c.get('auth').organization.id, projectId));
  if (!visible) throw notFound('project');
}

export const resultsUnavailable = (row: RunRow) =>
  new ApiError(404, 'results_unavailable', `run ${row.id} is ${row.status}; results exist once it is completed`, {
    details: { status: row.status },
  });

export function runRoutes({ store, cursors, options, onRunCreated, runWatch }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const run = (c: AppContext) => findRun(c, store);

  app.post(
    '/',
    requireScope('runs:write', (c) => namedProject(c, store)),
    async (c) => {
      const { organization, key } = c.get('auth');
      const body = await readJson(c);
      if (body === undefined) throw new ApiError(400, 'invalid_json', 'send a JSON body such as {"projectId": "..."}');
      const input = parseWith(StartRunBody, body, 'validation_failed');
      const product = productFromScanMode(input.scanMode);
      if (!product) {
        throw new ApiError(
          400,
          'validation_failed',
          // The value is not echoed: it is whatever the caller sent.
          `unknown scanMode; use one of ${SCAN_MODES.join(', ')}`,
          { details: { field: 'scanMode' } },
        );
      }
      const idempotencyKey = c.req.header('idempotency-key');
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new ApiError(400, 'validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
      }
      const projectId = input.projectId.toLowerCase();
      const project = visibleTo(c, projectId) ? await store.projects.get(organization.id, projectId) : undefined;
      if (!project) throw notFound('project');
      // spec 5.3: scans need an active paid plan.
      if (!planTerms(organization.plan).canScan) {
        throw new ApiError(
          402,
          'no_active_subscription',
          'starting audits needs an active paid plan; the organization is on the Free plan',
        );
      }
      const cost = CREDIT_COSTS[creditKey(product)];
      const target = startUrlFor(project);
      // A project made while local targets were allowed (the service has since become shared).
      if (target.local && !options.allowLocalTargets)
        throw new ApiError(
          400,
          'validation_failed',
          `the project targets this machine (${project.domain}); local targets are not allowed on this service`,
          { details: { field: 'projectId' } },
        );
      const result = await store.runs.create({
        organizationId: organization.id,
        projectId,
        product,
        url: target.url,
        local: target.local,
        scanMode: input.scanMode ?? null,
        credits: cost,
        keyPrefix: key.prefix,
        idempotencyKey: idempotencyKey ?? null,
        requestFingerprint: JSON.stringify([projectId, input.scanMode ?? null]),
      });
      switch (result.outcome) {
        case 'project_missing':
          throw notFound('project');
        case 'project_archived':
          throw new ApiError(409, 'project_archived', 'the project is archived; restore it before starting a run');
        case 'in_flight':
          throw new ApiError(
            409,
            'run_in_flight',
            'the project already has a run pending or running; wait for it to finish',
            {
              details: result.run ? { runId: result.run.id } : {},
            },
          );
        case 'insufficient_credits':
          throw new ApiError(
            402,
            'insufficient_credits',
            `this audit costs ${cost} credit(s); the organization has ${organization.credits_remaining}`,
            {
              details: { required: cost, remaining: organization.credits_remaining },
            },
          );
        case 'idempotency_mismatch':
          throw new ApiError(
            400,
            'validation_failed',
            'this Idempotency-Key was already used with a different request',
          );
        default: {
          if (result.outcome === 'created') onRunCreated?.();
          const run = toRun(result.run, options.publicUrl);
          const headers: Record<string, string> = { Location: run.links?.self ?? '' };
          if (result.outcome === 'replayed') headers['Idempotent-Replayed'] = 'true';
          return c.json(run, 202, headers);
        }
      }
    },
  );

  app.get('/', requireScope('runs:read'), async (c) => {
    const { organization, key } = c.get('auth');
    const { limit, cursor } = pageParams(c);
    const status = enumQuery(c, 'status', RUN_STATUSES);
    const product = enumQuery(c, 'product', PRODUCTS);
    let projectId = c.req.query('projectId');
    if (projectId !== undefined && !Uuid.safeParse(projectId).success) {
      throw new ApiError(400, 'validation_failed', 'projectId must be a uuid', { details: { field: 'projectId' } });
    }
    projectId = projectId?.toLowerCase();
    if (key.project_id) {
      if (projectId && projectId !== key.project_id)
        return c.json({ runs: [], pagination: { nextCursor: null, limit } });
      projectId = key.project_id;
    }
    const scope = `runs|${organization.id}|${projectId ?? ''}|${status ?? ''}|${product ?? ''}`;
    const { page, nextCursor } = await cursors.newestFirst(scope, cursor, limit, (after) =>
      store.runs.page({
        organizationId: organization.id,
        limit,
        ...(projectId ? { projectId } : {}),
        ...(status ? { status } : {}),
        ...(product ? { product } : {}),
        ...(after ? { after } : {}),
      }),
    );
    return c.json({
      runs: page.map((row) => toRunListItem(row, options.publicUrl)),
      pagination: { nextCursor, limit },
    });
  });

  app.get('/:runId', requireScope('runs:read', run), async (c) => {
    const waitSeconds = intQuery(c, 'waitSeconds', 1, RUN_WAIT_SECONDS_MAX);
    let row = await findRun(c, store);
    // Extension: a long poll answers when the run changes (or at the deadline), in one request.
    if (waitSeconds !== undefined && !(TERMINAL_RUN_STATUSES as readonly string[]).includes(row.status)) {
      const organizationId = c.get('auth').organization.id;
      row = await runWatch.until(row, waitSeconds, () => store.runs.get(organizationId, row.id), c.req.raw.signal);
    }
    // spec 4.11: completed runs are immutable and cacheable; in-flight ones must not be cached.
    const cache = row.status === 'completed' ? 'private, max-age=86400, immutable' : 'no-store';
    return c.json(toRun(row, options.publicUrl), 200, { 'Cache-Control': cache });
  });

  app.get('/:runId/report', requireScope('reports:read', run), async (c) => {
    const row = await findRun(c, store);
    if (row.status !== 'completed' || !row.report) throw resultsUnavailable(row);
    return c.body(row.report, 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'private, max-age=86400, immutable',
    });
  });

  app.get('/:runId/findings', requireScope('findings:read', run), async (c) => {
    const row = await findRun(c, store);
    const { limit, cursor } = pageParams(c);
    const severity = enumQuery(c, 'severity', SEVERITIES);
    if (row.status !== 'completed') throw resultsUnavailable(row);
    const scope = `findings|${row.id}|${severity ?? ''}`;
    const position = cursor ? cursors.decode(scope, cursor) : undefined;
    const rows = await store.runs.findingsPage(row.id, {
      limit,
      ...(severity ? { severity } : {}),
      ...(position ? { afterPosition: Number(position.sortKey) } : {}),
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > limit && last
        ? cursors.encode(scope, { sortKey: String(last.position), id: last.finding_id })
        : null;
    // The stored findings are already valid JSON; they are joined, not parsed and serialized again.
    const body = `{"findings":[${page.map((f) => f.body).join(',')}],"pagination":${JSON.stringify({ nextCursor, limit })}}`;
    return c.body(body, 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'private, max-age=86400, immutable',
    });
  });

  // An addition (issue 26): the run against a baseline, by finding fingerprints (run-comparison.ts).
  app.get('/:runId/comparison', requireScope('findings:read', run), async (c) => {
    const row = await findRun(c, store);
    if (row.status !== 'completed') throw resultsUnavailable(row);
    const baseline = await baselineOf(c, row);
    const [current, before] = await Promise.all([store.runs.allFindings(row.id), store.runs.allFindings(baseline.id)]);
    const publicUrl = options.publicUrl;
    const comparison = compareRuns(
      { row, findings: current.map((f) => JSON.parse(f.body)), humanUrl: toRun(row, publicUrl).humanUrl },
      { row: baseline, findings: before.map((f) => JSON.parse(f.body)), humanUrl: toRun(baseline, publicUrl).humanUrl },
    );
    return c.json(comparison, 200, { 'Cache-Control': 'no-store' });
  });

  /** The run named by `baseline` (default: the previous completed run of the same project and product). */
  async function baselineOf(c: AppContext, row: RunRow): Promise<RunRow> {
    const named = c.req.query('baseline');
    if (named === undefined || named === 'previous') {
      const previous = await store.runs.previousCompleted(row);
      if (!previous)
        throw new ApiError(404, 'no_baseline', `no completed ${row.product} run of this project before run ${row.id}`, {
          details: { runId: row.id, product: row.product },
        });
      return previous;
    }
    if (!Uuid.safeParse(named).success)
      throw new ApiError(400, 'validation_failed', 'baseline must be a run id (uuid) or "previous"', {
        details: { field: 'baseline' },
      });
    const baseline = await store.runs.get(c.get('auth').organization.id, named.toLowerCase());
    if (!baseline || !visibleTo(c, baseline.project_id)) throw notFound('run');
    if (baseline.project_id !== row.project_id || baseline.product !== row.product)
      throw new ApiError(409, 'baseline_mismatch', 'the baseline must be a run of the same project and product', {
        details: { baselineProjectId: baseline.project_id, baselineProduct: baseline.product, product: row.product },
      });
    if (baseline.status !== 'completed') throw resultsUnavailable(baseline);
    return baseline;
  }

  app.all('/', methodNotAllowed('GET, POST'));
  app.all('/:runId/comparison', methodNotAllowed('GET'));
  app.all('/:runId', methodNotAllowed('GET'));
  app.all('/:runId/report', methodNotAllowed('GET'));
  app.all('/:runId/findings', methodNotAllowed('GET'));
  return app;
}
