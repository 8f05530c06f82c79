// Bad input of any kind gets a 4xx in the error envelope, never a 500, and changes nothing.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Refused in every field they can reach (names, domains, enums, ids, cursors).
const ODD_STRINGS = [
  '\u0000',
  '\uFFFF',
  '\uD800',
  '😀'.repeat(101),
  'a'.repeat(70_000),
  '\r\nX-Injected: 1',
  '\u001b[31m',
];

// Odd but legal as a name: stored and answered verbatim, never interpreted.
const LEGAL_ODD_NAMES = [
  '<script>alert(1)</script>',
  "'; drop table projects; --",
  '%s%n%x',
  '../../../../etc/passwd',
  '😀'.repeat(100),
  'Ünïcødé ✓',
];

/** Percent-encodes for a URL; a lone surrogate goes as its raw, invalid UTF-8 bytes. */
const enc = (text: string) => (text.isWellFormed() ? encodeURIComponent(text) : '%ED%A0%80');

describe.each(testBackends())('bad input on $name', (backend) => {
  let s: TestService;
  let key: string;
  let projectId: string;
  const test = it.skipIf(!backend.available);

  async function snapshot() {
    return JSON.stringify(await s.store.db.selectFrom('projects').selectAll().orderBy('id').execute());
  }

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend);
    ({ key } = await s.tenant());
    projectId = await s.createProject(key, 'steady.example');
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  test('answers 4xx in the envelope for odd strings in every field, and stores nothing', async () => {
    const before = await snapshot();
    for (const odd of ODD_STRINGS) {
      const attempts = [
        s.request('/api/v1/projects', { key, method: 'POST', json: { domain: odd } }),
        s.request('/api/v1/projects', { key, method: 'POST', json: { domain: 'fresh.example', name: odd } }),
        s.request(`/api/v1/projects/${projectId}`, { key, method: 'PATCH', json: { status: odd } }),
        s.request(`/api/v1/projects/${projectId}`, { key, method: 'DELETE', json: { confirm: odd } }),
        s.request(`/api/v1/projects?status=${enc(odd)}`, { key }),
        s.request(`/api/v1/projects?cursor=${enc(odd)}`, { key }),
        s.request(`/api/v1/projects?limit=${enc(odd)}`, { key }),
        s.request(`/api/v1/projects/${enc(odd)}`, { key }),
        s.request('/api/v1/cli/token', { method: 'POST', json: { code: odd, code_verifier: odd, redirect_uri: odd } }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, `${odd.slice(0, 20)}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${odd.slice(0, 20)}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        expect(res.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      }
    }
    expect(await snapshot()).toBe(before);
  });

  test('stores odd but legal names verbatim', async () => {
    for (const [i, name] of LEGAL_ODD_NAMES.entries()) {
      const res = await s.request<{ projectId: string; name: string }>('/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain: `legal${i}.example`, name },
      });
      expect(res.status).toBe(201);
      expect((await s.request<{ name: string }>(`/api/v1/projects/${res.body.projectId}`, { key })).body.name).toBe(
        name,
      );
    }
  });

  test('answers 413 payload_too_large for a body over the limit', async () => {
    const before = await snapshot();
    const huge = JSON.stringify({ domain: 'huge.example', name: 'x'.repeat(200_000) });
    expectError(await s.request('/api/v1/projects', { key, method: 'POST', body: huge }), 413, 'payload_too_large');
    expectError(await s.request('/api/v1/cli/token', { method: 'POST', body: huge }), 413, 'payload_too_large');
    expect(await snapshot()).toBe(before);
  });

  test('answers wrong types and deep nesting with 400, never 500', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const body of [
      '{"domain": ["a.example"]}',
      '{"domain": {"x": 1}}',
      deep,
      '\u0000',
      'true',
      '1e309',
      '{"domain":"a.example"}garbage',
    ]) {
      const res = await s.request('/api/v1/projects', { key, method: 'POST', body });
      expect(res.status, body.slice(0, 30)).toBe(400);
      expect(res.body).toMatchObject({ error: { code: expect.stringMatching(/^(invalid_json|invalid_domain)$/) } });
    }
  });

  test('answers 405 method_not_allowed with Allow for a known path and another method', async () => {
    const put = await s.request('/api/v1/projects', { key, method: 'PUT', json: {} });
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, POST');
    const post = await s.request(`/api/v1/projects/${projectId}`, { key, method: 'POST', json: {} });
    expect(post.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expectError(await s.request('/api/v1/cli/token'), 405, 'method_not_allowed');
  });

  test('answers 404 not_found in the envelope for an unknown route, after authentication', async () => {
    expectError(await s.request('/api/v1/nothing-here'), 401, 'unauthorized');
    expectError(await s.request('/api/v1/nothing-here', { key }), 404, 'not_found');
    expectError(await s.request('/nothing-here'), 404, 'not_found');
  });

  test('answers 503 service_unavailable with Retry-After when the database is gone', async () => {
    const doomed = await startTestService(backend);
    try {
      const tenant = await doomed.tenant();
      await doomed.store.close();
      const res = await doomed.request('/api/v1/me', { key: tenant.key });
      expectError(res, 503, 'service_unavailable');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await doomed.service.close();
      await doomed.location.cleanup();
    }
  });

  // Found by the attack battery: a client hanging up mid-body was logged as "database unavailable".
  test('a client that hangs up mid-body is a client fault, not a database failure', async () => {
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      logged.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const url = new URL('/api/v1/projects', s.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /api/v1/projects HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"domain": "half`,
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 100);
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.stderr.write = write;
    }
    expect(logged.join('')).not.toMatch(/database unavailable/);
    const [row] = await s.store.auditLog.recent(1);
    expect(row).toMatchObject({ method: 'POST', path: '/api/v1/projects', status: 400 });
  });

  // Found by the attack battery: these got an empty 400 from below the app.
  test.each([
    ['no Host header', 'GET /api/v1/me HTTP/1.1\r\n\r\n'],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('answers %s with 400 in the envelope', async (_name, head) => {
    const url = new URL(s.url);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      setTimeout(() => socket.destroy(), 2000);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"code":"invalid_request"');
  });
});
