// Issue 22: local targets (projects on this machine, audits and webhooks reaching private addresses)
// are SSRF into the host on a shared service. `serve` allows them by default only as a single-user
// embedded service on loopback, says which it chose and why, and stops allowing them, without a
// restart, when a second member joins.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLocalKey } from '../../src/service/local-key.ts';
import { runCli, type ServeProcess, startServe } from '../support/cli.ts';
import { expectError } from '../support/expect-error.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { request } from '../support/service.ts';

// The settings that make a shared service must come from the test, not from whoever runs it.
const CLEAN_ENV = { SITEAUDIT_PUBLIC_URL: '', SITEAUDIT_MCP_URL: '', SITEAUDIT_DATABASE_URL: '' };

const running: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((serve) => serve.stop().catch(() => {})));
});

async function serve(args: string[], env: NodeJS.ProcessEnv = {}, dataDir = newDataDir()) {
  const process = await startServe(['--data-dir', dataDir, ...args], { ...CLEAN_ENV, ...env });
  running.push(process);
  const key = readLocalKey(dataDir) as string;
  const createProject = (domain: string) =>
    request<{ projectId: string }>(process.url, '/api/v1/projects', { key, method: 'POST', json: { domain } });
  return { process, key, dataDir, createProject };
}

const newDataDir = () => mkdtempSync(join(tmpdir(), 'siteaudit-local-targets-'));

async function stop(process: ServeProcess): Promise<void> {
  running.splice(running.indexOf(process), 1);
  expect(await process.stop()).toBe(0);
}

describe('serve: local targets', () => {
  it('allows them on the single-user embedded service on loopback, and says so', async () => {
    const { process, createProject } = await serve([]);
    expect(process.stderr()).toContain('local targets allowed: single-user embedded service on loopback');
    expect((await createProject('localhost:5432')).status).toBe(201);
    await stop(process);
  });

  it.each([
    [['--public-url', 'https://audit.example.com'], {}, '--public-url is set (a shared service)'],
    [[], { SITEAUDIT_PUBLIC_URL: 'https://audit.example.com' }, 'SITEAUDIT_PUBLIC_URL is set (a shared service)'],
    [['--trust-proxy'], {}, '--trust-proxy is set (a service behind a proxy)'],
    [['--mcp-url', 'https://audit.example.com/mcp'], {}, '--mcp-url is set (a shared service)'],
    [[], { SITEAUDIT_MCP_URL: 'https://audit.example.com/mcp' }, 'SITEAUDIT_MCP_URL is set (a shared service)'],
  ])('refuses them on a shared service (%j %j), and says why', async (args, env, why) => {
    const { process, createProject } = await serve(args, env);
    expect(process.stderr()).toContain(`local targets refused: ${why}; --allow-local-targets to allow them`);
    const refused = await createProject('localhost:5432');
    expectError(refused, 400, 'invalid_domain');
    expect(refused.body).toMatchObject({
      error: { message: 'local targets are not allowed on this service', domain: 'localhost:5432' },
    });
    // Public sites are still fine.
    expect((await createProject('example.com')).status).toBe(201);
    await stop(process);
  });

  it('refuses them with --no-allow-local-targets, even on a single-user service', async () => {
    const { process, createProject } = await serve(['--no-allow-local-targets']);
    expect(process.stderr()).toContain('local targets refused: --no-allow-local-targets');
    expectError(await createProject('localhost:5432'), 400, 'invalid_domain');
    await stop(process);
  });

  it('allows them with --allow-local-targets, even on a shared service, and says it was asked to', async () => {
    const { process, createProject } = await serve([
      '--allow-local-targets',
      '--public-url',
      'https://audit.example.com',
    ]);
    expect(process.stderr()).toContain('local targets allowed: --allow-local-targets');
    expect((await createProject('localhost:5432')).status).toBe(201);
    await stop(process);
  });

  it('stops allowing them when a second member joins through an invitation, and refuses them at the next start', async () => {
    const first = await serve([]);
    const { process, key, dataDir } = first;
    const local = await first.createProject('localhost:5432');
    expect(local.status).toBe(201);

    // The local owner opens the members page through the one-time link of `siteaudit dashboard`...
    const made = await runCli(['dashboard', '/members', '--no-browser'], {
      ...CLEAN_ENV,
      SITEAUDIT_DATA_DIR: dataDir,
      SITEAUDIT_API_URL: '',
    });
    expect(made.code, made.stderr).toBe(0);
    const link = new URL(made.stdout.trim());
    const owner = new TestBrowser(link.origin);
    const members = await owner.open(link.pathname + link.search);
    expect(members.status).toBe(200);
    // ...still a single-user service: the local owner is not a second member.
    expect((await first.createProject('localhost:3000')).status).toBe(201);
    // ...and invites a colleague, who joins.
    const invited = await owner.post(
      '/members/invitations',
      { role: 'member', email: 'cleo@example.com' },
      { from: members },
    );
    const invitation = new URL(/id="invitation-link" value="([^"]+)"/.exec(invited.html)?.[1] as string).pathname;
    const colleague = new TestBrowser(link.origin);
    const joined = await colleague.post(
      invitation,
      { name: 'Cleo', email: 'cleo@example.com', password: 'correct horse battery staple' },
      { from: await colleague.get(invitation) },
    );
    expect(joined.location).toBe('/');

    expect(process.stderr()).toContain(
      'local targets refused from now on: 1 member besides the local owner (a shared service); restart with --allow-local-targets to allow them',
    );
    expectError(await first.createProject('localhost:5433'), 400, 'invalid_domain');
    // The project made before cannot start a run, nor can a webhook point into the host.
    const run = await request(process.url, '/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId: local.body.projectId },
    });
    expectError(run, 400, 'validation_failed');
    expect(run.text).toContain('local targets are not allowed on this service');
    expectError(
      await request(process.url, '/api/v1/webhooks', {
        key,
        method: 'POST',
        json: { url: 'https://127.0.0.1:8443/hook' },
      }),
      400,
      'validation_failed',
    );
    await stop(process);

    const again = await serve([], {}, dataDir);
    expect(again.process.stderr()).toContain(
      'local targets refused: 1 member besides the local owner (a shared service); --allow-local-targets to allow them',
    );
    expectError(await again.createProject('localhost:5432'), 400, 'invalid_domain');
    await stop(again.process);
  });
});
