// A `siteaudit serve` killed with -9 in the middle of a webhook delivery loses no event (issue 11):
// the next process takes the delivery over when its lease runs out and sends it again, with the
// same event id, to a real HTTPS receiver on loopback (its own CA, its own DNS name).
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/service/store/index.ts';
import { DEFAULT_POLL_PACES } from '../../src/service/wakeups.ts';
import { testBackends } from '../support/backends.ts';
import { runJson, startServe } from '../support/cli.ts';
import { startDnsServer } from '../support/dns-server.ts';
import { html, startFixtureSite } from '../support/fixture-site.ts';
import { createTestCa } from '../support/secure-sites.ts';
import { request } from '../support/service.ts';

const LEASE_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends())('webhook delivery across kill -9 on $name', (backend) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it.skipIf(!backend.available)(
    'sends the event again from the next process, with the same id',
    async () => {
      const location = await backend.create();
      cleanup.push(() => location.cleanup());
      const where = location.databaseUrl
        ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
        : ['--data-dir', location.dataDir];
      const ca = createTestCa();
      cleanup.push(async () => ca.cleanup());
      const caFile = join(location.dataDir, 'test-ca.pem');
      writeFileSync(caFile, ca.caPem);
      const dns = await startDnsServer({ 'hooks.test': { A: ['127.0.0.1'] } });
      cleanup.push(() => dns.close());
      // The first delivery is held unanswered (the process dies with it in flight); later ones get 204.
      const seen: Array<{ id: string; signature: string }> = [];
      const receiver = createServer(ca.issue(['hooks.test'], 30), (req, res) => {
        seen.push({
          id: String(req.headers['x-service-event-id']),
          signature: String(req.headers['x-service-signature']),
        });
        req.resume();
        if (seen.length > 1) res.writeHead(204).end();
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      cleanup.push(async () => {
        receiver.closeAllConnections();
        await new Promise((r) => receiver.close(r));
      });
      const site = await startFixtureSite({ '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1></main>') } });
      cleanup.push(() => site.close());

      const env = { NODE_EXTRA_CA_CERTS: caFile, SITEAUDIT_DNS_SERVERS: dns.address };
      const args = [
        ...where,
        '--no-local-org',
        '--allow-local-targets',
        '--webhook-lease-seconds',
        String(LEASE_SECONDS),
      ];
      const org = await runJson<{ organizationId: string }>([
        'admin',
        'org',
        'create',
        '--name',
        'Hooks',
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
      const first = await startServe(args, env);
      cleanup.push(() => first.stop('SIGKILL'));
      const hook = await request<{ webhookId: string }>(first.url, '/api/v1/webhooks', {
        key,
        method: 'POST',
        json: { url: `https://hooks.test:${(receiver.address() as AddressInfo).port}/in` },
      });
      expect(hook.status, hook.text).toBe(201);
      const project = await request<{ projectId: string }>(first.url, '/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain: site.host },
      });
      const run = await request(first.url, '/api/v1/runs', {
        key,
        method: 'POST',
        json: { projectId: project.body.projectId },
      });
      expect(run.status, run.text).toBe(202);
      for (let i = 0; i < 200 && seen.length === 0; i++) await sleep(50);
      expect(seen).toHaveLength(1);
      first.child.kill('SIGKILL');

      const killedAt = Date.now();
      const second = await startServe(args, env);
      cleanup.push(() => second.stop('SIGKILL'));
      // A lapsed lease is announced by no one: on PostgreSQL, with the listener up, the next process
      // finds it at its slow pace (10 s, wakeups.ts), after the lease runs out.
      const takeoverMs = DEFAULT_POLL_PACES.deliverer.listeningMs + LEASE_SECONDS * 1000 + 8000;
      for (let waited = 0; waited < takeoverMs && seen.length < 2; waited += 50) await sleep(50);
      const tookOverMs = Date.now() - killedAt;
      expect(seen).toHaveLength(2);
      expect(seen[1]?.id).toBe(seen[0]?.id);
      expect(await second.stop('SIGTERM')).toBe(0);

      const store = await openStore(location);
      try {
        const deliveries = await store.db.selectFrom('webhook_deliveries').selectAll().execute();
        expect(deliveries).toHaveLength(1);
        expect(deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, event_id: seen[0]?.id });
        console.log(
          `battery: webhooks on ${backend.name}: kill -9 mid-delivery -> the next process delivered the same event ${tookOverMs} ms later (lease ${LEASE_SECONDS} s), 2 attempts`,
        );
      } finally {
        await store.close();
      }
    },
    60_000,
  );
});
