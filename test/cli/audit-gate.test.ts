// `siteaudit audit` as a CI gate (issue 27), run as CI runs it: the real command on the embedded
// default in a fresh data directory, and against a deployment. Every exit code; a baseline that
// lets an unchanged site pass and trips on a new defect; SARIF valid against the OASIS schema with
// fingerprints equal across two runs of the unchanged site; JUnit read by a JUnit parser.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJunit } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.ts';
import { removeLocalServices, runCli } from '../support/cli.ts';
import { type FixturePage, type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { sarifSchemaErrors } from '../support/sarif-schema.ts';
import { startTestService } from '../support/service.ts';

interface SarifLog {
  runs: Array<{ results: Array<{ ruleId: string; partialFingerprints: Record<string, string> }> }>;
}

const fingerprints = (sarif: SarifLog) =>
  sarif.runs.flatMap((run) => run.results.map((r) => `${r.ruleId} ${JSON.stringify(r.partialFingerprints)}`)).sort();

describe('siteaudit audit as a CI gate', () => {
  let site: FixtureSite;
  const home: FixturePage = {};
  const dataDirs: string[] = [];
  const fresh = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dataDirs.push(dir);
    return dir;
  };
  const setHome = (extra = '') => {
    home.body = html(
      '<title>Mugs by Ann</title><meta name="description" content="Handmade mugs from Ann\'s workshop.">',
      `<main><h1>Mugs by Ann</h1><p>Handmade stoneware mugs, fired in small batches.</p>${extra}<a href="/about">About the workshop</a></main>`,
    );
  };

  beforeAll(async () => {
    setHome();
    site = await startFixtureSite({
      '/': home,
      '/about': { body: html('<title>About</title>', '<main><h1>About</h1><p>Ann makes mugs.</p></main>') },
    });
  });
  afterAll(async () => {
    await removeLocalServices(dataDirs);
    await site.close();
  });

  it('gates on a baseline: an unchanged site passes, a new defect trips new>0 with exit 2', async () => {
    const dataDir = fresh('siteaudit-gate-');
    const out = fresh('siteaudit-gate-out-');
    const env = { SITEAUDIT_DATA_DIR: dataDir };
    const file = (name: string) => join(out, name);
    const outputs = (n: number) => [
      ...['--format', 'sarif', '--output', file(`${n}.sarif`)],
      ...['--format', 'junit', '--output', file(`${n}.xml`)],
      ...['--format', 'markdown', '--output', file(`${n}.md`)],
    ];

    // 1: the first audit, gated on its score only.
    const first = await runCli(['audit', site.host, '--fail-on', 'score<1', ...outputs(1), '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const firstJson = JSON.parse(first.stdout);
    expect(firstJson).toMatchObject({ passed: true, gate: [{ expression: 'score<1', tripped: false }] });
    // Progress and file notes go to stderr; stdout is the one JSON object.
    expect(first.stderr).toContain('wrote sarif to');
    const sarif1 = JSON.parse(readFileSync(file('1.sarif'), 'utf8')) as SarifLog;
    expect(sarifSchemaErrors(sarif1)).toEqual([]);
    expect(sarif1.runs).toHaveLength(1);
    expect(sarif1.runs[0]?.results.length).toBeGreaterThan(0);

    const junit = await parseJunit(readFileSync(file('1.xml'), 'utf8'));
    expect(junit && 'testsuite' in junit).toBe(true);
    const suites = (junit as { testsuite: Array<{ tests?: number; failures?: number }> }).testsuite;
    expect(suites).toHaveLength(1);
    expect(suites[0]?.failures).toBeGreaterThan(0);
    expect(suites[0]?.tests).toBeGreaterThan(suites[0]?.failures ?? 0);

    // 2: the same site again, against the first: nothing new, and the same fingerprints.
    const second = await runCli(
      ['audit', site.host, '--baseline', 'latest', '--fail-on', 'new>0', ...outputs(2), '--json'],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    const secondJson = JSON.parse(second.stdout);
    expect(secondJson.audits[0].comparison.counts).toMatchObject({ new: 0, notFound: 0 });
    expect(secondJson.audits[0].comparison.baselineRunId).toBe(firstJson.run.runId);
    const sarif2 = JSON.parse(readFileSync(file('2.sarif'), 'utf8')) as SarifLog;
    expect(fingerprints(sarif2)).toEqual(fingerprints(sarif1));

    // 3: an image without a text alternative appears: new>0 trips, exit 2, and says why.
    setHome('<img src="/mug.jpg">');
    const third = await runCli(
      ['audit', site.host, '--baseline', 'latest', '--fail-on', 'new>0', '--fail-on', 'score<1', ...outputs(3)],
      env,
    );
    expect(third.code, third.stderr).toBe(2);
    expect(third.stderr).toMatch(/gate tripped: new>0: [1-9]\d* new findings?/);
    // With every format in a file, the text report is the log on stdout.
    expect(third.stdout).toContain('Gate failed: 1 expression tripped');
    expect(third.stdout).toMatch(/Since the baseline run [0-9a-f-]{36}: [1-9]\d* new/);
    const markdown = readFileSync(file('3.md'), 'utf8');
    expect(markdown.length).toBeLessThan(65_000);
    expect(markdown).toContain('new>0');
    // A local service's report links work on the runner only: none in a pull-request comment.
    expect(markdown).not.toContain('/runs/');
    const sarif3 = JSON.parse(readFileSync(file('3.sarif'), 'utf8')) as SarifLog;
    expect(sarifSchemaErrors(sarif3)).toEqual([]);
    const added = fingerprints(sarif3).filter((print) => !fingerprints(sarif1).includes(print));
    expect(added.length).toBeGreaterThan(0);
    setHome();
  }, 120_000);

  it('compares with the JSON of an earlier audit, even of another host, and sees a defect spreading to a page', async () => {
    const env = { SITEAUDIT_DATA_DIR: fresh('siteaudit-gate-') };
    const out = fresh('siteaudit-gate-out-');
    const mainJson = join(out, 'main.json');
    // The main branch's audit, kept as the JSON artifact, already has one image without alt text.
    setHome('<img src="/mug.jpg">');
    const main = await runCli(
      [
        'audit',
        site.host,
        '--format',
        'json',
        '--output',
        mainJson,
        '--format',
        'sarif',
        '--output',
        join(out, 'main.sarif'),
      ],
      env,
    );
    expect(main.code, main.stderr).toBe(0);

    // A preview on another host with the same pages: nothing new against main's file.
    const preview = await startFixtureSite({
      '/': home,
      '/about': site.routes.get('/about') as FixturePage,
    });
    try {
      const same = await runCli(
        [
          ...['audit', preview.host, '--baseline', mainJson, '--fail-on', 'new>0', '--json'],
          ...['--format', 'sarif', '--output', join(out, 'same.sarif')],
        ],
        env,
      );
      expect(same.code, same.stderr).toBe(0);
      // Code scanning sees the preview's alerts as main's: the same category and fingerprints.
      const sarifOf = (name: string) => JSON.parse(readFileSync(join(out, name), 'utf8')) as SarifLog;
      expect(fingerprints(sarifOf('same.sarif'))).toEqual(fingerprints(sarifOf('main.sarif')));
      expect(JSON.parse(same.stdout).audits[0]).toMatchObject({ newFindings: 0, comparison: { counts: { new: 0 } } });

      // The preview adds the same defect on the about page: the check had a finding, the page is new.
      preview.routes.set('/about', {
        body: html('<title>About</title>', '<main><h1>About</h1><p>Ann makes mugs.</p><img src="/kiln.jpg"></main>'),
      });
      const spread = await runCli(
        [
          'audit',
          preview.host,
          '--baseline',
          mainJson,
          '--fail-on',
          'new:severity>=high',
          '--format',
          'sarif',
          '--output',
          join(out, 'spread.sarif'),
        ],
        env,
      );
      expect(spread.code, spread.stdout + spread.stderr).toBe(2);
      expect(spread.stderr).toMatch(/gate tripped: new:severity>=high: 1 new finding of severity >= high/);
      const sarif = JSON.parse(readFileSync(join(out, 'spread.sarif'), 'utf8'));
      const states = sarif.runs[0].results
        .filter((r: { ruleId: string }) => r.ruleId === 'image-alt')
        .map((r: { baselineState: string; properties: { page: string } }) => [
          new URL(r.properties.page).pathname,
          r.baselineState,
        ])
        .sort();
      expect(states).toEqual([
        ['/', 'unchanged'],
        ['/about', 'new'],
      ]);
    } finally {
      await preview.close();
      setHome();
    }
  }, 120_000);

  it('gates several products in one call, each scored on its own', async () => {
    const result = await runCli(
      [
        'audit',
        site.host,
        '--product',
        'ai_readiness',
        '--product',
        'website_security',
        '--fail-on',
        'score:website_security<=100',
        '--json',
      ],
      { SITEAUDIT_DATA_DIR: fresh('siteaudit-gate-') },
    );
    expect(result.code, result.stderr).toBe(2);
    const json = JSON.parse(result.stdout);
    expect(json.audits.map((a: { product: string }) => a.product)).toEqual(['ai_readiness', 'website_security']);
    expect(json.gate[0].detail).toMatch(/^Website security score \d+$/);
  });

  it('exits 1 when the audit cannot run: a bad key of a deployment, an unreachable site', async () => {
    const sqlite = testBackends()[0] as ReturnType<typeof testBackends>[number];
    const remote = await startTestService(sqlite, { allowLocalTargets: true });
    try {
      const tenant = await remote.tenant();
      const env = { SITEAUDIT_API_URL: remote.url, SITEAUDIT_DATA_DIR: fresh('siteaudit-gate-') };
      const badKey = await runCli(['audit', site.host, '--fail-on', 'score<90', '--json'], {
        ...env,
        SITEAUDIT_API_KEY: 'svc_not_a_key_at_all_000000000000',
      });
      expect(badKey.code).toBe(1);
      expect(JSON.parse(badKey.stdout).error.code).toBe('unauthorized');

      // Against the deployment, a baseline and a gate work the same as on the embedded default.
      const withKey = { ...env, SITEAUDIT_API_KEY: tenant.key };
      expect((await runCli(['audit', site.host], withKey)).code).toBe(0);
      const again = await runCli(['audit', site.host, '--baseline', 'latest', '--fail-on', 'new>0', '--json'], withKey);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).audits[0].comparison.runId).toBeDefined();

      const closed = await startFixtureSite();
      await closed.close();
      const unreachable = await runCli(['audit', closed.host, '--fail-on', 'score<90', '--json'], withKey);
      expect(unreachable.code, unreachable.stderr).toBe(1);
      expect(JSON.parse(unreachable.stdout).error.code).toBe('run_failed');
    } finally {
      await remote.close();
    }
  }, 120_000);

  it.each([
    [['--fail-on', 'score<ninety'], 'a score must be a whole number'],
    [['--fail-on', 'new>0'], 'new findings need --baseline'],
    [['--fail-on', 'score:marketing_signal<80'], 'add --product marketing_signal'],
    [['--format', 'pdf'], '--format must be one of text, json, markdown, sarif, junit'],
    [['--format', 'sarif', '--format', 'junit'], 'sarif and junit would both go to standard output'],
    [['--output', 'report.html'], 'has no --format before it'],
    [['--format', 'sarif', '--output', 'a.sarif', '--output', 'a.sarif'], 'a.sarif is given twice'],
    [['--baseline', 'latest', '--baseline', 'latest'], 'give it once'],
    [['--baseline', 'notauuid'], 'neither latest, a run id nor a file'],
    [['--format', 'sarif', '--output', '/proc/nope/x.sarif'], '--output /proc/nope/x.sarif: cannot make /proc/nope'],
    [['--format', 'sarif', '--output', '/etc/passwd/x.sarif'], '/etc/passwd is not a directory'],
    [['--format', 'sarif', '--output', '/tmp'], '--output /tmp: is a directory'],
  ])('%j exits 1 before any audit starts: %s', async (args, message) => {
    const dataDir = fresh('siteaudit-gate-');
    const result = await runCli(['audit', site.host, ...args], { SITEAUDIT_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    // Told before a service was started or a credit spent.
    expect(result.stderr).not.toContain('starting the local service');
  });

  it('says so when SITEAUDIT_API_URL names something that is not a siteaudit service', async () => {
    const result = await runCli(['audit', site.host, '--json'], {
      SITEAUDIT_DATA_DIR: fresh('siteaudit-gate-'),
      // The fixture site answers every path with HTML (or its 404 page): not the API's JSON.
      SITEAUDIT_API_URL: site.origin,
      SITEAUDIT_API_KEY: 'svc_not_a_key_at_all_000000000000',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SITEAUDIT_API_URL');
    expect(result.stderr).not.toContain('    at ');
  });

  it('answers an error in JSON on stdout for --format json as for --json', async () => {
    const result = await runCli(['audit', site.host, '--format', 'json', '--fail-on', 'score<x'], {
      SITEAUDIT_DATA_DIR: fresh('siteaudit-gate-'),
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'invalid_argument' } });
  });
});
