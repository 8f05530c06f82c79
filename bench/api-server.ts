// A server for the API benchmark, in a process of its own: `bare` is a bare Hono handler answering
// the same shapes from constants; `sqlite` and `postgres` are the real service over a seeded store
// with KEYS API keys (one for each connection the benchmark opens, as separate clients have).
// Prints one JSON line {url, keys} on stdout when ready; on SIGTERM prints {keysUsed} (the keys the
// service saw, from their last use) and stops.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { issueKey } from '../src/service/api-keys.ts';
import { createOrganization } from '../src/service/organizations.ts';
import { startService } from '../src/service/server.ts';
import { openStore } from '../src/service/store/index.ts';
import { createPostgresSchema } from '../test/support/postgres-schema.ts';

const [mode, keysText = '1'] = process.argv.slice(2);
const KEYS = Math.max(1, Number(keysText));
const databaseUrl = process.env.SITEAUDIT_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROJECTS = 20;

function ready(url: string, keys: string[], stop: () => Promise<number | null>) {
  process.stdout.write(`${JSON.stringify({ url, keys })}\n`);
  process.on('SIGTERM', () => {
    stop().then((keysUsed) => {
      process.stdout.write(`${JSON.stringify({ keysUsed })}\n`, () => process.exit(0));
    });
  });
}

async function bare() {
  const me = {
    keyPrefix: 'svc_bench123',
    keyName: 'bench',
    organizationId: '0190f5a0-0000-7000-8000-000000000001',
    organizationName: 'Bench',
    organizationSlug: 'bench',
    projectId: null,
    scopes: ['projects:read'],
    plan: 'pro',
    credits: { remaining: 100, monthlyIncluded: 100 },
    apiVersion: 'v1',
    contractVersion: 2,
    latestCliVersion: '0.1.0',
    creditCosts: { ai_readiness: 1, marketing: 1, website_security: 1 },
  };
  const projects = {
    projects: Array.from({ length: PROJECTS }, (_, i) => ({
      projectId: `0190f5a0-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
      name: `p${i}.example`,
      domain: `p${i}.example`,
      slug: `p${i}-example`,
      status: 'active',
      createdAt: '2026-11-21T00:00:00.000Z',
      updatedAt: '2026-11-21T00:00:00.000Z',
    })),
    pagination: { nextCursor: null, limit: 20 },
  };
  // No auth: the floor of the stack. The keys are sent all the same and not read.
  const app = new Hono().get('/api/v1/me', (c) => c.json(me)).get('/api/v1/projects', (c) => c.json(projects));
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
    const keys = Array.from({ length: KEYS }, (_, i) => `svc_unused${i}`);
    ready(`http://127.0.0.1:${info.port}`, keys, async () => {
      server.close();
      return null;
    });
  });
}

async function service(backend: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-bench-'));
  let location: { dataDir: string; databaseUrl?: string } = { dataDir };
  let dropSchema = async () => {};
  if (backend === 'postgres') {
    const schema = await createPostgresSchema(databaseUrl, 'bench');
    location = { dataDir, databaseUrl: schema.databaseUrl };
    dropSchema = schema.drop;
  }
  const store = await openStore(location);
  const kek = randomBytes(32);
  const org = await createOrganization(store, { name: 'Bench', plan: 'pro' });
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const { secret } = await issueKey(store, kek, { organizationId: org.id, name: `bench ${i}`, source: 'admin' });
    keys.push(secret);
  }
  for (let i = 0; i < PROJECTS; i++) {
    await store.projects.createOrRestore(
      { organizationId: org.id, domain: `p${i}.example`, name: `p${i}.example`, slug: 's' },
      1000,
    );
  }
  // The rate limit is lifted so the benchmark measures the service, not the 429 path; each key's
  // counter is still written on every request, in a row of its own as with separate clients.
  const running = await startService({ store, kek, port: 0, rateLimit: 1_000_000_000, version: '0.1.0' });
  ready(running.url, keys, async () => {
    await running.close();
    const used = (await store.apiKeys.listForOrganization(org.id)).filter((k) => k.last_used_at).length;
    await store.close();
    await dropSchema();
    rmSync(dataDir, { recursive: true, force: true });
    return used;
  });
}

if (mode === 'bare') await bare();
else if (mode === 'sqlite' || mode === 'postgres') await service(mode);
else {
  process.stderr.write('usage: node bench/api-server.ts bare|sqlite|postgres [KEYS]\n');
  process.exit(2);
}
