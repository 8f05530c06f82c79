// Scale benchmark (`npm run bench -- scale`, issue 28): many `siteaudit serve` processes (API-only
// and worker roles) on one PostgreSQL database of their own, auditing loopback fixture sites under a
// simulated arrival of a million audits a month compressed in time. It reports what breaks first
// at scale: connections held, statements an idle process runs, claim latency, how fast a long poll
// on one process hears of a run another process finished, the transactions each webhook event costs
// to dispatch, and how long a small tenant's run waits behind another tenant's burst.
//
// Everything is read from the outside (the database's own statistics, the API, the runs' times), so
// the same scenario runs against an older build: BENCH_SCALE_BASELINE_BIN=/path/to/bin/siteaudit.js
// runs it on that build first and prints both side by side.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'siteaudit_scale_bench';
const PROCESSES = Number(process.env.BENCH_SCALE_PROCESSES ?? 20);
/** Processes that serve the API only; the rest serve it too and run audits. */
const API_ONLY = Math.max(1, Math.round(PROCESSES / 5));
const IDLE_SECONDS = Number(process.env.BENCH_SCALE_IDLE_SECONDS ?? 60);
const LOAD_SECONDS = Number(process.env.BENCH_SCALE_LOAD_SECONDS ?? 60);
/**
 * Arrivals a second: a million audits a month is 0.39 a second with peaks of 2 to 4; compressed,
 * the steady rate is the month's peak and a fifth of the window runs at twice it.
 */
const RATE = Number(process.env.BENCH_SCALE_RATE ?? 2);
const PROBES = Number(process.env.BENCH_SCALE_PROBES ?? 10);
const EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 1000);
const BURST = Number(process.env.BENCH_SCALE_BURST ?? 1000);
/** How long the small tenant's run may wait behind the burst before the figure says "more than". */
const FAIRNESS_TIMEOUT_S = Number(process.env.BENCH_SCALE_FAIRNESS_TIMEOUT_SECONDS ?? 300);
const POOL = Number(process.env.BENCH_SCALE_POOL_SIZE ?? 3);
const HOSTS = 10;
const PROJECTS_PER_HOST = 9; // 90 projects: under the Pro plan's 100
/** Sites on each host: the burst's projects are spread over them all. */
const SITES_PER_HOST = Math.max(PROJECTS_PER_HOST, Math.ceil(BURST / HOSTS));
const CURRENT_BIN = new URL('../bin/siteaudit.js', import.meta.url).pathname;

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the fixture sites

/** A small site: home, two articles and a contact page, linked to each other, with a sitemap. */
function fixturePage(host: string, path: string): string {
  const links = ['/', '/articles/one', '/articles/two', '/contact']
    .map((href) => `<li><a href="${href}">${href === '/' ? 'Home' : href.slice(1)}</a></li>`)
    .join('');
  const words = 'Fixture text about plumbing services, opening hours, prices and the team. '.repeat(40);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${host} ${path}</title>
<meta name="description" content="A fixture page of the scale benchmark at ${path}">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><header><nav><ul>${links}</ul></nav></header><main><h1>Page ${path}</h1><p>${words}</p>
<img src="/logo.png" alt="Logo"></main><footer><a href="/contact">Contact</a></footer></body></html>`;
}

/** The fixture sites' handler: every site serves the same four pages, a robots.txt and a sitemap. */
function serveSite(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const pages = ['/', '/articles/one', '/articles/two', '/contact'];
  if (path === '/sitemap.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages
        .map((u) => `<url><loc>http://${req.headers.host}${u}</loc></url>`)
        .join('')}</urlset>`,
    );
  } else if (path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n`);
  } else if (pages.includes(path)) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(fixturePage(req.headers.host ?? '', path));
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

interface Sites {
  /** Per loopback address (a host), the `address:port` of each of its sites (a project's domain). */
  byHost: string[][];
  /** A site on a host of its own (the small tenant's). */
  lone: string;
  close(): Promise<void>;
}

/** SITES_PER_HOST sites on each of HOSTS loopback addresses, and one more on an address of its own. */
async function startSites(): Promise<Sites> {
  const servers: Server[] = [];
  const listen = async (address: string) => {
    const server = createServer(serveSite);
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    servers.push(server);
    return `${address}:${(server.address() as { port: number }).port}`;
  };
  const byHost: string[][] = [];
  for (let h = 0; h < HOSTS; h++) {
    const sites: string[] = [];
    for (let i = 0; i < SITES_PER_HOST; i++) sites.push(await listen(`127.0.0.${h + 2}`));
    byHost.push(sites);
  }
  const lone = await listen(`127.0.0.${HOSTS + 2}`);
  return {
    byHost,
    lone,
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

// ---------------------------------------------------------------- the database

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function recreateDatabase(): Promise<void> {
  await adminQuery(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [DATABASE],
  );
  await adminQuery(`drop database if exists ${DATABASE}`);
  await adminQuery(`create database ${DATABASE}`);
}

/** Transactions committed and rolled back in the benchmark's database so far (each statement of ours is one). */
async function transactions(): Promise<number> {
  const rows = await adminQuery<{ n: string }>(
    'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
    [DATABASE],
  );
  return Number(rows[0]?.n ?? 0);
}

async function connections(): Promise<number> {
  const rows = await adminQuery<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [
    DATABASE,
  ]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Transactions an interval of `seconds` saw. Backends report their counts to the statistics with a
 * delay (up to 10 s when idle), so the interval is read twice, each after as long a settle.
 */
async function transactionsOver(seconds: number): Promise<number> {
  const before = await transactions();
  await sleep(seconds * 1000);
  return (await transactions()) - before;
}

// ---------------------------------------------------------------- the processes

interface Service {
  url: string;
  child: ChildProcess;
  worker: boolean;
}

function serviceEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SITEAUDIT_DATABASE_URL: databaseUrl(DATABASE),
    SITEAUDIT_DATA_DIR: dataDir,
    // Sized so that every process's pool and its listener fit PostgreSQL's default max_connections
    // (100): PROCESSES x (POOL + 1). A build before issue 28 ignores it (its pool is 10).
    SITEAUDIT_DATABASE_POOL_SIZE: String(POOL),
    SITEAUDIT_LOG_FORMAT: 'text',
    SITEAUDIT_LOG_LEVEL: 'info', // the line that says where it listens is an info record
  };
}

async function startService(bin: string, dataDir: string, worker: boolean): Promise<Service> {
  const args = [
    bin,
    'serve',
    '--port',
    '0',
    '--allow-local-targets',
    '--render',
    'never',
    '--page-budget',
    '4',
    '--rate-limit',
    '100000',
    '--no-monitor',
    ...(worker ? ['--worker-concurrency', '1'] : ['--no-worker']),
  ];
  const child = spawn(process.execPath, args, { env: serviceEnv(dataDir), stdio: ['ignore', 'ignore', 'pipe'] });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s:\n${seen}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.length > 100_000) seen = seen.slice(-50_000);
      const at = seen.indexOf('serving API v1 at http://');
      if (at < 0) return;
      const start = at + 'serving API v1 at '.length;
      let end = start;
      while (end < seen.length && seen[end] !== ' ' && seen[end] !== '"' && seen[end] !== '\n') end++;
      if (end === seen.length) return;
      clearTimeout(timer);
      resolve(seen.slice(start, end));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}:\n${seen}`));
    });
  });
  // Later output is drained, never kept.
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  return { url, child, worker };
}

async function stopAll(services: Service[]): Promise<void> {
  await Promise.all(
    services.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null) return resolve();
          const kill = setTimeout(() => s.child.kill('SIGKILL'), 20_000);
          s.child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          s.child.kill('SIGTERM');
        }),
    ),
  );
}

async function admin<T>(bin: string, dataDir: string, args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [bin, 'admin', ...args, '--json'], { env: serviceEnv(dataDir) });
  return JSON.parse(stdout) as T;
}

async function tenant(bin: string, dataDir: string, name: string): Promise<{ id: string; key: string }> {
  const org = await admin<{ organizationId: string }>(bin, dataDir, [
    'org',
    'create',
    '--name',
    name,
    '--plan',
    'pro',
    '--credits',
    '1000000',
  ]);
  const key = await admin<{ secret: string }>(bin, dataDir, ['key', 'create', '--org', org.organizationId]);
  return { id: org.organizationId, key: key.secret };
}

async function api<T>(base: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

// ---------------------------------------------------------------- figures

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
};
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '-');

interface Figures {
  build: string;
  connectionsIdle: number;
  connectionsPeak: number;
  idleStatementsPerProcess: number;
  runs: number;
  runsCompleted: number;
  claimP50: number;
  claimP99: number;
  wakeP50: number;
  wakeP99: number;
  /** Everything the processes ran while dispatching, per event; and that less their idle rate. */
  dispatchTransactionsPerEvent: number;
  dispatchNetPerEvent: number;
  /** The burst's runs by status when the small tenant's run was claimed (or the wait timed out). */
  burstOutcomes: string;
  smallTenantWaitMs: number;
  smallTenantTimedOut: boolean;
  burstClaimedBeforeSmall: number;
}

/** Run rows' claim waits (first claim less creation), for runs created since `since`. */
async function claimWaits(db: pg.Client, ids: string[]): Promise<{ waits: number[]; completed: number }> {
  const { rows } = await db.query<{ created_at: string; started_at: string | null; status: string }>(
    'select created_at, started_at, status from runs where id = any($1)',
    [ids],
  );
  return {
    waits: rows.filter((r) => r.started_at).map((r) => Date.parse(r.started_at as string) - Date.parse(r.created_at)),
    completed: rows.filter((r) => r.status === 'completed').length,
  };
}

async function untilSettled(db: pg.Client, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ n: string }>(
      "select count(*) as n from runs where status in ('pending', 'running')",
    );
    if (Number(rows[0]?.n) === 0) return;
    await sleep(1000);
  }
}

/**
 * Inserts `rows` into `table` (the columns it has of theirs), erroring on a required column the
 * scenario does not fill; returns the statements it ran.
 */
async function insertRows(db: pg.Client, table: string, rows: Record<string, unknown>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const { rows: required } = await db.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_name = $1 and table_schema = current_schema() and is_nullable = 'NO' and column_default is null",
    [table],
  );
  const { rows: present } = await db.query<{ column_name: string }>(
    'select column_name from information_schema.columns where table_name = $1 and table_schema = current_schema()',
    [table],
  );
  const exists = new Set(present.map((r) => r.column_name));
  const first = rows[0] as Record<string, unknown>;
  const missing = required.map((r) => r.column_name).filter((c) => !(c in first));
  if (missing.length > 0) throw new Error(`${table}: the scenario does not fill ${missing.join(', ')}`);
  const columns = Object.keys(first).filter((c) => exists.has(c));
  for (let at = 0; at < rows.length; at += 500) {
    const chunk = rows.slice(at, at + 500);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => `(${columns.map((c) => `$${values.push(row[c] ?? null)}`).join(', ')})`);
    await db.query(`insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`, values);
  }
  return 2 + Math.ceil(rows.length / 500);
}

async function scenario(bin: string, label: string): Promise<Figures> {
  await recreateDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-scale-'));
  const sites = await startSites();
  const services: Service[] = [];
  const db = new pg.Client({ connectionString: databaseUrl(DATABASE) });
  try {
    // The first process migrates; the rest start together, as a deploy does.
    services.push(await startService(bin, dataDir, false));
    services.push(
      ...(await Promise.all(
        Array.from({ length: PROCESSES - 1 }, (_, i) => startService(bin, dataDir, i + 1 >= API_ONLY)),
      )),
    );
    await db.connect();
    const apiOnly = services.filter((s) => !s.worker);
    const entry = (i: number) => (services[i % services.length] as Service).url;

    const steady = await tenant(bin, dataDir, 'Steady');
    const small = await tenant(bin, dataDir, 'Small');
    const burst = await tenant(bin, dataDir, 'Burst');
    const projects: string[] = [];
    for (let h = 0; h < HOSTS; h++) {
      for (let i = 0; i < PROJECTS_PER_HOST; i++) {
        const domain = sites.byHost[h]?.[i] as string;
        const project = await api<{ projectId: string }>(entry(projects.length), steady.key, 'POST', '/projects', {
          domain,
        });
        projects.push(project.projectId);
      }
    }
    const slots = projects.flatMap((id) =>
      ['paid_ai_readiness', 'paid_marketing_signal'].map((scanMode) => ({ id, scanMode })),
    );

    // Idle: every process up, nothing to do.
    await sleep(15_000);
    const connectionsIdle = await connections();
    const idle = await transactionsOver(IDLE_SECONDS);
    const idleStatementsPerProcess = idle / IDLE_SECONDS / PROCESSES;

    // Load: arrivals at RATE a second (twice that for the middle fifth), spread over every process.
    let connectionsPeak = connectionsIdle;
    const sampler = setInterval(() => {
      connections().then(
        (n) => {
          connectionsPeak = Math.max(connectionsPeak, n);
        },
        () => {},
      );
    }, 1000);
    const created: string[] = [];
    const wakes: number[] = [];
    const probes: Promise<void>[] = [];
    const start = Date.now();
    let next = 0;
    let arrivals = 0;
    const probeEvery = Math.max(1, Math.floor((RATE * LOAD_SECONDS) / PROBES));
    while (Date.now() - start < LOAD_SECONDS * 1000) {
      const t = (Date.now() - start) / 1000;
      const rate = t > LOAD_SECONDS * 0.4 && t < LOAD_SECONDS * 0.6 ? RATE * 2 : RATE;
      await sleep((-Math.log(1 - Math.random()) / rate) * 1000);
      arrivals++;
      // A project with a run in flight answers 409: the next slot is tried, as a client would.
      for (let tries = 0; tries < slots.length; tries++) {
        const slot = slots[next++ % slots.length] as (typeof slots)[number];
        const probe = arrivals % probeEvery === 0 && probes.length < PROBES;
        const base = probe ? (apiOnly[probes.length % apiOnly.length] as Service).url : entry(arrivals);
        const made = await api<{ runId: string }>(base, steady.key, 'POST', '/runs', {
          projectId: slot.id,
          scanMode: slot.scanMode,
        }).catch(() => undefined);
        if (!made) continue;
        created.push(made.runId);
        if (probe) probes.push(longPoll(base, steady.key, made.runId, db, wakes));
        break;
      }
    }
    await untilSettled(db, 300);
    await Promise.all(probes);
    clearInterval(sampler);
    const { waits, completed } = await claimWaits(db, created);

    // Dispatch: events no endpoint subscribes to, written at once; each process's deliverer turns
    // them into (no) deliveries. The idle rate measured above is taken off.
    await sleep(12_000);
    const before = await transactions();
    const dispatchStart = Date.now();
    // Our own statements in the database are counted too, and taken off.
    let ours = await insertRows(
      db,
      'events',
      Array.from({ length: EVENTS }, (_, i) => ({
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        type: 'run.completed',
        organization_id: small.id,
        run_id: null,
        created_at: new Date(Date.now() - EVENTS + i).toISOString(),
        data: '{}',
        dispatched_at: null,
      })),
    );
    for (;;) {
      ours++;
      const { rows } = await db.query<{ n: string }>('select count(*) as n from events where dispatched_at is null');
      if (Number(rows[0]?.n) === 0 || Date.now() - dispatchStart > 120_000) break;
      await sleep(250);
    }
    await sleep(12_000); // the backends' counts reach the statistics
    const dispatchSeconds = (Date.now() - dispatchStart) / 1000;
    const idleShare = idleStatementsPerProcess * PROCESSES * dispatchSeconds;
    const dispatchTransactions = (await transactions()) - before - ours;
    const dispatchTransactionsPerEvent = dispatchTransactions / EVENTS;
    const dispatchNetPerEvent = Math.max(0, dispatchTransactions - idleShare) / EVENTS;

    // Fairness: another tenant's burst of BURST runs, one per project spread over every host (written
    // straight to the database: no plan has that many projects), then one run of a small tenant.
    const now = Date.now();
    const burstSites = Array.from(
      { length: BURST },
      (_, i) => sites.byHost[i % HOSTS]?.[Math.floor(i / HOSTS)] as string,
    );
    const burstProjects = burstSites.map((domain, i) => ({
      id: randomUUID(),
      organization_id: burst.id,
      name: domain,
      domain,
      slug: `burst-${i}`,
      status: 'active',
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
      archived_at: null,
    }));
    await insertRows(db, 'projects', burstProjects);
    await insertRows(
      db,
      'runs',
      burstProjects.map((p, i) => ({
        id: randomUUID(),
        organization_id: burst.id,
        project_id: p.id,
        product: 'ai_readiness',
        status: 'pending',
        progress_pct: 0,
        current_step: null,
        url: `http://${p.domain}/`,
        host: null, // a target on this machine has no host of its own to be polite to (store/runs.ts runHost)
        local: 1,
        scan_mode: 'paid_ai_readiness',
        credits_spent: 1,
        created_at: new Date(now + i).toISOString(),
        attempts: 0,
        next_attempt_at: new Date(now).toISOString(),
      })),
    );
    await sleep(2000);
    const smallProject = await api<{ projectId: string }>(entry(0), small.key, 'POST', '/projects', {
      domain: sites.lone,
    });
    const smallRun = await api<{ runId: string }>(entry(1), small.key, 'POST', '/runs', {
      projectId: smallProject.projectId,
      scanMode: 'paid_ai_readiness',
    });
    const fairnessDeadline = Date.now() + FAIRNESS_TIMEOUT_S * 1000;
    let smallTenantWaitMs = Number.NaN;
    let smallTenantTimedOut = true;
    while (Date.now() < fairnessDeadline) {
      const { rows } = await db.query<{ created_at: string; started_at: string | null }>(
        'select created_at, started_at from runs where id = $1',
        [smallRun.runId],
      );
      const row = rows[0];
      if (row?.started_at) {
        smallTenantWaitMs = Date.parse(row.started_at) - Date.parse(row.created_at);
        smallTenantTimedOut = false;
        break;
      }
      await sleep(250);
    }
    // Burst runs first claimed before the small tenant's (all that were, when it timed out).
    const { rows: claimedBurst } = await db.query<{ n: string }>(
      'select count(*) as n from runs where organization_id = $1 and started_at < coalesce((select started_at from runs where id = $2), $3)',
      [burst.id, smallRun.runId, new Date().toISOString()],
    );
    const { rows: burstOutcomes } = await db.query<{ status: string; n: string }>(
      'select status, count(*) as n from runs where organization_id = $1 group by status order by status',
      [burst.id],
    );
    return {
      build: label,
      connectionsIdle,
      connectionsPeak,
      idleStatementsPerProcess,
      runs: created.length,
      runsCompleted: completed,
      claimP50: quantile(waits, 0.5),
      claimP99: quantile(waits, 0.99),
      wakeP50: quantile(wakes, 0.5),
      wakeP99: quantile(wakes, 0.99),
      dispatchTransactionsPerEvent,
      dispatchNetPerEvent,
      burstOutcomes: burstOutcomes.map((r) => `${r.n} ${r.status}`).join(', '),
      smallTenantWaitMs: smallTenantTimedOut ? FAIRNESS_TIMEOUT_S * 1000 : smallTenantWaitMs,
      smallTenantTimedOut,
      burstClaimedBeforeSmall: Number(claimedBurst[0]?.n ?? 0),
    };
  } finally {
    await stopAll(services);
    await db.end().catch(() => {});
    await sites.close();
    rmSync(dataDir, { recursive: true, force: true });
    await recreateDatabase().catch(() => {});
    await adminQuery(`drop database if exists ${DATABASE}`).catch(() => {});
  }
}

/**
 * Long polls `runId` on `base` until it ends; the time from its completion (as the worker, in
 * another process, wrote it) to the poll's answer is the wake latency.
 */
async function longPoll(base: string, key: string, runId: string, db: pg.Client, wakes: number[]): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const run = await api<{ status: string; completedAt: string | null }>(
      base,
      key,
      'GET',
      `/runs/${runId}?waitSeconds=25`,
    ).catch(() => undefined);
    const answered = Date.now();
    if (!run) return;
    if (run.status === 'completed' || run.status.startsWith('failed')) {
      const { rows } = await db.query<{ completed_at: string | null }>('select completed_at from runs where id = $1', [
        runId,
      ]);
      const completedAt = rows[0]?.completed_at;
      if (completedAt) wakes.push(Math.max(0, answered - Date.parse(completedAt)));
      return;
    }
  }
}

function table(results: Figures[]): string {
  const rows: [string, (f: Figures) => string][] = [
    ['connections held, idle (all processes)', (f) => String(f.connectionsIdle)],
    ['connections held, peak under load', (f) => String(f.connectionsPeak)],
    ['statements a second per idle process', (f) => f.idleStatementsPerProcess.toFixed(2)],
    ['runs created / completed under load', (f) => `${f.runs} / ${f.runsCompleted}`],
    ['claim latency p50', (f) => ms(f.claimP50)],
    ['claim latency p99', (f) => ms(f.claimP99)],
    ['long-poll wake across processes p50', (f) => ms(f.wakeP50)],
    ['long-poll wake across processes p99', (f) => ms(f.wakeP99)],
    [
      'transactions per webhook event dispatched (all processes meanwhile; less their idle rate)',
      (f) => `${f.dispatchTransactionsPerEvent.toFixed(3)} (${f.dispatchNetPerEvent.toFixed(3)})`,
    ],
    [
      `small tenant's run: wait to be claimed behind a ${BURST}-run burst`,
      (f) => (f.smallTenantTimedOut ? `> ${FAIRNESS_TIMEOUT_S} s` : ms(f.smallTenantWaitMs)),
    ],
    ['burst runs claimed before it', (f) => String(f.burstClaimedBeforeSmall)],
    ['the burst then', (f) => f.burstOutcomes],
  ];
  return [
    `| | ${results.map((r) => r.build).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
    ...rows.map(([name, value]) => `| ${name} | ${results.map(value).join(' | ')} |`),
  ].join('\n');
}

export async function runScaleBenchmark(): Promise<string> {
  try {
    await adminQuery('select 1');
  } catch (error) {
    return `## Scale\n\nPostgreSQL not reachable at ${ADMIN_URL} (${(error as Error).message}): skipped.`;
  }
  const results: Figures[] = [];
  const baseline = process.env.BENCH_SCALE_BASELINE_BIN;
  if (baseline) results.push(await scenario(baseline, process.env.BENCH_SCALE_BASELINE_LABEL ?? 'baseline'));
  results.push(await scenario(CURRENT_BIN, 'this build'));
  return [
    `## Scale (${PROCESSES} serve processes on one PostgreSQL: ${API_ONLY} API-only, ${PROCESSES - API_ONLY} API and worker with one audit at a time; pool of ${POOL} each where the build has the setting; Node ${process.version})`,
    '',
    `Idle ${IDLE_SECONDS} s; load ${LOAD_SECONDS} s of arrivals at ${RATE}/s (${RATE * 2}/s for the middle fifth), a million audits a month at its peak rate, on ${HOSTS} loopback sites; ${PROBES} long polls on API-only processes; ${EVENTS} webhook events dispatched; a ${BURST}-run burst of one tenant, then one run of another.`,
    '',
    table(results),
  ].join('\n');
}
