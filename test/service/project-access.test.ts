// Issue 29: a site behind a preview wall, audited with its project's access settings. The site
// answers 401 to any request without its preview header, basic auth and cookie; with them set
// (PUT /api/v1/projects/{id}/access) it is audited whole: crawled, rendered, rechecked and
// monitored. The values go to the project's own origin only, never to a second origin it links,
// loads from or redirects to, and never appear in an API answer, an MCP result, a dashboard page,
// a log line or any table (where they are only sealed).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageWatcher } from '../../src/audit/index.ts';
import { FindingPage, ProjectAccess, RecheckResult, type Run } from '../../src/contract/index.ts';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { loadKeyEncryptionKey } from '../../src/service/key-encryption.ts';
import { accessLoader } from '../../src/service/project-access.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { hasChromium } from '../support/browser.ts';
import { runJson, type ServeProcess, startServe } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { connectHttp, startLoopbackMcp, textOf } from '../support/mcp.ts';
import { request } from '../support/service.ts';

const PASSWORD = 'correct horse battery staple';

/** Every header of every request a site saw, as one text per request. */
function recordHeaders(site: FixtureSite): string[] {
  const seen: string[] = [];
  for (const [path, route] of site.routes) {
    if (typeof route === 'function') continue;
    site.routes.set(path, (req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.url} ${JSON.stringify(req.headers)}`);
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(route.body ?? '');
    });
  }
  return seen;
}

/** Every row of every table of the store, as text. */
async function everyRow(store: Store): Promise<Record<string, string>> {
  const tables =
    store.backend === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(store.db)).rows
      : (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            store.db,
          )
        ).rows;
  const dump: Record<string, string> = {};
  for (const { name } of tables)
    dump[name] = JSON.stringify((await sql`select * from ${sql.table(name)}`.execute(store.db)).rows);
  return dump;
}

describe.each(testBackends())('a site behind a preview wall on $name', (backend) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  const token = `tok-${randomBytes(12).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const cookie = `ck-${randomBytes(12).toString('hex')}`;
  const basic = Buffer.from(`preview:${password}`).toString('base64');
  const secrets = [token, password, cookie, basic];
  const leaks = (text: string) => secrets.filter((secret) => text.includes(secret));

  let location: TestLocation;
  let serve: ServeProcess;
  let walled: FixtureSite;
  let other: FixtureSite;
  let otherSaw: string[];
  let walledSaw: string[];
  let key: string;
  let organizationId: string;
  let projectId: string;
  const api = <T>(path: string, init: { method?: string; json?: unknown } = {}) =>
    request<T>(serve.url, path, { key, ...init });

  beforeAll(async () => {
    if (!backend.available) return;
    other = await startFixtureSite({
      '/': { body: html('<title>Elsewhere</title>', '<h1>Elsewhere</h1>') },
      '/landing': { body: html('<title>Landing</title>', '<h1>Landing</h1>') },
      '/lib.js': { headers: { 'content-type': 'text/javascript' }, body: 'window.loaded = true;' },
      '/pixel.png': { headers: { 'content-type': 'image/png' }, body: '' },
    });
    cleanup.push(() => other.close());
    otherSaw = recordHeaders(other);
    const pages = {
      '/': {
        body: html(
          '<title>Preview of the shop</title>',
          `<main><h1>Shop preview</h1><p>${'Hand-made tools. '.repeat(20)}</p>
           <a href="/about">About</a> <a href="/go">Partner</a> <a href="${other.origin}/">Elsewhere</a>
           <img src="${other.origin}/pixel.png" alt="pixel"><script src="${other.origin}/lib.js"></script></main>`,
        ),
      },
      '/about': {
        body: html('<title>About the shop</title>', `<main><h1>About</h1><p>${'We forge. '.repeat(20)}</p></main>`),
      },
      '/go': { status: 302, headers: { location: `${other.origin}/landing` } },
    };
    walled = await startFixtureSite(pages);
    cleanup.push(() => walled.close());
    walledSaw = recordHeaders(walled);
    // The wall: the three credentials or 401, whatever the path.
    for (const [path, route] of walled.routes) {
      if (typeof route !== 'function') continue;
      walled.routes.set(path, (req, res) => {
        const ok =
          req.headers['x-preview-token'] === token &&
          req.headers.authorization === `Basic ${basic}` &&
          (req.headers.cookie ?? '').split('; ').includes(`preview_session=${cookie}`);
        if (!ok) {
          walledSaw.push(`${req.url} refused`);
          res.writeHead(401, { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="preview"' });
          res.end('<!doctype html><title>Sign in</title><h1>Preview: sign in</h1>');
          return;
        }
        route(req, res);
      });
    }

    location = await backend.create();
    cleanup.push(() => location.cleanup());
    const where = location.databaseUrl
      ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
      : ['--data-dir', location.dataDir];
    const org = await runJson<{ organizationId: string }>([
      'admin',
      'org',
      'create',
      '--name',
      'Shop',
      '--plan',
      'pro',
      ...where,
    ]);
    organizationId = org.organizationId;
    key = (await runJson<{ secret: string }>(['admin', 'key', 'create', '--org', organizationId, ...where])).secret;
    serve = await startServe([
      ...where,
      '--no-local-org',
      '--allow-local-targets',
      '--render',
      hasChromium ? 'always' : 'never',
      '--log-format',
      'json',
      '--log-level',
      'debug',
    ]);
    cleanup.push(() => serve.stop('SIGKILL'));
    const created = await api<{ projectId: string }>('/api/v1/projects', {
      method: 'POST',
      json: { domain: walled.host },
    });
    projectId = created.body.projectId;
  }, 60_000);

  const audit = async (): Promise<Run> => {
    const started = await api<Run>('/api/v1/runs', { method: 'POST', json: { projectId } });
    expect(started.status, started.text).toBe(202);
    let run = started.body;
    for (let i = 0; i < 60 && ['pending', 'running'].includes(run.status); i++)
      run = (await api<Run>(`/api/v1/runs/${run.runId}?waitSeconds=2`)).body;
    return run;
  };

  it.skipIf(!backend.available)(
    'refuses bad settings by name, never quoting a value, and lists only names',
    async () => {
      const bad: Array<[unknown, RegExp]> = [
        [{ headers: { 'x-preview-token': `${token}\r\nx-evil: 1` } }, /header value/],
        [{ headers: { Host: token } }, /cannot be set/],
        [{ headers: { Cookie: `a=${token}` } }, /cannot be set/],
        [{ headers: { 'bad name': token } }, /token/],
        [{ headers: { Authorization: `Bearer ${token}` }, basicAuth: { username: 'u', password: token } }, /not both/],
        [{ basicAuth: { username: `a:${token}`, password } }, /colon/],
        [{ cookies: { preview_session: `${cookie}; other=1` } }, /cookie value/],
        [{ headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, token])) }, /at most 20/],
        [{ headers: { 'x-a': token }, extra: token }, /./],
        [{ headers: { 'x-a': 'ok', 'X-A': token } }, /named twice/],
        // JSON makes __proto__ an own key; a record schema alone would drop it and answer 200.
        [JSON.parse(`{"headers": {"__proto__": "${token}", "x-a": "ok"}}`), /__proto__/],
      ];
      for (const [json, message] of bad) {
        const answer = await api<{ error: { code: string; message: string } }>(`/api/v1/projects/${projectId}/access`, {
          method: 'PUT',
          json,
        });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.error.code).toBe('validation_failed');
        expect(answer.body.error.message).toMatch(message);
        expect(leaks(answer.text)).toEqual([]);
      }
      const none = await api(`/api/v1/projects/${projectId}/access`);
      expect(ProjectAccess.parse(none.body)).toEqual({
        projectId,
        headers: [],
        cookies: [],
        basicAuth: false,
        updatedAt: null,
      });
      // Another organization's project is not there.
      const stranger = await request(serve.url, `/api/v1/projects/${projectId}/access`, { key: 'svc_nope' });
      expect(stranger.status).toBe(401);
    },
  );

  it.skipIf(!backend.available)(
    'audits the site whole with them, sending them to its own origin only',
    async () => {
      // Without the settings the wall is all the audit sees.
      const blocked = await audit();
      expect(walledSaw.filter((line) => line.endsWith('refused')).length).toBeGreaterThan(0);
      expect(walledSaw.some((line) => line.startsWith('/about '))).toBe(false);
      expect(['failed', 'completed']).toContain(blocked.status);

      const set = await api(`/api/v1/projects/${projectId}/access`, {
        method: 'PUT',
        json: {
          headers: { 'X-Preview-Token': token },
          basicAuth: { username: 'preview', password },
          cookies: { preview_session: cookie },
        },
      });
      expect(set.status, set.text).toBe(200);
      const shown = ProjectAccess.parse(set.body);
      expect(shown).toMatchObject({
        projectId,
        headers: ['X-Preview-Token'],
        cookies: ['preview_session'],
        basicAuth: true,
      });
      expect(leaks(set.text)).toEqual([]);
      expect(leaks((await api(`/api/v1/projects/${projectId}/access`)).text)).toEqual([]);

      otherSaw.length = 0;
      const run = await audit();
      expect(run.status, JSON.stringify(run)).toBe('completed');
      // Audited whole: the linked page was fetched with the credentials, and judged.
      expect(walledSaw.some((line) => line.startsWith('/about {'))).toBe(true);
      const findings = FindingPage.parse((await api(`/api/v1/runs/${run.runId}/findings?limit=100`)).body).findings;
      expect(findings.some((f) => f.affectedUrls.some((url) => url.endsWith('/about')))).toBe(true);
      // The second origin was asked (the redirect followed; rendered, the script and the image), never with them.
      expect(otherSaw.length).toBeGreaterThan(0);
      if (hasChromium) expect(otherSaw.some((line) => line.startsWith('/lib.js'))).toBe(true);
      for (const line of otherSaw) {
        expect(leaks(line), line).toEqual([]);
        expect(line.toLowerCase()).not.toContain('x-preview-token');
        expect(line).not.toContain('preview_session');
      }

      // A recheck sees the page as the run did (the wall would answer 401 without the settings).
      const description = findings.find((f) => f.checkId === 'meta-description');
      expect(description, JSON.stringify(findings.map((f) => f.checkId))).toBeDefined();
      const rechecked = await api(`/api/v1/runs/${run.runId}/recheck`, {
        method: 'POST',
        json: { findingId: description?.findingId },
      });
      expect(rechecked.status, rechecked.text).toBe(200);
      expect(RecheckResult.parse(rechecked.body).results[0]?.status).toBe('fail');

      // Monitoring looks at the pages with them: up, not 401.
      const store = await openStore(location);
      cleanup.push(() => store.close());
      const watcher = createPageWatcher({ allowPrivate: true, confirmAfterMs: 10 });
      cleanup.push(() => watcher.close());
      const access = await accessLoader(store, loadKeyEncryptionKey(location.dataDir, {}))(
        projectId,
        `${walled.origin}/`,
      );
      const look = await watcher.look({ url: `${walled.origin}/`, local: true }, undefined, access);
      expect(look).toMatchObject({ httpStatus: 200, up: true });
      expect((await watcher.look({ url: `${walled.origin}/`, local: true })).httpStatus).toBe(401);

      // Nowhere in an answer: the run, its report, its findings, through MCP, on the dashboard.
      const answers = [
        await api(`/api/v1/runs/${run.runId}`),
        await api(`/api/v1/runs/${run.runId}/report`),
        await api(`/api/v1/runs/${run.runId}/findings?limit=100`),
        await api(`/api/v1/projects/${projectId}`),
        await api('/api/v1/projects'),
      ];
      for (const answer of answers) expect(leaks(answer.text)).toEqual([]);
      const mcp = await startLoopbackMcp(serve.url, { pacing: false });
      cleanup.push(() => mcp.close());
      const client = await connectHttp(mcp.url, key, { era: '2026-07-28' });
      cleanup.push(() => client.close());
      for (const [name, args] of [
        ['get_report', { runId: run.runId }],
        ['page_findings', { runId: run.runId, url: `${walled.origin}/about` }],
        ['list_runs', { projectId }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(leaks(JSON.stringify(result))).toEqual([]);
      }
      const owner = await createUser(store, { email: 'owner@example.com', name: 'Owner', password: PASSWORD });
      await addMember(store, owner.id, organizationId, 'owner');
      const browser = new TestBrowser(serve.url);
      expect((await browser.signIn('owner@example.com', PASSWORD)).status).toBe(303);
      for (const page of [`/runs/${run.runId}`, `/projects/${projectId}`]) {
        const opened = await browser.open(page);
        expect(opened.status, page).toBe(200);
        expect(leaks(opened.html), page).toEqual([]);
      }

      // In no table but sealed, and in no log line.
      const rows = await everyRow(store);
      for (const [table, text] of Object.entries(rows)) expect(leaks(text), table).toEqual([]);
      expect(rows.project_access).toMatch(/"sealed":"v1\./);
      expect(leaks(serve.stderr())).toEqual([]);

      // {} clears them: the row goes.
      const cleared = await api(`/api/v1/projects/${projectId}/access`, { method: 'PUT', json: {} });
      expect(ProjectAccess.parse(cleared.body)).toMatchObject({
        headers: [],
        cookies: [],
        basicAuth: false,
        updatedAt: null,
      });
      expect(JSON.parse((await everyRow(store)).project_access ?? '[]')).toEqual([]);
    },
    180_000,
  );
});
