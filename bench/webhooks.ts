// Webhook delivery benchmark (`npm run bench -- webhooks`): deliveries per second of one deliverer
// to an HTTPS receiver on loopback, and the delay from an event's creation (a run's completion) to
// its arrival: when the run ended in the same process (the worker wakes the deliverer) and when it
// ended in another one (the deliverer's one-second look), median and p99, on SQLite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditResolver } from '../src/audit/net/resolver.ts';
import { Deliverer } from '../src/service/deliverer.ts';
import { encryptSecret } from '../src/service/key-encryption.ts';
import { createOrganization } from '../src/service/organizations.ts';
import { openStore, type Store } from '../src/service/store/index.ts';
import { createPostgresSchema } from '../test/support/postgres-schema.ts';
import { createTestCa } from '../test/support/secure-sites.ts';

const THROUGHPUT_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const LATENCY_EVENTS = Number(process.env.BENCH_WEBHOOK_LATENCY_EVENTS ?? 100);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(ca: ReturnType<typeof createTestCa>): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server = createServer(ca.issue(['hooks.bench'], 2), (req, res) => {
    arrivals.set(String(req.headers['x-service-event-id']), Date.now());
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://hooks.bench:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The receiver's name answers loopback, as a hosts file would; the bench has no DNS server. */
const resolver: AuditResolver = {
  addresses: async () => [{ address: '127.0.0.1', family: 4 }],
  resolveMx: async () => [],
  resolveTxt: async () => [],
  resolveCaa: async () => [],
  dnssec: async () => null,
};

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? Number.NaN;

async function addEvents(store: Store, organizationId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 200) {
    const rows = Array.from({ length: Math.min(200, count - i) }, () => {
      const id = `evt_${randomBytes(12).toString('hex')}`;
      ids.push(id);
      return {
        id,
        type: 'run.completed',
        organization_id: organizationId,
        run_id: null,
        created_at: new Date().toISOString(),
        data: JSON.stringify({ runId: crypto.randomUUID(), status: 'completed', score: 80 }),
        dispatched_at: null,
      };
    });
    await store.db.insertInto('events').values(rows).execute();
  }
  return ids;
}

async function measure(name: string, store: Store, ca: ReturnType<typeof createTestCa>): Promise<string[]> {
  const kek = randomBytes(32);
  const receiver = await startReceiver(ca);
  const org = await createOrganization(store, { name: 'Bench', plan: 'pro' });
  await store.webhooks.create({
    organizationId: org.id,
    url: receiver.url,
    events: ['run.completed'],
    description: null,
    secretCiphertext: encryptSecret(kek, 'whsec_bench'),
  });
  const deliverer = new Deliverer({ store, kek, resolver, allowPrivate: true, ca: ca.caPem, autoStart: false });
  try {
    // Throughput: a backlog of events, delivered by one process, 4 at a time.
    const backlog = await addEvents(store, org.id, THROUGHPUT_EVENTS);
    const started = performance.now();
    await deliverer.tick();
    const seconds = (performance.now() - started) / 1000;
    const delivered = backlog.filter((id) => receiver.arrivals.has(id)).length;

    // Delay when the run ends in this process: the event is written, then the deliverer is woken.
    const woken: number[] = [];
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const written = Date.now();
      const [id] = await addEvents(store, org.id, 1);
      deliverer.wake();
      while (!receiver.arrivals.has(id as string)) await new Promise((r) => setImmediate(r));
      woken.push((receiver.arrivals.get(id as string) as number) - written);
    }
    // Delay when the run ended in another process: only the deliverer's own look (every second) finds it.
    const polled: number[] = [];
    const looking = new Deliverer({ store, kek, resolver, allowPrivate: true, ca: ca.caPem, pollMs: 1000 });
    looking.start();
    for (let i = 0; i < Math.min(LATENCY_EVENTS, 20); i++) {
      await new Promise((r) => setTimeout(r, Math.random() * 1000));
      const written = Date.now();
      const [id] = await addEvents(store, org.id, 1);
      while (!receiver.arrivals.has(id as string)) await new Promise((r) => setTimeout(r, 2));
      polled.push((receiver.arrivals.get(id as string) as number) - written);
    }
    await looking.stop();
    const ms = (v: number) => `${Math.round(v)} ms`;
    return [
      `| ${name} | ${delivered} in ${seconds.toFixed(2)} s | ${(delivered / seconds).toFixed(0)} | ${ms(percentile(woken, 50))} / ${ms(percentile(woken, 99))} | ${ms(percentile(polled, 50))} / ${ms(percentile(polled, 99))} |`,
    ];
  } finally {
    await deliverer.stop();
    await receiver.close();
  }
}

export async function runWebhookBenchmark(): Promise<string> {
  const ca = createTestCa();
  const lines = [
    `Webhooks: one deliverer, 4 sends at a time, HTTPS receiver on loopback answering 204; ${THROUGHPUT_EVENTS} queued events, ${LATENCY_EVENTS} timed one by one; Node ${process.version}`,
    '',
    '| store | backlog delivered | deliveries/s | delay, run ended in this process (median / p99) | delay, run ended in another process (median / p99) |',
    '|---|---:|---:|---:|---:|',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-hooks-'));
  try {
    const sqlite = await openStore({ dataDir: dir });
    try {
      lines.push(...(await measure('SQLite', sqlite, ca)));
    } finally {
      await sqlite.close();
    }
    try {
      const scoped = await createPostgresSchema(DATABASE_URL, 'bench_hooks');
      try {
        const postgres = await openStore({ dataDir: dir, databaseUrl: scoped.databaseUrl });
        try {
          lines.push(...(await measure('PostgreSQL', postgres, ca)));
        } finally {
          await postgres.close();
        }
      } finally {
        await scoped.drop();
      }
    } catch (error) {
      lines.push(`| PostgreSQL | not measured: ${(error as Error).message} | | | |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    ca.cleanup();
  }
  return lines.join('\n');
}
