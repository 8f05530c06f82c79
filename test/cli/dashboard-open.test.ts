// `siteaudit dashboard` says the truth about the browser: it counts as opened only when the opener
// (xdg-open here, found on PATH as on a Linux desktop) exits 0 or is still running after the grace
// time (it became the browser), and it always prints the one-time link, with how long it is valid.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLocalServices, runCli } from '../support/cli.ts';
import { TestBrowser } from '../support/form-browser.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-dashboard-open-'));
const CLEAN = { SITEAUDIT_API_URL: '', SITEAUDIT_API_KEY: '', SITEAUDIT_BROWSER: '', SITEAUDIT_DATA_DIR: dataDir };

/** A directory with an `xdg-open` that records its arguments and pid, then runs `body`. */
function fakeOpener(body: string): { path: string; seen: () => string[]; pid: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-opener-'));
  writeFileSync(
    join(dir, 'xdg-open'),
    `#!/bin/sh\necho $$ > "${dir}/pid"\nprintf '%s\\n' "$@" > "${dir}/args"\n${body}\n`,
    { mode: 0o755 },
  );
  return {
    path: `${dir}:${process.env.PATH ?? ''}`,
    seen: () => readFileSync(join(dir, 'args'), 'utf8').trimEnd().split('\n'),
    pid: () => Number(readFileSync(join(dir, 'pid'), 'utf8')),
  };
}

/** Follows the printed link as the person would: it signs in and lands on the page. */
async function follow(link: string): Promise<number> {
  const url = new URL(link);
  return (await new TestBrowser(url.origin).open(url.pathname + url.search)).status;
}

describe('siteaudit dashboard and the browser', () => {
  afterAll(async () => {
    await removeLocalServices([dataDir]);
  });

  it('says it could not open the browser when xdg-open exits 3, and prints the link with its lifetime', async () => {
    const opener = fakeOpener('exit 3');
    const made = await runCli(['dashboard', '/members'], { ...CLEAN, PATH: opener.path });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(
      'Could not open a browser (xdg-open exited with code 3). Open this link in a browser (it signs you in once and is valid for 1 minute):',
    );
    expect(made.stderr).not.toMatch(/opened/i);
    const link = made.stdout.trim();
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/link\/\S+\?next=%2Fmembers$/);
    expect(opener.seen()).toEqual([link]);
    expect(await follow(link)).toBe(200);
  });

  it('says it opened the dashboard when xdg-open exits 0, and still prints the link', async () => {
    const opener = fakeOpener('exit 0');
    const made = await runCli(['dashboard'], { ...CLEAN, PATH: opener.path });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(
      'Opened the dashboard in your browser. If it did not open, use this link (it signs you in once and is valid for 1 minute):',
    );
    expect(made.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/link\/\S+\?next=%2F$/);
    expect(opener.seen()).toEqual([made.stdout.trim()]);
  });

  it('counts an opener still running after the grace time as opened, and does not wait for it', async () => {
    const opener = fakeOpener('sleep 30');
    const started = Date.now();
    const made = await runCli(['dashboard'], { ...CLEAN, PATH: opener.path });
    try {
      expect(made.code, made.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(made.stderr).toContain('Opened the dashboard in your browser. If it did not open, use this link');
      expect(made.stdout.trim()).toBe(opener.seen()[0]);
    } finally {
      process.kill(opener.pid(), 'SIGTERM');
    }
  });

  it('names a missing opener, and prints the address of a deployment without a lifetime', async () => {
    const made = await runCli(['dashboard', '/runs/1'], {
      ...CLEAN,
      SITEAUDIT_API_URL: 'http://audit.example.test/',
      SITEAUDIT_BROWSER: join(dataDir, 'no-such-browser'),
    });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('Could not open a browser (');
    expect(made.stderr).toContain('no-such-browser was not found). Open this address in a browser:');
    expect(made.stdout).toBe('http://audit.example.test/sign-in?next=%2Fruns%2F1\n');
  });

  it('with --no-browser prints only the link on stdout, and how to use it on stderr', async () => {
    const made = await runCli(['dashboard', '--no-browser'], CLEAN);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('Open this link in a browser (it signs you in once and is valid for 1 minute):');
    expect(made.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/link\/\S+\?next=%2F\n$/);
  });
});
