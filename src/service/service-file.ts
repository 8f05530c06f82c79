// Where an embedded service listens, recorded in its data directory so every local client (the
// command line, each MCP process of a host) finds and shares the one service.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVICE_FILE = 'service.json';

export interface ServiceRecord {
  url: string;
  pid: number;
  version: string;
  startedAt: string;
}

export function writeServiceRecord(dataDir: string, record: ServiceRecord): void {
  writeFileSync(join(dataDir, SERVICE_FILE), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

export function readServiceRecord(dataDir: string): ServiceRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dataDir, SERVICE_FILE), 'utf8')) as ServiceRecord;
    return typeof record.url === 'string' && typeof record.pid === 'number' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The record of a live process, or undefined (a record left behind by a killed process is stale). */
export function liveServiceRecord(dataDir: string): ServiceRecord | undefined {
  const record = readServiceRecord(dataDir);
  if (!record) return undefined;
  try {
    process.kill(record.pid, 0);
    return record;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? record : undefined;
  }
}

/** The live record of the data directory, waiting up to `ms` for a starting service to write it. */
export async function awaitServiceRecord(dataDir: string, ms = 10_000): Promise<ServiceRecord | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const record = liveServiceRecord(dataDir);
    if (record || Date.now() >= deadline) return record;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Removes the record if it is still this process's (another service may have replaced it). */
export function clearServiceRecord(dataDir: string, pid: number): void {
  if (readServiceRecord(dataDir)?.pid === pid) rmSync(join(dataDir, SERVICE_FILE), { force: true });
}
