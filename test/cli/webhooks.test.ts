// `siteaudit webhooks ...` as a person runs it against a deployment (SITEAUDIT_API_URL and
// SITEAUDIT_API_KEY): create, list, deliveries, redeliver, delete, and verify a saved body.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedWebhookEndpoint, WebhookDeliveryList, WebhookList } from '../../src/contract/index.ts';
import { signDelivery } from '../../src/webhooks.ts';
import { testBackends } from '../support/backends.ts';
import { runCli } from '../support/cli.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('siteaudit webhooks', () => {
  let s: TestService;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-hooks-'));

  beforeAll(async () => {
    s = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], { deliverer: false });
    const { key } = await s.tenant();
    env = { SITEAUDIT_API_URL: s.url, SITEAUDIT_API_KEY: key, SITEAUDIT_DATA_DIR: dir };
  });
  afterAll(async () => {
    await s.close();
  });

  it('creates, lists, shows deliveries of and deletes an endpoint', async () => {
    const created = await runCli(
      [
        'webhooks',
        'create',
        'https://hooks.example.com/in',
        '--events',
        'run.failed',
        '--description',
        'pager',
        '--json',
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const endpoint = CreatedWebhookEndpoint.parse(JSON.parse(created.stdout));
    expect(endpoint).toMatchObject({ events: ['run.failed'], description: 'pager' });
    const text = await runCli(['webhooks', 'create', 'https://hooks.example.com/two'], env);
    expect(text.stdout).toMatch(/signing secret \(shown once; keep it with the receiver\): whsec_\S{32}\n$/);

    const listed = await runCli(['webhooks', 'list', '--json'], env);
    expect(WebhookList.shape.webhooks.parse(JSON.parse(listed.stdout).webhooks).map((w) => w.url)).toEqual([
      'https://hooks.example.com/two',
      'https://hooks.example.com/in',
    ]);
    expect((await runCli(['webhooks', 'list'], env)).stdout).toContain(
      `${endpoint.webhookId}  https://hooks.example.com/in  run.failed  active  "pager"`,
    );

    const deliveries = await runCli(['webhooks', 'deliveries', endpoint.webhookId, '--json'], env);
    expect(WebhookDeliveryList.parse(JSON.parse(deliveries.stdout)).deliveries).toEqual([]);
    expect((await runCli(['webhooks', 'deliveries', endpoint.webhookId], env)).stdout).toBe('no deliveries yet\n');

    expect((await runCli(['webhooks', 'delete', endpoint.webhookId], env)).stdout).toBe(
      `deleted ${endpoint.webhookId}\n`,
    );
    const gone = await runCli(['webhooks', 'delete', endpoint.webhookId, '--json'], env);
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stdout)).toMatchObject({ error: { code: 'not_found' } });
    const redeliver = await runCli(['webhooks', 'redeliver', endpoint.webhookId, crypto.randomUUID(), '--json'], env);
    expect(JSON.parse(redeliver.stdout)).toMatchObject({ error: { code: 'not_found' } });
  });

  it('refuses an http URL with the service’s own message', async () => {
    const result = await runCli(['webhooks', 'create', 'http://hooks.example.com/', '--json'], env);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'validation_failed' } });
  });

  it('verifies a saved delivery body, and says why one does not verify', async () => {
    const secret = 'whsec_saved_delivery_secret_0001';
    const body = JSON.stringify({
      id: 'evt_saved01',
      type: 'run.completed',
      createdAt: new Date().toISOString(),
      data: {},
    });
    const file = join(dir, 'body.json');
    writeFileSync(file, body);
    const ok = await runCli(
      ['webhooks', 'verify', file, '--secret', secret, '--signature', signDelivery(secret, body)],
      env,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: 'evt_saved01', type: 'run.completed' });
    const old = signDelivery(secret, body, Math.floor(Date.now() / 1000) - 3600);
    const stale = await runCli(['webhooks', 'verify', file, '--signature', old, '--json'], {
      ...env,
      SITEAUDIT_WEBHOOK_SECRET: secret,
    });
    expect(JSON.parse(stale.stdout)).toMatchObject({ error: { code: 'stale_timestamp' } });
    // A body saved long ago can still be checked with the age check off.
    expect(
      (
        await runCli(['webhooks', 'verify', file, '--signature', old, '--tolerance', '0'], {
          ...env,
          SITEAUDIT_WEBHOOK_SECRET: secret,
        })
      ).code,
    ).toBe(0);
    const forged = await runCli(
      ['webhooks', 'verify', file, '--secret', 'whsec_other', '--signature', signDelivery(secret, body), '--json'],
      env,
    );
    expect(forged.code).toBe(1);
    expect(JSON.parse(forged.stdout)).toMatchObject({ error: { code: 'bad_signature' } });
  });
});
