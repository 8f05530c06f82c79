// The per-key pacers of a process: shared by every client of a key, and forgotten when idle so a
// server that sees many keys (the MCP HTTP endpoint, junk keys included) does not keep them all.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pacerCount, pacerFor } from '../../src/client/pacing.ts';

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
