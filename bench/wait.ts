import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, connectStdio, quantile, seedKeys, startBenchService, stopChild, type ToolResult } from './mcp.ts';

const RUNS = Number(process.env.BENCH_WAIT_RUNS ?? 20);

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

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export async function runWaitBenchmark(): Promise<string> {
  buildDist();
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-wait-'));
  const site = await slowSite();
  const [longPollKey, pollingKey] = seedKeys(dataDir, 2) as [string, string];
  const service = await startBenchService(dataDir, ['--allow-local-targets']);
  const proxy = await withoutLongPoll(service.url);
  try {
    const rows: string[] = [];
    for (const [name, url, key] of [
      ['this service (long poll)', service.url, longPollKey],
      ['a deployment without the long poll (10 s polling)', proxy.url, pollingKey],
    ] as const) {
      const sorted = await latencies(url, key, site.host);
      rows.push(
        `| ${name} | ${seconds(quantile(sorted, 0.5))} | ${seconds(quantile(sorted, 0.9))} | ${seconds(sorted.at(-1) ?? 0)} |`,
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
