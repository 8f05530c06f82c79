// Runs the real `siteaudit` binary as a child process, as a person or a script would.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readServiceRecord } from '../../src/service/service-file.ts';
import { TestBrowser } from './form-browser.ts';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'siteaudit.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `siteaudit ...args` on this Node (22) and waits for it to exit. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  command: string[] = [process.execPath, BIN],
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [file, ...pre] = command as [string, ...string[]];
    const child = spawn(file, [...pre, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function runJson<T = Record<string, unknown>>(args: string[], env?: NodeJS.ProcessEnv): Promise<T> {
  const result = await runCli([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`siteaudit ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `siteaudit serve --port 0 ...args` and waits until it says where it listens. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving API v1 at (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          stderr: () => stderr,
          async stop(signal = 'SIGTERM') {
            child.kill(signal);
            const code = await exited;
            if (stdout) throw new Error(`serve wrote to stdout: ${stdout}`);
            return code;
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code} before listening: ${stderr}`));
    });
  });
}

/** Stops the local services tests started in the background (embedded default) and removes their data. */
export async function removeLocalServices(dataDirs: readonly string[]): Promise<void> {
  for (const dir of dataDirs) {
    const record = readServiceRecord(dir);
    if (!record) continue;
    try {
      process.kill(record.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

/**
 * Opens a page of the embedded default's dashboard as its person does: `siteaudit dashboard PAGE
 * --no-browser` prints a one-time sign-in link, and following it lands on the page, signed in.
 */
export async function openAsLocalUser(dataDir: string, page: string): Promise<{ status: number; html: string }> {
  const made = await runCli(['dashboard', page, '--no-browser'], {
    SITEAUDIT_DATA_DIR: dataDir,
    SITEAUDIT_API_URL: '',
  });
  if (made.code !== 0) throw new Error(`siteaudit dashboard exited ${made.code}: ${made.stderr}`);
  const link = new URL(made.stdout.trim());
  const browser = new TestBrowser(link.origin);
  const landed = await browser.open(link.pathname + link.search);
  return { status: landed.status, html: landed.html };
}

/** The API of a served process with its local key: GET, or POST with a JSON body. */
export function serveApi(serve: ServeProcess, key: string) {
  return async (path: string, body?: unknown) =>
    (await fetch(`${serve.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then((r) => r.json())) as Record<string, string>;
}
