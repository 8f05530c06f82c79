// `siteaudit audit` and `whoami` as a person runs them: on the embedded default (one local service
// started on demand and shared), and against a deployment named by SITEAUDIT_API_URL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiReadinessReport, FindingPage, KeyContext, Run } from '../../src/contract/index.ts';
import { readServiceRecord } from '../../src/service/service-file.ts';
import { testBackends } from '../support/backends.ts';
import { openAsLocalUser, removeLocalServices, runCli } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { startTestService } from '../support/service.ts';

describe('siteaudit audit', () => {
  let site: FixtureSite;
  const dataDirs: string[] = [];
  const freshDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteaudit-cli-'));
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': {
        body: html('<title>Shop</title>', '<main><h1>Shop</h1><img src="/a.png"><a href="/about">About us</a></main>'),
      },
      '/about': { body: html('<title>About</title>', '<main><h1>About</h1></main>') },
    });
  });
  afterAll(async () => {
    await removeLocalServices(dataDirs);
    await site.close();
  });

  it('audits a local site on the embedded default and prints one JSON object', async () => {
    const dataDir = freshDataDir();
    const result = await runCli(['audit', `localhost:${site.port}`, '--json'], { SITEAUDIT_DATA_DIR: dataDir });
    expect(result.code, result.stderr).toBe(0);
    const { run, report, findings } = JSON.parse(result.stdout) as {
      run: unknown;
      report: unknown;
      findings: unknown[];
    };
    expect(Run.parse(run)).toMatchObject({ status: 'completed', coverage: { mode: 'local_on_page' } });
    expect(AiReadinessReport.parse(report).pagesCrawled).toBe(2);
    expect(FindingPage.shape.findings.parse(findings).length).toBe(AiReadinessReport.parse(report).findingsTotal);
    expect(result.stderr).toContain('starting the local service');
    expect(result.stderr).toMatch(/100% completed/);

    // The service outlives the command: the report's link still answers, and the next command reuses it.
    const record = readServiceRecord(dataDir);
    expect(record).toBeDefined();
    // Its person opens it signed in through `siteaudit dashboard`.
    expect((await openAsLocalUser(dataDir, Run.parse(run).humanUrl)).status).toBe(200);
    const me = await runCli(['whoami', '--json'], { SITEAUDIT_DATA_DIR: dataDir });
    expect(KeyContext.parse(JSON.parse(me.stdout))).toMatchObject({ organizationName: 'Local', plan: 'pro' });
    expect(me.stderr).not.toContain('starting');
    expect(readServiceRecord(dataDir)?.pid).toBe(record?.pid);
  });

  it('prints a readable report by default, worst finding first, with the report link', async () => {
    const dataDir = freshDataDir();
    const result = await runCli(['audit', `http://localhost:${site.port}/`, '--data-dir', dataDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^AI readiness audit of http:\/\/localhost:\d+\//);
    // A local scan's score stands on part of the checks, and says so (issue 10) before the number,
    // with no verdict word (issue 24).
    const [, scoreLine, summary] = result.stdout.split('\n');
    expect(scoreLine).toMatch(/^Partial: \d+ of \d+ AI readiness checks evaluated; score \d+\/100 on those checks$/);
    const [evaluated, total] = (scoreLine?.match(/(\d+) of (\d+)/) ?? []).slice(1).map(Number);
    expect(evaluated).toBeLessThan(total as number);
    expect(result.stdout.split('\nFindings:')[0]).not.toMatch(/Score: \d+\/100|Excellent|Good|Needs work|Poor/);
    expect(summary).toMatch(/^Partial: a local on-page scan evaluated \d+ of the \d+ AI readiness checks; /);
    expect(summary).toContain(
      'not evaluated: DNS, TLS (HTTPS), redirects, foundation files (robots.txt, sitemap, llms.txt)',
    );
    expect(result.stdout).toMatch(/\[high\] /);
    // A paste-ready fix is printed indented, as a suggestion to review (issue 13).
    expect(result.stdout).toContain(
      "  Suggested Organization JSON-LD for the <head> of the home page (review before applying):\n    <!-- Replace https://www.example.com/ with the site's public address",
    );
    const link = /Report: (http:\/\/127\.0\.0\.1:\d+\/runs\/[0-9a-f-]{36}\?access=[\w-]{43})$/m.exec(
      result.stdout,
    )?.[1];
    expect(link, result.stdout).toBeDefined();
    // Issue 24: the link opens the report in a fresh browser on this machine, with no sign-in.
    const browser = new TestBrowser(new URL(link as string).origin);
    const report = await browser.open(link as string);
    expect(report.status).toBe(200);
    expect(report.html).toContain(`localhost:${site.port}`);
    expect(report.html).not.toContain('Sign in');
  });

  // Issue 24: the CLI printed `the audit ended failed_auto_credit: audit failed: ...`.
  it('says in plain words how an audit that could not run ended', async () => {
    const closed = await startFixtureSite({});
    const port = closed.port;
    await closed.close();
    const result = await runCli(['audit', `localhost:${port}`, '--data-dir', freshDataDir()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /The audit failed, and its credits were returned: \S.*\. Report: http:\/\/127\.0\.0\.1:\d+\/runs\//,
    );
    expect(result.stderr).not.toMatch(/failed_auto_credit|audit failed: /);
  }, 60_000);

  it('starts one local service when two commands race on a fresh data directory', async () => {
    const dataDir = freshDataDir();
    const [a, b] = await Promise.all([
      runCli(['whoami', '--json'], { SITEAUDIT_DATA_DIR: dataDir }),
      runCli(['whoami', '--json'], { SITEAUDIT_DATA_DIR: dataDir }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout).keyPrefix).toBe(JSON.parse(b.stdout).keyPrefix);
    expect([a.stderr, b.stderr].filter((e) => e.includes('starting the local service'))).toHaveLength(1);
  });

  it('talks to the deployment that SITEAUDIT_API_URL and SITEAUDIT_API_KEY name', async () => {
    const sqlite = testBackends()[0] as ReturnType<typeof testBackends>[number];
    const remote = await startTestService(sqlite, { allowLocalTargets: true });
    try {
      const tenant = await remote.tenant();
      const env = { SITEAUDIT_API_URL: remote.url, SITEAUDIT_API_KEY: tenant.key, SITEAUDIT_DATA_DIR: freshDataDir() };
      const result = await runCli(['audit', site.host, '--json'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).run.humanUrl).toContain(remote.url);
      expect(result.stderr).not.toContain('starting the local service');
    } finally {
      await remote.close();
    }
  });

  it.each([
    [['audit', 'example.com', '--product', 'seo'], {}, 'invalid_argument'],
    // Found on real use: ftp://example.com was audited as https://example.com.
    [['audit', 'ftp://example.com'], {}, 'invalid_argument'],
    [['audit', 'FILE:///etc/passwd'], {}, 'invalid_argument'],
    [['audit', 'javascript://example.com/%0Aalert(1)'], {}, 'invalid_argument'],
    [['audit', 'example.com'], { SITEAUDIT_API_URL: 'http://127.0.0.1:9' }, 'invalid_argument'],
    [['whoami'], { SITEAUDIT_API_URL: 'http://127.0.0.1:9', SITEAUDIT_API_KEY: 'svc_x' }, 'connection_failed'],
  ])('%j exits 1 with %s', async (args, env, code) => {
    const result = await runCli([...args, '--json'], { SITEAUDIT_DATA_DIR: freshDataDir(), ...env });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code } });
  });
});
