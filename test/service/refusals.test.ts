// Requests refused for a bad or missing key: throttled by client address before authentication,
// written to the audit log one row per burst, and the audit log's retention. Found by the attack
// battery: 500 bad-key requests in 372 ms each did a key lookup and wrote a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

const BUDGET = 5;
const badKey = (n: number) => `svc_${String(n).padStart(43, 'x')}`;

/** Fixed one-minute windows: start a burst well inside one so it is not split by the turn of a minute. */
async function insideOneMinute(seconds = 10): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe.each(testBackends())('refused requests on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  beforeAll(async () => {
    if (backend.available) s = await startTestService(backend, { refusalsPerMinute: BUDGET });
  });
  afterAll(async () => {
    await s?.close();
  });

  const rowsOf = async (status: number) => {
    await s.service.flushAuditLog();
    return (await s.store.auditLog.recent(10_000)).filter((row) => row.status === status && !row.key_prefix);
  };
  const requestsIn = (rows: { request_count: number }[]) => rows.reduce((sum, row) => sum + row.request_count, 0);

  test('throttles an address after its budget of refusals, before any key lookup, one audit row per burst', async () => {
    const { key } = await s.tenant();
    expect((await s.request('/api/v1/me', { key })).status).toBe(200); // a key this process now knows
    await insideOneMinute();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, n) => s.request('/api/v1/me', { key: badKey(n) })));
    const statuses = burst.map((res) => res.status);
    // Exact even when all 40 arrive at once: requests being checked count against the budget.
    expect(statuses.filter((status) => status === 401)).toHaveLength(BUDGET);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - BUDGET);
    const throttled = burst.find((res) => res.status === 429);
    if (!throttled) throw new Error('no 429');
    expectError(throttled, 429, 'rate_limited');
    const wait = Number(throttled.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(throttled.body).toMatchObject({ error: { retryAfterSeconds: wait } });
    expect(throttled.body).toMatchObject({ error: { message: expect.stringContaining('this address') } });

    // No header, a key in the query string: also refused before authentication now.
    expect((await s.request('/api/v1/me')).status).toBe(429);
    expect((await s.request('/api/v1/projects', { method: 'POST', json: { domain: 'a.example' } })).status).toBe(429);
    // A key the service accepted lately still passes: neighbours behind one address keep working.
    expect((await s.request('/api/v1/me', { key })).status).toBe(200);

    // 40 + 2 refusals, 2 rows.
    const unauthorized = await rowsOf(401);
    const limited = await rowsOf(429);
    expect(unauthorized).toHaveLength(1);
    expect(limited).toHaveLength(1);
    expect(requestsIn(unauthorized)).toBe(BUDGET);
    expect(requestsIn(limited)).toBe(42 - BUDGET);
    expect(unauthorized[0]).toMatchObject({ client_address: '127.0.0.1', organization_id: null, path: '/api/v1/me' });
    expect(JSON.stringify(await s.store.auditLog.recent(10_000))).not.toContain('xxxxxxxxxx');
  });

  test('keeps the budgets of addresses apart when told to trust the proxy in front', async () => {
    const proxied = await startTestService(backend, { refusalsPerMinute: 2, trustProxy: true });
    try {
      await insideOneMinute();
      const from = (address: string) => ({ 'x-forwarded-for': `198.51.100.7, ${address}` });
      const statuses = async (address: string) => {
        const answers = [];
        for (let n = 0; n < 4; n++)
          answers.push((await proxied.request('/api/v1/me', { headers: { ...from(address) } })).status);
        return answers;
      };
      // The proxy's own hop decides, not the first one a client can write.
      expect(await statuses('203.0.113.1')).toEqual([401, 401, 429, 429]);
      expect(await statuses('203.0.113.2')).toEqual([401, 401, 429, 429]);
      // IPv6 clients are one client per /64.
      expect(await statuses('2001:db8:1:2::1')).toEqual([401, 401, 429, 429]);
      expect(await statuses('2001:db8:1:2:ffff::9')).toEqual([429, 429, 429, 429]);
      await proxied.service.flushAuditLog();
      const addresses = (await proxied.store.auditLog.recent(100)).map((row) => row.client_address);
      expect(new Set(addresses)).toEqual(new Set(['203.0.113.1', '203.0.113.2', '2001:db8:1:2::/64']));
    } finally {
      await proxied.close();
    }
  });

  test('counts refused token exchanges against the address too', async () => {
    const exchanging = await startTestService(backend, { refusalsPerMinute: 3 });
    try {
      await insideOneMinute();
      const statuses = [];
      for (let n = 0; n < 5; n++) {
        const res = await exchanging.request('/api/v1/cli/token', {
          method: 'POST',
          json: { code: `guess-${n}`, code_verifier: 'v'.repeat(43), redirect_uri: 'http://127.0.0.1:9/callback' },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 3).every((status) => status === 400)).toBe(true);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await exchanging.close();
    }
  });

  test('prunes audit rows past the retention, in batches, and keeps the rest', async () => {
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const entry = { organizationId: null, keyPrefix: null, method: 'GET', path: '/old', status: 200, durationMs: 1 };
    const ids = [];
    for (let n = 0; n < 7; n++) ids.push(await s.store.auditLog.append(entry));
    await s.store.db.updateTable('audit_log').set({ created_at: old }).where('id', 'in', ids).execute();
    const kept = await s.store.auditLog.append({ ...entry, path: '/new' });
    expect(await s.store.auditLog.prune(new Date(Date.now() - 90 * 86_400_000))).toBe(7);
    const paths = (await s.store.auditLog.recent(10_000)).map((row) => row.path);
    expect(paths).not.toContain('/old');
    expect((await s.store.auditLog.recent(10_000)).some((row) => row.id === kept)).toBe(true);
  });

  test('a service prunes by its retention setting soon after it starts; 0 keeps every row', async () => {
    for (const days of [2, 0]) {
      const pruning = await startTestService(backend, { auditLogDays: days });
      try {
        const id = await pruning.store.auditLog.append({
          organizationId: null,
          keyPrefix: null,
          method: 'GET',
          path: '/three-days-old',
          status: 200,
          durationMs: 1,
        });
        const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
        await pruning.store.db.updateTable('audit_log').set({ created_at: old }).where('id', '=', id).execute();
        const present = async () => (await pruning.store.auditLog.recent(100)).some((row) => row.id === id);
        const deadline = Date.now() + 5_000;
        while (days > 0 && (await present()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        if (days === 0) await new Promise((r) => setTimeout(r, 1_500));
        expect(await present()).toBe(days === 0);
      } finally {
        await pruning.close();
      }
    }
  });
});
