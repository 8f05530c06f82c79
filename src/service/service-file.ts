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

/** Removes the record if it is still this process's (another service may have replaced it). */
export function clearServiceRecord(dataDir: string, pid: number): void {
  if (readServiceRecord(dataDir)?.pid === pid) rmSync(join(dataDir, SERVICE_FILE), { force: true });
}
