// Webhook delivery (spec 6, issue 11) on both backends: a real HTTPS receiver on loopback with its own
// CA and name, a real run whose event is delivered signed, and the retry schedule, timeouts,
// disabling, rotation, redelivery and the SSRF guard driven by an injected clock.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  type Run,
  RunEventData,
  WebhookDeliveryList,
  WebhookEndpoint,
} from '../../src/contract/index.ts';
import { Deliverer, RETRY_DELAYS_SECONDS } from '../../src/service/deliverer.ts';
import { verifyWebhook } from '../../src/webhooks.ts';
import { testBackends } from '../support/backends.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { type HookReceiver, type ReceivedHook, startHookReceiver } from '../support/hook-receiver.ts';
import { createTestCa, type TestCa } from '../support/secure-sites.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Received = ReceivedHook;

const KEK = Buffer.alloc(32, 9);

describe.each(testBackends())('webhook delivery on $name', (backend) => {
  let ca: TestCa;
  let dns: DnsServer;
  let receiver: HookReceiver;
  let port: number;
  let site: FixtureSite;
  let s: TestService;
  let key: string;
  let now = Date.now();
  let deliverer: Deliverer;
  let received: Received[] = [];
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    ca = createTestCa();
    dns = await startDnsServer({ 'hooks.test': { A: ['127.0.0.1'] }, 'inward.test': { A: ['127.0.0.1'] } });
    receiver = await startHookReceiver(ca, ['hooks.test', 'inward.test'], (path, res) => {
      if (path.startsWith('/fail')) res.writeHead(500).end('receiver broke');
      else if (path.startsWith('/slow')) setTimeout(() => res.writeHead(204).end(), 2500);
      else if (path.startsWith('/moved')) res.writeHead(301, { location: 'https://hooks.test/ok' }).end();
      else res.writeHead(204).end();
    });
    port = receiver.port;
    received = receiver.received;
    site = await startFixtureSite({ '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1></main>') } });
    s = await startTestService(backend, { kek: KEK, allowLocalTargets: true, deliverer: false });
    ({ key } = await s.tenant());
    deliverer = new Deliverer({
      store: s.store,
      kek: KEK,
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ca: ca.caPem,
      timeoutMs: 1000,
      clock: () => now,
      autoStart: false,
    });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await deliverer.stop();
    await s.close();
    await site.close();
    await receiver.close();
    await dns.close();
    ca.cleanup();
  });

  const subscribe = async (path: string, k = key, events?: string[]) => {
    const response = await s.request('/api/v1/webhooks', {
      key: k,
      method: 'POST',
      json: { url: `https://hooks.test:${port}${path}`, ...(events ? { events } : {}) },
    });
    expect(response.status, response.text).toBe(201);
    return CreatedWebhookEndpoint.parse(response.body);
  };
  const runToEnd = async (k = key) => {
    const projectId = await s.createProject(k, site.host);
    const started = await s.request<Run>('/api/v1/runs', { key: k, method: 'POST', json: { projectId } });
    let run = started.body;
    for (let i = 0; i < 200 && run.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key: k })).body;
    }
    expect(run.status).toBe('completed');
    return run;
  };
  const at = (path: string) => received.filter((r) => r.path === path);
  const deliveries = async (id: string, k = key) =>
    WebhookDeliveryList.parse((await s.request(`/api/v1/webhooks/${id}/deliveries`, { key: k })).body).deliveries;

  test('delivers a finished run, signed as spec 6.4 says, with the headers and envelope of 6.2 and 6.3', async () => {
    const endpoint = await subscribe('/ok');
    const run = await runToEnd();
    await deliverer.tick();
    const [hit] = at('/ok');
    expect(hit).toBeDefined();
    const { headers, body } = hit as Received;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-service-event']).toBe('run.completed');
    const event = verifyWebhook({
      secret: endpoint.secret,
      header: headers['x-service-signature'] as string,
      body,
      now,
    });
    expect(event.id).toBe(headers['x-service-event-id']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers['x-service-signature'] as string) ?? [];
    expect(v1).toBe(createHmac('sha256', endpoint.secret).update(`${t}.${body}`).digest('hex'));
    expect(RunEventData.parse(event.data)).toMatchObject({
      runId: run.runId,
      status: 'completed',
      humanUrl: run.humanUrl,
    });
    const [delivery] = await deliveries(endpoint.webhookId);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'delivered', attempts: 1, lastStatus: 204 });
    expect(delivery?.attemptLog).toEqual([
      expect.objectContaining({ statusCode: 204, error: null, attemptedAt: new Date(now).toISOString() }),
    ]);
    // Delivered once: another pass sends nothing more.
    await deliverer.tick();
    expect(at('/ok')).toHaveLength(1);
  });

  test('retries after exactly 1 m, 5 m, 30 m, 2 h, 6 h and 24 h, with one event id, then stops', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/fail-schedule', own);
    await runToEnd(own);
    const start = now;
    await deliverer.tick();
    expect(at('/fail-schedule')).toHaveLength(1);
    let elapsed = 0;
    for (const [index, delay] of RETRY_DELAYS_SECONDS.entries()) {
      now = start + (elapsed + delay) * 1000 - 1000; // a second early: nothing
      await deliverer.tick();
      expect(at('/fail-schedule')).toHaveLength(index + 1);
      elapsed += delay;
      now = start + elapsed * 1000;
      await deliverer.tick();
      expect(at('/fail-schedule')).toHaveLength(index + 2);
    }
    now += 365 * 24 * 3600 * 1000;
    await deliverer.tick();
    const hits = at('/fail-schedule');
    expect(hits).toHaveLength(7);
    expect(new Set(hits.map((h) => h.headers['x-service-event-id'])).size).toBe(1);
    const [delivery] = await deliveries(endpoint.webhookId, own);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, nextAttemptAt: null, lastStatus: 500 });
    expect(delivery?.attemptLog.map((a) => Date.parse(a.attemptedAt) - start)).toEqual(
      [0, 60, 360, 2160, 9360, 30_960, 117_360].map((seconds) => seconds * 1000),
    );
    expect(delivery?.attemptLog[0]).toMatchObject({ statusCode: 500, responseExcerpt: 'receiver broke' });
  });

  test('counts a receiver that does not answer within the deadline, or redirects, as a failure', async () => {
    const { key: own } = await s.tenant();
    const slow = await subscribe('/slow', own);
    const moved = await subscribe('/moved', own);
    await runToEnd(own);
    await deliverer.tick();
    expect((await deliveries(slow.webhookId, own))[0]?.attemptLog[0]).toMatchObject({
      statusCode: null,
      error: 'no answer within 1 s',
    });
    expect((await deliveries(moved.webhookId, own))[0]).toMatchObject({ status: 'pending', lastStatus: 301 });
  });

  test('redelivers on request, with the same event id', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/redeliver', own);
    await runToEnd(own);
    await deliverer.tick();
    const [first] = await deliveries(endpoint.webhookId, own);
    const path = `/api/v1/webhooks/${endpoint.webhookId}/deliveries/${first?.deliveryId}/redeliver`;
    expect((await s.request(path, { key: own, method: 'POST' })).status).toBe(202);
    await deliverer.tick();
    const hits = at('/redeliver');
    expect(hits).toHaveLength(2);
    expect(hits[1]?.headers['x-service-event-id']).toBe(hits[0]?.headers['x-service-event-id']);
    expect((await deliveries(endpoint.webhookId, own))[0]?.attemptLog).toHaveLength(2);
    expect(
      (await s.request(path.replace(first?.deliveryId as string, crypto.randomUUID()), { key: own, method: 'POST' }))
        .status,
    ).toBe(404);
    expect((await s.request(path, { key, method: 'POST' })).status).toBe(404);
  });

  test('sends nothing to a disabled endpoint, and resumes once it is enabled', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/toggle', own);
    const path = `/api/v1/webhooks/${endpoint.webhookId}`;
    await s.request(path, { key: own, method: 'PATCH', json: { active: false } });
    await runToEnd(own);
    await deliverer.tick();
    expect(at('/toggle')).toHaveLength(0);
    await s.request(path, { key: own, method: 'PATCH', json: { active: true } });
    await runToEnd(own);
    await deliverer.tick();
    expect(at('/toggle')).toHaveLength(1);
  });

  test('signs with the previous secret during a rotation’s overlap, and with the new one after', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/rotate', own);
    now = Date.now();
    const rotated = RotatedWebhookSecret.parse(
      (
        await s.request(`/api/v1/webhooks/${endpoint.webhookId}/rotate-secret`, {
          key: own,
          method: 'POST',
          json: { overlapSeconds: 600 },
        })
      ).body,
    );
    await runToEnd(own);
    await deliverer.tick();
    const during = at('/rotate')[0] as Received;
    const signature = during.headers['x-service-signature'] as string;
    expect(verifyWebhook({ secret: endpoint.secret, header: signature, body: during.body, now }).type).toBe(
      'run.completed',
    );
    expect(() => verifyWebhook({ secret: rotated.secret, header: signature, body: during.body, now })).toThrow();
    now = Date.parse(rotated.previousSecretExpiresAt as string) + 1000;
    await runToEnd(own);
    await deliverer.tick();
    const after = at('/rotate')[1] as Received;
    expect(
      verifyWebhook({
        secret: rotated.secret,
        header: after.headers['x-service-signature'] as string,
        body: after.body,
        now,
      }).type,
    ).toBe('run.completed');
  });

  test('records a secret this key-encryption key cannot open as a failed attempt, and sends nothing', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/wrong-kek', own);
    await runToEnd(own);
    const rekeyed = new Deliverer({
      store: s.store,
      kek: Buffer.alloc(32, 1),
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ca: ca.caPem,
      clock: () => now,
      autoStart: false,
    });
    try {
      await rekeyed.tick();
    } finally {
      await rekeyed.stop();
    }
    expect(at('/wrong-kek')).toHaveLength(0);
    expect((await deliveries(endpoint.webhookId, own))[0]).toMatchObject({
      status: 'pending',
      lastError: 'the signing secret cannot be read with this key-encryption key',
    });
  });

  test('delivers a backlog larger than one dispatch batch in one pass (found by the benchmark)', async () => {
    const { key: own, organizationId } = await s.tenant();
    await subscribe('/backlog', own);
    const events = Array.from({ length: 150 }, (_, i) => ({
      id: `evt_backlog${String(i).padStart(4, '0')}`,
      type: 'run.completed',
      organization_id: organizationId,
      run_id: null,
      created_at: new Date(now).toISOString(),
      data: '{}',
      dispatched_at: null,
    }));
    await s.store.db.insertInto('events').values(events).execute();
    await deliverer.tick();
    expect(new Set(at('/backlog').map((r) => r.headers['x-service-event-id'])).size).toBe(150);
  });

  test('disables an endpoint that failed for three days, and says why in its record', async () => {
    const { key: own } = await s.tenant();
    const endpoint = await subscribe('/fail-disable', own);
    await runToEnd(own);
    await deliverer.tick();
    now += 3 * 24 * 3600 * 1000;
    await runToEnd(own);
    await deliverer.tick();
    const record = WebhookEndpoint.parse(
      (await s.request(`/api/v1/webhooks/${endpoint.webhookId}`, { key: own })).body,
    );
    expect(record.active).toBe(false);
    expect(record.disabledReason).toMatch(
      /^disabled by the service on .*: every delivery failed since .* \(last: answered 500\)$/,
    );
    const enabled = WebhookEndpoint.parse(
      (await s.request(`/api/v1/webhooks/${endpoint.webhookId}`, { key: own, method: 'PATCH', json: { active: true } }))
        .body,
    );
    expect(enabled).toMatchObject({ active: true, disabledReason: null });
  });
});

describe.each(testBackends())('webhook delivery from a hosted service on $name', (backend) => {
  it.skipIf(!backend.available)(
    'refuses at delivery an endpoint whose name resolves to a private address',
    async () => {
      const ca = createTestCa();
      const dns = await startDnsServer({ 'inward.test': { A: ['127.0.0.1'] } });
      const receiver = await startHookReceiver(ca, ['inward.test']);
      const s = await startTestService(backend, { kek: KEK, deliverer: false });
      const deliverer = new Deliverer({
        store: s.store,
        kek: KEK,
        allowPrivate: false,
        resolver: createResolver([dns.address]),
        ca: ca.caPem,
        autoStart: false,
      });
      try {
        const { key, organizationId } = await s.tenant();
        const url = `https://inward.test:${receiver.port}/hook`;
        const created = await s.request('/api/v1/webhooks', { key, method: 'POST', json: { url } });
        expect(created.status, created.text).toBe(201);
        const endpoint = CreatedWebhookEndpoint.parse(created.body);
        // A run of a hosted service cannot target loopback: its event is written as the worker would.
        await s.store.db
          .insertInto('events')
          .values({
            id: 'evt_ssrf0001',
            type: 'run.failed',
            organization_id: organizationId,
            run_id: null,
            created_at: new Date().toISOString(),
            data: '{}',
            dispatched_at: null,
          })
          .execute();
        await deliverer.tick();
        expect(receiver.received).toHaveLength(0);
        const list = WebhookDeliveryList.parse(
          (await s.request(`/api/v1/webhooks/${endpoint.webhookId}/deliveries`, { key })).body,
        );
        expect(list.deliveries[0]?.attemptLog[0]?.error).toBe(
          'refused: inward.test resolves only to non-public addresses',
        );
      } finally {
        await deliverer.stop();
        await s.close();
        await receiver.close();
        await dns.close();
        ca.cleanup();
      }
    },
  );
});

describe.each(testBackends().slice(0, 1))('the deliverer of a serve process on $name', (backend) => {
  it('delivers a run’s event as soon as the run ends, not at the next poll', async () => {
    const ca = createTestCa();
    const dns = await startDnsServer({ 'hooks.test': { A: ['127.0.0.1'] } });
    const arrived: number[] = [];
    const receiver = await startHookReceiver(ca, ['hooks.test'], (_path, res) => {
      arrived.push(Date.now());
      res.writeHead(204).end();
    });
    const site = await startFixtureSite({ '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1></main>') } });
    const s = await startTestService(backend, {
      kek: KEK,
      allowLocalTargets: true,
      // A poll a minute apart: only the wake-up from the worker can deliver within the test.
      deliverer: { resolver: createResolver([dns.address]), ca: ca.caPem, pollMs: 60_000 },
    });
    try {
      const { key } = await s.tenant();
      const url = `https://hooks.test:${receiver.port}/in`;
      expect((await s.request('/api/v1/webhooks', { key, method: 'POST', json: { url } })).status).toBe(201);
      const projectId = await s.createProject(key, site.host);
      const started = await s.request<Run>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
      for (let i = 0; i < 100 && arrived.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(arrived).toHaveLength(1);
      const run = (await s.request<Run>(`/api/v1/runs/${started.body.runId}`, { key })).body;
      expect(run.status).toBe('completed');
    } finally {
      await s.close();
      await site.close();
      await receiver.close();
      await dns.close();
      ca.cleanup();
    }
  });
});
