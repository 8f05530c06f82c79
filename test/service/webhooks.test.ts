// spec 4.12 and 2.13 over HTTP, on both backends: webhook endpoints are created with a secret shown
// once, listed in pages, read, changed (including disabled and enabled), rotated and deleted;
// https and public addresses only; another organization's endpoint is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookEndpoint,
  WebhookList,
} from '../../src/contract/index.ts';
import { decryptSecret } from '../../src/service/key-encryption.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

const KEK = Buffer.alloc(32, 7);

describe.each(testBackends())('webhook endpoints API on $name', (backend) => {
  let s: TestService;
  let key: string;
  let other: string;
  const test = it.skipIf(!backend.available);

  const create = (json: unknown, k = key) => s.request('/api/v1/webhooks', { key: k, method: 'POST', json });
  const made = async (json: Record<string, unknown> = {}) => {
    const response = await create({ url: 'https://hooks.example.com/siteaudit', ...json });
    expect(response.status, response.text).toBe(201);
    return CreatedWebhookEndpoint.parse(response.body);
  };

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { kek: KEK });
    ({ key } = await s.tenant());
    ({ key: other } = await s.tenant());
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  test('creates an endpoint, shows its secret once and stores it sealed', async () => {
    const endpoint = await made({ description: 'CI notifier', events: ['run.completed'] });
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/siteaudit',
      events: ['run.completed'],
      active: true,
      description: 'CI notifier',
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const read = await s.request(`/api/v1/webhooks/${endpoint.webhookId}`, { key });
    expect(WebhookEndpoint.strict().parse(read.body)).not.toHaveProperty('secret');
    expect(read.text).not.toContain(endpoint.secret);
    const row = await s.store.webhooks.get(await orgOf(key), endpoint.webhookId);
    expect(row?.secret_ciphertext).not.toContain(endpoint.secret);
    expect(decryptSecret(KEK, row?.secret_ciphertext as string)).toBe(endpoint.secret);
  });

  test('subscribes to run.completed and run.failed by default', async () => {
    expect((await made()).events).toEqual(['run.completed', 'run.failed']);
  });

  test.each([
    ['http', { url: 'http://hooks.example.com/' }],
    ['no URL', {}],
    ['credentials in the URL', { url: 'https://user:pass@hooks.example.com/' }],
    ['a loopback address', { url: 'https://127.0.0.1/hook' }],
    ['a private address', { url: 'https://10.1.2.3/hook' }],
    ['an IPv6 loopback', { url: 'https://[::1]/hook' }],
    ['an IPv4-compatible loopback', { url: 'https://[::7f00:1]/hook' }],
    ['a 6to4 loopback', { url: 'https://[2002:7f00:1::]/hook' }],
    ['a local-use NAT64 address', { url: 'https://[64:ff9b:1::a00:1]/hook' }],
    ['a site-local address', { url: 'https://[fec0::1]/hook' }],
    ['an IPv4-translated loopback', { url: 'https://[::ffff:0:7f00:1]/hook' }],
    ['a metadata address', { url: 'https://169.254.169.254/latest' }],
    ['localhost', { url: 'https://localhost/hook' }],
    ['an unknown event', { url: 'https://hooks.example.com/', events: ['run.started'] }],
    ['no events', { url: 'https://hooks.example.com/', events: [] }],
    ['a NUL in the description', { url: 'https://hooks.example.com/', description: 'a\u0000b' }],
    ['an unknown field', { url: 'https://hooks.example.com/', secret: 'mine' }],
  ])('refuses %s with 400', async (_what, json) => {
    expectError(await create(json), 400, 'validation_failed');
  });

  test('lists endpoints newest first in pages, without secrets', async () => {
    const { key: own } = await s.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await create({ url: `https://hooks.example.com/${i}` }, own);
      ids.push(CreatedWebhookEndpoint.parse(response.body).webhookId);
    }
    const first = WebhookList.parse((await s.request('/api/v1/webhooks?limit=2', { key: own })).body);
    expect(first.webhooks.map((w) => w.webhookId)).toEqual([ids[2], ids[1]]);
    const second = WebhookList.parse(
      (await s.request(`/api/v1/webhooks?limit=2&cursor=${first.pagination.nextCursor}`, { key: own })).body,
    );
    expect(second.webhooks.map((w) => w.webhookId)).toEqual([ids[0]]);
    expect(second.pagination.nextCursor).toBeNull();
  });

  test('changes the URL, events and description, disables and enables', async () => {
    const endpoint = await made();
    const path = `/api/v1/webhooks/${endpoint.webhookId}`;
    const changed = await s.request(path, {
      key,
      method: 'PATCH',
      json: { url: 'https://other.example.com/in', events: ['monitoring.changed'], description: null },
    });
    expect(WebhookEndpoint.parse(changed.body)).toMatchObject({
      url: 'https://other.example.com/in',
      events: ['monitoring.changed'],
      description: null,
      active: true,
    });
    expect(
      WebhookEndpoint.parse((await s.request(path, { key, method: 'PATCH', json: { active: false } })).body).active,
    ).toBe(false);
    expect(WebhookEndpoint.parse((await s.request(path, { key })).body).active).toBe(false);
    expect(
      WebhookEndpoint.parse((await s.request(path, { key, method: 'PATCH', json: { active: true } })).body).active,
    ).toBe(true);
    expectError(await s.request(path, { key, method: 'PATCH', json: {} }), 400, 'validation_failed');
    expectError(
      await s.request(path, { key, method: 'PATCH', json: { url: 'https://192.168.1.1/' } }),
      400,
      'validation_failed',
    );
  });

  test('rotates the secret: a new one shown once, the previous one signing for the overlap', async () => {
    const endpoint = await made();
    const path = `/api/v1/webhooks/${endpoint.webhookId}/rotate-secret`;
    const before = Date.now();
    const rotated = RotatedWebhookSecret.parse(
      (await s.request(path, { key, method: 'POST', json: { overlapSeconds: 3600 } })).body,
    );
    expect(rotated.secret).not.toBe(endpoint.secret);
    const expires = Date.parse(rotated.previousSecretExpiresAt as string);
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expires).toBeLessThan(Date.now() + 3600_000 + 1000);
    // No body: the default overlap of a day. Zero: the previous secret is retired at once.
    const byDefault = RotatedWebhookSecret.parse((await s.request(path, { key, method: 'POST' })).body);
    expect(Date.parse(byDefault.previousSecretExpiresAt as string)).toBeGreaterThan(Date.now() + 86_000_000);
    const atOnce = RotatedWebhookSecret.parse(
      (await s.request(path, { key, method: 'POST', json: { overlapSeconds: 0 } })).body,
    );
    expect(atOnce.previousSecretExpiresAt).toBeNull();
    expectError(
      await s.request(path, { key, method: 'POST', json: { overlapSeconds: 9_999_999 } }),
      400,
      'validation_failed',
    );
    expectError(await s.request(path, { key, method: 'GET' }), 405, 'method_not_allowed');
  });

  test('deletes an endpoint; it is gone after', async () => {
    const endpoint = await made();
    const path = `/api/v1/webhooks/${endpoint.webhookId}`;
    expect((await s.request(path, { key, method: 'DELETE' })).status).toBe(204);
    expectError(await s.request(path, { key }), 404, 'not_found');
    expectError(await s.request(path, { key, method: 'DELETE' }), 404, 'not_found');
  });

  test('answers 404 for another organization’s endpoint, whatever the operation', async () => {
    const endpoint = await made();
    const path = `/api/v1/webhooks/${endpoint.webhookId}`;
    expectError(await s.request(path, { key: other }), 404, 'not_found');
    expectError(await s.request(path, { key: other, method: 'PATCH', json: { active: false } }), 404, 'not_found');
    expectError(await s.request(`${path}/rotate-secret`, { key: other, method: 'POST' }), 404, 'not_found');
    expectError(await s.request(path, { key: other, method: 'DELETE' }), 404, 'not_found');
    expect(WebhookList.parse((await s.request('/api/v1/webhooks', { key: other })).body).webhooks).toEqual([]);
    expect(WebhookEndpoint.parse((await s.request(path, { key })).body).active).toBe(true);
  });

  test('needs the webhooks:manage scope and a key not pinned to a project', async () => {
    const organizationId = await orgOf(key);
    const reader = await s.createKey(organizationId, { scopes: ['projects:read', 'runs:read'] });
    expectError(await create({ url: 'https://hooks.example.com/' }, reader), 403, 'insufficient_scope');
    const projectId = await s.createProject(key, 'pinned.example.com');
    const pinned = await s.createKey(organizationId, { scopes: ['webhooks:manage'], projectId });
    expectError(await create({ url: 'https://hooks.example.com/' }, pinned), 403, 'project_scoped_key');
  });

  const orgOf = async (k: string) =>
    (await s.request<{ organizationId: string }>('/api/v1/me', { key: k })).body.organizationId;
});

describe.each(testBackends().slice(0, 1))('webhook endpoints of a service that allows local targets', (backend) => {
  it('accepts a loopback https endpoint (the embedded default, tests)', async () => {
    const s = await startTestService(backend, { kek: KEK, allowLocalTargets: true });
    try {
      const { key } = await s.tenant();
      const response = await s.request('/api/v1/webhooks', {
        key,
        method: 'POST',
        json: { url: 'https://127.0.0.1:8443/hook' },
      });
      expect(response.status, response.text).toBe(201);
    } finally {
      await s.close();
    }
  });
});
