// The per-key pacers of a process: shared by every client of a key, and forgotten when idle so a
// server that sees many keys (the MCP HTTP endpoint, junk keys included) does not keep them all.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PacingExceeded, pacerCount, pacerFor } from '../../src/client/pacing.ts';

describe('per-key pacers', () => {
  it('are shared by key, and idle ones are dropped once many keys were seen', async () => {
    const busy = pacerFor('svc_busy_key', { limit: 5, windowMs: 60_000 });
    await busy.acquire();
    expect(pacerFor('svc_busy_key', { limit: 5, windowMs: 60_000 })).toBe(busy);
    for (let i = 0; i < 3000; i++) pacerFor(`svc_${randomBytes(12).toString('hex')}`);
    expect(pacerCount()).toBeLessThanOrEqual(1001);
    // The key with a request in its window keeps its budget.
    expect(pacerFor('svc_busy_key', { limit: 5, windowMs: 60_000 })).toBe(busy);
  });
});

describe('a pacer with a bound on the wait', () => {
  // Found by the attack battery: past a key's 60th call in a minute, a tool call waited up to 55 s.
  it('refuses at once, saying when, a request whose turn comes later than the bound', async () => {
    const pacer = pacerFor(`svc_${randomBytes(12).toString('hex')}`, { limit: 2, windowMs: 60_000 });
    await pacer.acquire(5_000);
    await pacer.acquire(5_000);
    const began = Date.now();
    const refused = await pacer.acquire(5_000).catch((error: unknown) => error);
    expect(Date.now() - began).toBeLessThan(500);
    expect(refused).toBeInstanceOf(PacingExceeded);
    expect((refused as PacingExceeded).retryAfterMs).toBeGreaterThan(55_000);
    // A refused request took no place: with a short window the next one goes when it opens.
    const short = pacerFor(`svc_${randomBytes(12).toString('hex')}`, { limit: 1, windowMs: 300 });
    await short.acquire(5_000);
    await expect(short.acquire(100)).rejects.toBeInstanceOf(PacingExceeded);
    const waited = Date.now();
    await short.acquire(5_000);
    expect(Date.now() - waited).toBeLessThan(1_000);
  });
});
