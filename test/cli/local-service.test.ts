// The embedded default's local service as people meet it over days: one service per data directory
// whoever starts it (`npm start`, a command, an MCP host), on a port it keeps across restarts so the
// links it handed out keep working, and MCP processes that follow it when it is killed and restarted.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLocalService } from '../../src/cli/local-service.ts';
import { Run } from '../../src/contract/index.ts';
import { readLocalKey } from '../../src/service/local-key.ts';
import { liveServiceRecord, readServiceRecord } from '../../src/service/service-file.ts';
import { BIN, openAsLocalUser, removeLocalServices, runCli } from '../support/cli.ts';
import { type FixtureSite, startShopSite } from '../support/fixture-site.ts';
import { connectStdio, textOf } from '../support/mcp.ts';
import { connectHttpV1 } from '../support/mcp-v1.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let site: FixtureSite;
const dataDirs: string[] = [];
const freshDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-local-'));
  dataDirs.push(dir);
  return dir;
};

beforeAll(async () => {
  site = await startShopSite();
});
afterAll(async () => {
  await removeLocalServices(dataDirs);
  await site.close();
});

/** kill -9 of the data directory's service, returned once the process is gone. */
async function killService(dataDir: string): Promise<number> {
  const record = readServiceRecord(dataDir);
  if (!record) throw new Error(`no service record in ${dataDir}`);
  process.kill(record.pid, 'SIGKILL');
  for (let i = 0; i < 100 && liveServiceRecord(dataDir); i++) await sleep(50);
  expect(liveServiceRecord(dataDir)).toBeUndefined();
  return record.pid;
}

async function auditedRun(dataDir: string): Promise<Run> {
  const result = await runCli(['audit', `localhost:${site.port}`, '--json'], { SITEAUDIT_DATA_DIR: dataDir });
  expect(result.code, result.stderr).toBe(0);
  return Run.parse((JSON.parse(result.stdout) as { run: unknown }).run);
}

describe('the local service of a data directory', () => {
  it('comes back on the same port after kill -9, so earlier links still answer', async () => {
    const dataDir = freshDataDir();
    const run = await auditedRun(dataDir);
    const first = readServiceRecord(dataDir);
    expect(run.humanUrl.startsWith(first?.url ?? '?')).toBe(true);
    const killed = await killService(dataDir);

    const again = await connectLocalService(dataDir);
    expect(again.started).toBe(true);
    expect(again.url).toBe(first?.url);
    expect(readServiceRecord(dataDir)?.pid).not.toBe(killed);
    expect((await openAsLocalUser(dataDir, run.humanUrl)).status).toBe(200);
  });

  it('is never started twice: a second serve says where the first runs and exits 0', async () => {
    const dataDir = freshDataDir();
    const running = await connectLocalService(dataDir);
    const second = await runCli(['serve', '--data-dir', dataDir]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`already running at ${running.url}`);
    // Starters racing on an empty data directory end with one service.
    const racing = freshDataDir();
    const results = await Promise.all([1, 2, 3].map(() => connectLocalService(racing)));
    expect(new Set(results.map((r) => r.url)).size).toBe(1);
    expect(results.filter((r) => r.started).length).toBeLessThanOrEqual(1);
  });

  it('is shared with `npm start`, and stopping npm stops the server it started', async () => {
    const dataDir = freshDataDir();
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, SITEAUDIT_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => npm.on('exit', resolve));
    try {
      for (let i = 0; i < 200 && !liveServiceRecord(dataDir); i++) await sleep(100);
      const record = liveServiceRecord(dataDir);
      expect(record, output).toBeDefined();
      const local = await connectLocalService(dataDir);
      expect(local).toMatchObject({ url: record?.url, started: false });

      npm.kill('SIGTERM');
      await exited;
      for (let i = 0; i < 100 && liveServiceRecord(dataDir); i++) await sleep(50);
      expect(readServiceRecord(dataDir), output).toBeUndefined();
      expect(() => process.kill(record?.pid as number, 0)).toThrow();
    } finally {
      npm.kill('SIGKILL');
    }
  });
});

describe('a long-lived siteaudit mcp on the embedded default', () => {
  it('over stdio, answers the next call after its local service was killed', async () => {
    const dataDir = freshDataDir();
    const mcp = await connectStdio({ SITEAUDIT_DATA_DIR: dataDir }, { era: '2025-11-25' });
    try {
      const project = await mcp.client.callTool({
        name: 'create_project',
        arguments: { domain: `localhost:${site.port}` },
      });
      const { projectId } = project.structuredContent as { projectId: string };
      const started = await mcp.client.callTool({ name: 'start_run', arguments: { projectId } });
      const { runId, humanUrl } = started.structuredContent as { runId: string; humanUrl: string };
      await mcp.client.callTool({ name: 'wait_for_run', arguments: { runId } });
      await killService(dataDir);

      const me = await mcp.client.callTool({ name: 'whoami', arguments: {} });
      expect(me.isError, textOf(me)).toBeFalsy();
      const report = await mcp.client.callTool({ name: 'get_report', arguments: { runId } });
      expect(report.isError, textOf(report)).toBeFalsy();
      expect((await openAsLocalUser(dataDir, humanUrl)).status).toBe(200);
    } finally {
      await mcp.close();
    }
  });

  it('over HTTP, answers the next call after its local service was killed', async () => {
    const dataDir = freshDataDir();
    const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
      env: { ...process.env, SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp --http did not start: ${stderr}`)), 20_000);
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /serving MCP \(streamable HTTP\) at (http:\/\/\S+)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    try {
      const key = readLocalKey(dataDir) as string;
      await killService(dataDir);
      const { client, close } = await connectHttpV1(url, key).catch((error: Error) => {
        throw new Error(`${error.message}; stderr: ${stderr}`);
      });
      try {
        const me = await client.callTool({ name: 'whoami', arguments: {} });
        expect(me.isError).toBeFalsy();
        expect(me.structuredContent).toMatchObject({ organizationName: 'Local' });
      } finally {
        await close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
