// Where the embedded default keeps its local key, and reading it: all a local client needs, without
// the store and its database drivers (a host's `siteaudit mcp` starts faster; issue 26).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCAL_KEY_FILE = 'local-key';

export function localKeyPath(dataDir: string): string {
  return join(dataDir, LOCAL_KEY_FILE);
}

/** Reads the local key, or undefined when the local service has not been bootstrapped. */
export function readLocalKey(dataDir: string): string | undefined {
  const file = localKeyPath(dataDir);
  if (!existsSync(file)) return undefined;
  const secret = readFileSync(file, 'utf8').trim();
  return secret.startsWith('svc_') ? secret : undefined;
}
