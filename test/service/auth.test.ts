// spec 5 and 8 over HTTP: bearer keys, scopes, pinned keys, organization isolation, the rate limit
// and the audit log, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyContext, SCOPES, type Scope } from '../../src/contract/index.ts';
import { issueKey } from '../../src/service/api-keys.ts';
import { startService } from '../../src/service/server.ts';
import { openStore } from '../../src/service/store/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { request, startTestService, type TestService } from '../support/service.ts';

const OTHER_UUID = '0190f5a0-0000-7000-8000-000000000000';

// Every operation of this issue with the scope it needs (spec 4), and a valid request for it.
const OPERATIONS: Array<{
  name: string;
  scope: Scope;
  call: (s: TestService, key: string, projectId: string) => Promise<unknown>;
}> = [
  { name: 'GET /projects', scope: 'projects:read', call: (s, key) => s.request('/api/v1/projects', { key }) },
  {
    name: 'POST /projects',
    scope: 'projects:write',
    call: (s, key) => s.request('/api/v1/projects', { key, method: 'POST', json: { domain: 'scope.example' } }),
  },
  {
    name: 'GET /projects/{id}',
    scope: 'projects:read',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}`, { key }),
  },
  {
    name: 'PATCH /projects/{id}',
    scope: 'projects:write',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}`, { key, method: 'PATCH', json: { status: 'active' } }),
  },
  {
    name: 'DELETE /projects/{id}',
    scope: 'projects:delete',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}?confirm=nope.example`, { key, method: 'DELETE' }),
  },
  {
    name: 'GET /projects/{id}/integrations',
    scope: 'projects:read',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}/integrations`, { key }),
  },
  {
    name: 'GET /projects/{id}/signals',
    scope: 'projects:read',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}/signals`, { key }),
  },
  {
    name: 'GET /projects/{id}/marketing/report',
    scope: 'reports:read',
    call: (s, key, id) => s.request(`/api/v1/projects/${id}/marketing/report`, { key }),
  },
];

describe.each(testBackends())('authentication and limits on $name', (backend) => {
  let s: TestService;
  let orgId: string;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend);
    ({ organizationId: orgId, key } = await s.tenant());
    projectId = await s.createProject(key, 'auth.example');
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  const test = it.skipIf(!backend.available);

  test('GET /me answers the key context of spec 2.2 for any valid key', async () => {
    const narrow = await s.createKey(orgId, { scopes: ['runs:read'], name: 'narrow' });
    const res = await s.request<Record<string, unknown>>('/api/v1/me', { key: narrow });
    expect(res.status).toBe(200);
    expect(KeyContext.parse(res.body)).toMatchObject({
      keyPrefix: narrow.slice(0, 12),
      keyName: 'narrow',
      organizationId: orgId,
      projectId: null,
      scopes: ['runs:read'],
      plan: 'pro',
      credits: { remaining: 100, monthlyIncluded: 100 },
      apiVersion: 'v1',
      contractVersion: 2,
      latestCliVersion: '9.9.9',
      creditCosts: { ai_readiness: 1, marketing: 1, website_security: 1 },
    });
  });

  test('shows a null plan and no credits for an organization on the Free plan', async () => {
    const free = await s.tenant('free');
    const res = await s.request<Record<string, unknown>>('/api/v1/me', { key: free.key });
    expect(res.body).toMatchObject({ plan: null, credits: { remaining: 0, monthlyIncluded: 0 } });
  });

  test.each([
    ['no Authorization header', {}],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a bare key without Bearer', { authorization: 'svc_abc' }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['a key without the svc_ prefix', { authorization: 'Bearer sk_live_abc' }],
    ['an unknown svc_ key', { authorization: `Bearer svc_${'x'.repeat(43)}` }],
    ['a huge key', { authorization: `Bearer svc_${'x'.repeat(5000)}` }],
  ])('answers 401 unauthorized with a Bearer challenge for %s', async (_name, headers) => {
    const res = await s.request('/api/v1/me', { headers });
    expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test.each(['api_key', 'key', 'access_token', 'token'])(
    'refuses a key in the query string as ?%s=, even with a valid header',
    async (param) => {
      const res = await s.request(`/api/v1/me?${param}=${key}`, { key });
      expectError(res, 401, 'unauthorized');
      expect((res.body as { error: { message: string } }).error.message).toMatch(/query string/);
      const anyName = await s.request(`/api/v1/projects?whatever=${key}`, { key });
      expectError(anyName, 401, 'unauthorized');
    },
  );

  test('a revoked key is refused on its next request', async () => {
    const doomed = await s.createKey(orgId);
    expect((await s.request('/api/v1/me', { key: doomed })).status).toBe(200);
    await s.store.apiKeys.revokeByPrefix(doomed.slice(0, 12));
    expectError(await s.request('/api/v1/me', { key: doomed }), 401, 'unauthorized');
  });

  describe.each(OPERATIONS)('$name', ({ scope, call }) => {
    test(`needs ${scope}: a key with every other scope gets 403 insufficient_scope`, async () => {
      const others = SCOPES.filter((x) => x !== scope);
      const res = (await call(s, await s.createKey(orgId, { scopes: others }), projectId)) as Awaited<
        ReturnType<TestService['request']>
      >;
      expectError(res, 403, 'insufficient_scope');
      expect((res.body as { error: { requiredScope: string } }).error.requiredScope).toBe(scope);
    });
    test('is not 401, 403 or 5xx with the right scope alone', async () => {
      const res = (await call(s, await s.createKey(orgId, { scopes: [scope] }), projectId)) as Awaited<
        ReturnType<TestService['request']>
      >;
      expect([401, 403]).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    });
  });

  test('hides another organization’s project behind 404 not_found, for every operation on it', async () => {
    const stranger = await s.tenant();
    for (const op of OPERATIONS.filter((o) => o.name.includes('{id}'))) {
      const res = (await op.call(s, stranger.key, projectId)) as Awaited<ReturnType<TestService['request']>>;
      expectError(res, 404, 'not_found');
    }
    const list = await s.request<{ projects: unknown[] }>('/api/v1/projects?status=all', { key: stranger.key });
    expect(list.body.projects).toEqual([]);
  });

  // Found by the attack battery: a stranger's key without the scope learned the project exists (403).
  test('answers 404, not 403, for another organization’s project even to a key without the scope', async () => {
    const stranger = await s.tenant();
    for (const op of OPERATIONS.filter((o) => o.name.includes('{id}'))) {
      const scopeless = await s.createKey(stranger.organizationId, { scopes: SCOPES.filter((x) => x !== op.scope) });
      const res = (await op.call(s, scopeless, projectId)) as Awaited<ReturnType<TestService['request']>>;
      expectError(res, 404, 'not_found');
    }
  });

  // Found by the attack battery: a pinned key learned of another organization's project from a 403
  // on archive, and a key without runs:write from a 403 on a start naming it.
  test('answers 404 for another organization’s project to a pinned key archiving it and to a start without runs:write', async () => {
    const stranger = await s.tenant();
    const strangerProject = await s.createProject(stranger.key, 'stranger-pinned.example');
    const pinned = await s.createKey(stranger.organizationId, { projectId: strangerProject });
    expectError(
      await s.request(`/api/v1/projects/${projectId}?confirm=auth.example`, { key: pinned, method: 'DELETE' }),
      404,
      'not_found',
    );
    const noRuns = await s.createKey(stranger.organizationId, { scopes: SCOPES.filter((x) => x !== 'runs:write') });
    expectError(
      await s.request('/api/v1/runs', { key: noRuns, method: 'POST', json: { projectId } }),
      404,
      'not_found',
    );
    // Its own organization's project still answers 403 insufficient_scope.
    expectError(
      await s.request('/api/v1/runs', { key: noRuns, method: 'POST', json: { projectId: strangerProject } }),
      403,
      'insufficient_scope',
    );
  });

  test('a project-pinned key cannot create or archive (403 project_scoped_key) and sees only its project', async () => {
    const other = await s.request<{ projectId: string }>('/api/v1/projects', {
      key,
      method: 'POST',
      json: { domain: 'unpinned.example' },
    });
    const pinned = await s.createKey(orgId, { projectId });
    expectError(
      await s.request('/api/v1/projects', { key: pinned, method: 'POST', json: { domain: 'new.example' } }),
      403,
      'project_scoped_key',
    );
    expectError(
      await s.request(`/api/v1/projects/${projectId}?confirm=auth.example`, { key: pinned, method: 'DELETE' }),
      403,
      'project_scoped_key',
    );
    expect((await s.request(`/api/v1/projects/${projectId}`, { key: pinned })).status).toBe(200);
    expectError(await s.request(`/api/v1/projects/${other.body.projectId}`, { key: pinned }), 404, 'not_found');
    const list = await s.request<{ projects: Array<{ projectId: string }> }>('/api/v1/projects', { key: pinned });
    expect(list.body.projects.map((p) => p.projectId)).toEqual([projectId]);
    const me = await s.request<{ projectId: string }>('/api/v1/me', { key: pinned });
    expect(me.body.projectId).toBe(projectId);
    expect((await s.request(`/api/v1/projects/${projectId}`, { key })).status).toBe(200);
  });

  test('an unknown project id answers 404 not_found, and so does a malformed one', async () => {
    expectError(await s.request(`/api/v1/projects/${OTHER_UUID}`, { key }), 404, 'not_found');
    for (const bad of ['not-a-uuid', '1', '%00', "'%20OR%201=1--", '..%2F..%2Fetc%2Fpasswd']) {
      const res = await s.request(`/api/v1/projects/${bad}`, { key });
      expect(res.status, bad).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  test('writes every API request to the audit log with method, path, status and key prefix, never the secret', async () => {
    const marker = `/api/v1/projects/${OTHER_UUID}`;
    await s.request(`${marker}?limit=1`, { key });
    const [row] = await s.store.auditLog.recent(1);
    expect([row?.method, row?.path, row?.status, row?.key_prefix, row?.request_count]).toEqual([
      'GET',
      marker,
      404,
      key.slice(0, 12),
      1,
    ]);
    expect(row?.client_address).toBeNull();
    // Refusals before a key is recognised are kept one row per address and status a minute, counted.
    const refusals = async () => {
      await s.service.flushAuditLog();
      const rows = (await s.store.auditLog.recent(10_000)).filter((r) => r.status === 401);
      for (const r of rows)
        expect([r.key_prefix, r.organization_id, r.client_address]).toEqual([null, null, '127.0.0.1']);
      return rows.reduce((sum, r) => sum + r.request_count, 0);
    };
    const before = await refusals();
    await s.request('/api/v1/me', { headers: { authorization: `Bearer svc_${'y'.repeat(43)}` } });
    await s.request(`/api/v1/me?api_key=${key}`);
    expect(await refusals()).toBe(before + 2);
    const everything = JSON.stringify(await s.store.auditLog.recent(10_000));
    expect(everything).not.toContain(key.slice(12));
    expect(everything).not.toContain('y'.repeat(20));
  });

  test.each([
    ['the real key', () => key],
    ['a key with - and _ in its prefix', () => `svc_a-_b1-_2${'Zz9_-'.repeat(8)}`],
  ])('cuts %s pasted into the path to its prefix in the audit log', async (_name, pasted) => {
    const secret = pasted();
    expectError(await s.request(`/api/v1/projects/${secret}`, { key }), 404, 'not_found');
    const [row] = await s.store.auditLog.recent(1);
    expect(row?.path).toBe(`/api/v1/projects/${secret.slice(0, 12)}…`);
  });

  // Found by the attack battery: percent-encoded paths kept the whole secret.
  const encodings: [string, (secret: string) => string][] = [
    ['an encoded underscore', (k) => `/api/v1/${k.replace('svc_', 'svc%5F')}`],
    ['an encoded first letter', (k) => `/api/v1/projects/%73${k.slice(1)}`],
    [
      'every character encoded',
      (k) => `/api/v1/projects/${[...k].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('')}`,
    ],
    ['an encoded hyphen in the middle', (k) => `/api/v1/projects/${k.slice(0, 20)}%2D${k.slice(21)}`],
    ['double encoding', (k) => `/api/v1/projects/%2573${k.slice(1)}`],
    ['lowercase escapes', (k) => `/api/v1/projects/${k.slice(0, 3)}%5f${k.slice(4)}`],
  ];
  test.each(encodings)('masks a key in the path written with %s', async (_name, spell) => {
    const secret = `svc_${'Ab9-_'.repeat(8)}Qz`;
    await s.request(spell(secret), { key });
    const [row] = await s.store.auditLog.recent(1);
    const tail = secret.slice(12);
    expect(row?.path).not.toContain(tail.slice(0, 8));
    expect(row?.path).toContain('…');
  });

  test('keeps control characters in the path percent-encoded', async () => {
    await s.request('/api/v1/projects/a%00b%0Ac', { key });
    const [row] = await s.store.auditLog.recent(1);
    expect(row?.path).toBe('/api/v1/projects/a%00b%0Ac');
  });
});

describe.each(testBackends())('rate limit on $name', (backend) => {
  const test = it.skipIf(!backend.available);

  test('allows the limit per minute per key, then 429 rate_limited with Retry-After in whole seconds', async () => {
    const s = await startTestService(backend, { rateLimit: 5 });
    try {
      const { key, organizationId } = await s.tenant();
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await s.request('/api/v1/me', { key })).status);
      // A window may roll over mid-test; at least the limit passes and at most the limit per window.
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(5);
      const res = await s.request('/api/v1/me', { key });
      if (res.status === 429) {
        expectError(res, 429, 'rate_limited');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        const wait = Number(res.headers.get('retry-after'));
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
      }
      // Another key of the same organization has its own budget.
      expect((await s.request('/api/v1/me', { key: await s.createKey(organizationId) })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  // Found by a new user (issue 24): the CLI and every MCP host of one person share the local key,
  // and the third agent flow in a minute answered 429 on every tool.
  test("gives the local service's own key a budget of its own, higher and still bounded", async () => {
    const s = await startTestService(backend, { rateLimit: 3, localRateLimit: 12 });
    try {
      const { key, organizationId } = await s.tenant();
      const local = (await issueKey(s.store, s.kek, { organizationId, name: 'Local key', source: 'local' })).secret;
      const count = async (k: string, n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++) statuses.push((await s.request('/api/v1/me', { key: k })).status);
        return { ok: statuses.filter((x) => x === 200).length, limited: statuses.filter((x) => x === 429).length };
      };
      // A window may roll over mid-test: at most two windows' worth passes.
      const own = await count(local, 14);
      expect(own.ok).toBeGreaterThanOrEqual(12);
      const last = await s.request('/api/v1/me', { key: local });
      if (last.status === 429) expect(last.headers.get('ratelimit-limit')).toBe('12');
      expect((await count(key, 7)).ok).toBeLessThanOrEqual(6);
      expect((await s.request('/api/v1/me', { key: local })).headers.get('ratelimit-limit')).toBe('12');
      expect((await s.request('/api/v1/me', { key })).headers.get('ratelimit-limit')).toBe('3');
    } finally {
      await s.close();
    }
  });

  test('is shared by two service processes on one database', async () => {
    const first = await startTestService(backend, { rateLimit: 4 });
    const store = await openStore(first.location);
    const second = await startService({ store, kek: first.kek, port: 0, rateLimit: 4 });
    try {
      const { key } = await first.tenant();
      // Align to the start of a window so all requests land in the same one.
      const intoWindow = (Date.now() / 1000) % 60;
      if (intoWindow > 50) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const url = i % 2 === 0 ? first.url : second.url;
        statuses.push((await request(url, '/api/v1/me', { key })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await second.close();
      await store.close();
      await first.close();
    }
    // Up to 11 s of waiting for the next minute's window, beyond the default 10 s timeout.
  }, 20_000);
});
