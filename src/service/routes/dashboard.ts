// The dashboard pages behind every humanUrl: /runs/{runId}, /runs/{runId}/findings/{findingId},
// /projects/{projectId} and /projects/{projectId}/monitoring (with its on/off switch), for
// signed-in members of the organization (issue 12, issue 24); and /shared/{token}, the one report
// an owner chose to share by an unguessable link (docs/decisions.md, "Accounts").
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { html } from 'hono/html';
import {
  FINDING_ID_PATTERN,
  type Finding,
  PRODUCTS,
  type Product,
  type ProjectAccessBody,
  type ReportContext,
  Uuid,
} from '../../contract/index.ts';
import type { Role } from '../accounts.ts';
import { hashSecret } from '../api-keys.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { findingFilter } from '../dashboard/finding-filters.ts';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy, page } from '../dashboard/layout.ts';
import { monitoringPage } from '../dashboard/monitoring-page.ts';
import { findingPage, runPage } from '../dashboard/pages.ts';
import { projectPage } from '../dashboard/project-page.ts';
import { ApiError } from '../errors.ts';
import { clearsAccess, parseAccessBody, saveAccess, toProjectAccess } from '../project-access.ts';
import { toRun } from '../runs.ts';
import { toMonitorCheck, toMonitoring } from '../serialize.ts';
import type { SessionStore } from '../sessions.ts';
import type { ProjectRow, RunRow, Store } from '../store/index.ts';
import { field, formOf, refusedForm } from './account.ts';
import { changeMonitoring } from './monitoring.ts';

const HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'private, no-cache',
};

// A finding page may offer copy buttons for its suggestions: scripts from this service only.
const FINDING_HEADERS = { ...HEADERS, 'Content-Security-Policy': contentSecurityPolicy({ script: true }) };

// Pages that carry a form (the share link, the monitoring switch) post back to this service.
const FORM_HEADERS = { ...HEADERS, 'Content-Security-Policy': contentSecurityPolicy({ formAction: ["'self'"] }) };

const FINDINGS_SHOWN = 1000;
const CHECKS_SHOWN = 100;
/** Runs per product the project page lists, newest first. */
export const PROJECT_RUNS_SHOWN = 50;

/** A missing page; to a signed-in person with a way home, and under a share link with none. */
const notFoundPage = (c: AppContext, what = 'audit', signedIn = false) =>
  c.html(
    page('Not found', html`<h1>Not found</h1><p>No ${what} lives at this address.</p>`, signedIn ? { nav: [] } : {}),
    404,
    HEADERS,
  );

/**
 * Who may switch a project's monitoring here: the API's PUT asks for projects:write, a scope every
 * member may give a key they make (the API Keys page), so every role may.
 */
const MONITORING_ROLES: readonly Role[] = ['owner', 'member'];
const mayChangeMonitoring = (role: string) => (MONITORING_ROLES as readonly string[]).includes(role);

/**
 * Who may change a project's access settings here (issue 29): the API's PUT asks for projects:write
 * too, so the rule is monitoring's. A role without it sees the names and no form.
 */
const mayChangeAccess = mayChangeMonitoring;

/** What the project page says after its Access form did its work (`?access=` of the redirect). */
const ACCESS_NOTICES: Record<string, string> = {
  saved: 'Access settings saved. Audits from now on send them; the values are not shown again.',
  cleared: 'Access settings cleared. Audits reach the site as any visitor does.',
};

/** The Access form's fields as the API's body: a part is sent when any of its fields is filled in. */
function accessBodyOf(form: Record<string, string | string[]>): Record<string, unknown> {
  const text = (name: string) => field(form, name) ?? '';
  const part = (name: string, value: string) => (name || value ? { [name]: value } : undefined);
  const headers = part(text('headerName').trim(), text('headerValue'));
  const cookies = part(text('cookieName').trim(), text('cookieValue'));
  const username = text('username');
  const password = text('password');
  return {
    ...(headers ? { headers } : {}),
    ...(username || password ? { basicAuth: { username, password } } : {}),
    ...(cookies ? { cookies } : {}),
  };
}

/** Who is looking, and their role in the organization (none when it is not theirs or there is none). */
async function memberRole(sessions: SessionStore, c: AppContext, organizationId: string | undefined) {
  const who = await sessions.read(c);
  return { who, role: who?.workspaces.find((w) => w.organization.id === organizationId)?.role };
}

/** Not signed in: to the sign-in page and back; signed in without access: the same 404 as a missing page. */
function refuse(c: AppContext, signedIn: boolean, what: string) {
  if (signedIn) return notFoundPage(c, what, true);
  return c.redirect(`/sign-in?next=${encodeURIComponent(c.req.path)}`, 303);
}

function shareControls(runId: string, csrf: string, shares: number, link?: string) {
  return html`<div class="card" id="sharing">
    ${
      link
        ? html`<p><strong>Share link</strong> (shown once; anyone with it can read this report, nothing else):</p>
            <p><input readonly class="secret" id="share-link" value="${link}"></p>`
        : html`<p class="muted">${shares > 0 ? `Shared through ${shares} link(s).` : 'Only members of this workspace can open this report.'}</p>`
    }
    <form method="post" action="/runs/${runId}/share" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" name="action" value="create">Make a share link</button>${
      shares > 0 || link ? html` <button type="submit" name="action" value="stop">Stop sharing</button>` : ''
    }</form>
  </div>`;
}

/** A run as its pages show it: the wire shape, its report context and its first findings. */
async function withFindings(store: Store, row: RunRow, publicUrl: string) {
  const findings =
    row.status === 'completed'
      ? (await store.runs.findingsPage(row.id, { limit: FINDINGS_SHOWN }))
          .slice(0, FINDINGS_SHOWN)
          .map((f) => JSON.parse(f.body) as Finding)
      : [];
  return {
    row,
    run: toRun(row, publicUrl),
    report: row.report ? (JSON.parse(row.report) as ReportContext) : null,
    findings,
  };
}

export function dashboardRoutes({ store, options, sessions }: ServiceDeps) {
  const app = new Hono<AppEnv>();

  async function load(runId: string) {
    if (!Uuid.safeParse(runId).success) return undefined;
    const row = await store.runs.getById(runId.toLowerCase());
    return row ? withFindings(store, row, options.publicUrl) : undefined;
  }

  const runView = async (c: AppContext, runId: string, link?: string) => {
    const loaded = await load(runId);
    const { who, role } = await memberRole(sessions, c, loaded?.row.organization_id);
    if (!loaded || !role) return refuse(c, who !== undefined, 'audit');
    const csrf = sessions.csrfToken(c);
    const controls =
      role === 'owner'
        ? shareControls(loaded.row.id, csrf, await store.accounts.liveShares(loaded.row.id), link)
        : html``;
    const filter = findingFilter({ severity: c.req.query('severity'), category: c.req.query('category') });
    // Owners get a form on the page (FORM_HEADERS): it may post back here.
    return c.html(
      runPage(loaded.run, loaded.report, loaded.findings, `/runs/${loaded.row.id}`, controls, { filter }),
      200,
      link ? { ...FORM_HEADERS, 'Cache-Control': 'no-store' } : FORM_HEADERS,
    );
  };

  app.get('/:runId', (c) => runView(c, c.req.param('runId')));

  app.get('/:runId/findings/:findingId', async (c) => {
    const findingId = c.req.param('findingId');
    const loaded = FINDING_ID_PATTERN.test(findingId) ? await load(c.req.param('runId')) : undefined;
    const finding = loaded?.findings.find((f) => f.findingId === findingId);
    const { who, role } = await memberRole(sessions, c, loaded?.row.organization_id);
    if (!loaded || !finding || !role) return refuse(c, who !== undefined, 'audit');
    return c.html(findingPage(loaded.run, finding, `/runs/${loaded.row.id}`), 200, FINDING_HEADERS);
  });

  // An owner's opt-in: an unguessable link that opens this one report (docs/decisions.md, "Accounts").
  app.post('/:runId/share', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return notFoundPage(c);
    const loaded = await load(c.req.param('runId'));
    const { who, role } = await memberRole(sessions, c, loaded?.row.organization_id);
    if (!loaded || role !== 'owner' || !who) return refuse(c, who !== undefined, 'audit');
    if (field(form, 'action') === 'stop') {
      await store.accounts.stopSharing(loaded.row.id, new Date().toISOString());
      return c.redirect(`/runs/${loaded.row.id}#sharing`, 303);
    }
    const token = randomBytes(32).toString('base64url');
    await store.accounts.insertRunShare({
      token_hash: hashSecret(token),
      run_id: loaded.row.id,
      created_by: who.user.id,
      created_at: new Date().toISOString(),
    });
    return runView(c, loaded.row.id, `${options.publicUrl}/shared/${token}`);
  });

  return app;
}

/** /shared/{token}: the one report an owner shared, and its findings; nothing else of the workspace. */
export function sharedRunRoutes({ store, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const loadShared = async (token: string) => {
    if (!/^[\w-]{43}$/.test(token)) return undefined;
    const runId = await store.accounts.sharedRun(hashSecret(token));
    const row = runId ? await store.runs.getById(runId) : undefined;
    return row ? withFindings(store, row, options.publicUrl) : undefined;
  };
  const shared = { ...HEADERS, 'Cache-Control': 'no-store' };
  app.get('/:token', async (c) => {
    const loaded = await loadShared(c.req.param('token'));
    if (!loaded) return notFoundPage(c, 'shared report');
    const filter = findingFilter({ severity: c.req.query('severity'), category: c.req.query('category') });
    return c.html(
      runPage(loaded.run, loaded.report, loaded.findings, `/shared/${c.req.param('token')}`, html``, { filter }),
      200,
      shared,
    );
  });
  app.get('/:token/findings/:findingId', async (c) => {
    const loaded = await loadShared(c.req.param('token'));
    const finding = loaded?.findings.find((f) => f.findingId === c.req.param('findingId'));
    if (!loaded || !finding) return notFoundPage(c, 'shared report');
    return c.html(findingPage(loaded.run, finding, `/shared/${c.req.param('token')}`), 200, {
      ...FINDING_HEADERS,
      'Cache-Control': 'no-store',
    });
  });
  return app;
}

/**
 * /projects/{projectId}: the project's audits and their trend per product; /projects/{projectId}/monitoring:
 * the pages' states, the history of checks and the switch.
 */
export function projectPageRoutes(deps: ServiceDeps) {
  const { store, options, sessions, kek } = deps;
  const app = new Hono<AppEnv>();

  const findProject = async (id: string) =>
    Uuid.safeParse(id).success ? await store.projects.getById(id.toLowerCase()) : undefined;

  const showProject = async (
    c: AppContext,
    project: ProjectRow,
    role: string,
    extra: { notice?: string; error?: { text: string; status: 400 | 403 | 503 }; typed?: Record<string, string> } = {},
  ) => {
    const [monitor, stored, ...histories] = await Promise.all([
      store.monitors.get(project.organization_id, project.id),
      store.projectAccess.get(project.id),
      ...PRODUCTS.map((p) => store.runs.projectHistory(project.organization_id, project.id, p, PROJECT_RUNS_SHOWN)),
    ]);
    const runs = {} as Record<Product, Awaited<ReturnType<typeof store.runs.projectHistory>>>;
    const more = {} as Record<Product, boolean>;
    PRODUCTS.forEach((p, i) => {
      const rows = (histories[i] ?? []) as Awaited<ReturnType<typeof store.runs.projectHistory>>;
      runs[p] = rows.slice(0, PROJECT_RUNS_SHOWN);
      more[p] = rows.length > PROJECT_RUNS_SHOWN;
    });
    const monitoring = toMonitoring(project, monitor, options.monitorIntervalMinutes, options.publicUrl);
    return c.html(
      projectPage({
        project: { id: project.id, domain: project.domain, status: project.status, createdAt: project.created_at },
        monitoring,
        runs,
        more,
        shown: PROJECT_RUNS_SHOWN,
        access: {
          access: toProjectAccess(project.id, stored),
          ...(mayChangeAccess(role) ? { csrf: sessions.csrfToken(c) } : {}),
          ...(extra.notice ? { notice: extra.notice } : {}),
          ...(extra.error ? { error: extra.error.text } : {}),
          ...(extra.typed ? { typed: extra.typed } : {}),
        },
      }),
      extra.error?.status ?? 200,
      // The Access form posts back here.
      FORM_HEADERS,
    );
  };

  app.get('/:projectId', async (c) => {
    const project = await findProject(c.req.param('projectId'));
    const { who, role } = await memberRole(sessions, c, project?.organization_id);
    if (!project || !role) return refuse(c, who !== undefined, 'project');
    const notice = ACCESS_NOTICES[c.req.query('access') ?? ''];
    return showProject(c, project, role, notice ? { notice } : {});
  });

  // The Access form: the same change as the API's PUT /projects/{id}/access (the whole settings
  // replaced, or cleared), refused in the API's words. No value is ever put back into the page.
  app.post('/:projectId/access', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c, FORM_HEADERS);
    const project = await findProject(c.req.param('projectId'));
    const { who, role } = await memberRole(sessions, c, project?.organization_id);
    if (!project || !role) return refuse(c, who !== undefined, 'project');
    if (!mayChangeAccess(role))
      return showProject(c, project, role, {
        error: { text: 'Your role cannot change the access settings.', status: 403 },
      });
    if (field(form, 'action') === 'clear') {
      await store.projectAccess.clear(project.id);
      return c.redirect(`/projects/${project.id}?access=cleared#access`, 303);
    }
    const typed = {
      headerName: (field(form, 'headerName') ?? '').trim().slice(0, 100),
      cookieName: (field(form, 'cookieName') ?? '').trim().slice(0, 100),
    };
    const refused = (text: string, status: 400 | 503 = 400) =>
      showProject(c, project, role, { error: { text, status }, typed });
    let input: ProjectAccessBody;
    try {
      input = parseAccessBody(accessBodyOf(form));
    } catch (error) {
      if (error instanceof ApiError) return refused(`Not saved: ${error.message}.`);
      throw error;
    }
    if (clearsAccess(input))
      return refused('Not saved: fill in a header, basic auth or a cookie, or clear the settings with the button.');
    try {
      await saveAccess(store, kek, project.id, input);
    } catch (error) {
      if (error instanceof ApiError && error.status === 503) return refused(`Not saved: ${error.message}.`, 503);
      throw error;
    }
    return c.redirect(`/projects/${project.id}?access=saved#access`, 303);
  });

  const showMonitoring = async (
    c: AppContext,
    project: ProjectRow,
    role: string,
    error?: { text: string; status: 400 | 403 | 409 },
  ) => {
    const monitor = await store.monitors.get(project.organization_id, project.id);
    const checks = await store.monitors.page(project.id, CHECKS_SHOWN, undefined, false);
    return c.html(
      monitoringPage({
        project: { id: project.id, domain: project.domain },
        monitoring: toMonitoring(project, monitor, options.monitorIntervalMinutes, options.publicUrl),
        checks: checks.slice(0, CHECKS_SHOWN).map(toMonitorCheck),
        ...(mayChangeMonitoring(role) ? { csrf: sessions.csrfToken(c) } : {}),
        ...(error ? { error: error.text } : {}),
      }),
      error?.status ?? 200,
      FORM_HEADERS,
    );
  };

  app.get('/:projectId/monitoring', async (c) => {
    const project = await findProject(c.req.param('projectId'));
    const { who, role } = await memberRole(sessions, c, project?.organization_id);
    if (!project || !role) return refuse(c, who !== undefined, 'project');
    return showMonitoring(c, project, role);
  });

  // The switch: the same change as the API's PUT /projects/{id}/monitoring, keeping the project's interval.
  app.post('/:projectId/monitoring', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c, FORM_HEADERS);
    const project = await findProject(c.req.param('projectId'));
    const { who, role } = await memberRole(sessions, c, project?.organization_id);
    if (!project || !role) return refuse(c, who !== undefined, 'project');
    if (!mayChangeMonitoring(role))
      return showMonitoring(c, project, role, { text: 'Your role cannot switch monitoring.', status: 403 });
    const enabled = field(form, 'enabled');
    if (enabled !== 'on' && enabled !== 'off')
      return showMonitoring(c, project, role, { text: 'Choose to switch monitoring on or off.', status: 400 });
    const monitor = await store.monitors.get(project.organization_id, project.id);
    try {
      await changeMonitoring(deps, project, {
        enabled: enabled === 'on',
        intervalMinutes: monitor?.interval_minutes ?? null,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text =
        error.code === 'project_archived'
          ? 'This project is archived: restore it before switching monitoring on.'
          : `Monitoring was not changed: ${error.message}.`;
      return showMonitoring(c, project, role, { text, status: error.status === 409 ? 409 : 400 });
    }
    return c.redirect(`/projects/${project.id}/monitoring`, 303);
  });
  return app;
}
