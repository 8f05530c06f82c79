// The embedded default (ARCHITECTURE.md): on first start of a local service, a local organization and
// a full-scope key, the key saved in the data directory with mode 0600 for local clients to read.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueKey } from './api-keys.ts';
import { createOrganization } from './organizations.ts';
import type { Store } from './store/index.ts';

export const LOCAL_KEY_FILE = 'local-key';
export const LOCAL_ORG_CREDITS = 1000;

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

/**
 * Creates the local organization and key when the store has no organization yet. Answers true when
 * it did. Safe to call from several processes: only an empty store is bootstrapped.
 */
export async function bootstrapLocalService(store: Store, kek: Buffer, dataDir: string): Promise<boolean> {
  if ((await store.organizations.count()) > 0) return false;
  const organization = await createOrganization(store, { name: 'Local', plan: 'pro', credits: LOCAL_ORG_CREDITS });
  const { secret } = await issueKey(store, kek, {
    organizationId: organization.id,
    name: 'Local key',
    source: 'local',
  });
  writeFileSync(localKeyPath(dataDir), `${secret}\n`, { mode: 0o600 });
  return true;
}
