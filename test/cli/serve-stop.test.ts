// `siteaudit serve` stopping while it audits: found by the attack battery, a forced exit (a second
// signal) during a stop held up by a half-sent request left the run leased for a minute with its
// attempt counted. The worker now stops first, and a second signal gives the runs back before exiting.
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalKey } from '../../src/service/local-key.ts';
import { openStore } from '../../src/service/store/index.ts';
import { serveApi, startServe } from '../support/cli.ts';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site.ts';

let site: FixtureSite;
beforeAll(async () => {
  // A home page that takes far longer than the test: the run stays running until the service stops.
  site = await startFixtureSite({ '/': () => {} });
});
afterAll(async () => {
  await site.close();
});

describe('a stopping serve', () => {
  it('gives its run back at once, even when a half-sent request holds the stop and a second signal forces it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-stop-'));
    const serve = await startServe(['--data-dir', dataDir, '--allow-local-targets']);
    const key = readLocalKey(dataDir) as string;
    const api = serveApi(serve, key);
    const { projectId } = await api('/api/v1/projects', { domain: site.host });
    const { runId } = await api('/api/v1/runs', { projectId });
    for (let i = 0; i < 100 && (await api(`/api/v1/runs/${runId}`)).status !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));

    // A request whose body never finishes: it keeps the HTTP side from draining.
    const url = new URL(serve.url);
    const half = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => half.once('connect', resolve));
    half.write(
      `POST /api/v1/projects HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"dom`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    serve.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const code = await serve.stop('SIGTERM');
    half.destroy();
    expect(code).not.toBeNull();

    const store = await openStore({ dataDir });
    try {
      const row = await store.runs.getById(runId as string);
      expect(row).toMatchObject({ status: 'pending', lease_owner: null, attempts: 0 });
    } finally {
      await store.close();
    }
  });
});
