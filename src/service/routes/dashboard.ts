// The dashboard pages behind every humanUrl: /runs/{runId}, /runs/{runId}/findings/{findingId} and
// /projects/{projectId}/monitoring. An address is its capability: run and project ids carry random
// bits enough not to be guessed (docs/decisions.md).
import { Hono } from 'hono';
import { html } from 'hono/html';
import { FINDING_ID_PATTERN, type Finding, type ReportContext, Uuid } from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { CONTENT_SECURITY_POLICY, page } from '../dashboard/layout.ts';
import { monitoringPage } from '../dashboard/monitoring-page.ts';
import { findingPage, runPage } from '../dashboard/pages.ts';
import { toRun } from '../runs.ts';
import { toMonitorCheck, toMonitoring } from '../serialize.ts';

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'private, no-cache',
};

const FINDINGS_SHOWN = 1000;
const CHECKS_SHOWN = 100;

const notFoundPage = (c: AppContext, what = 'audit') =>
  c.html(page('Not found', html`<h1>Not found</h1><p>No ${what} lives at this address.</p>`), 404, HEADERS);

export function dashboardRoutes({ store, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();

  async function load(runId: string) {
    if (!Uuid.safeParse(runId).success) return undefined;
    const row = await store.runs.getById(runId.toLowerCase());
    if (!row) return undefined;
    const findings =
      row.status === 'completed'
        ? (await store.runs.findingsPage(row.id, { limit: FINDINGS_SHOWN }))
            .slice(0, FINDINGS_SHOWN)
            .map((f) => JSON.parse(f.body) as Finding)
        : [];
    return {
      row,
      run: toRun(row, options.publicUrl),
      report: row.report ? (JSON.parse(row.report) as ReportContext) : null,
      findings,
    };
  }

  app.get('/:runId', async (c) => {
    const loaded = await load(c.req.param('runId'));
    if (!loaded) return notFoundPage(c);
    return c.html(runPage(loaded.run, loaded.report, loaded.findings, `/runs/${loaded.row.id}`), 200, HEADERS);
  });

  app.get('/:runId/findings/:findingId', async (c) => {
    const findingId = c.req.param('findingId');
    const loaded = FINDING_ID_PATTERN.test(findingId) ? await load(c.req.param('runId')) : undefined;
    const finding = loaded?.findings.find((f) => f.findingId === findingId);
    if (!loaded || !finding) return notFoundPage(c);
    return c.html(findingPage(loaded.run, finding, `/runs/${loaded.row.id}`), 200, HEADERS);
  });

  return app;
}

/** /projects/{projectId}/monitoring: the pages' states and the history of checks. */
export function projectPageRoutes({ store, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  app.get('/:projectId/monitoring', async (c) => {
    const id = c.req.param('projectId');
    const project = Uuid.safeParse(id).success ? await store.projects.getById(id.toLowerCase()) : undefined;
    if (!project) return notFoundPage(c, 'project');
    const monitor = await store.monitors.get(project.organization_id, project.id);
    const checks = await store.monitors.page(project.id, CHECKS_SHOWN, undefined, false);
    return c.html(
      monitoringPage(
        project.domain,
        toMonitoring(project, monitor, options.monitorIntervalMinutes, options.publicUrl),
        checks.slice(0, CHECKS_SHOWN).map(toMonitorCheck),
      ),
      200,
      HEADERS,
    );
  });
  return app;
}
