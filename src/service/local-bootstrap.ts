// The embedded default (ARCHITECTURE.md): on first start of a local service, a local organization and
// a full-scope key, the key saved in the data directory with mode 0600 for local clients to read.
import { writeFileSync } from 'node:fs';
import { issueKey } from './api-keys.ts';
import { localKeyPath } from './local-key.ts';
import { createOrganization } from './organizations.ts';
import type { Store } from './store/index.ts';

export const LOCAL_ORG_CREDITS = 1000;

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
