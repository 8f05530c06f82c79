// The SSRF battery, on a service that does not allow local targets: every spelling of a local or
// internal address is refused when a project is created, and names that resolve to one (through a DNS
// server of our own) are audited without a single connection reaching the trap listening on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { testBackends } from '../support/backends.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { Tally } from './junk.ts';

/** Local and internal addresses as a project's domain, in the spellings attackers use. */
const LITERAL_FORMS = [
  'localhost',
  'LOCALHOST',
  'localhost.',
  'foo.localhost',
  'foo.localhost.',
  'ⓛⓞⓒⓐⓛⓗⓞⓢⓣ',
  'foo.ⓛⓞⓒⓐⓛⓗⓞⓢⓣ',
  'localhost:8787',
  'http://localhost/',
  'https://127.0.0.1:443/',
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '0177.0.0.1',
  '0x7f.0.0.1',
  '0x7f000001',
  '2130706433',
  '017700000001',
  '0.0.0.0',
  '0',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:0:0:1]',
  '[fe80::1]',
  '[fc00::1]',
  '169.254.169.254',
  '[fd00:ec2::254]',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '100.64.0.1',
  '224.0.0.1',
  '255.255.255.255',
  'user@localhost',
  'localhost#.example.com',
  'localhost%00.example.com',
  'example.com@127.0.0.1',
  'http://[::1]:80/',
];

/** Names that look public but resolve to this machine or an internal network. */
const RESOLVED_FORMS: Record<string, { A?: string[]; AAAA?: string[] }> = {
  'rebind.test': { A: ['127.0.0.1'] },
  'loopback-range.test': { A: ['127.9.9.9'] },
  'metadata.test': { A: ['169.254.169.254'] },
  'private.test': { A: ['10.1.2.3'] },
  'unspecified.test': { A: ['0.0.0.0'] },
  'v6-loopback.test': { AAAA: ['::1'] },
  'v6-mapped.test': { AAAA: ['::ffff:127.0.0.1'] },
  'mixed.test': { A: ['127.0.0.1', '10.0.0.1'] },
};

describe.each(testBackends())('SSRF battery on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let dns: DnsServer;
  let trap: Server;
  let knocks = 0;

  beforeAll(async () => {
    if (!backend.available) return;
    trap = createServer((_req, res) => {
      knocks++;
      res.end('<title>internal</title>');
    });
    trap.on('connection', () => knocks++);
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const port = (trap.address() as AddressInfo).port;
    dns = await startDnsServer(RESOLVED_FORMS);
    s = await startTestService(backend, {
      allowLocalTargets: false,
      worker: {
        pollMs: 50,
        concurrency: 4,
        engine: {
          resolver: createResolver([dns.address]),
          ports: { 'http:': port, 'https:': port },
          timeoutMs: 2000,
        },
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await dns?.close();
    await new Promise((resolve) => trap?.close(resolve));
  });

  test('refuses local spellings, and audits names that resolve inward without one connection inward', async () => {
    const { key } = await s.tenant('pro', 100);
    const tally = new Tally();
    const accepted: string[] = [];
    for (const domain of LITERAL_FORMS) {
      const res = await s.request('/api/v1/projects', { key, method: 'POST', json: { domain } });
      tally.note(res.status);
      if (res.status !== 400) accepted.push(`${domain} -> ${res.status} ${res.text.slice(0, 100)}`);
    }
    expect(accepted).toEqual([]);

    const runs: string[] = [];
    // Plus a name with no address at all: it fails the same honest way.
    for (const domain of [...Object.keys(RESOLVED_FORMS), 'nowhere.test']) {
      const projectId = await s.createProject(key, domain);
      const run = await s.request<{ runId: string }>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
      tally.note(run.status);
      expect(run.status).toBe(202);
      runs.push(run.body.runId);
    }
    const deadline = Date.now() + 60_000;
    const outcome = new Map<string, string>();
    while (outcome.size < runs.length && Date.now() < deadline) {
      for (const runId of runs) {
        const run = await s.request<{ status: string }>(`/api/v1/runs/${runId}`, { key });
        if (!['pending', 'running'].includes(run.body.status)) outcome.set(runId, run.body.status);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(
      `battery: SSRF on ${backend.name}: ${LITERAL_FORMS.length} literal forms refused, ${runs.length} names resolving inward or nowhere ended (${[...outcome.values()].join(', ')}); ${knocks} connections reached the trap; ${tally.summary()}`,
    );
    expect(outcome.size).toBe(runs.length);
    expect(knocks).toBe(0);
    // Nothing to audit: each run fails at its first attempt, says why, and its credit comes back.
    expect([...outcome.values()]).toEqual(Array(runs.length).fill('failed_auto_credit'));
    for (const runId of runs) {
      const row = await s.store.runs.getById(runId);
      expect(row?.attempts).toBe(1);
      expect(row?.error).toMatch(/could not be reached: .*(address this service does not audit|no address in DNS)/);
    }
    const me = await s.request<{ credits: { remaining: number } }>('/api/v1/me', { key });
    expect(me.body.credits.remaining).toBe(100);
  }, 90_000);

  // The control: with private addresses allowed, the same name reaches the trap, so the zero above means the guard.
  test('reaches the trap when the service allows local targets', async () => {
    const open = await startTestService(backend, {
      allowLocalTargets: true,
      worker: {
        pollMs: 50,
        engine: {
          resolver: createResolver([dns.address]),
          ports: { 'http:': (trap.address() as AddressInfo).port, 'https:': (trap.address() as AddressInfo).port },
          timeoutMs: 2000,
        },
      },
    });
    try {
      const { key } = await open.tenant('pro', 10);
      const before = knocks;
      const projectId = await open.createProject(key, 'rebind.test');
      const run = await open.request<{ runId: string }>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
      const deadline = Date.now() + 30_000;
      while (knocks === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(run.status).toBe(202);
      expect(knocks).toBeGreaterThan(before);
    } finally {
      await open.close();
    }
  }, 60_000);
});
