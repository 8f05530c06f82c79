// wait_for_run latency: how long after a run completes does wait_for_run return? Side by side in one
// run: against this service (its long poll, GET /runs/{runId}?waitSeconds) and against the same service
// behind a proxy that drops waitSeconds, as a deployment without the long poll answers (wait_for_run
// then polls every 10 s, the spec's interval). Each audit takes a random 0 to 3 s (the site's home page
// is that slow), so completions fall anywhere in a poll interval. `npm run bench -- wait`.
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectStdio, startChild, stopChild, type ToolResult } from './mcp.ts';

const RUNS = Number(process.env.BENCH_WAIT_RUNS ?? 20);
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'siteaudit.js');
const NODE_FLAGS = ['--disable-warning=ExperimentalWarning'];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A site whose home page takes a random 0 to 3 s, so each audit ends at a different moment. */
async function slowSite(): Promise<{ host: string; server: Server }> {
  const server = createServer((req, res) => {
    const html = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><p>${'Garden tools. '.repeat(30)}</p></main></body></html>`;
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    };
    if (req.url === '/') setTimeout(answer, Math.random() * 3000);
    else answer();
  });
  return { host: `127.0.0.1:${await listen(server)}`, server };
}

/** The service as a deployment without the long poll sees it: the same API, waitSeconds dropped. */
async function withoutLongPoll(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    url.searchParams.delete('waitSeconds');
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: url.pathname + url.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, server };
}

function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('SITEAUDIT_')) delete env[name];
  return startChild(
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--no-local-org',
      '--allow-local-targets',
      '--rate-limit',
      '100000',
    ],
    env,
    /serving API v1 at (http:\/\/\S+)/,
  );
}

async function latencies(apiUrl: string, key: string, domain: string): Promise<number[]> {
  const { client, close } = await connectStdio(apiUrl, key, '2026-07-28');
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
    return (result.structuredContent ?? {}) as Record<string, unknown>;
  };
  try {
    const { projectId } = await call('create_project', { domain });
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { runId } = await call('start_run', { projectId, idempotencyKey: `bench-wait-${Date.now()}-${i}` });
      let run = await call('wait_for_run', { runId, maxWaitSeconds: 50 });
      while (run.stillRunning) run = await call('wait_for_run', { runId, maxWaitSeconds: 50 });
      const returned = Date.now();
      if (run.status !== 'completed') throw new Error(`run ${String(runId)} ended ${String(run.status)}`);
      samples.push(returned - Date.parse(String(run.completedAt)));
    }
    return samples.sort((a, b) => a - b);
  } finally {
    await close();
  }
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const seconds = (ms: number) => (ms / 1000).toFixed(3);

export async function runWaitBenchmark(): Promise<string> {
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-wait-'));
  const site = await slowSite();
  const seeded = execFileSync(
    process.execPath,
    [...NODE_FLAGS, join(import.meta.dirname, 'mcp-seed.ts'), dataDir, '2'],
    {
      encoding: 'utf8',
    },
  );
  const [longPollKey, pollingKey] = (JSON.parse(seeded) as { keys: string[] }).keys as [string, string];
  const service = await serve(dataDir);
  const proxy = await withoutLongPoll(service.url);
  try {
    const rows: string[] = [];
    for (const [name, url, key] of [
      ['this service (long poll)', service.url, longPollKey],
      ['a deployment without the long poll (10 s polling)', proxy.url, pollingKey],
    ] as const) {
      const sorted = await latencies(url, key, site.host);
      rows.push(
        `| ${name} | ${seconds(at(sorted, 0.5))} | ${seconds(at(sorted, 0.9))} | ${seconds(sorted.at(-1) ?? 0)} |`,
      );
    }
    const cpu = cpus();
    return [
      `wait_for_run: seconds from a run's completion (its completedAt) to the tool's result, ${RUNS} audits each (${cpu.length}-core ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, loopback)`,
      '',
      '| API behind wait_for_run | median | p90 | max |',
      '|---|---:|---:|---:|',
      ...rows,
    ].join('\n');
  } finally {
    await stopChild(service.child);
    proxy.server.close();
    site.server.closeAllConnections();
    site.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
