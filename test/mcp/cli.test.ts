// `siteaudit mcp` as hosts start it: stdio on the embedded default (stdout carries nothing but
// protocol messages; two processes share one local service), and `--http` against a deployment.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServiceRecord } from '../../src/service/service-file.ts';
import { BIN, removeLocalServices, runCli } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { connectHttp, connectStdio, textOf } from '../support/mcp.ts';
import { type McpWorld, startMcpWorld, structured } from './support.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let site: FixtureSite;
const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-mcp-'));
const env = { SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_MCP_POLL_MS: '150', SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '' };

beforeAll(async () => {
  site = await startFixtureSite({
    '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1><a href="/about">About us</a></main>') },
    // Slow enough that the audit is still running when wait_for_run first looks, so progress is sent.
    '/about': (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('<title>About</title>', '<main><h1>About</h1></main>'));
      }, 1000);
    },
  });
});
afterAll(async () => {
  await removeLocalServices([dataDir]);
  await site.close();
});

/** A JSON-RPC conversation with `siteaudit mcp` over its raw stdio, keeping every byte of stdout. */
function startRawStdio(): {
  child: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: () => string;
  send(message: object): void;
  response(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
} {
  const child = spawn(process.execPath, [BIN, 'mcp'], { env: { ...process.env, ...env } });
  const stdout: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout.push(line);
    try {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    } catch {
      // kept in stdout for the assertion
    }
  });
  return {
    child,
    stdout,
    stderr: () => stderr,
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    response: (id, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no response ${id}; stderr: ${stderr}`)), timeoutMs);
        waiting.set(id, (message) => {
          clearTimeout(timer);
          resolve(message);
        });
      }),
  };
}

describe('siteaudit mcp on stdio, on the embedded default', () => {
  it('puts nothing but protocol messages on stdout through a whole audit', async () => {
    const mcp = startRawStdio();
    mcp.send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await mcp.response(1)).toMatchObject({ result: { serverInfo: { name: 'siteaudit' } } });
    mcp.send({ method: 'notifications/initialized' });
    const call = async (id: number, name: string, args: object, meta?: object) => {
      mcp.send({ id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } });
      const message = (await mcp.response(id)) as { result: { structuredContent: Record<string, unknown> } };
      return message.result.structuredContent;
    };
    expect(await call(2, 'whoami', {})).toMatchObject({ organizationName: 'Local', plan: 'pro' });
    const project = await call(3, 'create_project', { domain: `localhost:${site.port}` });
    const run = await call(4, 'start_run', { projectId: project.projectId });
    const done = await call(5, 'wait_for_run', { runId: run.runId }, { progressToken: 'p1' });
    expect(done).toMatchObject({ status: 'completed' });
    const report = await call(6, 'get_report', { runId: run.runId });
    expect(report).toMatchObject({ product: 'ai_readiness', pagesCrawled: 2 });
    mcp.child.stdin.end();
    const code = await new Promise((resolve) => mcp.child.once('exit', resolve));
    expect(code).toBe(0);

    expect(mcp.stdout.length).toBeGreaterThanOrEqual(6);
    for (const line of mcp.stdout) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(mcp.stdout.some((line) => line.includes('notifications/progress'))).toBe(true);
    expect(mcp.stderr()).toContain('starting the local service');
  });

  it('shares the one local service with every other MCP process of the data directory', async () => {
    const record = readServiceRecord(dataDir);
    expect(record).toBeDefined();
    const second = await connectStdio(
      { ...env, PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      { era: '2026-07-28' },
    );
    try {
      const me = await second.client.callTool({ name: 'whoami', arguments: {} });
      expect(structured(me)).toMatchObject({ organizationName: 'Local' });
      const projects = structured<{ projects: { domain: string }[] }>(
        await second.client.callTool({ name: 'list_projects', arguments: {} }),
      );
      expect(projects.projects.map((p) => p.domain)).toContain(`localhost:${site.port}`);
      expect(second.stderr()).not.toContain('starting');
      expect(readServiceRecord(dataDir)?.pid).toBe(record?.pid);
    } finally {
      await second.close();
    }
  });
});

type ServerEntry = { command: string; args: string[]; env?: Record<string, string> };

/** Starts a host configuration's server entry as a host would, and asks whoami. */
async function whoamiThrough(server: ServerEntry | undefined, cwd: string, path: string): Promise<unknown> {
  expect(server).toBeDefined();
  const client = new Client({ name: 'host-config', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: server?.command ?? '',
      args: server?.args ?? [],
      cwd,
      env: { ...server?.env, ...env, SITEAUDIT_LOCAL_PORT: '0', PATH: path, HOME: process.env.HOME ?? '/tmp' },
      stderr: 'pipe',
    }),
  );
  try {
    return structured(await client.callTool({ name: 'whoami', arguments: {} }));
  } finally {
    await client.close();
  }
}

/** PATH as on a fresh machine: without this checkout's node_modules/.bin (and so its pinned Node). */
const MACHINE_PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('node_modules'))
  .join(':');

describe('host configurations', () => {
  it('mcp.json starts a working server from this checkout with the machine’s own node, without npm link', async () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'mcp.json'), 'utf8')) as {
      mcpServers: Record<string, ServerEntry>;
    };
    expect(await whoamiThrough(config.mcpServers.siteaudit, ROOT, MACHINE_PATH)).toMatchObject({
      organizationName: 'Local',
    });
  });

  it.each(['claude-desktop', 'cursor', 'vscode'])(
    'mcp-config --host %s prints an entry that works from any directory with a minimal PATH',
    async (host) => {
      const printed = await runCli(['mcp-config', '--host', host]);
      expect(printed.code, printed.stderr).toBe(0);
      const config = JSON.parse(printed.stdout) as {
        mcpServers?: Record<string, ServerEntry>;
        servers?: Record<string, ServerEntry & { type: string }>;
      };
      const server = config.mcpServers?.siteaudit ?? config.servers?.siteaudit;
      if (host === 'vscode') expect(config.servers?.siteaudit?.type).toBe('stdio');
      expect(await whoamiThrough(server, tmpdir(), '/usr/bin:/bin')).toMatchObject({ organizationName: 'Local' });
    },
  );

  it('mcp-config --host claude-code prints a `claude mcp add` line whose command works the same way', async () => {
    // Without the suite's SITEAUDIT_LOCAL_PORT, which mcp-config would write in as `-e` (test/cli/mcp-config-env.test.ts).
    const printed = await runCli(['mcp-config', '--host', 'claude-code'], { SITEAUDIT_LOCAL_PORT: '' });
    const [head, command] = printed.stdout.trim().split(' -- ');
    expect(head).toBe('claude mcp add siteaudit');
    const [node, ...args] = (command ?? '').split(' ');
    expect(await whoamiThrough({ command: node ?? '', args }, tmpdir(), '/usr/bin:/bin')).toMatchObject({
      organizationName: 'Local',
    });
  });
});

describe('siteaudit mcp --http', () => {
  let world: McpWorld;
  beforeAll(async () => {
    world = await startMcpWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('serves /mcp with each request’s own key and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
      env: { ...process.env, SITEAUDIT_API_URL: world.service.url, SITEAUDIT_API_KEY: '' },
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp --http did not start: ${stderr}`)), 20_000);
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /serving MCP \(streamable HTTP\) at (\S+)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const alice = await world.service.tenant('pro', 3);
      const bob = await world.service.tenant('pro', 7);
      const a = await connectHttp(url, alice.key, { era: '2026-07-28' });
      const b = await connectHttp(url, bob.key, { era: '2025-11-25' });
      const [meA, meB] = await Promise.all([
        a.callTool({ name: 'whoami', arguments: {} }),
        b.callTool({ name: 'whoami', arguments: {} }),
      ]);
      expect(structured(meA)).toMatchObject({ organizationId: alice.organizationId, creditsRemaining: 3 });
      expect(structured(meB)).toMatchObject({ organizationId: bob.organizationId, creditsRemaining: 7 });
      expect(textOf(meA)).not.toContain(alice.key);
      await Promise.all([a.close(), b.close()]);
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      // Found by the attack battery: the SDK logged a key sent as the protocol version verbatim.
      const secret = `svc_${'Secret-_9'.repeat(5)}`;
      await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${alice.key}`,
          'mcp-protocol-version': secret,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: secret,
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': secret,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stderr).toContain(secret.slice(0, 12));
      expect(stderr).not.toContain(secret.slice(12));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(/svc_[A-Za-z0-9_-]{9,}/);
  });
});
