// `siteaudit mcp-config` with SITEAUDIT_DATA_DIR and SITEAUDIT_LOCAL_PORT set: hosts start servers
// without the shell's environment, so the entry carries them (the data directory made absolute), in
// every host format; a host started from the entry then uses the shell's local service, not a second
// one with another organization. Unset, the entry has no env, as before.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { readServiceRecord } from '../../src/service/service-file.ts';
import { removeLocalServices, runCli, runJson } from '../support/cli.ts';

type Entry = { command: string; args: string[]; env?: Record<string, string> };
const CLEAN = { SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '', SITEAUDIT_DATA_DIR: '', SITEAUDIT_LOCAL_PORT: '' };

/** The entry `mcp-config --host HOST` prints, read as the host reads it (JSON, or the `claude` command line). */
async function entryFor(host: string, env: NodeJS.ProcessEnv): Promise<Entry> {
  const printed = await runCli(['mcp-config', '--host', host], { ...CLEAN, ...env });
  expect(printed.code, printed.stderr).toBe(0);
  if (host !== 'claude-code') {
    const config = JSON.parse(printed.stdout) as {
      mcpServers?: Record<string, Entry>;
      servers?: Record<string, Entry>;
    };
    return (config.mcpServers ?? config.servers)?.siteaudit as Entry;
  }
  // The line goes through a real shell to a stand-in `claude` that prints the words it was given.
  const bin = mkdtempSync(join(tmpdir(), 'siteaudit-claude-'));
  writeFileSync(join(bin, 'claude'), '#!/bin/sh\nfor word in "$@"; do printf "%s\\n" "$word"; done\n');
  chmodSync(join(bin, 'claude'), 0o755);
  const words = execFileSync('/bin/sh', ['-c', printed.stdout], {
    env: { PATH: `${bin}:/usr/bin:/bin` },
    encoding: 'utf8',
  })
    .trimEnd()
    .split('\n');
  expect(words.slice(0, 2)).toEqual(['mcp', 'add']);
  const separator = words.indexOf('--');
  const options = words.slice(3, separator);
  const written: Record<string, string> = {};
  for (let i = 0; i < options.length; i += 2) {
    expect(options[i]).toBe('-e');
    const [name, ...value] = (options[i + 1] ?? '').split('=');
    written[name as string] = value.join('=');
  }
  const [command, ...args] = words.slice(separator + 1);
  return { command: command as string, args, ...(options.length > 0 ? { env: written } : {}) };
}

const HOSTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'];

describe('siteaudit mcp-config and the local service of the shell', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    await removeLocalServices(cleanup);
  });

  it.each(HOSTS)(
    '--host %s writes SITEAUDIT_DATA_DIR (absolute) and SITEAUDIT_LOCAL_PORT into the entry',
    async (host) => {
      // Relative and with a space and a quote: the entry is read from another working directory, by a shell for claude-code.
      const relative = join('tmp', "Jo's data dir");
      const entry = await entryFor(host, { SITEAUDIT_DATA_DIR: relative, SITEAUDIT_LOCAL_PORT: '8790' });
      expect(entry.env).toEqual({ SITEAUDIT_DATA_DIR: resolve(relative), SITEAUDIT_LOCAL_PORT: '8790' });
      expect(entry.args.at(-1)).toBe('mcp');
    },
  );

  it.each(HOSTS)('--host %s leaves them out when they are not set', async (host) => {
    expect((await entryFor(host, {})).env).toBeUndefined();
    expect((await entryFor(host, { SITEAUDIT_LOCAL_PORT: '8790' })).env).toEqual({ SITEAUDIT_LOCAL_PORT: '8790' });
  });

  it('refuses a SITEAUDIT_LOCAL_PORT that is not a port, instead of writing it', async () => {
    const printed = await runCli(['mcp-config'], { ...CLEAN, SITEAUDIT_LOCAL_PORT: '70000' });
    expect(printed.code).not.toBe(0);
    expect(printed.stderr).toContain('SITEAUDIT_LOCAL_PORT');
    expect(printed.stdout).toBe('');
  });

  it('a host started from the entry, with its own home and no shell environment, uses the same local service', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-mcp-config-'));
    const hostHome = mkdtempSync(join(tmpdir(), 'siteaudit-host-home-'));
    cleanup.push(dataDir, join(hostHome, '.local', 'share', 'siteaudit'));
    const shell = { SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_LOCAL_PORT: '0' };
    const me = await runJson<{ organizationId: string }>(['whoami'], { ...CLEAN, ...shell });
    const service = readServiceRecord(dataDir);
    expect(service).toBeDefined();

    const entry = await entryFor('claude-desktop', shell);
    const client = new Client({ name: 'host-config', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        cwd: hostHome,
        // As a host starts it: its own HOME and PATH, the entry's env, nothing of the shell.
        env: { PATH: '/usr/bin:/bin', HOME: hostHome, SITEAUDIT_LOCAL_PORT: '0', ...entry.env },
        stderr: 'pipe',
      }),
    );
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.structuredContent).toMatchObject({ organizationId: me.organizationId });
      expect(readServiceRecord(dataDir)?.pid).toBe(service?.pid);
    } finally {
      await client.close();
    }
  });
});
