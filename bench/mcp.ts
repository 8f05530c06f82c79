// MCP benchmark: what the MCP server adds on top of the API it wraps, in one run on this machine.
// 1. latency of a tool call (whoami, get_report) against the raw API request it stands for, over
//    streamable HTTP (`siteaudit mcp --http`) and stdio (`siteaudit mcp`), both protocol eras;
// 2. tokens a model reads: tools/list, and get_report + the first page_findings page against the raw
//    API JSON of the same fields (and, for issue 26's budget, against the whole raw responses);
// 3. concurrent HTTP clients served by one `siteaudit mcp --http` process.
// The service (`siteaudit serve`), the HTTP MCP server and every stdio MCP server run in processes of
// their own; the fixture site and the clients run here.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { request } from 'undici';
import { bareClient } from './mcp-bare-client.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Sequential calls per latency case, after a warm-up of WARMUP_SECONDS (so that the JIT has run). */
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 200);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Before any measurement, the HTTP MCP process and the service serve this long (the JIT needs thousands of calls). */
const PROCESS_WARMUP_SECONDS = Number(process.env.BENCH_PROCESS_WARMUP_SECONDS ?? 5);
/** New connections per transport and era for the connect and first-get_report rows. */
const FIRST_CALLS = Number(process.env.BENCH_MCP_FIRST_CALLS ?? 10);
/** Rounds of whoami against the raw /me, each way measured in every round, in turn with the raw. */
const LATENCY_ROUNDS = Number(process.env.BENCH_MCP_LATENCY_ROUNDS ?? 5);
/** Rounds of the concurrency cases; the median round is shown. */
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 3);
const CLIENT_COUNTS = (process.env.BENCH_MCP_CLIENTS ?? '1,10,50').split(',').map(Number);
const FINDINGS_LIMIT = 20;
/** A run id that exists nowhere: calling get_report with it only warms the client's validator. */
const MISSING_RUN = '0190f5a0-0000-7000-8000-00000000dead';
const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'siteaudit.js');
const NODE_FLAGS = ['--disable-warning=ExperimentalWarning'];

// ---------------------------------------------------------------------------------------------
// Processes

const children = new Set<ChildProcess>();

/** Starts `node args` and resolves with the first match of `ready` on its stderr. */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    child.once('exit', () => children.delete(child));
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start: ${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
      const match = ready.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited ${code} before it was ready: ${stderr}`));
    });
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** User + system CPU milliseconds a process has used so far (Linux /proc), or NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Peak (VmHWM) or current (VmRSS) resident set size of a process in MB (Linux /proc), or NaN elsewhere. */
function rssMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// The audited site: a few small pages on loopback, with the gaps real sites have (no robots.txt,
// llms.txt or sitemap, a page without a description, an image without alt text).

function page(title: string, description: string | null, body: string): string {
  const meta = description ? `<meta name="description" content="${description}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${meta}</head><body><header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/blog">Blog</a></nav></header><main><h1>${title}</h1><p>${'Acme makes hand-forged garden tools, guaranteed for twenty years of daily work. '.repeat(8)}</p>${body}</main></body></html>`;
}

const SITE: Record<string, string> = {
  '/': page('Acme garden tools', 'Hand-forged garden tools.', '<img src="/spade.jpg">'),
  '/about': page('About Acme', null, '<p>Founded in 1921.</p>'),
  '/pricing': page(
    'Pricing',
    'Prices of our tools.',
    '<form action="/cart"><input name="q"><button>Buy</button></form>',
  ),
  '/blog': page('Blog', null, '<article><h2>Sharpening a spade</h2><p>Use a file.</p></article>'),
};

async function startSite(): Promise<{ host: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const body = SITE[(req.url ?? '/').split('?')[0] ?? '/'];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? '<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The API, raw

async function api(
  base: string,
  key: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string; json: () => unknown }> {
  const response = await request(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`${path}: HTTP ${response.statusCode} ${text}`);
  return { status: response.statusCode, text, json: () => JSON.parse(text) };
}

async function completedRun(base: string, key: string, domain: string): Promise<string> {
  const project = (await api(base, key, '/api/v1/projects', { domain })).json() as { projectId: string };
  const run = (await api(base, key, '/api/v1/runs', { projectId: project.projectId })).json() as { runId: string };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { status } = (await api(base, key, `/api/v1/runs/${run.runId}`)).json() as { status: string };
    if (status === 'completed') return run.runId;
    if (status !== 'pending' && status !== 'running') throw new Error(`the benchmark's run ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the benchmark run did not complete in 120 s');
}

// ---------------------------------------------------------------------------------------------
// MCP clients

interface Connection {
  client: Client;
  close(): Promise<void>;
}

export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

function newClient(era: Era): Client {
  return new Client(
    { name: 'siteaudit-bench', version: '1.0.0' },
    { capabilities: {}, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) },
  );
}

async function connectHttp(url: string, key: string, era: Era): Promise<Connection> {
  const client = newClient(era);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return {
    client,
    // A 2025-era connection has a session on the server: end it, as a client SHOULD, then close.
    close: async () => {
      if (transport.sessionId) await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

export async function connectStdio(apiUrl: string, key: string, era: Era): Promise<Connection> {
  const client = newClient(era);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_FLAGS, BIN, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      SITEAUDIT_API_URL: apiUrl,
      SITEAUDIT_API_KEY: key,
      SITEAUDIT_API_RATE_LIMIT: '0',
    },
    // Outside any repository, as hosts start servers: no source lookups in the figures.
    cwd: tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw new Error(`siteaudit mcp (stdio) did not connect: ${(error as Error).message}\n${stderr}`);
  }
  // The SDK's close ends stdin, then sends SIGTERM and SIGKILL if the server does not exit.
  return { client, close: () => client.close() };
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name}: ${result.content?.find((b) => b.type === 'text')?.text ?? 'error'}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Statistics and tables

/** The q-quantile of sorted samples, in milliseconds. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const ratio = (a: number, b: number | undefined) => (b && Number.isFinite(a) ? `${(a / b).toFixed(1)}x` : '-');
const tokens = (text: string) => Math.round(text.length / 4);

async function timed(n: number, call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

/** Calls in a loop for WARMUP_SECONDS, at least 20 times. */
async function warm(call: () => Promise<unknown>): Promise<void> {
  const until = performance.now() + WARMUP_SECONDS * 1000;
  for (let i = 0; i < 20 || performance.now() < until; i++) await call();
}

interface LatencyRow {
  call: string;
  via: string;
  samples: number[];
  /** The raw API samples this row is compared with. */
  raw?: number[];
  /** Per round, this row's p50 over the raw p50 of the same round: the median is shown. */
  ratios?: number[];
}

const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

function latencyTable(rows: LatencyRow[]): string[] {
  return [
    '| call | via | n | p50 ms | p95 ms | mean ms | p50 vs raw | mean vs raw |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const p50 = quantile(r.samples, 0.5);
      const avg = mean(r.samples);
      const raw = r.raw;
      const p50Ratio = r.ratios ? `${median(r.ratios).toFixed(1)}x` : raw ? ratio(p50, quantile(raw, 0.5)) : '-';
      return `| ${r.call} | ${r.via} | ${r.samples.length} | ${ms(p50)} | ${ms(quantile(r.samples, 0.95))} | ${ms(avg)} | ${p50Ratio} | ${raw ? ratio(avg, mean(raw)) : '-'} |`;
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// 1. Latency

interface World {
  apiUrl: string;
  mcpUrl: string;
  /** bench/mcp-relay.ts: the same two hops as a tool call over HTTP, with no MCP in them. */
  relayUrl: string;
  keys: string[];
  runId: string;
}

const WARM_KEYS = 10;

/** Ten HTTP clients, five of each era, calling whoami and get_report for PROCESS_WARMUP_SECONDS. */
async function warmProcesses(world: World): Promise<void> {
  const connections: Connection[] = [];
  try {
    for (let i = 0; i < WARM_KEYS; i++) {
      connections.push(await connectHttp(world.mcpUrl, world.keys[i] as string, ERAS[i % 2] as Era));
    }
    const until = performance.now() + PROCESS_WARMUP_SECONDS * 1000;
    await Promise.all(
      connections.map(async (c) => {
        await c.client.listTools();
        while (performance.now() < until) {
          await callTool(c.client, 'whoami');
          await callTool(c.client, 'get_report', { runId: world.runId });
          await api(world.apiUrl, world.keys[0] as string, `/api/v1/runs/${world.runId}/report`);
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((c) => c.close()));
  }
}

/** A way to call whoami, and to let go of it. */
interface Way {
  via: string;
  call: () => Promise<unknown>;
  close: () => Promise<void>;
}

/**
 * whoami each way against the raw /me, in rounds: the raw requests, then each way's calls, round
 * after round, so that the machine's drift (and the service's own warming) falls on all of them.
 */
async function whoamiRounds(world: World): Promise<{ rawMe: number[]; whoamiRows: LatencyRow[] }> {
  const { apiUrl, mcpUrl, keys } = world;
  const key = keys[0] as string;
  const ways: Way[] = [];
  try {
    for (const era of ERAS) {
      const c = await connectHttp(mcpUrl, key, era);
      await c.client.listTools();
      ways.push({ via: `MCP HTTP, ${era}`, call: () => callTool(c.client, 'whoami'), close: c.close });
    }
    for (const era of ERAS) {
      const c = await connectStdio(apiUrl, key, era);
      await c.client.listTools();
      ways.push({ via: `MCP stdio, ${era}`, call: () => callTool(c.client, 'whoami'), close: c.close });
    }
    for (const era of ERAS) {
      const c = await bareClient(mcpUrl, key, era);
      ways.push({ via: `MCP HTTP, ${era}, bare client`, call: () => c.call('whoami'), close: c.close });
    }
    const relay = await bareClient(world.relayUrl, key, '2026-07-28');
    ways.push({ via: 'relay with no MCP (floor), bare client', call: () => relay.call('whoami'), close: relay.close });
    // The SDK client's own work on the same floor: what no MCP server could go under with it.
    for (const era of ERAS) {
      const c = await connectHttp(world.relayUrl, key, era);
      await c.client.listTools();
      ways.push({
        via: `relay with no MCP (floor), ${era}, SDK client`,
        call: () => callTool(c.client, 'whoami'),
        close: c.close,
      });
    }
    const raw = () => api(apiUrl, key, '/api/v1/me');
    await warm(raw);
    for (const way of ways) await warm(way.call);
    const rawMe: number[] = [];
    const samples = ways.map(() => [] as number[]);
    const ratios = ways.map(() => [] as number[]);
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const rawRound = await timed(CALLS, raw);
      rawMe.push(...rawRound);
      for (const [i, way] of ways.entries()) {
        const wayRound = await timed(CALLS, way.call);
        samples[i]?.push(...wayRound);
        ratios[i]?.push(quantile(wayRound, 0.5) / quantile(rawRound, 0.5));
      }
    }
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    return {
      rawMe: sorted(rawMe),
      whoamiRows: ways.map((way, i) => ({
        call: 'whoami',
        via: way.via,
        samples: sorted(samples[i] ?? []),
        raw: rawMe,
        ratios: ratios[i] ?? [],
      })),
    };
  } finally {
    await Promise.all(ways.map((way) => way.close().catch(() => {})));
  }
}

async function latency(world: World): Promise<string[]> {
  await warmProcesses(world);
  const { apiUrl, mcpUrl, keys, runId } = world;
  const key = keys[0] as string;
  const reportPath = `/api/v1/runs/${runId}/report`;
  const { rawMe, whoamiRows } = await whoamiRounds(world);
  await warm(() => api(apiUrl, key, reportPath));
  const rawReport = await timed(CALLS, () => api(apiUrl, key, reportPath));

  const rows: LatencyRow[] = [
    { call: 'GET /api/v1/me', via: 'raw HTTP (undici)', samples: rawMe },
    { call: 'GET …/runs/{id}/report', via: 'raw HTTP (undici)', samples: rawReport },
  ];
  const cachedRows: LatencyRow[] = [];
  const firstRows: LatencyRow[] = [];
  const connectRows: LatencyRow[] = [];
  // Keys never used before over HTTP (warmProcesses used the first ten), so that each first
  // get_report meets an empty client cache.
  let fresh = WARM_KEYS;
  for (const transport of ['HTTP', 'stdio'] as const) {
    for (const era of ERAS) {
      const via = `MCP ${transport}, ${era}`;
      const connect = (k: string) =>
        transport === 'HTTP' ? connectHttp(mcpUrl, k, era) : connectStdio(apiUrl, k, era);
      const connection = await connect(key);
      try {
        await connection.client.listTools();
        await warm(() => callTool(connection.client, 'get_report', { runId }));
        cachedRows.push({
          call: 'get_report, cached (no API request)',
          via,
          samples: await timed(CALLS, () => callTool(connection.client, 'get_report', { runId })),
          raw: rawReport,
        });
      } finally {
        await connection.close();
      }
      // New connections, to see what a host's first get_report costs. Each new SDK client compiles a
      // tool's output schema (AJV) on its first call of that tool: over HTTP, one row shows that with
      // the report already in the server's cache. For the server's own first call, the client's
      // schema is compiled beforehand (a call for a run that does not exist), and the report is not
      // cached yet: a key never used before over HTTP, a new process over stdio.
      const connects: number[] = [];
      const clientFirsts: number[] = [];
      const firsts: number[] = [];
      for (let i = 0; i < FIRST_CALLS; i++) {
        if (transport === 'HTTP') {
          const c = await connect(key);
          try {
            await c.client.listTools();
            const start = performance.now();
            await callTool(c.client, 'get_report', { runId });
            clientFirsts.push(performance.now() - start);
          } finally {
            await c.close();
          }
        }
        const k = transport === 'HTTP' ? (keys[fresh++] as string) : key;
        let start = performance.now();
        const c = await connect(k);
        connects.push(performance.now() - start);
        try {
          await c.client.listTools();
          await c.client.callTool({ name: 'get_report', arguments: { runId: MISSING_RUN } });
          start = performance.now();
          await callTool(c.client, 'get_report', { runId });
          firsts.push(performance.now() - start);
        } finally {
          await c.close();
        }
      }
      connectRows.push({
        call: `connect${transport === 'HTTP' ? ' (new key: checked with /me)' : ' (spawns the server)'}`,
        via,
        samples: connects.sort((a, b) => a - b),
      });
      firstRows.push({
        call: `get_report, server's first call (API request${transport === 'stdio' ? ', new process' : ''})`,
        via,
        samples: firsts.sort((a, b) => a - b),
        raw: rawReport,
      });
      if (clientFirsts.length > 0) {
        firstRows.push({
          call: "get_report, new client's first call (server cached)",
          via,
          samples: clientFirsts.sort((a, b) => a - b),
          raw: rawReport,
        });
      }
    }
  }
  return [
    `whoami against the raw \`GET /api/v1/me\` it wraps: ${LATENCY_ROUNDS} rounds, each of ${CALLS} raw requests and then ${CALLS} sequential whoami calls each way, after warm-up calls on every connection; "p50 vs raw" is the median over the rounds of the way's p50 over the raw p50 of its round (per round: ${whoamiRows.map((r) => `${r.via.replace(/^MCP /, '')} ${(r.ratios ?? []).map((x) => x.toFixed(1)).join('/')}`).join('; ')}). The bare client is prebuilt JSON-RPC over undici (bench/mcp-bare-client.ts): the MCP server's cost without the SDK client's. The relay (bench/mcp-relay.ts) is the floor under every HTTP row: a process that answers a tools/call with one /me request and no MCP at all, the same two loopback round trips; with the SDK client it is the floor under the SDK-client rows (its one tool has no output schema, so the client validates less there than against \`siteaudit mcp\`)`,
    '',
    `Tool-call latency: ${CALLS} sequential calls per case after ${WARMUP_SECONDS} s of warm-up calls on the same connection (and ${PROCESS_WARMUP_SECONDS} s of calls from 10 clients before the first case) (first calls and connects: ${FIRST_CALLS} new connections each); client pacing off, service rate limit raised`,
    '',
    ...latencyTable([...rows, ...whoamiRows, ...firstRows, ...cachedRows, ...connectRows]),
  ];
}

// ---------------------------------------------------------------------------------------------
// 2. Tokens

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `raw` cut to the shape of `shown`: an object keeps the keys `shown` has, a list the items `shown`
 * has (in order: the views keep the API's), anything else stays the API's value. So a tool result is
 * measured against the API's JSON of the same fields, not against fields it leaves out.
 */
function project(raw: unknown, shown: unknown): unknown {
  if (Array.isArray(raw) && Array.isArray(shown))
    return raw.slice(0, shown.length).map((item, i) => project(item, shown[i]));
  if (!isObject(raw) || !isObject(shown)) return raw;
  const out: Json = {};
  for (const key of Object.keys(shown))
    if (raw[key] !== undefined && raw[key] !== null) out[key] = project(raw[key], shown[key]);
  return out;
}

/** An agent action's fields as get_report and page_findings show them (src/mcp/views.ts actionText). */
function actionFields(action: Json): Json {
  const description = String(action.description ?? '');
  const suggestion = isObject(action.suggestion) ? action.suggestion : undefined;
  if (!suggestion) return { description };
  return { description: description.split('\n')[0], suggestion: { content: suggestion.content } };
}

/**
 * The API's report with the fields get_report renames under its names (src/mcp/views.ts reportView),
 * the values left as the API has them: coverage counts lifted, failing ledger rows as failingChecks,
 * a foundation item as its `present`, the security scope's label and disclaimer.
 */
function reportFields(raw: Json): Json {
  const { coverage, checks, foundation, scope, stageScores, ...rest } = raw;
  const rows = Array.isArray(checks) ? checks : isObject(checks) && Array.isArray(checks.rows) ? checks.rows : [];
  const failing = (rows as Json[])
    .filter((row) => row.status === 'fail')
    .map((row) => ({
      ...row,
      group: row.category ?? row.pillar,
      ...(row.evidence !== undefined ? { detail: row.evidence } : {}),
      ...(row.recommendation !== undefined ? { fix: row.recommendation } : {}),
    }));
  return {
    ...rest,
    ...(isObject(coverage) ? coverage : {}),
    pagesCrawled: raw.pagesCrawled ?? raw.pagesScanned,
    failingChecks: failing,
    ...(isObject(foundation)
      ? {
          foundation: Object.fromEntries(
            Object.entries(foundation).map(([name, item]) => [name, isObject(item) ? item.present : item]),
          ),
        }
      : {}),
    ...(isObject(scope) ? { scope: scope.label, disclaimer: scope.disclaimer } : {}),
    ...(Array.isArray(stageScores)
      ? { stageScores: (stageScores as Json[]).map((stage) => ({ ...stage, topFinding: stage.top_finding })) }
      : {}),
  };
}

/** The API's findings page with page_findings' names: the cursor lifted, agent actions as shown. */
function findingsFields(runId: string, raw: Json): Json {
  const pagination = isObject(raw.pagination) ? raw.pagination : {};
  return {
    runId,
    findings: ((raw.findings ?? []) as Json[]).map((finding) => ({
      ...finding,
      agentActions: ((finding.agentActions ?? []) as Json[]).map(actionFields),
    })),
    nextCursor: pagination.nextCursor,
    hasMore: pagination.nextCursor !== null && pagination.nextCursor !== undefined,
  };
}

async function tokenTables(world: World): Promise<string[]> {
  const { apiUrl, mcpUrl, keys, runId } = world;
  const key = keys[0] as string;
  const connection = await connectHttp(mcpUrl, key, '2025-11-25');
  try {
    const { tools } = await connection.client.listTools();
    const modelFacing = (tool: (typeof tools)[number]) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    });
    const toolRows = tools.map(
      (tool) =>
        `| ${tool.name} | ${tokens(JSON.stringify(tool))} | ${tokens(JSON.stringify(modelFacing(tool)))} | ${tokens(tool.description ?? '')} |`,
    );
    const report = await callTool(connection.client, 'get_report', { runId });
    const findings = await callTool(connection.client, 'page_findings', { runId, limit: FINDINGS_LIMIT });
    const rawReport = (await api(apiUrl, key, `/api/v1/runs/${runId}/report`)).text;
    const rawFindings = (await api(apiUrl, key, `/api/v1/runs/${runId}/findings?limit=${FINDINGS_LIMIT}`)).text;
    // The raw JSON of the same fields: the API's values of just what each tool result carries.
    const sameReport = JSON.stringify(project(reportFields(JSON.parse(rawReport)), report.structuredContent));
    const sameFindings = JSON.stringify(
      project(findingsFields(runId, JSON.parse(rawFindings)), findings.structuredContent),
    );
    const text = (result: ToolResult) =>
      (result.content ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('\n');
    const count = (JSON.parse(rawFindings) as { findings: unknown[] }).findings.length;
    // Ratios of characters, to two places: issue 26's budget is on them (test/mcp/token-budget.test.ts).
    const share = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    const asTokens = (n: number) => Math.round(n / 4);
    const dataRow = (name: string, raw: string, same: string, result: ToolResult[]) => {
      const chars = (shown: (r: ToolResult) => string) => result.reduce((sum, r) => sum + shown(r).length, 0);
      const textChars = chars(text);
      const structuredChars = chars((r) => JSON.stringify(r.structuredContent ?? {}));
      return `| ${name} | ${tokens(raw)} | ${tokens(same)} | ${asTokens(textChars)} | ${asTokens(structuredChars)} | ${share(textChars, same.length)} | ${share(structuredChars, same.length)} | ${share(textChars, raw.length)} |`;
    };
    const textChars = text(report).length + text(findings).length;
    const rawChars = rawReport.length + rawFindings.length;
    const sameChars = sameReport.length + sameFindings.length;
    const all = (field: (tool: (typeof tools)[number]) => unknown) =>
      tokens(JSON.stringify(tools.map((tool) => field(tool))));
    return [
      'Tokens (characters / 4) of tools/list as JSON: the whole tool object as listed, and the part most hosts hand the model (name, description, inputSchema)',
      '',
      '| tool | as listed | name + description + inputSchema | description alone |',
      '|---|---:|---:|---:|',
      ...toolRows,
      `| **all ${tools.length} (the tools array)** | ${all((t) => t)} | ${all(modelFacing)} | ${tools.reduce((sum, t) => sum + tokens(t.description ?? ''), 0)} |`,
      '',
      `The whole tools/list result: ${tokens(JSON.stringify({ tools }))} tokens (budget 4,000); name + description + inputSchema of every tool: ${all(modelFacing)} (budget 2,200).`,
      '',
      `Tokens of one audit's data (4-page site, ai_readiness), findings page of ${FINDINGS_LIMIT} (${count} findings): the tool result's text (markdown) and its structuredContent JSON against the raw API JSON of the same fields (the API's own values of just the fields the result carries, compact JSON), and the text against the whole raw API response`,
      '',
      '| data | raw API JSON, whole | raw API JSON, same fields | MCP text | MCP structuredContent | text vs same fields | structured vs same fields | text vs whole |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      dataRow('report (GET …/report vs get_report)', rawReport, sameReport, [report]),
      dataRow(`findings page 1 (GET …/findings?limit=${FINDINGS_LIMIT} vs page_findings)`, rawFindings, sameFindings, [
        findings,
      ]),
      dataRow('report + findings page 1', rawReport + rawFindings, sameReport + sameFindings, [report, findings]),
      '',
      `get_report + the first page_findings page as text: ${textChars} characters against ${sameChars} of the raw API JSON of the same fields, ${share(textChars, sameChars)} (against the whole raw responses, ${rawChars} characters: ${share(textChars, rawChars)}, issue 26's budget 0.35x).`,
    ];
  } finally {
    await connection.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Concurrent HTTP clients

interface LoadResult {
  calls: number;
  errors: number;
  firstError?: string;
  seconds: number;
  latencies: number[];
}

async function load(workers: Array<() => Promise<unknown>>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(
    workers.map(async (call) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await call();
          latencies.push(performance.now() - t);
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
        }
      }
    }),
  );
  return {
    calls: latencies.length,
    errors,
    ...(firstError ? { firstError } : {}),
    seconds: (performance.now() - start) / 1000,
    latencies: latencies.sort((a, b) => a - b),
  };
}

const mb = (pid: number | undefined) => `${rssMb(pid, 'VmRSS').toFixed(0)} MB (${rssMb(pid, 'VmHWM').toFixed(0)} MB)`;

interface LoadRow extends LoadResult {
  clientCpuMs: number;
  mcpCpuMs: number;
  serviceCpuMs: number;
}

const CASES = [
  { name: 'raw GET /api/v1/me', tool: null },
  { name: 'whoami (API request each call)', tool: 'whoami' },
  { name: 'get_report (cached)', tool: 'get_report' },
] as const;

/** One case: `clients` concurrent clients, each its own key (and, over MCP, its own session). */
async function loadCase(
  world: World & { servicePid?: number; mcpPid?: number },
  tool: 'whoami' | 'get_report' | null,
  clients: number,
): Promise<LoadRow> {
  const { apiUrl, mcpUrl, keys, runId } = world;
  const connections: Connection[] = [];
  try {
    let workers: Array<() => Promise<unknown>>;
    if (tool === null) {
      workers = keys.slice(0, clients).map((k) => () => api(apiUrl, k, '/api/v1/me'));
    } else {
      const args = tool === 'get_report' ? { runId } : {};
      for (const k of keys.slice(0, clients)) connections.push(await connectHttp(mcpUrl, k, '2025-11-25'));
      await Promise.all(connections.map((c) => c.client.listTools()));
      workers = connections.map((c) => () => callTool(c.client, tool, args));
    }
    for (const work of workers) for (let i = 0; i < 3; i++) await work(); // warm-up, fills each key's cache
    const service0 = cpuMs(world.servicePid);
    const mcp0 = cpuMs(world.mcpPid);
    const client0 = process.cpuUsage();
    const result = await load(workers);
    const client = process.cpuUsage(client0);
    return {
      ...result,
      clientCpuMs: (client.user + client.system) / 1000,
      mcpCpuMs: cpuMs(world.mcpPid) - mcp0,
      serviceCpuMs: cpuMs(world.servicePid) - service0,
    };
  } finally {
    await Promise.all(connections.map((c) => c.close()));
  }
}

async function concurrency(world: World & { servicePid?: number; mcpPid?: number }): Promise<string[]> {
  const results = new Map<string, LoadRow[]>();
  // Rounds alternate over every case, so that a burst of other work on the machine falls on one
  // round of each case rather than on all rounds of one; the median round by calls/s is shown.
  for (let round = 0; round < ROUNDS; round++) {
    for (const kase of CASES) {
      for (const clients of CLIENT_COUNTS) {
        const key = `${kase.name}|${clients}`;
        results.set(key, [...(results.get(key) ?? []), await loadCase(world, kase.tool, clients)]);
      }
    }
  }
  const rows: string[] = [];
  const errors: string[] = [];
  for (const kase of CASES) {
    for (const clients of CLIENT_COUNTS) {
      const rounds = (results.get(`${kase.name}|${clients}`) ?? []).sort(
        (a, b) => a.calls / a.seconds - b.calls / b.seconds,
      );
      const r = rounds[Math.floor(rounds.length / 2)];
      if (!r) continue;
      const perCall = (cpu: number) => (r.calls ? (cpu / r.calls).toFixed(2) : '-');
      const failed = rounds.reduce((sum, x) => sum + x.errors, 0);
      const firstError = rounds.find((x) => x.firstError)?.firstError;
      if (firstError) errors.push(`${kase.name}, ${clients} clients: ${firstError}`);
      rows.push(
        `| ${kase.name} | ${clients} | ${r.calls} | ${Math.round(r.calls / r.seconds)} | ${ms(quantile(r.latencies, 0.5))} | ${ms(quantile(r.latencies, 0.99))} | ${perCall(r.clientCpuMs)} | ${kase.tool ? perCall(r.mcpCpuMs) : '-'} | ${perCall(r.serviceCpuMs)} | ${failed} |`,
      );
    }
  }
  return [
    `Concurrent clients against one \`siteaudit mcp --http\` process: each client its own connection (initialize, so a 2025-era session) and its own key, calling in a loop for ${SECONDS} s after 3 warm-up calls each; median of ${ROUNDS} rounds by calls/s (errors: all rounds). The clients all run in the benchmark's process. CPU per call: of the clients (this process), the MCP process and the service (/proc)`,
    '',
    '| calls | clients | calls done | calls/s | p50 ms | p99 ms | client CPU ms/call | MCP CPU ms/call | service CPU ms/call | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    ...(errors.length ? ['', 'First errors:', ...errors.map((e) => `- ${e}`)] : []),
    '',
    `RSS at the end, peak in brackets: \`siteaudit mcp --http\` ${mb(world.mcpPid)}, \`siteaudit serve\` ${mb(world.servicePid)}`,
  ];
}

// ---------------------------------------------------------------------------------------------

/**
 * The SDK client's streamable HTTP transport hands one long-lived AbortSignal to every fetch of a
 * connection, and Node's fetch lets go of its listener only at garbage collection: after about 1,500
 * calls on one connection Node warns of a possible leak, once per call. Counted here, not printed.
 */
function countAbortSignalWarnings(): { count: () => number; restore: () => void } {
  const original = process.emitWarning;
  let count = 0;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const name = typeof warning === 'string' ? String(rest[0] ?? '') : warning.name;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (name === 'MaxListenersExceededWarning' && text.includes('AbortSignal')) {
      count++;
      return;
    }
    return (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  return {
    count: () => count,
    restore: () => {
      process.emitWarning = original;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Set-up shared by the MCP benchmarks (mcp, wait, mcp-soak)

/** `siteaudit` runs dist/: build it so that it matches the sources (as the test setup does). */
export function buildDist(): void {
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
}

/** `count` full-scope keys of one paid organization, seeded into an empty data directory. */
export function seedKeys(dataDir: string, count: number): string[] {
  const seeded = execFileSync(
    process.execPath,
    [...NODE_FLAGS, join(import.meta.dirname, 'mcp-seed.ts'), dataDir, String(count)],
    { encoding: 'utf8' },
  );
  return (JSON.parse(seeded) as { keys: string[] }).keys;
}

/** This environment without our own settings, so that the benchmark's processes get only what it gives. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('SITEAUDIT_')) delete env[name];
  return env;
}

/** `siteaudit serve` on the seeded data directory, rate limit out of the way. */
export function startBenchService(
  dataDir: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  return startChild(
    [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--no-local-org', '--rate-limit', '100000000', ...extra],
    cleanEnv(),
    /serving API v1 at (http:\/\/\S+)/,
  );
}

export async function runMcpBenchmark(): Promise<string> {
  buildDist();
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-mcp-'));
  const site = await startSite();
  const cleanup: Array<() => Promise<void>> = [];
  const warnings = countAbortSignalWarnings();
  try {
    const keys = seedKeys(dataDir, Math.max(...CLIENT_COUNTS, WARM_KEYS + ERAS.length * FIRST_CALLS));
    const env = cleanEnv();
    const service = await startBenchService(dataDir, ['--allow-local-targets']);
    cleanup.push(() => stopChild(service.child));
    // Every client of the benchmark is on one loopback address, and a 2025-era client holds two
    // connections (its POSTs and its GET stream): 50 of them are past the per-address default.
    const mcp = await startChild(
      [BIN, 'mcp', '--http', '--port', '0', '--connections-per-address', '1000'],
      { ...env, SITEAUDIT_API_URL: service.url, SITEAUDIT_API_RATE_LIMIT: '0' },
      /serving MCP \(streamable HTTP\) at (http:\/\/\S+)/,
    );
    cleanup.push(() => stopChild(mcp.child));
    const relay = await startChild(
      [join(import.meta.dirname, 'mcp-relay.ts'), service.url],
      env,
      /relay at (http:\/\/\S+)/,
    );
    cleanup.push(() => stopChild(relay.child));
    const runId = await completedRun(service.url, keys[0] as string, site.host);
    const world = {
      apiUrl: service.url,
      mcpUrl: mcp.url,
      relayUrl: relay.url,
      keys,
      runId,
      servicePid: service.child.pid,
      mcpPid: mcp.child.pid,
    };
    const cpu = cpus();
    const sections = [
      `MCP: ${cpu.length}-core ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}, everything on loopback`,
      '',
      ...(await latency(world)),
      '',
      ...(await tokenTables(world)),
      '',
      ...(await concurrency(world)),
    ];
    if (warnings.count() > 0)
      sections.push(
        '',
        `Node warned ${warnings.count()} times of abort listeners piling up on an AbortSignal in this process (the SDK client's HTTP transport reuses one signal for every request of a connection).`,
      );
    return sections.join('\n');
  } finally {
    warnings.restore();
    for (const step of cleanup.reverse()) await step().catch(() => {});
    for (const child of children) await stopChild(child).catch(() => {});
    await site.close();
    if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  }
}
