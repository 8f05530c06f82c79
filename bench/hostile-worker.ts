// One side of the hostile benchmark, in its own process: the real service (embedded store, worker
// on) audits the hostile site while this process's event-loop delay is recorded. Prints its address
// once listening, then {auditSeconds, status, attempts, delay: {p99Ms, maxMs}} when the run ends.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createResolver } from '../src/audit/net/resolver.ts';
import { issueKey } from '../src/service/api-keys.ts';
import { createOrganization } from '../src/service/organizations.ts';
import { startService } from '../src/service/server.ts';
import { openStore } from '../src/service/store/index.ts';

const [dnsAddress = '', ports = '{}', caFile = '', host = 'hostile.test'] = process.argv.slice(2);
const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-hostile-'));
const store = await openStore({ dataDir });
const kek = randomBytes(32);
const service = await startService({
  store,
  kek,
  port: 0,
  allowLocalTargets: true,
  version: 'bench',
  rateLimit: 1_000_000,
  refusalsPerMinute: 1_000_000,
  worker: {
    pollMs: 50,
    engine: {
      resolver: createResolver([dnsAddress]),
      ports: JSON.parse(ports) as { 'http:': number; 'https:': number },
      ca: readFileSync(caFile, 'utf8'),
      allowPrivate: true,
    },
  },
});
const org = await createOrganization(store, { name: 'Bench', plan: 'pro', credits: 1000 });
const { secret } = await issueKey(store, kek, {
  organizationId: org.id,
  name: 'bench',
  projectId: null,
  source: 'admin',
});
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);

const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${service.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  });
  return (await response.json()) as Record<string, unknown>;
};
const project = await call('/api/v1/projects', { method: 'POST', body: JSON.stringify({ domain: host }) });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const started = performance.now();
let run = await call('/api/v1/runs', { method: 'POST', body: JSON.stringify({ projectId: project.projectId }) });
while (run.status === 'pending' || run.status === 'running') {
  await new Promise((resolve) => setTimeout(resolve, 200));
  run = await call(`/api/v1/runs/${run.runId}`);
}
const auditSeconds = (performance.now() - started) / 1000;
delay.disable();
const attempts = (
  await store.db.selectFrom('runs').select('attempts').where('id', '=', String(run.runId)).executeTakeFirst()
)?.attempts;
process.stdout.write(
  `${JSON.stringify({
    auditSeconds,
    status: run.status,
    ...(run.status === 'completed' ? {} : { error: run.error }),
    attempts,
    delay: { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 },
  })}\n`,
);
await service.close();
await store.close();
rmSync(dataDir, { recursive: true, force: true });
