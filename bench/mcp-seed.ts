// Seeds an empty data directory for the MCP benchmark, in a process of its own, before `siteaudit
// serve` opens it: one organization on the paid plan with credits, and N full-scope keys (one per
// concurrent client, so each behaves as its own user). Prints one JSON line {keys} on stdout.
import { issueKey } from '../src/service/api-keys.ts';
import { loadKeyEncryptionKey } from '../src/service/key-encryption.ts';
import { createOrganization } from '../src/service/organizations.ts';
import { openStore } from '../src/service/store/index.ts';

const [dataDir, count] = process.argv.slice(2);
if (!dataDir || !Number.isInteger(Number(count)) || Number(count) < 1) {
  process.stderr.write('usage: node bench/mcp-seed.ts <data-dir> <keys>\n');
  process.exit(2);
}
const store = await openStore({ dataDir });
try {
  const kek = loadKeyEncryptionKey(dataDir);
  const org = await createOrganization(store, { name: 'Bench', plan: 'pro', credits: 1000 });
  const keys: string[] = [];
  for (let i = 0; i < Number(count); i++) {
    const { secret } = await issueKey(store, kek, { organizationId: org.id, name: `bench ${i}`, source: 'admin' });
    keys.push(secret);
  }
  process.stdout.write(`${JSON.stringify({ keys })}\n`);
} finally {
  await store.close();
}
