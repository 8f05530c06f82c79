// The operator commands and `serve`, as separate processes sharing one store, on both backends.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/contract/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { BIN, runCli, runJson, type ServeProcess, startServe } from '../support/cli.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { request } from '../support/service.ts';

describe.each(testBackends())('siteaudit admin and serve on $name', (backend) => {
  let location: TestLocation;
  let where: string[];
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    location = await backend.create();
    where = location.databaseUrl
      ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
      : ['--data-dir', location.dataDir];
  });
  afterAll(async () => {
    if (backend.available) await location.cleanup();
  });

  test('admin org create --json prints the organization', async () => {
    const org = await runJson([
      'admin',
      'org',
      'create',
      '--name',
      'Acme Corp',
      '--plan',
      'pro',
      '--credits',
      '25',
      ...where,
    ]);
    expect(org).toEqual({
      organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationName: 'Acme Corp',
      organizationSlug: 'acme-corp',
      plan: 'pro',
      credits: 25,
    });
    const free = await runJson(['admin', 'org', 'create', '--name', 'Acme Corp', ...where]);
    expect(free).toMatchObject({ organizationSlug: 'acme-corp-2', plan: 'free', credits: 0 });
  });

  test('admin key create --json prints the secret once, with full scopes by default', async () => {
    const org = await runJson<{ organizationId: string; organizationSlug: string }>([
      'admin',
      'org',
      'create',
      '--name',
      'Keyed',
      ...where,
    ]);
    const key = await runJson(['admin', 'key', 'create', '--org', org.organizationSlug, '--name', 'ci', ...where]);
    expect(key).toEqual({
      secret: expect.stringMatching(/^svc_/),
      keyPrefix: (key.secret as string).slice(0, 12),
      keyName: 'ci',
      scopes: [...SCOPES],
      organizationId: org.organizationId,
      projectId: null,
    });
    const narrow = await runJson([
      'admin',
      'key',
      'create',
      '--org',
      org.organizationId,
      '--scopes',
      'projects:read,runs:read',
      ...where,
    ]);
    expect(narrow.scopes).toEqual(['projects:read', 'runs:read']);
    const list = await runJson<{ keys: Array<{ keyPrefix: string }> }>([
      'admin',
      'key',
      'list',
      '--org',
      org.organizationSlug,
      ...where,
    ]);
    expect(list.keys.map((k) => k.keyPrefix)).toEqual([key.keyPrefix, narrow.keyPrefix]);
    expect(JSON.stringify(list)).not.toContain((key.secret as string).slice(12));
  });

  test.each([
    [['admin', 'key', 'create', '--org', 'no-such-org'], 'not_found'],
    [['admin', 'key', 'create', '--org', 'acme-corp', '--scopes', 'projects:read,root'], 'invalid_argument'],
    [['admin', 'key', 'create', '--org', 'acme-corp', '--project', 'nope'], 'invalid_argument'],
    [
      ['admin', 'key', 'create', '--org', 'acme-corp', '--project', '0190f5a0-0000-7000-8000-000000000000'],
      'not_found',
    ],
    [['admin', 'org', 'create', '--name', 'X', '--plan', 'gold'], 'invalid_argument'],
    [['admin', 'org', 'create', '--name', 'X', '--credits', '-5'], 'invalid_argument'],
    [['admin', 'org', 'create', '--name', 'bad\u0007name'], 'invalid_argument'],
    [['admin', 'key', 'revoke', 'svc_notthere'], 'not_found'],
    [['admin', 'audit-log', 'prune', '--older-than-days', '-1'], 'invalid_argument'],
    [['admin', 'audit-log', 'list', '--limit', '0'], 'invalid_argument'],
    [['admin', 'audit-log', 'list', '--limit', '1001'], 'invalid_argument'],
    [['admin', 'audit-log', 'list', '--org', 'no-such-org'], 'not_found'],
  ])('%j exits 1 with a JSON error %s', async (args, code) => {
    const result = await runCli([...args, '--json', ...where]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code } });
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('serve answers /me and /openapi.json; admin key revoke takes effect at once; SIGTERM stops cleanly', async () => {
    const org = await runJson<{ organizationId: string }>([
      'admin',
      'org',
      'create',
      '--name',
      'Served',
      '--plan',
      'pro',
      ...where,
    ]);
    const key = await runJson<{ secret: string; keyPrefix: string }>([
      'admin',
      'key',
      'create',
      '--org',
      org.organizationId,
      ...where,
    ]);
    let serve: ServeProcess | undefined;
    try {
      serve = await startServe([...where, '--no-local-org']);
      const me = await request<{ organizationId: string }>(serve.url, '/api/v1/me', { key: key.secret });
      expect(me.status).toBe(200);
      expect(me.body.organizationId).toBe(org.organizationId);
      const openapi = await request<{ openapi: string; servers: Array<{ url: string }> }>(serve.url, '/openapi.json');
      expect(openapi.body.openapi).toBe('3.1.0');
      expect(openapi.body.servers[0]?.url).toBe(serve.url);

      const revoked = await runJson(['admin', 'key', 'revoke', key.keyPrefix, ...where]);
      expect(revoked).toMatchObject({ keyPrefix: key.keyPrefix, revoked: true });
      expect((await request(serve.url, '/api/v1/me', { key: key.secret })).status).toBe(401);

      const stderr = serve.stderr();
      expect(stderr).not.toContain(key.secret);
      expect(await serve.stop('SIGTERM')).toBe(0);
      expect(serve.stderr()).toContain('stopped');
      serve = undefined;
    } finally {
      await serve?.stop('SIGKILL');
    }
  });

  test('admin user create makes the first owner, who signs in to the dashboard of a serve process', async () => {
    const org = await runJson<{ organizationId: string }>(['admin', 'org', 'create', '--name', 'People', ...where]);
    const made = await runJson<{ email: string; role: string; password: string }>([
      'admin',
      'user',
      'create',
      '--email',
      'First.Owner@Example.com',
      '--org',
      org.organizationId,
      ...where,
    ]);
    expect(made).toMatchObject({ email: 'first.owner@example.com', role: 'owner' });
    expect(made.password).toMatch(/^[\w-]{24}$/);
    // A password given on standard input; a second account for one email is refused.
    const piped = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'admin',
          'user',
          'create',
          '--email',
          'm@example.com',
          '--org',
          org.organizationId,
          '--role',
          'member',
          '--password-stdin',
          '--json',
          ...where,
        ],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('exit', (code) => resolve({ code, stdout }));
      child.stdin.end('a member password, long enough\n');
    });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ role: 'member' });
    expect(JSON.parse(piped.stdout).password).toBeUndefined();
    const again = await runCli([
      'admin',
      'user',
      'create',
      '--email',
      'm@example.com',
      '--org',
      org.organizationId,
      '--json',
      ...where,
    ]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'conflict' } });
    for (const bad of [
      ['--email', 'not-an-email'],
      ['--email', 'x@example.com', '--role', 'admin'],
    ]) {
      const refused = await runCli([
        'admin',
        'user',
        'create',
        ...bad,
        '--org',
        org.organizationId,
        '--json',
        ...where,
      ]);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'invalid_argument' } });
    }
    const serve = await startServe([...where, '--no-local-org']);
    try {
      const browser = new TestBrowser(serve.url);
      expect((await browser.signIn('first.owner@example.com', made.password)).location).toBe('/');
      expect((await browser.get('/')).html).toContain('People (owner)');
      const member = new TestBrowser(serve.url);
      expect((await member.signIn('m@example.com', 'a member password, long enough')).status).toBe(303);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  test('admin project pause and resume move a project between active and paused', async () => {
    const org = await runJson<{ organizationId: string }>([
      'admin',
      'org',
      'create',
      '--name',
      'Pausing',
      '--plan',
      'pro',
      ...where,
    ]);
    const key = await runJson<{ secret: string }>(['admin', 'key', 'create', '--org', org.organizationId, ...where]);
    const serve = await startServe([...where, '--no-local-org']);
    try {
      const created = await request<{ projectId: string }>(serve.url, '/api/v1/projects', {
        key: key.secret,
        method: 'POST',
        json: { domain: 'pause.example' },
      });
      expect(await runJson(['admin', 'project', 'pause', created.body.projectId, ...where])).toEqual({
        projectId: created.body.projectId,
        status: 'paused',
      });
      // Pausing again changes nothing and succeeds.
      expect(await runJson(['admin', 'project', 'pause', created.body.projectId, ...where])).toMatchObject({
        status: 'paused',
      });
      expect(await runJson(['admin', 'project', 'resume', created.body.projectId, ...where])).toMatchObject({
        status: 'active',
      });
      // An archived project is neither paused nor resumed.
      await request(serve.url, `/api/v1/projects/${created.body.projectId}?confirm=pause.example`, {
        key: key.secret,
        method: 'DELETE',
      });
      const refused = await runCli(['admin', 'project', 'pause', created.body.projectId, '--json', ...where]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'invalid_state' } });
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  test('admin audit-log list shows the requests served; prune deletes rows past the retention', async () => {
    const listed = await runJson<{ entries: { method: string; path: string; status: number; requests: number }[] }>([
      'admin',
      'audit-log',
      'list',
      '--limit',
      '100',
      ...where,
    ]);
    // The serve test above: /me answered 200, then 401 once the key was revoked.
    expect(listed.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/api/v1/me', status: 200, requests: 1 }),
        expect.objectContaining({ method: 'GET', path: '/api/v1/me', status: 401, clientAddress: '127.0.0.1' }),
      ]),
    );
    const kept = await runJson<{ deleted: number }>(['admin', 'audit-log', 'prune', ...where]);
    expect(kept.deleted).toBe(0); // nothing is 90 days old
    // More days than there have been since 1970 keep everything: not a date past JavaScript's range.
    const forever = await runJson<{ deleted: number; before: string }>([
      'admin',
      'audit-log',
      'prune',
      '--older-than-days',
      '999999999',
      ...where,
    ]);
    expect(forever).toEqual({ deleted: 0, before: '1970-01-01T00:00:00.000Z' });
    const pruned = await runJson<{ deleted: number; before: string }>([
      'admin',
      'audit-log',
      'prune',
      '--older-than-days',
      '0',
      ...where,
    ]);
    expect(pruned.deleted).toBe(listed.entries.length);
    expect(Date.parse(pruned.before)).toBeLessThanOrEqual(Date.now());
    const after = await runCli(['admin', 'audit-log', 'list', ...where]);
    expect(after.stdout.trim()).toBe('no rows');
  });
});

describe('the embedded default', () => {
  it('serve on an empty data directory creates the local organization and a 0600 key file', async () => {
    const location = await testBackends()[0]?.create();
    if (!location) throw new Error('no sqlite backend');
    const serve = await startServe([], { SITEAUDIT_DATA_DIR: location.dataDir });
    try {
      const keyFile = join(location.dataDir, 'local-key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(location.dataDir, 'key-encryption-key')).mode & 0o777).toBe(0o600);
      expect(statSync(join(location.dataDir, 'siteaudit.db')).mode & 0o777).toBe(0o600);
      const secret = readFileSync(keyFile, 'utf8').trim();
      expect(serve.stderr()).not.toContain(secret);
      const me = await request<{ organizationName: string; plan: string; scopes: string[] }>(serve.url, '/api/v1/me', {
        key: secret,
      });
      expect(me.body).toMatchObject({ organizationName: 'Local', plan: 'pro', scopes: [...SCOPES] });
    } finally {
      expect(await serve.stop('SIGINT')).toBe(0);
      await location.cleanup();
    }
  });

  it('node_modules/.bin/siteaudit runs after npm ci, whatever node is first on PATH', async () => {
    const bin = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'siteaudit');
    const result = await runCli(['--version'], { PATH: `/usr/bin:/bin:${process.env.PATH ?? ''}` }, [bin]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
