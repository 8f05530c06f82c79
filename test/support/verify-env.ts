// Where the verify-line test runs a finding's verify line (test/audit/verify-lines.test.ts): `bash -c`
// with the line exactly as the engine printed it, in an environment that answers its names from the
// tests' loopback servers instead of the internet, and supplies the tools this machine lacks:
//   - curl reads a .curlrc ($CURL_HOME) that connects each fixture host's ports 443 and 80 to the
//     loopback servers (connect-to) and trusts the tests' CA (cacert);
//   - openssl s_client's `-connect HOST:443` is pointed at the same loopback port (a wrapper on PATH),
//     with the tests' CA as its default trust store (SSL_CERT_FILE);
//   - dig, not installed here, is test/support/verify-shims/dig.ts asking the tests' DNS server;
//   - `npx @axe-core/cli`, not installed and not fetchable offline, is verify-shims/axe-cli.ts: axe-core
//     in the system's Chromium with the same rules on the same page; every other npx call (lighthouse,
//     installed) goes to the real npx, with Chromium as Lighthouse's Chrome.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CHROMIUM } from './browser.ts';

const REPO = join(import.meta.dirname, '..', '..');
const SHIMS = join(import.meta.dirname, 'verify-shims');

/** Where a line's names lead: fixture hosts served on loopback, a DNS server, a CA. */
export interface VerifyTarget {
  /** Host names whose ports 443 and 80 go to these loopback ports. */
  hosts?: readonly string[];
  ports?: { 'https:': number; 'http:': number };
  /** `127.0.0.1:port` of the DNS server dig asks. */
  dns?: string;
  /** PEM of the CA that curl and openssl trust. */
  caPem?: string;
}

export interface VerifyResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface VerifyEnv {
  run(line: string, target?: VerifyTarget, timeoutMs?: number): Promise<VerifyResult>;
  close(): void;
}

function findOnPath(name: string, skip: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir === skip) continue;
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  throw new Error(`${name} is not on PATH`);
}

const script = (path: string, text: string) => {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
};

export function createVerifyEnv(): VerifyEnv {
  const root = mkdtempSync(join(tmpdir(), 'siteaudit-verify-'));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const node = process.execPath;
  const npx = findOnPath('npx', bin);
  script(join(bin, 'dig'), `#!/bin/sh\nexec "${node}" "${join(SHIMS, 'dig.ts')}" "$@"\n`);
  script(
    join(bin, 'npx'),
    `#!/bin/bash\nif [ "$1" = "@axe-core/cli" ]; then shift; exec "${node}" "${join(SHIMS, 'axe-cli.ts')}" "$@"; fi\nexec "${npx}" "$@"\n`,
  );
  script(join(bin, 'openssl'), `#!/bin/sh\nexec bash "${join(SHIMS, 'openssl.sh')}" "$@"\n`);
  // Lighthouse starts Chrome itself; as root, Chromium runs only without its sandbox.
  const chrome = join(root, 'chrome');
  script(chrome, `#!/bin/sh\nexec "${CHROMIUM}" --no-sandbox "$@"\n`);
  let targets = 0;

  function prepare(target: VerifyTarget): Record<string, string> {
    const dir = join(root, `target-${targets++}`);
    mkdirSync(dir);
    const curlrc: string[] = [];
    const env: Record<string, string> = { CURL_HOME: dir };
    if (target.caPem) {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, target.caPem);
      curlrc.push(`cacert = "${ca}"`);
      env.SSL_CERT_FILE = ca;
    }
    if (target.ports) {
      for (const host of target.hosts ?? []) {
        curlrc.push(`connect-to = "${host}:443:127.0.0.1:${target.ports['https:']}"`);
        curlrc.push(`connect-to = "${host}:80:127.0.0.1:${target.ports['http:']}"`);
      }
      env.VERIFY_HTTPS_PORT = String(target.ports['https:']);
    }
    if (target.dns) env.VERIFY_DNS = target.dns;
    writeFileSync(join(dir, '.curlrc'), `${curlrc.join('\n')}\n`);
    return env;
  }

  return {
    run(line, target = {}, timeoutMs = 60_000) {
      const env = {
        ...process.env,
        PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
        CHROME_PATH: chrome,
        VERIFY_CHROMIUM: CHROMIUM,
        ...prepare(target),
      };
      return new Promise((resolve, reject) => {
        // Its own process group, so a timeout ends what the line started (Chromium, servers) too.
        const child = spawn('bash', ['-c', line], {
          cwd: REPO,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString('utf8');
        });
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString('utf8');
        });
        const timer = setTimeout(() => {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
          reject(new Error(`verify line timed out after ${timeoutMs} ms: ${line}`));
        }, timeoutMs);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code: code ?? -1, stdout, stderr });
        });
      });
    },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}
