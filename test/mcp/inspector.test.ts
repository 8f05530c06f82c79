// The MCP Inspector's CLI (`mcp-inspector --cli`, the 2.x line) against `siteaudit mcp` over stdio
// and streamable HTTP: its strict mode finds no portability problem in any tool schema, and it reads
// tool results and tool errors as hosts do.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.ts';
import { type McpWorld, startMcpWorld } from './support.ts';

const INSPECTOR = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'mcp-inspector');
/** The Inspector CLI's exit code when the tool answered isError: true. */
const TOOL_IS_ERROR = 5;
/** The Inspector keeps a catalog of servers; it goes here, not under the home directory. */
const CATALOG = join(mkdtempSync(join(tmpdir(), 'siteaudit-inspector-')), 'mcp.json');

let world: McpWorld;
let key: string;
beforeAll(async () => {
  world = await startMcpWorld();
  ({ key } = await world.service.tenant('pro', 5));
});
afterAll(async () => {
  await world?.close();
});

interface Inspected {
  code: number;
  stdout: string;
  stderr: string;
}

function inspect(target: 'stdio' | 'HTTP', args: string[]): Promise<Inspected> {
  const server =
    target === 'stdio'
      ? [
          '-e',
          `SITEAUDIT_API_URL=${world.service.url}`,
          '-e',
          `SITEAUDIT_API_KEY=${key}`,
          '--',
          process.execPath,
          BIN,
          'mcp',
        ]
      : ['--transport', 'http', '--server-url', world.http.url, '--header', `Authorization: Bearer ${key}`];
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      ['--cli', ...args, ...server],
      { env: { ...process.env, MCP_CATALOG_PATH: CATALOG }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.each(['stdio', 'HTTP'] as const)('the MCP Inspector CLI over %s', (target) => {
  it('lists the tools with no strict-mode warning or error', async () => {
    const listed = await inspect(target, ['--method', 'tools/list', '--strict']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).not.toMatch(/warning|error/i);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    expect(tools).toHaveLength(12);
  });

  it('reads a result and a tool error with its advice', async () => {
    const me = await inspect(target, ['--method', 'tools/call', '--tool-name', 'whoami']);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ structuredContent: { plan: 'pro', creditsRemaining: 5 } });

    const missing = await inspect(target, [
      '--method',
      'tools/call',
      '--tool-name',
      'get_report',
      '--tool-arg',
      'runId=01234567-89ab-7def-8123-456789abcdef',
    ]);
    expect(missing.code, missing.stderr).toBe(TOOL_IS_ERROR);
    const result = JSON.parse(missing.stdout) as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('`not_found`');
    expect(result.content[0]?.text).toContain('list_projects shows projects');
  });
});
