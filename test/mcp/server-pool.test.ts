// Issue 28: 2026-07-28 requests take the server their caller's last exchange left, so that a call
// does not register every tool again. A kept server serves only its own caller (bearer and address),
// a request the client cut off gives its server up, and the pool is bounded per caller, in all and in
// time.
import { type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverPool } from '../../src/mcp/server-pool.ts';

const build = () => new McpServer({ name: 'pool-test', version: '1' });

function modern(token: string, address = '127.0.0.1', signal?: AbortSignal): McpRequestContext {
  return {
    era: 'modern',
    authInfo: { token, clientId: 'c', scopes: [], extra: { clientAddress: address } },
    ...(signal ? { requestInfo: new Request('http://localhost/mcp', { signal }) } : {}),
  };
}

/** What the SDK does when an exchange ends: the server's onclose. */
const endExchange = (server: McpServer) => server.server.onclose?.();

afterEach(() => {
  vi.useRealTimers();
});

describe('serverPool', () => {
  it('gives a caller back the server of its last exchange, once that exchange has ended', () => {
    const pool = serverPool(build);
    const first = pool.factory(modern('key-a'));
    // Still serving: a second request at the same time gets a server of its own.
    const concurrent = pool.factory(modern('key-a'));
    expect(concurrent).not.toBe(first);
    endExchange(first);
    endExchange(concurrent);
    expect(pool.idle()).toBe(2);
    const again = [pool.factory(modern('key-a')), pool.factory(modern('key-a'))];
    expect(again).toContain(first);
    expect(again).toContain(concurrent);
    expect(pool.built()).toBe(2);
  });

  it('never hands one caller’s server to another key or another address', () => {
    const pool = serverPool(build);
    const mine = pool.factory(modern('key-a', '10.0.0.1'));
    endExchange(mine);
    expect(pool.factory(modern('key-b', '10.0.0.1'))).not.toBe(mine);
    expect(pool.factory(modern('key-a', '10.0.0.2'))).not.toBe(mine);
    expect(pool.factory(modern('key-a', '10.0.0.1'))).toBe(mine);
  });

  it('builds a new server for every 2025-era request and for a request without a bearer', () => {
    const pool = serverPool(build);
    const legacy = pool.factory({ era: 'legacy', authInfo: { token: 'key-a', clientId: 'c', scopes: [] } });
    endExchange(legacy);
    const anonymous = pool.factory({ era: 'modern' });
    endExchange(anonymous);
    expect(pool.idle()).toBe(0);
    expect(pool.factory({ era: 'legacy', authInfo: { token: 'key-a', clientId: 'c', scopes: [] } })).not.toBe(legacy);
    expect(pool.built()).toBe(3);
  });

  it('drops the server of a request the client cut off (its handler may still be running)', () => {
    const pool = serverPool(build);
    const cut = new AbortController();
    const server = pool.factory(modern('key-a', '127.0.0.1', cut.signal));
    cut.abort();
    endExchange(server);
    expect(pool.idle()).toBe(0);
    expect(pool.factory(modern('key-a'))).not.toBe(server);
  });

  it('keeps a server once however often its exchange is said to end', () => {
    const pool = serverPool(build);
    const server = pool.factory(modern('key-a'));
    endExchange(server);
    endExchange(server);
    expect(pool.idle()).toBe(1);
  });

  it('keeps at most perCaller for one caller and total in all, the callers seen least lately losing first', () => {
    const pool = serverPool(build, { perCaller: 2, total: 3, idleMs: 60_000 });
    const a = [1, 2, 3].map(() => pool.factory(modern('key-a')));
    for (const server of a) endExchange(server);
    expect(pool.idle()).toBe(2);
    const b = [1, 2].map(() => pool.factory(modern('key-b')));
    for (const server of b) endExchange(server);
    // key-a was seen least lately: it lost one of its two.
    expect(pool.idle()).toBe(3);
    const built = pool.built();
    pool.factory(modern('key-b'));
    pool.factory(modern('key-b'));
    pool.factory(modern('key-a'));
    expect(pool.built()).toBe(built);
    pool.factory(modern('key-a'));
    expect(pool.built()).toBe(built + 1);
  });

  it('builds again after idleMs, on the next request or at the sweep', () => {
    vi.useFakeTimers();
    const pool = serverPool(build, { perCaller: 4, total: 10, idleMs: 1000 });
    const a = pool.factory(modern('key-a'));
    const b = pool.factory(modern('key-b'));
    endExchange(a);
    endExchange(b);
    vi.advanceTimersByTime(1001);
    expect(pool.factory(modern('key-a'))).not.toBe(a);
    expect(pool.idle()).toBe(1);
    pool.sweep();
    expect(pool.idle()).toBe(0);
    expect(pool.factory(modern('key-b'))).not.toBe(b);
  });
});
