// What an operator sees of `serve` (issue 28): JSON log lines with a level, a time and a request id,
// and never a key, token, password or secret; Prometheus metrics on their own port and behind the
// operator token, moved by the work the process did.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { maskKeys } from '../../src/contract/index.ts';
import { createLogger, logSettingsOf, maskSecrets, REDACTED } from '../../src/service/logger.ts';
import { openStore } from '../../src/service/store/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';
import { runJson, startServe } from '../support/cli.ts';
import { startDnsServer } from '../support/dns-server.ts';
import { html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { createTestCa } from '../support/secure-sites.ts';
import { request, startTestService } from '../support/service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const HELP = new RegExp(`^# HELP (${NAME}) .+$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
// NaN in any case, as Prometheus reads it (Go's ParseFloat); prom-client writes `Nan`.
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (-?[0-9.e+-]+|[Nn]a[Nn]|\\+Inf|-Inf)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)",?/y;

/**
 * The Prometheus text format, strictly: every line empty, a HELP, a TYPE or a sample of a declared
 * family, labels quoted; anything else throws.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '' || HELP.test(line)) continue; // the format ignores empty lines
    const type = TYPE.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a line of the exposition format: ${JSON.stringify(line)}`);
    const name = sample[1] as string;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(family)) throw new Error(`a sample of no declared family: ${line}`);
    const labels: Record<string, string> = {};
    const body = sample[2] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      if (!label) throw new Error(`labels not in the format: ${line}`);
      labels[label[1] as string] = label[2] as string;
    }
    samples.push({ name, labels, value: /^nan$/i.test(sample[3] as string) ? Number.NaN : Number(sample[3]) });
  }
  return { types, samples };
}

/** The value of the one sample of `name` with exactly these labels (among others), or undefined. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([label, value]) => s.labels[label] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('the service log', () => {
  it('writes credentials in fields as [redacted] and key-shaped text masked, in JSON and in text', () => {
    const key = `svc_${randomBytes(32).toString('base64url')}`;
    const hook = `whsec_${randomBytes(24).toString('base64url')}`;
    const lines: string[] = [];
    for (const format of ['json', 'text'] as const) {
      const log = createLogger({ format, level: 'info' }, (line) => lines.push(line));
      log.info(
        {
          headers: { authorization: `Bearer ${key}`, cookie: 'session=abc123' },
          password: 'hunter2-and-more',
          body: { secret: hook, nested: { token: 'oauth-token-value' } },
          note: `pasted ${key} and ${hook}`,
        },
        `a message naming ${key}`,
      );
      log.error({ err: new Error(`failed with ${key}`) }, 'boom');
      log.debug('below the level');
    }
    expect(lines).toHaveLength(4);
    const [record, error] = lines.slice(0, 2).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(record).toMatchObject({
      level: 'info',
      headers: { authorization: REDACTED, cookie: REDACTED },
      password: REDACTED,
      body: { secret: REDACTED, nested: { token: REDACTED } },
      note: `pasted ${key.slice(0, 12)}… and whsec_…`,
      msg: `a message naming ${key.slice(0, 12)}…`,
    });
    expect(Date.parse(String(record?.time))).not.toBeNaN();
    expect(error).toMatchObject({ level: 'error', msg: 'boom', err: { message: `failed with ${key.slice(0, 12)}…` } });
    expect(lines[2]).toMatch(/^siteaudit: a message naming svc_\S{8}… headers=\{"authorization":"\[redacted\]"/);
    expect(lines[3]).toMatch(/^siteaudit: error: boom\nError: failed with svc_\S{8}…\n/);
    const all = lines.join('');
    for (const secret of [key.slice(12), hook.slice(6), 'hunter2', 'session=abc123', 'oauth-token-value'])
      expect(all).not.toContain(secret);
  });

  it('masks as the existing masking does, webhook secrets too, and only once', () => {
    const text = 'GET /api/v1/projects/svc_abcdefgh12345678 oauth_ABCDEFGH9999';
    expect(maskSecrets(text)).toBe(maskKeys(text));
    expect(maskSecrets(`${text} whsec_xyz-123`)).toBe('GET /api/v1/projects/svc_abcdefgh… oauth_ABCDEFGH… whsec_…');
    expect(maskSecrets(maskSecrets(text))).toBe(maskKeys(text));
  });

  it.each([
    [{}, {}, false, { format: 'json', level: 'info' }],
    [{}, {}, true, { format: 'text', level: 'info' }],
    [{}, { SITEAUDIT_LOG_FORMAT: 'text', SITEAUDIT_LOG_LEVEL: 'debug' }, false, { format: 'text', level: 'debug' }],
    [{ format: 'json', level: 'warn' }, { SITEAUDIT_LOG_FORMAT: 'text' }, true, { format: 'json', level: 'warn' }],
  ])('takes flags %j over the environment %j (terminal: %s)', (flags, env, terminal, settings) => {
    expect(logSettingsOf(flags, env, terminal)).toEqual(settings);
  });

  it('refuses a format or level it does not know', () => {
    expect(() => logSettingsOf({ format: 'xml' }, {}, false)).toThrow('the log format must be json or text, not "xml"');
    expect(() => logSettingsOf({}, { SITEAUDIT_LOG_LEVEL: 'loud' }, false)).toThrow('the log level must be one of');
  });
});

describe('/metrics on the main port', () => {
  it('does not exist without an operator token', async () => {
    const [sqlite] = testBackends();
    const service = await startTestService(sqlite as NonNullable<typeof sqlite>, { worker: false, monitor: false });
    try {
      const answer = await request(service.url, '/metrics');
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await service.close();
    }
  });
});

describe.each(testBackends())('serve --log-format json --metrics-port on $name', (backend) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it.skipIf(!backend.available)(
    'logs JSON records with request ids and no secret, and its metrics move with a run, a delivery and a check',
    async () => {
      const location: TestLocation = await backend.create();
      cleanup.push(() => location.cleanup());
      const where = location.databaseUrl
        ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
        : ['--data-dir', location.dataDir];
      // A webhook endpoint on loopback (its own CA and DNS name) that fails every delivery.
      const ca = createTestCa();
      cleanup.push(async () => ca.cleanup());
      const caFile = `${location.dataDir}/test-ca.pem`;
      writeFileSync(caFile, ca.caPem);
      const dns = await startDnsServer({ 'hooks.test': { A: ['127.0.0.1'] } });
      cleanup.push(() => dns.close());
      let hooks = 0;
      const receiver = createServer(ca.issue(['hooks.test'], 30), (req, res) => {
        hooks++;
        req.resume();
        res.writeHead(500).end();
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      cleanup.push(async () => {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
      });
      const site = await startFixtureSite({ '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1></main>') } });
      cleanup.push(() => site.close());

      const org = await runJson<{ organizationId: string }>([
        'admin',
        'org',
        'create',
        '--name',
        'Ops',
        '--plan',
        'pro',
        '--credits',
        '5',
        ...where,
      ]);
      const { secret: key } = await runJson<{ secret: string }>([
        'admin',
        'key',
        'create',
        '--org',
        org.organizationId,
        ...where,
      ]);
      // An audit row past the retention: its prune is said by a module that writes its own stderr line.
      const store = await openStore(location);
      const old = await store.auditLog.append({
        organizationId: null,
        keyPrefix: null,
        method: 'GET',
        path: '/old',
        status: 200,
        durationMs: 1,
      });
      const longAgo = new Date(Date.now() - 100 * 86_400_000).toISOString();
      await store.db.updateTable('audit_log').set({ created_at: longAgo }).where('id', '=', old).execute();
      await store.close();
      const token = randomBytes(24).toString('hex');
      const serve = await startServe(
        [
          ...where,
          '--no-local-org',
          '--allow-local-targets',
          '--render',
          'never',
          '--log-format',
          'json',
          '--metrics-port',
          '0',
        ],
        { NODE_EXTRA_CA_CERTS: caFile, SITEAUDIT_DNS_SERVERS: dns.address, SITEAUDIT_METRICS_TOKEN: token },
      );
      cleanup.push(() => serve.stop('SIGKILL'));
      const records = () =>
        serve
          .stderr()
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const metricsAt = records()
        .map((r) => /^serving metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)$/.exec(String(r.msg))?.[1])
        .find(Boolean);
      expect(metricsAt).toBeDefined();
      const scrapeOwnPort = async () => {
        const answer = await fetch(metricsAt as string);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return parseExposition(await answer.text());
      };

      const before = await scrapeOwnPort();
      for (const [name, type] of [
        ['siteaudit_queue_depth', 'gauge'],
        ['siteaudit_run_claim_latency_seconds', 'histogram'],
        ['siteaudit_run_duration_seconds', 'histogram'],
        ['siteaudit_webhook_delivery_lag_seconds', 'histogram'],
        ['siteaudit_webhook_delivery_failures_total', 'counter'],
        ['siteaudit_monitor_lag_seconds', 'histogram'],
        ['nodejs_eventloop_lag_seconds', 'gauge'],
        ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
        ['process_cpu_seconds_total', 'counter'],
      ])
        expect(before.types.get(name as string), name).toBe(type);
      expect(sampleValue(before.samples, 'siteaudit_run_duration_seconds_count')).toBeUndefined();
      expect(sampleValue(before.samples, 'siteaudit_webhook_delivery_failures_total')).toBe(0);
      expect(sampleValue(before.samples, 'siteaudit_queue_depth', { queue: 'runs', status: 'pending' })).toBe(0);
      const pool = (state: string) => sampleValue(before.samples, 'siteaudit_db_pool_connections', { state });
      if (location.databaseUrl) {
        expect(pool('max')).toBe(5); // the default --database-pool-size
        expect(pool('total')).toBeGreaterThan(0);
        expect(pool('total')).toBeLessThanOrEqual(5);
        expect(pool('idle')).toBeLessThanOrEqual(pool('total') as number);
        expect(pool('waiting')).toBe(0);
      } else expect(before.samples.filter((s) => s.name === 'siteaudit_db_pool_connections')).toEqual([]);

      // Requests that carry secrets every way a client might: a header, a query string, a path, a body.
      const traced = await request(serve.url, '/api/v1/me', { key, headers: { 'x-request-id': 'trace-abc_123=' } });
      expect(traced.status).toBe(200);
      expect(traced.headers.get('x-request-id')).toBe('trace-abc_123=');
      const untidy = await request(serve.url, '/api/v1/me', { key, headers: { 'x-request-id': 'two words; <b>' } });
      const made = untidy.headers.get('x-request-id');
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
      expect((await request(serve.url, `/api/v1/me?api_key=${key}`, { key: null })).status).toBe(401);
      expect((await request(serve.url, `/api/v1/projects/${key}`, { key })).status).toBe(404);
      const password = `pw-${randomBytes(12).toString('hex')}`;
      const refused = await request(serve.url, '/api/v1/webhooks', {
        key,
        method: 'POST',
        json: { url: 'https://hooks.test/x', secret: `whsec_${randomBytes(24).toString('base64url')}`, password },
      });
      expect(refused.status).toBe(400);
      // A page's path may be a secret itself (a shared run's link): not written.
      const shareToken = randomBytes(24).toString('base64url');
      expect((await request(serve.url, `/shared/${shareToken}`)).status).toBe(404);
      const browser = new TestBrowser(serve.url);
      expect((await browser.signIn('nobody@example.com', password)).status).toBe(401);
      const hook = await request<{ secret: string }>(serve.url, '/api/v1/webhooks', {
        key,
        method: 'POST',
        json: { url: `https://hooks.test:${(receiver.address() as AddressInfo).port}/in`, events: ['run.completed'] },
      });
      expect(hook.status, hook.text).toBe(201);
      expect(hook.body.secret).toMatch(/^whsec_/);

      // A run to completion (its event fails delivery), and a monitoring check.
      const project = await request<{ projectId: string }>(serve.url, '/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain: site.host },
      });
      const monitoring = await request(serve.url, `/api/v1/projects/${project.body.projectId}/monitoring`, {
        key,
        method: 'PUT',
        json: { enabled: true },
      });
      expect(monitoring.status, monitoring.text).toBe(200);
      const run = await request<{ runId: string }>(serve.url, '/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId: project.body.projectId },
      });
      expect(run.status, run.text).toBe(202);
      let status = '';
      for (let i = 0; i < 300 && status !== 'completed'; i++) {
        status = (await request<{ status: string }>(serve.url, `/api/v1/runs/${run.body.runId}`, { key })).body.status;
        if (status !== 'completed') await sleep(100);
      }
      expect(status).toBe('completed');
      let checks = 0;
      for (let i = 0; i < 200 && (hooks === 0 || checks === 0); i++) {
        const listed = await request<{ checks: unknown[] }>(
          serve.url,
          `/api/v1/projects/${project.body.projectId}/monitoring/checks`,
          { key },
        );
        checks = listed.body.checks?.length ?? 0;
        if (hooks === 0 || checks === 0) await sleep(100);
      }
      expect(hooks).toBe(1);
      expect(checks).toBeGreaterThan(0);
      await sleep(300); // the failed attempt is written after the receiver answered

      // The main port: the token or nothing.
      expect((await request(serve.url, '/metrics')).status).toBe(401);
      expect((await request(serve.url, '/metrics', { key })).status).toBe(401);
      expect((await request(serve.url, '/metrics', { headers: { authorization: `Bearer ${token}x` } })).status).toBe(
        401,
      );
      const scraped = await request<string>(serve.url, '/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(scraped.status).toBe(200);
      const after = parseExposition(scraped.text);
      const completed = { product: 'ai_readiness', outcome: 'completed' };
      expect(sampleValue(after.samples, 'siteaudit_run_duration_seconds_count', completed)).toBe(1);
      expect(sampleValue(after.samples, 'siteaudit_run_duration_seconds_bucket', { ...completed, le: '+Inf' })).toBe(1);
      expect(sampleValue(after.samples, 'siteaudit_run_duration_seconds_sum', completed)).toBeGreaterThan(0);
      expect(sampleValue(after.samples, 'siteaudit_run_claim_latency_seconds_count', { product: 'ai_readiness' })).toBe(
        1,
      );
      expect(sampleValue(after.samples, 'siteaudit_webhook_delivery_lag_seconds_count')).toBe(1);
      expect(sampleValue(after.samples, 'siteaudit_webhook_delivery_failures_total')).toBe(1);
      expect(sampleValue(after.samples, 'siteaudit_monitor_lag_seconds_count')).toBeGreaterThanOrEqual(1);
      // The failed delivery waits a minute for its retry; nothing else is queued.
      expect(
        sampleValue(after.samples, 'siteaudit_queue_depth', { queue: 'webhook_deliveries', status: 'pending' }),
      ).toBe(1);
      expect(sampleValue(after.samples, 'siteaudit_queue_depth', { queue: 'runs', status: 'pending' })).toBe(0);
      expect(sampleValue(after.samples, 'siteaudit_queue_depth', { queue: 'runs', status: 'running' })).toBe(0);
      expect(sampleValue(after.samples, 'siteaudit_queue_depth', { queue: 'monitors', status: 'due' })).toBe(0);
      expect(sampleValue(after.samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      // The metrics port says the same.
      const own = await scrapeOwnPort();
      expect(sampleValue(own.samples, 'siteaudit_run_duration_seconds_count', completed)).toBe(1);

      // The first retention pass starts a second after the start; on a loaded machine it may end
      // after the rest of this test, so it is waited for (a failure lists every message logged).
      await expect
        .poll(() => records().map((r) => r.msg), { timeout: 30_000, interval: 100 })
        .toContain('audit log: deleted 1 row older than 90 days');
      expect(await serve.stop('SIGTERM')).toBe(0);
      const logged = records();
      for (const record of logged) {
        expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(record.level);
        expect(new Date(String(record.time)).toISOString()).toBe(record.time);
        expect(typeof record.msg).toBe('string');
      }
      expect(logged.at(-1)?.msg).toBe('stopped');
      // A line written to stderr directly, not through the logger, is a record too.
      expect(logged.find((r) => r.msg === 'audit log: deleted 1 row older than 90 days')).toMatchObject({
        level: 'info',
      });
      expect(logged.find((r) => r.requestId === 'trace-abc_123=')).toMatchObject({
        level: 'info',
        method: 'GET',
        route: '/api/v1/me',
        path: '/api/v1/me',
        status: 200,
        ms: expect.any(Number),
        keyPrefix: `${key.slice(0, 12)}…`, // a prefix is key-shaped text: masked like any
      });
      expect(logged.filter((r) => r.requestId === made)).toHaveLength(1);
      const routes = logged
        .filter((r) => typeof r.requestId === 'string')
        .map((r) => `${r.method} ${r.route} ${r.status}`);
      expect(routes).toEqual(
        expect.arrayContaining([
          'GET /api/v1/me 401',
          'GET /api/v1/projects/:projectId 404',
          'POST /api/v1/webhooks 400',
          'POST /sign-in 401',
          'GET /shared/:token 404',
          'POST /api/v1/webhooks 201',
          'GET /metrics 401',
          'GET /metrics 200',
        ]),
      );
      const text = serve.stderr();
      const secrets = {
        key,
        keySecret: key.slice(12),
        token,
        password,
        hookSecret: hook.body.secret.slice(6),
        shareToken,
      };
      for (const [what, secret] of Object.entries(secrets)) expect(text.includes(secret), what).toBe(false);
      // The masking does look: the key pasted in a path is there, cut to its prefix.
      expect(logged.some((r) => r.path === `/api/v1/projects/${key.slice(0, 12)}…`)).toBe(true);
    },
    120_000,
  );
});
