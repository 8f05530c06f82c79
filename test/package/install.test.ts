// The package as users install it, not the checkout: `npm pack`, then `npx -y ./siteaudit-<version>.tgz
// mcp` in an empty directory on Node 22 serves MCP on the embedded default and audits a site; and the
// MCP Bundle of `npm run bundle` unpacks into a server that Claude Desktop can start from its manifest.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../bundle/build.ts';
import { TOOLS } from '../../tools/index.ts';
import { removeLocalServices } from '../support/cli.ts';
import { type FixtureSite, startShopSite } from '../support/fixture-site.ts';
import { callV1, type V1Client } from '../support/mcp-v1.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const MCPB = join(ROOT, 'node_modules', '.bin', 'mcpb');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};
/** PATH of a machine whose Node is 22: this run's Node first, then the machine's tools, none of this checkout's. */
const PATH = [
  dirname(process.execPath),
  ...(process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules')),
].join(':');

/**
 * The environment of a user's shell: this run's, without npm's script variables (npm_*) or our own
 * settings; certificate and proxy settings the registry needs here (NODE_EXTRA_CA_CERTS) stay.
 */
const USER_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !/^(npm_|SITEAUDIT_)/i.test(entry[0]) && entry[0] !== 'PATH',
  ),
);

let site: FixtureSite;
const dataDirs: string[] = [];
const temp = (name: string) => mkdtempSync(join(tmpdir(), `siteaudit-${name}-`));

beforeAll(async () => {
  site = await startShopSite();
});
afterAll(async () => {
  await removeLocalServices(dataDirs);
  await site.close();
});

async function connect(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<V1Client> {
  const dataDir = temp('data');
  dataDirs.push(dataDir);
  const client = new Client({ name: 'installed-package', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      cwd,
      env: { ...USER_ENV, PATH, SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_LOCAL_PORT: '0', ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

async function auditThrough(client: V1Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
  expect((await callV1(client, 'whoami')).structuredContent).toMatchObject({ organizationName: 'Local' });
  const project = await callV1(client, 'create_project', { domain: `localhost:${site.port}` });
  const { projectId } = project.structuredContent as { projectId: string };
  const { runId } = (await callV1(client, 'start_run', { projectId })).structuredContent as { runId: string };
  expect((await callV1(client, 'wait_for_run', { runId, maxWaitSeconds: 30 })).structuredContent).toMatchObject({
    status: 'completed',
  });
  const report = await callV1(client, 'get_report', { runId });
  expect(report.isError).toBeFalsy();
  expect(report.structuredContent).toMatchObject({ product: 'ai_readiness', pagesCrawled: 2 });
}

describe('the packed package', () => {
  it('npx -y ./siteaudit-<version>.tgz mcp, in an empty directory, audits a site on the embedded default', async () => {
    const packs = temp('pack');
    // dist/ is built by the test setup; no `prepare` here, which would rewrite it under other tests.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packs, '--loglevel=error'], {
      cwd: ROOT,
      env: { ...process.env, PATH },
    });
    const tarball = stdout.trim().split('\n').at(-1) as string;
    expect(tarball).toBe(`siteaudit-${pkg.version}.tgz`);
    const listing = (await run('tar', ['tzf', join(packs, tarball)])).stdout.split('\n');
    for (const file of [
      'bin/siteaudit.js',
      'dist/src/cli/main.js',
      'dist/src/audit/cpu/worker-entry.js',
      'dist/tools/index.js',
      'server.json',
      'mcp.json',
    ])
      expect(listing).toContain(`package/${file}`);
    expect(listing.filter((file) => /^package\/(test|src|bench)\//.test(file))).toEqual([]);

    const empty = temp('install');
    cpSync(join(packs, tarball), join(empty, tarball));
    // A cache of its own: every dependency comes from the registry as for a new user.
    const client = await connect('npx', ['-y', `./${tarball}`, 'mcp'], empty, {
      npm_config_cache: temp('npm-cache'),
      npm_config_update_notifier: 'false',
    });
    try {
      await auditThrough(client);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe('the MCP Bundle', () => {
  it('npm run bundle makes a valid .mcpb whose manifest starts a working server', async () => {
    const bundle = buildBundle();
    const info = await run(MCPB, ['info', bundle]);
    expect(info.stdout).toContain(`siteaudit`);
    const unpacked = temp('mcpb');
    await run(MCPB, ['unpack', bundle, unpacked]);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as {
      server: { mcp_config: { command: string; args: string[]; env: Record<string, string> } };
      tools: { name: string }[];
      compatibility: { runtimes: { node: string } };
      user_config: Record<string, { default: string }>;
    };
    expect(manifest.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(manifest.compatibility.runtimes.node).toBe(pkg.engines.node);

    // As Claude Desktop starts it: its own Node, ${__dirname} and the settings' defaults filled in.
    const { command, args, env } = manifest.server.mcp_config;
    expect(command).toBe('node');
    const filled = (value: string) =>
      value
        .replace(/\$\{__dirname\}/g, unpacked)
        .replace(/\$\{user_config\.(\w+)\}/g, (_, name: string) => manifest.user_config[name]?.default ?? '');
    const client = await connect(
      process.execPath,
      args.map(filled),
      tmpdir(),
      Object.fromEntries(Object.entries(env).map(([name, value]) => [name, filled(value)])),
    );
    try {
      await auditThrough(client);
    } finally {
      await client.close();
    }
    // A host that leaves an unset setting's placeholder as it is still gets the local service.
    const raw = await connect(process.execPath, args.map(filled), tmpdir(), env);
    try {
      expect((await callV1(raw, 'whoami')).structuredContent).toMatchObject({ organizationName: 'Local' });
    } finally {
      await raw.close();
    }
  }, 180_000);
});
