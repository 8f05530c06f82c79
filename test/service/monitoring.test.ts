// Monitoring (issue 11) on both backends: a real site on loopback that goes down, comes back and
// changes; the checks and monitoring.changed events that follow, driven by an injected clock; the
// events delivered signed to a real HTTPS receiver; the schedule shared by two checkers; the API,
// its errors and the dashboard page.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import {
  CreatedWebhookEndpoint,
  MonitorCheckList,
  Monitoring,
  MonitoringChangedData,
  type Run,
} from '../../src/contract/index.ts';
import { Deliverer } from '../../src/service/deliverer.ts';
import { SiteMonitor } from '../../src/service/monitor.ts';
import { verifyWebhook } from '../../src/webhooks.ts';
import { testBackends } from '../support/backends.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { signedInOwner } from '../support/form-browser.ts';
import { type HookReceiver, startHookReceiver } from '../support/hook-receiver.ts';
import { createTestCa, type TestCa } from '../support/secure-sites.ts';
import { startTestService, type TestService } from '../support/service.ts';

const KEK = Buffer.alloc(32, 7);
const MINUTE = 60_000;

const home = (title: string, extra = '') =>
  html(
    `<title>${title}</title><meta name="description" content="Fresh bread daily">`,
    `<main><h1>${title}</h1><p>Open every day.</p>${extra}<a href="/about">About</a><a href="/menu">Menu</a></main>`,
  );
const about = html('<title>About</title>', '<main><h1>About</h1><a href="/menu">Menu</a></main>');
const menu = html('<title>Menu</title>', '<main><h1>Menu</h1><a href="/about">About</a></main>');

describe.each(testBackends())('monitoring on $name', (backend) => {
  let ca: TestCa;
  let dns: DnsServer;
  let receiver: HookReceiver;
  let hookPort: number;
  let site: FixtureSite;
  let s: TestService;
  let key: string;
  let organizationId: string;
  // Ahead of the wall clock, so a project switched on (at the real time) is due at once.
  let now = Date.now() + 3600_000;
  let monitor: SiteMonitor;
  let deliverer: Deliverer;
  const received = () => receiver.received;
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    ca = createTestCa();
    dns = await startDnsServer({ 'hooks.test': { A: ['127.0.0.1'] } });
    receiver = await startHookReceiver(ca, ['hooks.test']);
    hookPort = receiver.port;
    site = await startFixtureSite({
      '/': { body: home('Bakery') },
      '/about': { body: about },
      '/menu': { body: menu },
    });
    s = await startTestService(backend, {
      kek: KEK,
      allowLocalTargets: true,
      deliverer: false,
      monitor: false,
      monitorIntervalMinutes: 30,
      monitorMinIntervalMinutes: 5,
    });
    ({ key, organizationId } = await s.tenant());
    monitor = new SiteMonitor({
      store: s.store,
      publicUrl: () => s.url,
      engine: { allowPrivate: true, timeoutMs: 1000 },
      defaultIntervalMinutes: 30,
      confirmAfterMs: 10,
      clock: () => now,
      autoStart: false,
    });
    deliverer = new Deliverer({
      store: s.store,
      kek: KEK,
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ca: ca.caPem,
      timeoutMs: 2000,
      clock: () => now,
      autoStart: false,
    });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await monitor.stop();
    await deliverer.stop();
    await s.close();
    await site.close();
    await receiver.close();
    await dns.close();
    ca.cleanup();
  });
  beforeEach(() => {
    if (!backend.available) return;
    site.routes.set('/', { body: home('Bakery') });
    received().length = 0;
  });

  const monitoring = async (projectId: string, k = key) => {
    const response = await s.request(`/api/v1/projects/${projectId}/monitoring`, { key: k });
    expect(response.status, response.text).toBe(200);
    return Monitoring.parse(response.body);
  };
  const enable = async (projectId: string, json: unknown = { enabled: true }) => {
    const response = await s.request(`/api/v1/projects/${projectId}/monitoring`, { key, method: 'PUT', json });
    expect(response.status, response.text).toBe(200);
    return Monitoring.parse(response.body);
  };
  const checks = async (projectId: string, query = '') => {
    const response = await s.request(`/api/v1/projects/${projectId}/monitoring/checks${query}`, { key });
    expect(response.status, response.text).toBe(200);
    return MonitorCheckList.parse(response.body);
  };
  /** The clock moves on by one interval and every due check runs. */
  const nextRound = async (minutes = 30) => {
    now += minutes * MINUTE;
    await monitor.tick();
  };
  const deliveredEvents = async () => {
    await deliverer.tick();
    return received().map((r) => {
      const event = verifyWebhook({
        secret: hookSecret,
        header: r.headers['x-service-signature'] as string,
        body: r.body,
        now,
      });
      expect(r.headers['x-service-event']).toBe('monitoring.changed');
      return { id: event.id, data: MonitoringChangedData.parse(event.data) };
    });
  };
  let hookSecret = '';

  test('a site that goes down, comes back and changes: checks, history and signed monitoring.changed events', async () => {
    const hook = await s.request('/api/v1/webhooks', {
      key,
      method: 'POST',
      json: { url: `https://hooks.test:${hookPort}/monitor`, events: ['monitoring.changed'] },
    });
    hookSecret = CreatedWebhookEndpoint.parse(hook.body).secret;
    const projectId = await s.createProject(key, site.host);
    const before = await monitoring(projectId);
    expect(before).toMatchObject({ enabled: false, intervalMinutes: null, effectiveIntervalMinutes: 30 });
    expect(before.pages).toEqual([expect.objectContaining({ url: `${site.origin}/`, state: 'unknown' })]);
    expect(before.humanUrl).toBe(`${s.url}/projects/${projectId}/monitoring`);

    const on = await enable(projectId);
    expect(on).toMatchObject({ enabled: true, effectiveIntervalMinutes: 30 });
    expect(on.nextCheckAt).not.toBeNull();

    // The first check is the baseline: up, no event.
    await nextRound(0);
    expect((await monitoring(projectId)).pages).toEqual([
      expect.objectContaining({ url: `${site.origin}/`, state: 'up', httpStatus: 200 }),
    ]);
    expect(await deliveredEvents()).toEqual([]);

    // Not due yet: nothing more is checked.
    await nextRound(10);
    expect((await checks(projectId)).checks).toHaveLength(1);

    // Down: 503 on both looks (the second confirms).
    site.routes.set('/', { status: 503, body: 'maintenance' });
    await nextRound(20);
    let events = await deliveredEvents();
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        projectId,
        url: `${site.origin}/`,
        kind: 'failed',
        httpStatus: 503,
        previousHttpStatus: 200,
        changes: ['status'],
        humanUrl: `${s.url}/projects/${projectId}/monitoring`,
      }),
    ]);

    // Still down with the same status class: no new event; a different failure is one.
    received().length = 0;
    await nextRound();
    expect(await deliveredEvents()).toEqual([]);
    site.routes.set('/', { status: 404, body: 'gone' });
    await nextRound();
    events = await deliveredEvents();
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ kind: 'failed', httpStatus: 404, previousHttpStatus: 503 }),
    ]);

    // Back, with the content it had: recovered, nothing else changed.
    received().length = 0;
    site.routes.set('/', { body: home('Bakery') });
    await nextRound();
    events = await deliveredEvents();
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ kind: 'recovered', httpStatus: 200, previousHttpStatus: 404, changes: ['status'] }),
    ]);

    // New text is a change; a clock ticking in it is not; a new title and heading are.
    received().length = 0;
    site.routes.set('/', { body: home('Bakery', '<p>Updated 12:01:07, 1234 visitors</p>') });
    await nextRound();
    events = await deliveredEvents();
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ kind: 'changed', changes: ['text'] })]);
    received().length = 0;
    site.routes.set('/', { body: home('Bakery', '<p>Updated 12:31:55, 1301 visitors</p>') });
    await nextRound();
    expect(await deliveredEvents()).toEqual([]);
    site.routes.set('/', { body: home('Bakery &amp; Café', '<p>Updated 13:01:00, 1400 visitors</p>') });
    await nextRound();
    events = await deliveredEvents();
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ kind: 'changed', httpStatus: 200, changes: ['title', 'headings', 'text'] }),
    ]);

    // The history: every check, newest first, and the ones that emitted events on request.
    const history = await checks(projectId);
    expect(history.checks.map((c) => c.kind)).toEqual([
      'changed',
      null,
      'changed',
      'recovered',
      'failed',
      null,
      'failed',
      null,
    ]);
    const changes = await checks(projectId, '?changesOnly=true');
    expect(changes.checks.map((c) => c.kind)).toEqual(['changed', 'changed', 'recovered', 'failed', 'failed']);
    expect(changes.checks[0]?.eventId).toBe(events[0]?.id);
    const paged = await checks(projectId, '?limit=3');
    expect(paged.checks).toHaveLength(3);
    const rest = await checks(projectId, `?limit=3&cursor=${paged.pagination.nextCursor}`);
    expect((rest.checks[0]?.checkedAt ?? '') < (paged.checks[2]?.checkedAt ?? '')).toBe(true);

    // The dashboard page shows the states and the history.
    const dashboard = await (await signedInOwner(s, organizationId)).get(`/projects/${projectId}/monitoring`);
    expect(dashboard.status).toBe(200);
    const page = dashboard.html;
    expect(page).toContain('recovered');
    expect(page).toContain('title, headings, text');
    expect(page).toContain(`${site.origin}/`);
  });

  test('a site that stops answering at all fails with no status, and the key pages of the last run are watched too', async () => {
    const other = await startFixtureSite({
      '/': { body: home('Mill') },
      '/about': { body: about },
      '/menu': { body: menu },
    });
    try {
      const projectId = await s.createProject(key, other.host);
      // A run finds the most linked pages; monitoring watches them besides the home page.
      const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
      let run = started.body;
      for (let i = 0; i < 200 && run.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
      }
      expect(run.status).toBe('completed');
      await enable(projectId, { enabled: true, intervalMinutes: 5 });
      await nextRound(0);
      const watched = (await monitoring(projectId)).pages.map((p) => p.url).sort();
      expect(watched).toEqual([`${other.origin}/`, `${other.origin}/about`, `${other.origin}/menu`]);

      other.routes.set('/menu', { status: 500, body: 'oops' });
      await nextRound(5);
      const failures = (await checks(projectId, '?changesOnly=true')).checks;
      expect(failures).toEqual([
        expect.objectContaining({ url: `${other.origin}/menu`, kind: 'failed', httpStatus: 500 }),
      ]);
    } finally {
      await other.close();
    }
    // Closed: connection refused, no status.
    const projects = await s.request<{ projects: Array<{ projectId: string; domain: string }> }>('/api/v1/projects', {
      key,
    });
    const gone = projects.body.projects.find((p) => p.domain === other.host)?.projectId as string;
    await nextRound(5);
    const last = (await checks(gone, '?changesOnly=true')).checks[0];
    expect(last).toMatchObject({ kind: 'failed', httpStatus: null, up: false });
    expect(last?.error).toMatch(/ECONNREFUSED|refused/i);
    const state = await monitoring(gone);
    expect(state.pages.every((p) => p.state === 'down')).toBe(true);
    // Switched off: due or not, it is not checked again.
    await enable(gone, { enabled: false });
    const count = (await checks(gone)).checks.length;
    await nextRound(60);
    expect((await checks(gone)).checks).toHaveLength(count);
    expect(await monitoring(gone)).toMatchObject({ enabled: false, nextCheckAt: null });
  });

  test('two checkers on one store share the schedule: each due project is checked once per round', async () => {
    const second = new SiteMonitor({
      store: s.store,
      publicUrl: () => s.url,
      engine: { allowPrivate: true, timeoutMs: 1000 },
      confirmAfterMs: 10,
      clock: () => now,
      autoStart: false,
    });
    const sites = await Promise.all([1, 2, 3, 4].map(() => startFixtureSite({ '/': { body: home('Shop') } })));
    try {
      const org = await s.tenant();
      const ids = [];
      for (const fixture of sites) {
        const id = await s.createProject(org.key, fixture.host);
        const response = await s.request(`/api/v1/projects/${id}/monitoring`, {
          key: org.key,
          method: 'PUT',
          json: { enabled: true, intervalMinutes: 5 },
        });
        expect(response.status).toBe(200);
        ids.push(id);
      }
      for (let round = 0; round < 3; round++) {
        now += 5 * MINUTE;
        await Promise.all([monitor.tick(), second.tick()]);
      }
      for (const [i, id] of ids.entries()) {
        const list = (
          await s.request<{ checks: unknown[] }>(`/api/v1/projects/${id}/monitoring/checks`, { key: org.key })
        ).body.checks;
        expect(list, `project ${i}`).toHaveLength(3);
        expect(sites[i]?.requests.filter((r) => r.path === '/')).toHaveLength(3);
      }
    } finally {
      await second.stop();
      await Promise.all(sites.map((f) => f.close()));
    }
  });

  test('the API: defaults, bounds, bad bodies, archived projects, scopes and other organizations', async () => {
    const projectId = await s.createProject(key, '127.0.0.1:9');
    const put = (json: unknown, k = key, body?: string) =>
      s.request(`/api/v1/projects/${projectId}/monitoring`, {
        key: k,
        method: 'PUT',
        ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : { json }),
      });
    expect((await put({ enabled: true, intervalMinutes: 2 })).body).toMatchObject({
      error: { code: 'validation_failed', minimum: 5 },
    });
    expect((await put({ enabled: 'yes' })).status).toBe(400);
    expect((await put({ enabled: true, every: 5 })).status).toBe(400);
    expect((await put({ enabled: true, intervalMinutes: 10_081 })).status).toBe(400);
    expect((await put(undefined, key, '{')).body).toMatchObject({ error: { code: 'invalid_json' } });
    expect((await put({ enabled: true, intervalMinutes: 15 })).body).toMatchObject({
      enabled: true,
      intervalMinutes: 15,
      effectiveIntervalMinutes: 15,
    });
    // Back to the service's default.
    expect((await put({ enabled: true, intervalMinutes: null })).body).toMatchObject({
      intervalMinutes: null,
      effectiveIntervalMinutes: 30,
    });
    expect(
      (await s.request(`/api/v1/projects/${projectId}/monitoring/checks?changesOnly=yes`, { key })).body,
    ).toMatchObject({ error: { code: 'validation_failed' } });
    expect((await s.request(`/api/v1/projects/${projectId}/monitoring`, { key, method: 'DELETE' })).status).toBe(405);

    // A read-only key reads but cannot change; another organization sees nothing.
    const reader = await s.createKey(organizationId, { scopes: ['projects:read'] });
    expect((await s.request(`/api/v1/projects/${projectId}/monitoring`, { key: reader })).status).toBe(200);
    expect((await put({ enabled: false }, reader)).body).toMatchObject({ error: { code: 'insufficient_scope' } });
    const stranger = await s.tenant();
    for (const path of ['monitoring', 'monitoring/checks'])
      expect((await s.request(`/api/v1/projects/${projectId}/${path}`, { key: stranger.key })).status).toBe(404);
    expect((await put({ enabled: false }, stranger.key)).status).toBe(404);
    // A key pinned to the project may manage its monitoring.
    const pinned = await s.createKey(organizationId, { projectId });
    expect((await put({ enabled: false }, pinned)).status).toBe(200);

    // Archived: cannot be switched on, and is not checked while archived.
    await put({ enabled: true });
    const archived = await s.request(`/api/v1/projects/${projectId}`, {
      key,
      method: 'DELETE',
      json: { confirm: '127.0.0.1:9' },
    });
    expect(archived.status, archived.text).toBe(200);
    expect((await put({ enabled: true })).body).toMatchObject({ error: { code: 'project_archived' } });
    const count = (await checks(projectId)).checks.length;
    await nextRound(60);
    expect((await checks(projectId)).checks).toHaveLength(count);
    const viewer = await signedInOwner(s, organizationId);
    expect((await viewer.get('/projects/00000000-0000-7000-8000-000000000000/monitoring')).status).toBe(404);
    expect((await viewer.get('/projects/not-a-uuid/monitoring')).status).toBe(404);
  });
});
