// Found by the attack battery: `siteaudit mcp --http` kept about 11 KB per request until it died.
// The abort listener that writeResponse put on the request's signal was never removed; undici's
// Request keeps that signal alive (its FinalizationRegistry), the listener held the response, and
// the response's listeners held the Request: a cycle through a GC root.
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeResponse } from '../../src/mcp/http.ts';

describe('writeResponse', () => {
  it.each([
    ['a JSON body', () => Response.json({ jsonrpc: '2.0', id: 1, result: {} })],
    ['a streamed body', () => new Response(new Blob(['data: {}\n\n', 'data: {}\n\n']).stream())],
    ['no body', () => new Response(null, { status: 202 })],
  ])('leaves no listener on the request’s signal once %s is written', async (_name, make) => {
    const signals: AbortSignal[] = [];
    const server = createServer((_req, res) => {
      const abort = new AbortController();
      signals.push(abort.signal);
      void writeResponse(res, make(), abort.signal);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (let i = 0; i < 5; i++) await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(signals).toHaveLength(5);
      for (const signal of signals) expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
