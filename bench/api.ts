// API benchmark: requests per second and latency of GET /api/v1/me and GET /api/v1/projects on the
// real service (SQLite, PostgreSQL) against a bare Hono handler answering the same shapes, all in one
// run on this machine. Each server runs in its own process; autocannon drives one at a time.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PATHS = ['/api/v1/me', '/api/v1/projects'];

interface Target {
  name: string;
  url: string;
  key: string;
  child: ChildProcess;
}

async function start(mode: string): Promise<Target> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', new URL('./server.ts', import.meta.url).pathname, mode],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited ${code}`)));
  });
  const { url, key } = JSON.parse(line) as { url: string; key: string };
  return { name: mode, url, key, child };
}

async function stop(target: Target) {
  const exited = new Promise((resolve) => target.child.once('exit', resolve));
  target.child.kill('SIGTERM');
  await exited;
}

interface Row {
  server: string;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The q-quantile of sorted samples, in milliseconds to two decimals. */
function quantile(sorted: number[], q: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return Math.round(value * 100) / 100;
}

async function measure(target: Target, path: string): Promise<Row> {
  // autocannon's histogram keeps whole milliseconds; each response's own time is kept here instead.
  let latencies: number[] = [];
  const options = {
    url: `${target.url}${path}`,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${target.key}` },
    setupClient: (client: { on(event: 'response', f: (status: number, bytes: number, ms: number) => void): void }) => {
      client.on('response', (_status, _bytes, ms) => latencies.push(ms));
    },
  };
  await autocannon({ ...options, duration: 1 }); // warm-up
  latencies = [];
  const result = await autocannon({ ...options, duration: SECONDS });
  latencies.sort((a, b) => a - b);
  return {
    server: target.name,
    path,
    rps: Math.round(result.requests.average),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors: result.errors + result.non2xx,
  };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: process.env.SITEAUDIT_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function runApiBenchmark(): Promise<string> {
  const modes = ['bare', 'sqlite', ...((await postgresReachable()) ? ['postgres'] : [])];
  const rows: Row[] = [];
  for (const mode of modes) {
    const target = await start(mode);
    try {
      for (const path of PATHS) rows.push(await measure(target, path));
    } finally {
      await stop(target);
    }
  }
  const bare = (path: string) => rows.find((r) => r.server === 'bare' && r.path === path);
  const lines = [
    `API: ${SECONDS} s per case, ${CONNECTIONS} connections, autocannon on loopback, Node ${process.version}`,
    '',
    '| server | path | req/s | p50 ms | p99 ms | req/s vs bare | p50 vs bare | p99 vs bare | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const base = bare(r.path);
      const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}x` : '-');
      return `| ${r.server} | ${r.path} | ${r.rps} | ${r.p50} | ${r.p99} | ${ratio(r.rps, base?.rps)} | ${ratio(r.p50, base?.p50)} | ${ratio(r.p99, base?.p99)} | ${r.errors} |`;
    }),
  ];
  if (!modes.includes('postgres')) lines.push('', 'PostgreSQL not reachable: its rows are missing.');
  return lines.join('\n');
}
