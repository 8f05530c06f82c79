// `siteaudit monitor ...` as a person runs it against a deployment: switch monitoring on (the
// service's own monitor checks at once), read the state and the history, switch it off.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorCheckList, Monitoring } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { runCli } from '../support/cli.ts';
import { type FixtureSite, startShopSite } from '../support/fixture-site.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('siteaudit monitor', () => {
  let s: TestService;
  let site: FixtureSite;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-monitor-'));

  beforeAll(async () => {
    site = await startShopSite();
    s = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], {
      allowLocalTargets: true,
      deliverer: false,
      monitor: { pollMs: 100, confirmAfterMs: 10 },
    });
    const { key } = await s.tenant();
    env = { SITEAUDIT_API_URL: s.url, SITEAUDIT_API_KEY: key, SITEAUDIT_DATA_DIR: dir };
  });
  afterAll(async () => {
    await s.close();
    await site.close();
  });

  it('switches monitoring on, shows the pages and the history, and switches it off', async () => {
    const on = await runCli(['monitor', 'on', site.origin, '--every', '15', '--json'], env);
    expect(on.code, on.stderr).toBe(0);
    expect(Monitoring.parse(JSON.parse(on.stdout))).toMatchObject({ enabled: true, intervalMinutes: 15 });

    // The service's monitor was woken: the first check lands within moments.
    let status = Monitoring.parse(JSON.parse((await runCli(['monitor', 'status', site.host, '--json'], env)).stdout));
    for (let i = 0; i < 50 && status.pages[0]?.state !== 'up'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = Monitoring.parse(JSON.parse((await runCli(['monitor', 'status', site.host, '--json'], env)).stdout));
    }
    expect(status.pages).toEqual([expect.objectContaining({ url: `${site.origin}/`, state: 'up', httpStatus: 200 })]);
    const text = await runCli(['monitor', 'status', site.host], env);
    expect(text.stdout).toMatch(
      // Dates in a person's words (issue 24), not ISO instants.
      /^monitoring on: every 15 min, next check \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\n {2}up {6}200 {2}http:\/\/127\.0\.0\.1:\d+\/ {2}since \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\n/,
    );
    expect(text.stdout).toContain(`history: ${s.url}/projects/${status.projectId}/monitoring`);

    const history = await runCli(['monitor', 'history', site.host, '--json'], env);
    expect(MonitorCheckList.parse(JSON.parse(history.stdout)).checks).toEqual([
      expect.objectContaining({ up: true, kind: null, httpStatus: 200 }),
    ]);
    expect((await runCli(['monitor', 'history', site.host, '--changes'], env)).stdout).toBe('no checks yet\n');

    const off = await runCli(['monitor', 'off', status.projectId], env);
    expect(off.stdout).toMatch(/^monitoring off\n/);
  });

  it('names a site it does not know, and refuses a bad interval', async () => {
    const unknown = await runCli(['monitor', 'status', 'unknown.example', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout + unknown.stderr).toContain('siteaudit monitor on unknown.example');
    const bad = await runCli(['monitor', 'on', site.host, '--every', '1', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      error: { code: 'validation_failed', message: expect.stringContaining('at least 5 minutes') },
    });
  });
});
