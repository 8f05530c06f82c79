// The embedded default (issue 23): `siteaudit mcp --http` with no SITEAUDIT_API_URL uses the local
// service of its data directory, and the two share the secret kept there (made by whichever starts
// first, mode 0600), so the local service charges refused bearers to the client that sent them, not
// to the MCP server. Clients come from 127.0.0.7 and 127.0.0.8; the MCP server from 127.0.0.1.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MCP_SECRET_FILE } from '../../src/service/client-address.ts';
import { readLocalKey } from '../../src/service/local-key.ts';
import { openStore } from '../../src/service/store/index.ts';
import { BIN, removeLocalServices } from '../support/cli.ts';
import { requestFrom } from '../support/raw-http.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-mcp-http-'));
let child: ChildProcessWithoutNullStreams | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await removeLocalServices([dataDir]);
});

const initializeFrom = (address: string, url: string, key: string) =>
  requestFrom(address, url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'embedded', version: '1' } },
    }),
  });

describe('mcp --http on the embedded default', () => {
  it('names each client to the local service, which charges refused bearers to that client', async () => {
    const started = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
      env: { ...process.env, SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '' },
    });
    child = started;
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp --http did not start: ${stderr}`)), 30_000);
      started.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /serving MCP \(streamable HTTP\) at (\S+)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    expect(stderr).not.toContain('SITEAUDIT_MCP_SECRET is not set');
    expect(statSync(join(dataDir, MCP_SECRET_FILE)).mode & 0o777).toBe(0o600);

    for (let n = 0; n < 3; n++)
      expect((await initializeFrom('127.0.0.7', url, `svc_${String(n).padStart(43, 'e')}`)).status).toBe(401);
    const localKey = readLocalKey(dataDir);
    if (!localKey) throw new Error('no local key');
    expect((await initializeFrom('127.0.0.8', url, localKey)).status).toBe(200);

    // The local service writes refusals a burst at a time, every few seconds.
    const store = await openStore({ dataDir });
    try {
      let charged: (string | null)[] = [];
      const deadline = Date.now() + 15_000;
      while (!charged.includes('127.0.0.7') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        charged = (await store.auditLog.recent(100))
          .filter((row) => row.status === 401)
          .map((row) => row.client_address);
      }
      expect(new Set(charged)).toEqual(new Set(['127.0.0.7']));
    } finally {
      await store.close();
    }
  });
});
