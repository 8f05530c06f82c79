// MCP soak: does `siteaudit mcp --http` keep its memory flat under sustained load? The HTTP MCP server
// runs in this process (so its heap can be measured after a forced GC); the service runs as
// `siteaudit serve`, and 50 clients (half 2026-07-28, half 2025-11-25, each its own key) run in five
// processes of their own, calling whoami until at least 50,000 calls are done. `npm run bench -- mcp-soak`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startMcpHttpServer } from '../src/mcp/http.ts';
import { seedKeys, startBenchService, stopChild } from './mcp.ts';

const CALLS = Number(process.env.BENCH_SOAK_CALLS ?? 50_000);
const CLIENTS = 50;
const PROCESSES = 5;
const WARMUP_CALLS = 2_000;
const NODE_FLAGS = ['--disable-warning=ExperimentalWarning'];

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Runs `perClient` calls on every one of `keys`, spread over PROCESSES client processes. */
async function load(url: string, keys: string[], perClient: number): Promise<{ done: number; errors: number }> {
  const groups = Array.from({ length: PROCESSES }, (_, i) => keys.filter((_, k) => k % PROCESSES === i));
  const results = await Promise.all(
    groups.map(async (group) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...NODE_FLAGS, join(import.meta.dirname, 'mcp-soak-client.ts'), url, group.join(','), String(perClient)],
        { maxBuffer: 1024 * 1024 },
      );
      return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { done: number; errors: number };
    }),
  );
  return results.reduce((sum, r) => ({ done: sum.done + r.done, errors: sum.errors + r.errors }), {
    done: 0,
    errors: 0,
  });
}

export async function runMcpSoakBenchmark(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-soak-'));
  const keys = seedKeys(dataDir, CLIENTS);
  const service = await startBenchService(dataDir, ['--no-worker']);
  const mcp = await startMcpHttpServer({
    apiUrl: service.url,
    host: '127.0.0.1',
    port: 0,
    version: 'bench',
    settings: { pollIntervalMs: 10_000, defaultWaitSeconds: 25 },
    pacing: false,
    log: () => {},
  });
  try {
    await load(mcp.url, keys, Math.ceil(WARMUP_CALLS / CLIENTS));
    const startHeap = heapAfterGc();
    const startRss = process.memoryUsage().rss;
    const rows: string[] = [`| 0 | ${mb(startRss)} | ${mb(startHeap)} |`];
    const rounds = 5;
    const perClient = Math.ceil(CALLS / CLIENTS / rounds);
    let total = 0;
    let errors = 0;
    const began = performance.now();
    for (let round = 0; round < rounds; round++) {
      const result = await load(mcp.url, keys, perClient);
      total += result.done;
      errors += result.errors;
      rows.push(`| ${total} | ${mb(process.memoryUsage().rss)} | ${mb(heapAfterGc())} |`);
    }
    const seconds = (performance.now() - began) / 1000;
    const endHeap = heapAfterGc();
    const growth = ((endHeap - startHeap) / startHeap) * 100;
    const cpu = cpus();
    return [
      `MCP soak: ${CLIENTS} clients (half 2026-07-28, half 2025-11-25, one key each, whoami in a loop) in ${PROCESSES} processes against one MCP HTTP server, after ${WARMUP_CALLS} warm-up calls (${cpu.length}-core ${cpu[0]?.model ?? 'CPU'}, Node ${process.version})`,
      '',
      '| calls done | RSS MB | heap after forced GC MB |',
      '|---:|---:|---:|',
      ...rows,
      '',
      `${total} calls in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} calls/s), ${errors} errors; heap after forced GC ${mb(startHeap)} MB at the start and ${mb(endHeap)} MB at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%; the bound is 10%).`,
    ].join('\n');
  } finally {
    await mcp.close();
    await stopChild(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
