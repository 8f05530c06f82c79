// The service's Prometheus metrics (issue 28): one registry per process. The worker, the deliverer
// and the monitor observe into it as they go; the queue depths and the pool are read at each scrape.
// Served by `serve --metrics-port` on a listener of its own, or at /metrics on the API's port to a
// bearer of SITEAUDIT_METRICS_TOKEN.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { logger } from './logger.ts';
import type { MonitorRow, RunRow, Store, WebhookDeliveryRow } from './store/index.ts';

/** Queue counts stop here: a scrape stays cheap however long a backlog grows. */
export const QUEUE_COUNT_CAP = 100_000;

const registry = new Registry();
// process_* and nodejs_* (CPU, memory, handles, GC, and nodejs_eventloop_lag_* from perf_hooks).
collectDefaultMetrics({ register: registry });

const queueDepth = new Gauge({
  name: 'siteaudit_queue_depth',
  help: `Work waiting or in hand, counted at each scrape (at most ${QUEUE_COUNT_CAP}): runs pending and running, webhook deliveries pending and delivering, monitored projects due`,
  labelNames: ['queue', 'status'] as const,
  registers: [registry],
});
const claimLatency = new Histogram({
  name: 'siteaudit_run_claim_latency_seconds',
  help: "Time from a run's creation to its first claim by a worker",
  labelNames: ['product'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});
const runDuration = new Histogram({
  name: 'siteaudit_run_duration_seconds',
  help: "Time from a run's first claim to its end in this process, by product and outcome (completed, failed)",
  labelNames: ['product', 'outcome'] as const,
  buckets: [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800],
  registers: [registry],
});
const deliveryLag = new Histogram({
  name: 'siteaudit_webhook_delivery_lag_seconds',
  help: 'Time from when a webhook delivery attempt was due to when it was sent',
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});
const deliveryFailures = new Counter({
  name: 'siteaudit_webhook_delivery_failures_total',
  help: 'Webhook delivery attempts that failed (no 2xx answer in time)',
  registers: [registry],
});
const monitorLag = new Histogram({
  name: 'siteaudit_monitor_lag_seconds',
  help: 'Time from when a monitored project was due to when its check was written',
  buckets: [0.5, 1, 5, 10, 30, 60, 120, 300, 900, 3600],
  registers: [registry],
});
// Labelled, so a process on SQLite (no pool) shows no sample rather than zeros.
const poolConnections = new Gauge({
  name: 'siteaudit_db_pool_connections',
  help: "This process's PostgreSQL pool: connections open (total), idle, queries waiting for one (waiting), and the most it opens (max, --database-pool-size)",
  labelNames: ['state'] as const,
  registers: [registry],
});

const secondsSince = (iso: string | null, now = Date.now()) =>
  iso === null ? undefined : Math.max(0, (now - Date.parse(iso)) / 1000);

/** A run a worker claimed: its wait from creation, on its first attempt (a retry waited on purpose). */
export function observeClaim(run: Pick<RunRow, 'product' | 'attempts' | 'created_at'>): void {
  const waited = secondsSince(run.created_at);
  if (run.attempts === 1 && waited !== undefined) claimLatency.observe({ product: run.product }, waited);
}

/** A run that ended here: completed, or failed for good. */
export function observeRunEnd(
  run: Pick<RunRow, 'product' | 'started_at' | 'created_at'>,
  outcome: 'completed' | 'failed',
): void {
  const took = secondsSince(run.started_at ?? run.created_at);
  if (took !== undefined) runDuration.observe({ product: run.product, outcome }, took);
}

/** A webhook delivery attempt made at `sentAt` (ms): its lag behind its due time, and whether it failed. */
export function observeDelivery(
  delivery: Pick<WebhookDeliveryRow, 'next_attempt_at'>,
  sentAt: number,
  delivered: boolean,
): void {
  const lag = secondsSince(delivery.next_attempt_at, sentAt);
  if (lag !== undefined) deliveryLag.observe(lag);
  if (!delivered) deliveryFailures.inc();
}

/** A monitoring check written at `checkedAt` (ms), behind its project's due time. */
export function observeMonitorCheck(monitor: Pick<MonitorRow, 'next_check_at'>, checkedAt: number): void {
  const lag = secondsSince(monitor.next_check_at, checkedAt);
  if (lag !== undefined) monitorLag.observe(lag);
}

/** Rows matching `where` in `table`, up to the cap: one bounded read of the index that serves the claim. */
async function countUpTo(store: Store, table: string, where: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${sql.table(
    table,
  )} where ${where} limit ${QUEUE_COUNT_CAP}) as capped`.execute(store.db);
  return Number(rows[0]?.n ?? 0);
}

async function readQueues(store: Store): Promise<void> {
  const now = new Date().toISOString();
  const counts = await Promise.all([
    countUpTo(store, 'runs', sql`status = 'pending'`),
    countUpTo(store, 'runs', sql`status = 'running'`),
    countUpTo(store, 'webhook_deliveries', sql`status = 'pending'`),
    countUpTo(store, 'webhook_deliveries', sql`status = 'delivering'`),
    countUpTo(store, 'monitors', sql`enabled = 1 and next_check_at <= ${now}`),
  ]);
  const [runsPending, runsRunning, deliveriesPending, deliveriesDelivering, monitorsDue] = counts as [
    number,
    number,
    number,
    number,
    number,
  ];
  queueDepth.set({ queue: 'runs', status: 'pending' }, runsPending);
  queueDepth.set({ queue: 'runs', status: 'running' }, runsRunning);
  queueDepth.set({ queue: 'webhook_deliveries', status: 'pending' }, deliveriesPending);
  queueDepth.set({ queue: 'webhook_deliveries', status: 'delivering' }, deliveriesDelivering);
  queueDepth.set({ queue: 'monitors', status: 'due' }, monitorsDue);
}

/** The exposition text of this process's registry, with the queues and the pool read now. */
export async function scrape(store: Store): Promise<string> {
  try {
    await readQueues(store);
  } catch (error) {
    // The rest still answers (the database may be what the operator is looking into).
    queueDepth.reset();
    logger().warn(`metrics: could not count the queues: ${(error as Error).message}`);
  }
  const pool = store.poolStats();
  if (pool) {
    poolConnections.set({ state: 'total' }, pool.total);
    poolConnections.set({ state: 'idle' }, pool.idle);
    poolConnections.set({ state: 'waiting' }, pool.waiting);
    poolConnections.set({ state: 'max' }, pool.max);
  }
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** Shortest operator token accepted: a guessable one would open the metrics to anyone. */
const MIN_TOKEN_LENGTH = 16;

/**
 * The operator token of /metrics on the API's port (SITEAUDIT_METRICS_TOKEN); undefined when unset
 * (then that path answers 404). Throws on one too short to keep a guesser out.
 */
export function metricsToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env.SITEAUDIT_METRICS_TOKEN;
  if (!token) return undefined;
  if (token.length < MIN_TOKEN_LENGTH)
    throw new Error(`SITEAUDIT_METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  return token;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header is `Bearer <token>`, compared in constant time. */
export function bearsToken(header: string | undefined, token: string): boolean {
  const presented = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `serve --metrics-port`: GET /metrics on a listener of its own, without a token: the address it
 * binds (loopback unless --metrics-host says otherwise) is what keeps it private.
 */
export async function startMetricsServer(store: Store, host: string, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: scrape /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    scrape(store).then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(req.method === 'HEAD' ? '' : text),
      (error: Error) => {
        logger().error({ err: error }, 'metrics: scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
