// The step of the siteaudit GitHub Action (action.yml, docs/ci.md): turns the action's inputs into
// one `siteaudit audit` call, writes the step's outputs and job summary, and exits with the
// command's own code (0 passed, 2 a gate tripped, 1 the audit could not run). Run by the package's
// pinned Node 22, which strips the types. The inputs come as SITEAUDIT_ACTION_* variables.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const input = (name: string) => (env[`SITEAUDIT_ACTION_${name}`] ?? '').trim();
/** Several values, one per line or separated by commas (products) or lines only (expressions). */
const list = (text: string, commas: boolean) =>
  text
    .split('\n')
    .flatMap((line) => (commas ? line.split(',') : [line]))
    .map((value) => value.trim())
    .filter((value) => value !== '');

/** A workflow command's message, escaped as GitHub reads them (`%`, CR and LF). */
const commandText = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

function annotate(message: string): void {
  process.stdout.write(`::error title=siteaudit::${commandText(message)}\n`);
}

function fail(message: string): never {
  annotate(message);
  process.exit(1);
}

interface ServiceRecord {
  pid?: number;
}

function serviceRecord(dataDir: string): ServiceRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8')) as ServiceRecord;
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the embedded service this step started, so its database is whole for a cache step. */
async function stopService(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 15_000 && alive(pid); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

function setOutputs(values: Record<string, string>): void {
  const file = env.GITHUB_OUTPUT;
  const lines = Object.entries(values).map(([name, value]) => `${name}=${value.replaceAll('\n', ' ')}\n`);
  if (file) appendFileSync(file, lines.join(''));
  else process.stderr.write(lines.join(''));
}

interface JsonResult {
  passed: boolean;
  audits: Array<{
    product: string;
    run: { score: number | null };
    newFindings?: number;
  }>;
}

async function main(): Promise<void> {
  const url = input('URL');
  if (!url) fail('the url input is required: the site to audit');
  const apiUrl = input('API_URL');
  const apiKey = input('API_KEY');
  if (apiKey) process.stdout.write(`::add-mask::${apiKey}\n`);
  if (apiUrl && !apiKey) fail('api-url needs api-key (a secret): the key of that deployment');
  const temp = env.RUNNER_TEMP || tmpdir();
  // A directory of this step's own: two audit steps in one job never read each other's files.
  const given = input('OUTPUT_DIR');
  if (given) mkdirSync(given, { recursive: true });
  const outputDir = given || mkdtempSync(join(temp, 'siteaudit-'));
  const files = {
    sarif: join(outputDir, 'siteaudit.sarif'),
    markdown: join(outputDir, 'siteaudit.md'),
    junit: join(outputDir, 'siteaudit-junit.xml'),
    json: join(outputDir, 'siteaudit.json'),
  };
  // Files of an earlier run must never pass for this one's when it fails.
  for (const file of Object.values(files)) rmSync(file, { force: true });

  const args = ['audit', url];
  for (const product of list(input('PRODUCTS') || 'ai_readiness', true)) args.push('--product', product);
  for (const expression of list(input('FAIL_ON'), false)) args.push('--fail-on', expression);
  const baseline = input('BASELINE');
  if (baseline) args.push('--baseline', baseline);
  const sourceDir = input('SOURCE_DIR');
  if (sourceDir && existsSync(sourceDir)) args.push('--source-dir', sourceDir);
  args.push('--format', 'sarif', '--output', files.sarif);
  args.push('--format', 'markdown', '--output', files.markdown);
  args.push('--format', 'junit', '--output', files.junit);
  args.push('--format', 'json', '--output', files.json);

  const childEnv: NodeJS.ProcessEnv = { ...env };
  const dataDir = input('DATA_DIR') || join(temp, 'siteaudit-data');
  if (apiUrl) {
    childEnv.SITEAUDIT_API_URL = apiUrl;
    childEnv.SITEAUDIT_API_KEY = apiKey;
  } else {
    // The embedded default: a service on the runner, its data where a cache step can keep it.
    delete childEnv.SITEAUDIT_API_URL;
    delete childEnv.SITEAUDIT_API_KEY;
    childEnv.SITEAUDIT_DATA_DIR = dataDir;
  }
  const runningBefore = apiUrl ? undefined : serviceRecord(dataDir)?.pid;

  // stderr passes through to the log; its last `siteaudit:` line is the reason of an exit 1.
  let reason = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'siteaudit.js'), ...args], {
      env: childEnv,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let pending = '';
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('siteaudit: ')) reason = line.slice('siteaudit: '.length);
    });
    child.on('error', (error) => fail(`could not start siteaudit: ${error.message}`));
    child.on('close', (exit) => {
      if (pending.startsWith('siteaudit: ')) reason = pending.slice('siteaudit: '.length);
      resolve(exit ?? 1);
    });
  });

  if (!apiUrl) {
    const pid = serviceRecord(dataDir)?.pid;
    if (pid !== undefined && pid !== runningBefore && alive(pid)) await stopService(pid);
  }

  if (code !== 0 && code !== 2) {
    // A run's words end with its report link: on the runner's own service it is dead for any reader.
    const why = (reason.split(' Report: ')[0] ?? '').slice(0, 500) || `siteaudit exited ${code}`;
    annotate(`the audit could not run: ${why}`);
    process.exit(code);
  }
  if (existsSync(files.json)) {
    const result = JSON.parse(readFileSync(files.json, 'utf8')) as JsonResult;
    const first = result.audits[0];
    const compared = result.audits.filter((audit) => audit.newFindings !== undefined);
    const newFindings = compared.reduce((sum, audit) => sum + (audit.newFindings ?? 0), 0);
    setOutputs({
      score: first?.run.score === null || first === undefined ? '' : String(first.run.score),
      scores: JSON.stringify(Object.fromEntries(result.audits.map((audit) => [audit.product, audit.run.score]))),
      passed: String(result.passed),
      'new-findings': compared.length > 0 ? String(newFindings) : '',
      ...files,
    });
    if (env.GITHUB_STEP_SUMMARY && existsSync(files.markdown))
      appendFileSync(env.GITHUB_STEP_SUMMARY, readFileSync(files.markdown, 'utf8'));
  }
  if (code === 2) annotate('the audit tripped a fail-on gate (see the summary)');
  process.exit(code);
}

await main();
