// spec 4.3 to 4.7 and the state table 3.1 over HTTP, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ProjectList, RestoredProject } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

type P = { projectId: string; domain: string; status: string; restored?: boolean; idempotent?: boolean };

describe.each(testBackends())('projects API on $name', (backend) => {
  let s: TestService;
  let key: string;
  const test = it.skipIf(!backend.available);

  const create = (json: unknown, k = key) => s.request<P>('/api/v1/projects', { key: k, method: 'POST', json });
  const restore = (id: string, json: unknown = { status: 'active' }) =>
    s.request<P>(`/api/v1/projects/${id}`, { key, method: 'PATCH', json });
  const archive = (id: string, confirm: string) =>
    s.request(`/api/v1/projects/${id}?confirm=${encodeURIComponent(confirm)}`, { key, method: 'DELETE' });

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend);
    ({ key } = await s.tenant());
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  describe('state table 3.1', () => {
    test('(none) -> active: 201 with the new project, name defaulting to the domain', async () => {
      const res = await create({ domain: 'new.example' });
      expect(res.status).toBe(201);
      expect(Project.parse(res.body)).toMatchObject({
        domain: 'new.example',
        name: 'new.example',
        slug: 'new-example',
        status: 'active',
      });
      expect(res.body).not.toHaveProperty('idempotent');
    });

    test('active, same domain: 200 idempotent, the existing project unchanged', async () => {
      const first = await create({ domain: 'same.example', name: 'First' });
      const again = await create({ domain: 'SAME.example', name: 'Second' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        projectId: first.body.projectId,
        name: 'First',
        idempotent: true,
        restored: false,
      });
    });

    test('paused, same domain: 200 idempotent, still paused', async () => {
      const first = await create({ domain: 'paused.example' });
      await s.store.projects.setPaused(first.body.projectId, true);
      const again = await create({ domain: 'paused.example' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ projectId: first.body.projectId, status: 'paused', idempotent: true });
    });

    test('archived, same domain via POST: 200, the original row restored', async () => {
      const first = await create({ domain: 'comeback.example', name: 'Original' });
      expect((await archive(first.body.projectId, 'comeback.example')).status).toBe(200);
      const again = await create({ domain: 'comeback.example', name: 'Ignored' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        projectId: first.body.projectId,
        name: 'Original',
        status: 'active',
        restored: true,
        idempotent: true,
      });
    });

    test('archived, PATCH {status: active}: 200 restored=true idempotent=false', async () => {
      const { body } = await create({ domain: 'patch.example' });
      await archive(body.projectId, 'patch.example');
      const res = await restore(body.projectId);
      expect(res.status).toBe(200);
      expect(RestoredProject.parse(res.body)).toMatchObject({ status: 'active', restored: true, idempotent: false });
    });

    test('active, PATCH {status: active}: 200 restored=false idempotent=true (state-idempotent retries)', async () => {
      const { body } = await create({ domain: 'already.example' });
      for (let i = 0; i < 2; i++) {
        const res = await restore(body.projectId);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: 'active', restored: false, idempotent: true });
      }
    });

    test('paused, PATCH restore: 409 project_not_archived and no change', async () => {
      const { body } = await create({ domain: 'stay-paused.example' });
      await s.store.projects.setPaused(body.projectId, true);
      expectError(await restore(body.projectId), 409, 'project_not_archived');
      expect((await s.request<P>(`/api/v1/projects/${body.projectId}`, { key })).body.status).toBe('paused');
    });

    test.each(['active', 'paused'])(
      '%s, DELETE with the exact domain: archived, never deleted, kept in history',
      async (from) => {
        const { body } = await create({ domain: `archive-${from}.example` });
        if (from === 'paused') await s.store.projects.setPaused(body.projectId, true);
        const res = await archive(body.projectId, `archive-${from}.example`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true, projectId: body.projectId, archived: true, deleted: false });
        const after = await s.request<P>(`/api/v1/projects/${body.projectId}`, { key });
        expect(after.body.status).toBe('archived');
        const row = await s.store.projects.getById(body.projectId);
        expect(row?.archived_at).not.toBeNull();
      },
    );
  });

  describe('archive confirmation (spec 4.7)', () => {
    test('takes confirm from a JSON body as well', async () => {
      const { body } = await create({ domain: 'body-confirm.example' });
      const res = await s.request(`/api/v1/projects/${body.projectId}`, {
        key,
        method: 'DELETE',
        json: { confirm: 'body-confirm.example' },
      });
      expect(res.status).toBe(200);
    });

    test('400 confirmation_required without confirm, and nothing changes', async () => {
      const { body } = await create({ domain: 'unconfirmed.example' });
      expectError(
        await s.request(`/api/v1/projects/${body.projectId}`, { key, method: 'DELETE' }),
        400,
        'confirmation_required',
      );
      expectError(await archive(body.projectId, ''), 400, 'confirmation_required');
      expect((await s.request<P>(`/api/v1/projects/${body.projectId}`, { key })).body.status).toBe('active');
    });

    test.each(['other.example', 'MISMATCH.EXAMPLE', 'mismatch.example ', 'https://mismatch.example'])(
      '400 confirmation_mismatch for %j, and nothing changes',
      async (confirm) => {
        const { body } = await create({ domain: 'mismatch.example' });
        expectError(await archive(body.projectId, confirm), 400, 'confirmation_mismatch');
        expect((await s.request<P>(`/api/v1/projects/${body.projectId}`, { key })).body.status).toBe('active');
      },
    );

    test('400 invalid_json for a broken JSON body', async () => {
      const { body } = await create({ domain: 'brokenbody.example' });
      expectError(
        await s.request(`/api/v1/projects/${body.projectId}`, { key, method: 'DELETE', body: '{confirm:' }),
        400,
        'invalid_json',
      );
    });
  });

  describe('create validation (spec 4.4)', () => {
    test.each([
      ['a domain under 3 characters', 'ab'],
      ['a domain over 253 characters', `${'a'.repeat(250)}.com`],
      ['no top-level domain', 'localhostish'],
      ['a path', 'example.com/pricing'],
      ['a query', 'example.com?x=1'],
      ['credentials', 'user@example.com'],
      ['a port', 'example.com:8080'],
      ['an IP address', '93.184.216.34'],
      ['an IPv6 address', '[2001:db8::1]'],
      ['spaces', 'exa mple.com'],
      ['a label over 63 characters', `${'a'.repeat(64)}.com`],
      ['a leading hyphen', '-bad.example'],
      ['underscores', 'bad_name.example'],
      ['a numeric top-level domain', 'example.123'],
      ['a local target on a hosted service', 'localhost:3000'],
      ['a loopback address on a hosted service', '127.0.0.1:8080'],
      // Found by the attack battery: checked before the trailing dot went and the name was mapped to ASCII.
      ['a loopback name with a trailing dot', 'foo.localhost.'],
      ['a loopback name in enclosed letters', 'foo.ⓛⓞⓒⓐⓛⓗⓞⓢⓣ'],
      ['a loopback name in full-width letters', 'ｌｏｃａｌｈｏｓｔ:3000'],
      ['a loopback address in shorthand', '127.1'],
      ['a loopback address as one number', '2130706433'],
      ['a NUL byte', 'exa\u0000mple.com'],
      ['an ftp scheme', 'ftp://example.com'],
    ])('400 invalid_domain for %s', async (_name, domain) => {
      expectError(await create({ domain }), 400, 'invalid_domain');
    });

    test.each([
      ['https://Shop.Example.com/', 'shop.example.com'],
      ['http://example.org', 'example.org'],
      ['Example.NET.', 'example.net'],
      ['bücher.example', 'xn--bcher-kva.example'],
    ])('normalizes %j to %j', async (input, domain) => {
      const res = await create({ domain: input });
      expect(res.status).toBe(201);
      expect(res.body.domain).toBe(domain);
    });

    test.each([
      ['a missing domain', {}],
      ['a numeric domain', { domain: 42 }],
      ['a null domain', { domain: null }],
    ])('400 invalid_domain for %s', async (_name, json) => {
      expectError(await create(json), 400, 'invalid_domain');
    });

    test.each([
      ['a name over 100 characters', { domain: 'named.example', name: 'n'.repeat(101) }],
      ['an empty name', { domain: 'named.example', name: '   ' }],
      ['a numeric name', { domain: 'named.example', name: 7 }],
      ['a name with a NUL byte', { domain: 'named.example', name: 'a\u0000b' }],
    ])('400 validation_failed for %s', async (_name, json) => {
      expectError(await create(json), 400, 'validation_failed');
    });

    test.each([
      ['broken JSON', '{"domain": '],
      ['an empty body', ''],
      ['a JSON array', '["example.com"]'],
      ['a JSON string', '"example.com"'],
      ['JSON null', 'null'],
    ])('400 invalid_json for %s', async (_name, body) => {
      expectError(await s.request('/api/v1/projects', { key, method: 'POST', body }), 400, 'invalid_json');
    });

    test('409 project_limit_reached past the plan limit (Free: 3), also on restore', async () => {
      const free = await s.tenant('free');
      const ids: string[] = [];
      for (const d of ['a', 'b', 'c'])
        ids.push((await create({ domain: `${d}.limit.example` }, free.key)).body.projectId);
      expectError(await create({ domain: 'd.limit.example' }, free.key), 409, 'project_limit_reached');
      // Archived projects do not count; restoring one past the limit is refused too.
      await s.request(`/api/v1/projects/${ids[0]}?confirm=a.limit.example`, { key: free.key, method: 'DELETE' });
      expect((await create({ domain: 'd.limit.example' }, free.key)).status).toBe(201);
      const patch = await s.request(`/api/v1/projects/${ids[0]}`, {
        key: free.key,
        method: 'PATCH',
        json: { status: 'active' },
      });
      expectError(patch, 409, 'project_limit_reached');
      expectError(await create({ domain: 'a.limit.example' }, free.key), 409, 'project_limit_reached');
    });

    test('accepts local targets where the service allows them', async () => {
      const local = await startTestService(backend, { allowLocalTargets: true });
      try {
        const tenant = await local.tenant();
        const res = await local.request<P>('/api/v1/projects', {
          key: tenant.key,
          method: 'POST',
          json: { domain: 'localhost:3000' },
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ domain: 'localhost:3000', slug: 'localhost-3000' });
      } finally {
        await local.close();
      }
    });
  });

  describe('restore validation (spec 4.6)', () => {
    test.each([
      ['another status', { status: 'paused' }],
      ['an extra property', { status: 'active', name: 'x' }],
      ['no status', {}],
      ['an array', [{ status: 'active' }]],
      ['a boolean status', { status: true }],
    ])('400 validation_failed for %s', async (_name, json) => {
      const { body } = await create({ domain: 'strict.example' });
      expectError(await restore(body.projectId, json), 400, 'validation_failed');
    });

    test('400 invalid_json for a broken body', async () => {
      const { body } = await create({ domain: 'strict.example' });
      expectError(
        await s.request(`/api/v1/projects/${body.projectId}`, { key, method: 'PATCH', body: '{"status":' }),
        400,
        'invalid_json',
      );
    });
  });

  describe('listing (spec 4.3)', () => {
    let lister: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      if (!backend.available) return;
      lister = (await s.tenant()).key;
      for (const d of ['one', 'two', 'three', 'four', 'five']) {
        ids[d] = (await create({ domain: `${d}.list.example` }, lister)).body.projectId;
      }
      await s.store.projects.setPaused(ids.two as string, true);
      await s.request(`/api/v1/projects/${ids.three}?confirm=three.list.example`, { key: lister, method: 'DELETE' });
    });

    const list = (query: string, k?: string) =>
      s.request<{ projects: P[]; pagination: { nextCursor: string | null; limit: number } }>(
        `/api/v1/projects${query}`,
        { key: k ?? lister },
      );

    test('leaves archived projects out by default, newest first, limit 20', async () => {
      const res = await list('');
      expect(ProjectList.parse(res.body).pagination).toEqual({ nextCursor: null, limit: 20 });
      expect(res.body.projects.map((p) => p.domain)).toEqual([
        'five.list.example',
        'four.list.example',
        'two.list.example',
        'one.list.example',
      ]);
    });

    test.each([
      ['active', ['five', 'four', 'one']],
      ['paused', ['two']],
      ['archived', ['three']],
      ['all', ['five', 'four', 'three', 'two', 'one']],
    ])('filters status=%s exactly', async (status, names) => {
      const res = await list(`?status=${status}`);
      expect(res.body.projects.map((p) => p.domain)).toEqual(names.map((n) => `${n}.list.example`));
    });

    test('pages with an opaque cursor until nextCursor is null, each project once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(`?status=all&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.pagination.limit).toBe(2);
        seen.push(...res.body.projects.map((p) => p.domain));
        cursor = res.body.pagination.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual(['five', 'four', 'three', 'two', 'one'].map((n) => `${n}.list.example`));
    });

    test.each(['0', '101', '-1', 'ten', '1.5', '', '1e1'])('400 validation_failed for limit=%j', async (limit) => {
      expectError(await list(`?limit=${limit}`), 400, 'validation_failed');
    });

    test.each(['deleted', 'ACTIVE', ''])('400 validation_failed for status=%j', async (status) => {
      expectError(await list(`?status=${status}`), 400, 'validation_failed');
    });

    test('400 for a tampered, foreign or mismatched cursor', async () => {
      const first = await list('?status=all&limit=1');
      const cursor = first.body.pagination.nextCursor as string;
      const [payload, signature] = cursor.split('.') as [string, string];
      const forged = Buffer.from(
        JSON.stringify(['2999-01-01T00:00:00.000Z', 'ffffffff-ffff-7fff-bfff-ffffffffffff']),
      ).toString('base64url');
      for (const bad of [
        `${forged}.${signature}`,
        `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
        'garbage',
        `${payload}`,
        `${cursor}.x`,
      ]) {
        expectError(await list(`?status=all&cursor=${encodeURIComponent(bad)}`), 400, 'validation_failed');
      }
      // Another organization cannot replay this organization's cursor, nor can another filter.
      expectError(await list(`?status=all&cursor=${encodeURIComponent(cursor)}`, key), 400, 'validation_failed');
      expectError(await list(`?status=active&cursor=${encodeURIComponent(cursor)}`), 400, 'validation_failed');
    });
  });
});
