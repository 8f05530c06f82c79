// The embedded default (ARCHITECTURE.md): with no API address configured, clients use one local
// service per data directory, started on demand in the background and shared by every local process,
// so humanUrl links keep working after the process that started a run exits.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLocalKey } from '../service/local-key.ts';
import { liveServiceRecord } from '../service/service-file.ts';
import { CliError } from './options.ts';

const START_TIMEOUT_MS = 20_000;
const STALE_STARTER_LOCK_MS = 30_000;

/** bin/siteaudit.js, found from src/cli (tests) and dist/src/cli (installed) alike. */
export function binPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [
    join(here, '..', '..', 'bin', 'siteaudit.js'),
    join(here, '..', '..', '..', 'bin', 'siteaudit.js'),
  ].find(existsSync);
  if (!found) throw new CliError('internal_error', 'cannot find bin/siteaudit.js to start the local service');
  return found;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1500) });
    return response.ok;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runningService(dataDir: string): Promise<string | undefined> {
  const record = liveServiceRecord(dataDir);
  return record && (await healthy(record.url)) ? record.url : undefined;
}

export interface LocalService {
  url: string;
  apiKey: string;
  started: boolean;
}

/** One starter at a time: a lock file made with O_EXCL, taken over when its holder is long gone. */
function tryStarterLock(lock: string): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_STARTER_LOCK_MS) rmSync(lock, { force: true });
    } catch {
      // gone meanwhile
    }
    return false;
  }
}

/**
 * The local service of `dataDir`, started in the background when none answers. One starter at a
 * time spawns it (the others wait for its record); should two spawn anyway, `serve` takes the data
 * directory's instance lock, so one service wins and the other exits 0.
 */
export async function connectLocalService(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<LocalService> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = () => {
    const apiKey = readLocalKey(dataDir);
    if (!apiKey) throw new CliError('internal_error', `the local service has no key file in ${dataDir}`);
    return apiKey;
  };
  const existing = await runningService(dataDir);
  if (existing) return { url: existing, apiKey: key(), started: false };

  const lock = join(dataDir, 'starter.lock');
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (tryStarterLock(lock)) {
      try {
        // Another starter may have finished while we waited for the lock.
        const raced = await runningService(dataDir);
        if (raced) return { url: raced, apiKey: key(), started: false };
        return { ...(await spawnService(dataDir, deadline, log)), apiKey: key() };
      } finally {
        rmSync(lock, { force: true });
      }
    }
    const url = await runningService(dataDir);
    if (url) return { url, apiKey: key(), started: false };
    await sleep(150);
  }
  throw new CliError(
    'service_unavailable',
    `no local service answered within ${START_TIMEOUT_MS / 1000} s; see ${join(dataDir, 'service.log')}`,
  );
}

async function spawnService(
  dataDir: string,
  deadline: number,
  log: (line: string) => void,
): Promise<{ url: string; started: boolean }> {
  log(`starting the local service (data in ${dataDir})`);
  const logFd = openSync(join(dataDir, 'service.log'), 'a', 0o600);
  // No --allow-local-targets: as a single-user embedded service on loopback it allows them by
  // default, and, unlike with the flag, stops the day its data directory gains a second member.
  const child = spawn(process.execPath, [binPath(), 'serve', '--data-dir', dataDir, '--log-format', 'text'], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, SITEAUDIT_DATABASE_URL: '' },
  });
  child.unref();
  closeSync(logFd);
  while (Date.now() < deadline) {
    const url = await runningService(dataDir);
    if (url) return { url, started: liveServiceRecord(dataDir)?.pid === child.pid };
    // Exit 0 means another service (`npm start`, say) holds the data directory: wait for its record.
    if (child.exitCode !== null && child.exitCode !== 0) break;
    await sleep(100);
  }
  throw new CliError('service_unavailable', `the local service did not start; see ${join(dataDir, 'service.log')}`);
}
