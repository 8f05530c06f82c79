// The store suite, run on both backends: the same queries must behave the same on SQLite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, issueKey } from '../../src/service/api-keys.ts';
import { createOrganization } from '../../src/service/organizations.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

const kek = randomBytes(32);

describe.each(testBackends())('store on $name', (backend) => {
  let location: TestLocation;
  let store: Store;

  beforeAll(async () => {
    if (!backend.available) return;
    location = await backend.create();
    store = await openStore(location);
  });
  afterAll(async () => {
    if (!backend.available) return;
    await store.close();
    await location.cleanup();
  });

  const test = it.skipIf(!backend.available);

  test('orders ids by creation time, also within one millisecond', async () => {
    const { uuidv7 } = await import('../../src/service/store/ids.ts');
    const ids = Array.from({ length: 50 }, () => uuidv7(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('runs migrations once: a second open of the same database is a no-op', async () => {
    const again = await openStore(location);
    expect(await again.organizations.count()).toBe(await store.organizations.count());
    await again.close();
  });

  test('creates organizations with unique slugs', async () => {
    const a = await createOrganization(store, { name: 'Same Name', plan: 'free' });
    const b = await createOrganization(store, { name: 'Same Name', plan: 'pro', credits: 7 });
    expect(a.slug).toBe('same-name');
    expect(b.slug).toBe('same-name-2');
    expect(b.credits_remaining).toBe(7);
    expect((await store.organizations.findByIdOrSlug('same-name-2'))?.id).toBe(b.id);
    expect((await store.organizations.findByIdOrSlug(a.id))?.slug).toBe('same-name');
  });

  test('finds a key by the hash of its secret, stores no secret in clear, and forgets it once revoked', async () => {
    const org = await createOrganization(store, { name: 'Keys', plan: 'pro' });
    const { secret, row } = await issueKey(store, kek, { organizationId: org.id, name: 'k', source: 'admin' });
    expect(secret).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(row.secret_ciphertext).not.toContain(secret.slice(4));
    expect(JSON.stringify(await store.db.selectFrom('api_keys').selectAll().execute())).not.toContain(secret);
    const found = await store.apiKeys.findActiveByHash(hashSecret(secret));
    expect(found?.organization.id).toBe(org.id);
    expect(found?.key.prefix).toBe(secret.slice(0, 12));
    expect((await store.apiKeys.revokeByPrefix(row.prefix))?.revoked_at).not.toBeNull();
    expect(await store.apiKeys.findActiveByHash(hashSecret(secret))).toBeUndefined();
    expect(await store.apiKeys.revokeByPrefix('svc_nothere')).toBeUndefined();
  });

  test('walks the project state table of spec 3.1', async () => {
    const org = await createOrganization(store, { name: 'States', plan: 'pro' });
    const input = { organizationId: org.id, domain: 'states.example', name: 'S', slug: 'states-example' };
    const created = await store.projects.createOrRestore(input, 10);
    expect(created.outcome).toBe('created');
    if (created.outcome === 'limit_reached') throw new Error('unexpected');
    const id = created.project.id;
    expect((await store.projects.createOrRestore(input, 10)).outcome).toBe('idempotent');
    expect((await store.projects.restore(org.id, id, 10)).outcome).toBe('idempotent');
    expect((await store.projects.archive(org.id, id, 'wrong.example')).outcome).toBe('confirmation_mismatch');
    expect((await store.projects.archive(org.id, id, 'states.example')).outcome).toBe('archived');
    expect((await store.projects.archive(org.id, id, 'states.example')).outcome).toBe('already_archived');
    const restored = await store.projects.createOrRestore(input, 10);
    expect(restored).toMatchObject({ outcome: 'restored', project: { id, status: 'active', archived_at: null } });
    expect((await store.projects.setPaused(id, true))?.status).toBe('paused');
    expect((await store.projects.restore(org.id, id, 10)).outcome).toBe('not_archived');
    expect((await store.projects.createOrRestore(input, 10)).outcome).toBe('idempotent');
    expect((await store.projects.setPaused(id, false))?.status).toBe('active');
    expect((await store.projects.restore('00000000-0000-4000-8000-000000000000', id, 10)).outcome).toBe('not_found');
  });

  test('keeps the project limit under concurrent creates', async () => {
    const org = await createOrganization(store, { name: 'Race', plan: 'pro' });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.projects.createOrRestore({ organizationId: org.id, domain: `d${i}.example`, name: 'n', slug: 's' }, 3),
      ),
    );
    expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o.outcome === 'limit_reached')).toHaveLength(5);
  });

  test('pages projects newest first with a keyset position', async () => {
    const org = await createOrganization(store, { name: 'Pages', plan: 'pro' });
    for (let i = 0; i < 5; i++) {
      await store.projects.createOrRestore(
        { organizationId: org.id, domain: `p${i}.example`, name: 'n', slug: 's' },
        10,
      );
    }
    const first = await store.projects.page({ organizationId: org.id, status: undefined, limit: 2 });
    expect(first).toHaveLength(3);
    const last = first[1];
    if (!last) throw new Error('no row');
    const second = await store.projects.page({
      organizationId: org.id,
      status: undefined,
      limit: 2,
      after: { createdAt: last.created_at, id: last.id },
    });
    const seen = [...first.slice(0, 2), ...second].map((r) => r.domain);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await store.projects.page({ organizationId: org.id, status: 'all', limit: 10 });
    // Created within a millisecond or two: the time-ordered id still keeps newest first.
    expect(all.map((r) => r.domain)).toEqual(['p4.example', 'p3.example', 'p2.example', 'p1.example', 'p0.example']);
  });

  test('counts rate-limit windows atomically and refuses past the limit', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => store.rateLimits.take('key-1', 600, 5)));
    expect(results.filter((r) => r !== null).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(results.filter((r) => r === null)).toHaveLength(3);
    expect(await store.rateLimits.take('key-1', 660, 5)).toBe(1);
    await store.rateLimits.sweep(660);
    expect(await store.rateLimits.take('key-1', 600, 5)).toBe(1);
  });

  test('appends to the audit log and reads it newest first', async () => {
    await store.auditLog.append({
      organizationId: null,
      keyPrefix: null,
      method: 'GET',
      path: '/a',
      status: 401,
      durationMs: 1.4,
    });
    await store.auditLog.append({
      organizationId: null,
      keyPrefix: 'svc_x',
      method: 'POST',
      path: '/b',
      status: 201,
      durationMs: 2,
    });
    const rows = await store.auditLog.recent(2);
    expect(rows.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/b', 201],
      ['GET', '/a', 401],
    ]);
  });

  test('consumes an authorization code exactly once, and never an expired one', async () => {
    const org = await createOrganization(store, { name: 'Codes', plan: 'pro' });
    const base = {
      organization_id: org.id,
      code_challenge: 'c',
      redirect_uri: 'http://127.0.0.1:1/cb',
      key_name: 'k',
      scopes: '[]',
      created_at: '2026-01-01T00:00:00.000Z',
      used_at: null,
      user_id: null,
    };
    await store.cliCodes.insert({ ...base, code_hash: 'h1', expires_at: '2999-01-01T00:00:00.000Z' });
    await store.cliCodes.insert({ ...base, code_hash: 'h2', expires_at: '2000-01-01T00:00:00.000Z' });
    const now = new Date().toISOString();
    const attempts = await Promise.all([store.cliCodes.consume('h1', now), store.cliCodes.consume('h1', now)]);
    expect(attempts.filter(Boolean)).toHaveLength(1);
    expect(await store.cliCodes.consume('h2', now)).toBeUndefined();
    expect(await store.cliCodes.consume('nope', now)).toBeUndefined();
  });

  test('shares one setting value between processes: the first writer wins', async () => {
    const first = await store.settings.getOrCreate('s', () => 'one');
    const second = await store.settings.getOrCreate('s', () => 'two');
    expect([first, second]).toEqual(['one', 'one']);
  });
});
