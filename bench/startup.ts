// `npm run bench -- startup` (issue 26): what a command costs before it does anything. Every host
// starts `siteaudit mcp` as a process of its own, and every CI step starts `siteaudit`, so the
// start-up is paid each time. Interleaved runs of: `node -e 0` (the floor), `siteaudit --version`,
// and an MCP stdio `initialize` answered (process start to the answer's line on stdout), on the
// embedded default with its local service already running and with none started yet.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, quantile } from './mcp.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'siteaudit.js');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);

/** Milliseconds from spawn to exit. */
function timeExit(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

/** Milliseconds from spawn to the initialize answer; the process is then stopped. */
function timeInitialize(dataDir: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        SITEAUDIT_DATA_DIR: dataDir,
        SITEAUDIT_LOCAL_PORT: '0',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"id":1')) {
        const elapsed = performance.now() - started;
        child.kill('SIGTERM');
        resolve(elapsed);
      }
    });
    child.stdin?.write(INITIALIZE);
  });
}

/**
 * Stops the local service an MCP process started in `dataDir` (its pid is in service.json). The MCP
 * process was stopped right after `initialize`, so its service may still be starting: its record is
 * waited for.
 */
async function stopLocalService(dataDir: string): Promise<void> {
  const { awaitServiceRecord } = await import('../src/service/service-file.ts');
  const record = await awaitServiceRecord(dataDir, 15_000);
  if (record) {
    try {
      process.kill(record.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export async function runStartupBenchmark(): Promise<string> {
  buildDist();
  const warm = mkdtempSync(join(tmpdir(), 'siteaudit-bench-startup-'));
  const cold: string[] = [];
  const floor: number[] = [];
  const version: number[] = [];
  const initWarm: number[] = [];
  const initCold: number[] = [];
  try {
    // The warm data directory's service is started once, by a first MCP process, and kept.
    await timeInitialize(warm);
    for (let i = 0; i < RUNS; i++) {
      floor.push(await timeExit(['-e', '0']));
      version.push(await timeExit([BIN, '--version']));
      initWarm.push(await timeInitialize(warm));
      const dir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-startup-cold-'));
      cold.push(dir);
      initCold.push(await timeInitialize(dir));
    }
  } finally {
    for (const dir of [warm, ...cold]) await stopLocalService(dir);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const dir of [warm, ...cold]) rmSync(dir, { recursive: true, force: true });
  }
  const base = median(floor);
  const row = (name: string, values: number[]) =>
    `| ${name} | ${median(values).toFixed(0)} | ${quantile(
      [...values].sort((a, b) => a - b),
      0.9,
    ).toFixed(0)} | ${(median(values) / base).toFixed(1)}x |`;
  return [
    `## Start-up (${RUNS} interleaved runs each, wall ms from spawn, Node ${process.versions.node})`,
    '',
    '| what | median | p90 | / node -e 0 |',
    '|---|---|---|---|',
    row('node -e 0', floor),
    row('siteaudit --version', version),
    row('siteaudit mcp: initialize answered (local service running)', initWarm),
    row('siteaudit mcp: initialize answered (no local service yet)', initCold),
  ].join('\n');
}
