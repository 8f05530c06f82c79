// API benchmark: requests per second and latency of GET /api/v1/me and GET /api/v1/projects on the
// real service (SQLite, PostgreSQL) against a bare Hono handler answering the same shapes. Every
// server runs in its own process and all run at once; autocannon drives one at a time, in turns
// (bare, sqlite, postgres, bare, ... with the order turned each round), so the machine's drift falls
// on every side alike, and each side is compared with the bare handler of the same round. Each
// connection sends its own API key, as separate clients do: key lookups, rate-limit counters and
// last-use writes are per key, as in production.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { median, ratios, spread } from './support/stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_API_ROUNDS ?? 3));
/** API keys in use: one per connection unless told (BENCH_API_KEYS=1 is the old, single-key run). */
const KEYS = Math.max(1, Math.min(CONNECTIONS, Number(process.env.BENCH_API_KEYS ?? CONNECTIONS)));
const PATHS = ['/api/v1/me', '/api/v1/projects'];

interface Target {
  name: string;
  url: string;
  keys: string[];
  child: ChildProcess;
  lines: AsyncIterator<string>;
}

async function start(mode: string): Promise<Target> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', new URL('./api-server.ts', import.meta.url).pathname, mode, String(KEYS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${mode} server exited ${code}`))),
  );
  const first = await Promise.race([lines.next(), exited]);
  const { url, keys } = JSON.parse(first.value as string) as { url: string; keys: string[] };
  return { name: mode, url, keys, child, lines };
}

/** Stops the server; answers how many of its keys the service saw used (null for the bare handler). */
async function stop(target: Target): Promise<number | null> {
  const exited = new Promise((resolve) => target.child.once('exit', resolve));
  target.child.kill('SIGTERM');
  const last = await target.lines.next();
  await exited;
  return last.done ? null : (JSON.parse(last.value) as { keysUsed: number | null }).keysUsed;
}

interface Case {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The q-quantile of sorted samples, in milliseconds. */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function measure(target: Target, path: string, seconds: number): Promise<Case> {
  // autocannon's histogram keeps whole milliseconds; each response's own time is kept here instead.
  let latencies: number[] = [];
  let next = 0;
  const result = await autocannon({
    url: `${target.url}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    // One key per connection: the n-th connection made sends the n-th key.
    setupClient: (client: {
      setHeaders(headers: Record<string, string>): void;
      on(event: 'response', f: (status: number, bytes: number, ms: number) => void): void;
    }) => {
      client.setHeaders({ authorization: `Bearer ${target.keys[next++ % target.keys.length]}` });
      client.on('response', (_status, _bytes, ms) => latencies.push(ms));
    },
  });
  latencies = latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / seconds,
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
  const targets: Target[] = [];
  const results = new Map<string, Case[]>();
  const keysUsed = new Map<string, number | null>();
  try {
    for (const mode of modes) targets.push(await start(mode));
    for (const target of targets) for (const path of PATHS) await measure(target, path, 1); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PATHS) {
        for (let k = 0; k < targets.length; k++) {
          const target = targets[(round + k) % targets.length] as Target;
          const key = `${target.name} ${path}`;
          results.set(key, [...(results.get(key) ?? []), await measure(target, path, SECONDS)]);
        }
      }
    }
  } finally {
    for (const target of targets) keysUsed.set(target.name, await stop(target));
  }
  const cases = (server: string, path: string) => results.get(`${server} ${path}`) ?? [];
  const lines = [
    `API: ${modes.join(', ')} in turns, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} of ${SECONDS} s per server and path after a 1 s warm-up each, ${CONNECTIONS} connections ${KEYS === CONNECTIONS ? 'each with its own API key' : `sharing ${KEYS} API key${KEYS === 1 ? '' : 's'}`}, autocannon on loopback, Node ${process.version}; median (min–max) over the rounds, ratios paired by round`,
    '',
    '| path | server | req/s | p50 ms | p99 ms | req/s vs bare | p50 vs bare | p99 vs bare | errors | keys used |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const path of PATHS) {
    const bare = cases('bare', path);
    for (const server of modes) {
      const own = cases(server, path);
      const field = (f: keyof Case) => own.map((c) => c[f]);
      const vsBare = (f: keyof Case) =>
        server === 'bare'
          ? '-'
          : spread(
              ratios(
                field(f),
                bare.map((c) => c[f]),
              ),
              2,
              'x',
            );
      lines.push(
        `| ${path} | ${server} | ${spread(field('rps'), 0)} | ${spread(field('p50'), 2)} | ${spread(field('p99'), 2)} | ${vsBare('rps')} | ${vsBare('p50')} | ${vsBare('p99')} | ${field('errors').reduce((a, b) => a + b, 0)} | ${keysUsed.get(server) ?? '-'} |`,
      );
    }
  }
  if (modes.includes('postgres')) {
    const pgVsSqlite = PATHS.map((path) => {
      const r = ratios(
        cases('postgres', path).map((c) => c.rps),
        cases('sqlite', path).map((c) => c.rps),
      );
      return `${path} ${median(r).toFixed(2)}x`;
    });
    lines.push('', `PostgreSQL against SQLite, req/s paired by round: ${pgVsSqlite.join(', ')}.`);
  } else lines.push('', 'PostgreSQL not reachable: its rows are missing.');
  return lines.join('\n');
}
