// `siteaudit project access ...` (issue 29) as a person runs it: the real binary against a real
// service (a deployment by SITEAUDIT_API_URL, and the embedded local service), setting, showing,
// replacing and clearing a project's access settings. What is set reaches the service sealed and
// whole; no value is ever in what the command prints, including its refusals.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectAccess } from '../../src/contract/index.ts';
import { siteAccessOf } from '../../src/service/project-access.ts';
import { testBackends } from '../support/backends.ts';
import { BIN, type CliResult, removeLocalServices, runCli } from '../support/cli.ts';
import { startTestService, type TestService } from '../support/service.ts';

const secret = (what: string) => `${what}-${randomBytes(12).toString('hex')}`;
const HEADER_VALUE = secret('hdr');
const COOKIE_VALUE = secret('ck');
const PASSWORD = secret('pw');
const ENV_VALUE = secret('env');
const PROMPTED = secret('typed');
const SECRETS = [HEADER_VALUE, COOKIE_VALUE, PASSWORD, ENV_VALUE, PROMPTED];

/** Every output of every run, checked at the end for any value. */
const printed: string[] = [];
async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const result = await runCli(['project', 'access', ...args], env);
  printed.push(result.stdout, result.stderr);
  return result;
}

/** The command on a terminal (a pty made by script(1)): the password is typed at its prompt. */
function onTerminal(args: string[], env: NodeJS.ProcessEnv, typed: string): Promise<CliResult> {
  const command = [process.execPath, BIN, 'project', 'access', ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!sent && stdout.includes('(not shown): ')) {
        sent = true;
        child.stdin.write(`${typed}\r`);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      printed.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('siteaudit project access against a deployment', () => {
  let s: TestService;
  let env: NodeJS.ProcessEnv;
  let organizationId: string;
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-access-'));

  beforeAll(async () => {
    s = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], {
      worker: false,
      deliverer: false,
      monitor: false,
    });
    const tenant = await s.tenant();
    organizationId = tenant.organizationId;
    env = { SITEAUDIT_API_URL: s.url, SITEAUDIT_API_KEY: tenant.key, SITEAUDIT_DATA_DIR: dir };
  });
  afterAll(async () => {
    await s?.close();
    const all = printed.join('\n');
    for (const value of SECRETS) expect(all, 'a value in the output').not.toContain(value);
    expect(printed.length).toBeGreaterThan(20);
  });

  /** What the engine would send for the project: the stored settings opened with the service's key. */
  async function sent(projectId: string): Promise<Record<string, string> | undefined> {
    const stored = await s.store.projectAccess.get(projectId);
    return stored && siteAccessOf(s.kek, stored, 'https://preview.example/').headers;
  }

  it('sets, shows, replaces and clears the settings; the service holds the values, the output only names', async () => {
    const unknown = await cli(['preview.example'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no project for preview.example');
    expect(unknown.stderr).toContain('siteaudit project access preview.example --header');

    // Set: a header, basic auth with the password from the environment, and a cookie (the project is made).
    const set = await cli(
      [
        'https://preview.example/some/page',
        '--header',
        `x-preview-token=${HEADER_VALUE}`,
        '--basic-auth',
        'ann',
        '--password-env',
        'PREVIEW_PASSWORD',
        '--cookie',
        `session=${COOKIE_VALUE}`,
        '--json',
      ],
      { ...env, PREVIEW_PASSWORD: PASSWORD },
    );
    expect(set.code, set.stderr).toBe(0);
    const answer = ProjectAccess.parse(JSON.parse(set.stdout));
    expect(answer).toMatchObject({ headers: ['x-preview-token'], cookies: ['session'], basicAuth: true });
    expect(answer.updatedAt).not.toBeNull();
    const { projectId } = answer;
    expect(await sent(projectId)).toEqual({
      'x-preview-token': HEADER_VALUE,
      authorization: `Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`,
      cookie: `session=${COOKIE_VALUE}`,
    });

    // Show, by domain and by id: the names, never a value.
    const shown = await cli(['preview.example'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      /^access settings of preview\.example \(names only; values are never shown\):\n {2}headers: {4}x-preview-token\n {2}basic auth: set\n {2}cookies: {4}session\n {2}changed: {4}\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC\n$/,
    );
    const byId = await cli([projectId, '--json'], env);
    expect(ProjectAccess.parse(JSON.parse(byId.stdout))).toEqual(answer);

    // Replace: the header from the environment; what is not given again is gone.
    const replaced = await cli(['preview.example', '--header-env', 'x-vercel-protection-bypass=BYPASS'], {
      ...env,
      BYPASS: ENV_VALUE,
    });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain(
      'replaced the access settings of preview.example (anything set before and not given now is removed):',
    );
    expect(replaced.stdout).toContain(
      'headers:    x-vercel-protection-bypass\n  basic auth: not set\n  cookies:    none',
    );
    expect(await sent(projectId)).toEqual({ 'x-vercel-protection-bypass': ENV_VALUE });

    // Clear.
    const cleared = await cli([projectId, '--clear'], env);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toBe(
      `cleared the access settings of project ${projectId}: audits send no extra headers, basic auth or cookies\n`,
    );
    expect(await s.store.projectAccess.get(projectId)).toBeUndefined();
    const none = await cli(['preview.example'], env);
    expect(none.stdout).toMatch(/^no access settings for preview\.example: audits reach it as any visitor does\n/);
  });

  it('asks for the basic auth password on a terminal without echoing it', async () => {
    const typed = await onTerminal(['preview.example', '--basic-auth', 'ann', '--json'], env, PROMPTED);
    expect(typed.code, typed.stdout).toBe(0);
    expect(typed.stdout).toContain('password for basic auth (not shown): ');
    const { projectId } = ProjectAccess.parse(JSON.parse(typed.stdout.slice(typed.stdout.indexOf('{'))));
    expect(await sent(projectId)).toEqual({
      authorization: `Basic ${Buffer.from(`ann:${PROMPTED}`).toString('base64')}`,
    });
    // Without a terminal there is nobody to ask: it says how to give the password instead.
    const piped = await cli(['preview.example', '--basic-auth', 'ann'], env);
    expect(piped.code).toBe(1);
    expect(piped.stderr).toContain('give --password-env ENVVAR');
  });

  it('refuses bad settings with the reason, naming headers and options but never a value', async () => {
    const refused = async (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
      const result = await cli([...args, '--json'], { ...env, ...extraEnv });
      expect(result.code, result.stdout).toBe(1);
      return JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as {
        error: { code: string; message: string };
      };
    };
    // The service's refusals, in its words.
    expect(await refused(['preview.example', '--header', `User-Agent=${HEADER_VALUE}`])).toMatchObject({
      error: { code: 'validation_failed', message: expect.stringContaining('user-agent') },
    });
    expect(await refused(['preview.example', '--header', `x-token=${HEADER_VALUE} `])).toMatchObject({
      error: { code: 'validation_failed', message: expect.stringContaining('headers.x-token') },
    });
    expect(await refused(['preview.example', '--cookie', `session=${COOKIE_VALUE};x`])).toMatchObject({
      error: { code: 'validation_failed', message: expect.stringContaining('cookies.session') },
    });
    // The command's own, before anything is sent.
    expect(await refused(['preview.example', '--header', HEADER_VALUE])).toEqual({
      error: { code: 'invalid_argument', message: "--header takes NAME=VALUE: the first --header has no '='" },
    });
    expect(await refused(['preview.example', '--header-env', `x-token=${ENV_VALUE}`])).toEqual({
      error: {
        code: 'invalid_argument',
        message: '--header-env x-token=…: the environment variable it names is not set',
      },
    });
    expect(await refused(['preview.example', '--cookie-env', 'sid=EMPTY'], { EMPTY: '' })).toMatchObject({
      error: { message: '--cookie-env sid=…: the environment variable it names is empty' },
    });
    expect(
      await refused(['preview.example', '--header', `a=${HEADER_VALUE}`, '--header-env', 'A=BYPASS'], {
        BYPASS: ENV_VALUE,
      }),
    ).toMatchObject({ error: { message: 'the header A is given twice' } });
    expect(await refused(['preview.example', '--clear', '--cookie', `sid=${COOKIE_VALUE}`])).toMatchObject({
      error: { code: 'invalid_argument', message: expect.stringContaining('--clear removes every setting') },
    });
    expect(await refused(['preview.example', '--password-env', 'PW'], { PW: PASSWORD })).toMatchObject({
      error: { message: '--password-env goes with --basic-auth USER' },
    });
    // A mistyped option is quoted by the option parser without what follows its '='.
    const typo = await cli(['preview.example', `--headr=x-token=${HEADER_VALUE}`], env);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("unknown option '--headr=…'");

    // A key that may read projects but not change them.
    const readOnly = await s.createKey(organizationId, { scopes: ['projects:read'] });
    expect(
      await refused(['preview.example', '--header', `x-token=${HEADER_VALUE}`], { SITEAUDIT_API_KEY: readOnly }),
    ).toMatchObject({ error: { code: 'insufficient_scope' } });
  });

  it('says when the service cannot store them (no key-encryption key)', async () => {
    const noKek = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], {
      worker: false,
      deliverer: false,
      monitor: false,
      kek: new Error('no key-encryption key configured'),
    });
    try {
      const { key } = await noKek.tenant();
      const result = await cli(['preview.example', '--header', `x-token=${HEADER_VALUE}`, '--json'], {
        ...env,
        SITEAUDIT_API_URL: noKek.url,
        SITEAUDIT_API_KEY: key,
      });
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout.trim().split('\n').at(-1) as string)).toEqual({
        error: {
          code: 'key_encryption_unavailable',
          message: 'access settings cannot be stored: the service has no key-encryption key',
        },
      });
    } finally {
      await noKek.close();
    }
  });

  it('documents the options, that setting replaces, and the -env options in --help', async () => {
    const help = await cli(['--help'], env);
    expect(help.code).toBe(0);
    for (const option of ['--header <NAME=VALUE>', '--header-env <NAME=ENVVAR>', '--basic-auth <user>'])
      expect(help.stdout).toContain(option);
    for (const option of ['--password-env <ENVVAR>', '--cookie <NAME=VALUE>', '--cookie-env <NAME=ENVVAR>', '--clear'])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toContain("Giving settings REPLACES all of the project's settings");
    expect(help.stdout).toContain('stays out of your shell history');
  });
});

describe('siteaudit project access on the embedded local service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-access-local-'));
  const env = { SITEAUDIT_DATA_DIR: dataDir, SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '' };
  afterAll(async () => {
    await removeLocalServices([dataDir]);
  });

  it('sets and shows them on the service of the data directory', async () => {
    const set = await cli(['localhost:4321', '--header-env', 'x-preview-token=TOKEN'], { ...env, TOKEN: ENV_VALUE });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('replaced the access settings of localhost:4321');
    const shown = await cli(['localhost:4321', '--json'], env);
    expect(ProjectAccess.parse(JSON.parse(shown.stdout))).toMatchObject({
      headers: ['x-preview-token'],
      cookies: [],
      basicAuth: false,
    });
    expect(set.stdout + set.stderr + shown.stdout + shown.stderr).not.toContain(ENV_VALUE);
  }, 60_000);
});
