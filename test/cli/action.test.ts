// The GitHub Action (action.yml, issue 27) run end to end as a runner runs it: its steps read from
// action.yml, their `${{ }}` expressions filled in from the inputs, the audit step's script run in
// bash with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP of its own, against a fixture site.
// The runner's temporary directory stays between the calls, as a cached data directory would: the
// first call sets the baseline, the unchanged site passes `new>0`, a new defect trips it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type FixturePage, type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const ROOT = join(import.meta.dirname, '..', '..');

interface ActionStep {
  id?: string;
  name: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** `${{ inputs.x }}` and `${{ github.workspace }}` filled in; any other expression fails the test. */
function expand(text: string, inputs: Record<string, string>, workspace: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = text.indexOf('${{', at);
    if (start < 0) return out + text.slice(at);
    const end = text.indexOf('}}', start);
    const expression = text.slice(start + 3, end).trim();
    out += text.slice(at, start);
    if (expression === 'github.workspace') out += workspace;
    else if (expression.startsWith('inputs.')) {
      const name = expression.slice('inputs.'.length);
      if (!(name in action.inputs)) throw new Error(`action.yml uses an undeclared input: ${name}`);
      out += inputs[name] ?? expand(action.inputs[name]?.default ?? '', inputs, workspace);
    } else throw new Error(`an expression this test cannot fill in: ${expression}`);
    at = end + 2;
  }
}

interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** The action's steps for these inputs: the install step is this checkout's own `npm ci`, already done. */
async function runAction(inputs: Record<string, string>, runnerTemp: string, workspace: string): Promise<StepRun> {
  for (const [name, spec] of Object.entries(action.inputs))
    if (spec.required && !inputs[name]) throw new Error(`required input ${name} missing`);
  const step = action.runs.steps.find((s) => s.id === 'audit') as ActionStep;
  const outputFile = join(runnerTemp, `output-${Date.now()}`);
  const summaryFile = join(runnerTemp, `summary-${Date.now()}`);
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value, inputs, workspace)]),
  );
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', step.run as string], {
      cwd: workspace,
      env: {
        ...process.env,
        SITEAUDIT_DATA_DIR: '',
        ...stepEnv,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: runnerTemp,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { ...result, outputs, summary: readFileSync(summaryFile, 'utf8') };
}

describe('the GitHub Action', () => {
  let site: FixtureSite;
  const home: FixturePage = {};
  let runnerTemp: string;
  let workspace: string;
  const page = (extra: string) =>
    html(
      '<title>Mugs by Ann</title><meta name="description" content="Handmade mugs from Ann\'s workshop.">',
      `<main><h1>Mugs by Ann</h1><p>Handmade stoneware mugs, fired in small batches.</p>${extra}<a href="/about">About the workshop</a></main>`,
    );

  beforeAll(async () => {
    home.body = page('');
    site = await startFixtureSite({
      '/': home,
      '/about': { body: html('<title>About</title>', '<main><h1>About</h1><p>Ann makes mugs.</p></main>') },
    });
    runnerTemp = mkdtempSync(join(tmpdir(), 'siteaudit-runner-'));
    // The repository the workflow checked out: the site's source.
    workspace = join(runnerTemp, 'workspace');
    mkdirSync(join(workspace, 'public'), { recursive: true });
  });
  afterAll(async () => {
    await site.close();
    rmSync(runnerTemp, { recursive: true, force: true });
  });

  it('declares a composite action whose outputs the audit step writes', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.url?.required).toBe(true);
    for (const name of ['products', 'fail-on', 'baseline', 'api-url', 'api-key'])
      expect(action.inputs).toHaveProperty(name);
    for (const [name, output] of Object.entries(action.outputs))
      expect(output.value, name).toBe(`\${{ steps.audit.outputs.${name} }}`);
    // Inputs reach the script through the environment only: never spliced into a shell line.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });

  it('passes an unchanged site against its baseline and fails with exit 2 on a new defect', async () => {
    const inputs = { url: site.origin, 'fail-on': 'new>0\nscore<1' };
    writeFileSync(join(workspace, 'public', 'index.html'), page(''));

    // The first run on the main branch makes the baseline (no gate on new findings yet).
    const first = await runAction({ url: site.origin, 'fail-on': 'score<1' }, runnerTemp, workspace);
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs.passed).toBe('true');
    expect(Number(first.outputs.score)).toBeGreaterThan(0);
    expect(JSON.parse(first.outputs.scores as string)).toHaveProperty('ai_readiness');
    expect(first.outputs['new-findings']).toBe('');
    for (const name of ['sarif', 'markdown', 'junit', 'json'])
      expect(existsSync(first.outputs[name] as string), name).toBe(true);
    // The embedded service this step started is stopped again (a service that stops removes its
    // record), its data whole for a cache step.
    expect(existsSync(join(runnerTemp, 'siteaudit-data', 'service.json'))).toBe(false);
    expect(existsSync(join(runnerTemp, 'siteaudit-data', 'local-key'))).toBe(true);

    const unchanged = await runAction({ ...inputs, baseline: 'latest' }, runnerTemp, workspace);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.outputs['new-findings']).toBe('0');
    expect(unchanged.summary).toContain('new>0');

    // A pull request adds an image without a text alternative, in the page and in its source.
    home.body = page('<img src="/mug.jpg">');
    writeFileSync(join(workspace, 'public', 'index.html'), page('<img src="/mug.jpg">'));
    const broken = await runAction({ ...inputs, baseline: 'latest' }, runnerTemp, workspace);
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.outputs.passed).toBe('false');
    expect(Number(broken.outputs['new-findings'])).toBeGreaterThan(0);
    expect(broken.stdout).toContain('::error title=siteaudit::the audit tripped a fail-on gate');
    expect(broken.summary).toContain('new>0');
    // Code scanning gets the page and, as a second location, the file the image is written in.
    const sarif = JSON.parse(readFileSync(broken.outputs.sarif as string, 'utf8'));
    const located = sarif.runs[0].results.filter((r: { locations: unknown[] }) => r.locations.length === 2) as Array<{
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
    }>;
    expect(located.map((r) => r.locations[1]?.physicalLocation.artifactLocation.uri)).toContain('public/index.html');
  }, 180_000);

  it('fails with exit 1 and an annotation when the url is missing, a key has no address or an input is wrong', async () => {
    const noUrl = await runAction({ url: ' ' }, runnerTemp, workspace);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stdout).toContain('::error title=siteaudit::the url input is required');
    const script = await runAction({ url: site.origin, 'api-url': 'https://audit.example' }, runnerTemp, workspace);
    expect(script.code).toBe(1);
    expect(script.stdout).toContain('::error title=siteaudit::api-url needs api-key');
    // The command's own reason, as the annotation of the failed step.
    const malformed = await runAction({ url: site.origin, 'fail-on': 'score<ninety' }, runnerTemp, workspace);
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toContain('::error title=siteaudit::the audit could not run: --fail-on "score<ninety"');
  });

  it("never passes off an earlier run's files as those of a run that failed", async () => {
    const outputDir = join(runnerTemp, 'kept-output');
    const passed = await runAction({ url: site.origin, 'output-dir': outputDir }, runnerTemp, workspace);
    expect(passed.code, passed.stderr).toBe(0);
    expect(existsSync(join(outputDir, 'siteaudit.json'))).toBe(true);
    const closed = await startFixtureSite();
    await closed.close();
    const failed = await runAction({ url: closed.origin, 'output-dir': outputDir }, runnerTemp, workspace);
    expect(failed.code).toBe(1);
    expect(failed.outputs).toEqual({});
    expect(failed.summary).toBe('');
    expect(existsSync(join(outputDir, 'siteaudit.json'))).toBe(false);
  }, 120_000);
});
