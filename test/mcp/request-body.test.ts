// The request the HTTP edge hands the SDK's handler (issue 28): what its 2026-07-28 path reads comes
// straight off Node's request, and the whole web Request is built only when something else is read.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webRequest } from '../../src/mcp/request-body.ts';

/** Node's request for one POST sent to a loopback server, with its body read as text. */
async function nodeRequest(
  headers: Record<string, string | string[]>,
  body: string,
): Promise<{ req: IncomingMessage; text: string; close: () => void }> {
  let resolve: (value: { req: IncomingMessage; text: string }) => void = () => {};
  const arrived = new Promise<{ req: IncomingMessage; text: string }>((r) => {
    resolve = r;
  });
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    resolve({ req, text });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const sent = fetch(`http://127.0.0.1:${port}/mcp?x=1`, {
    method: 'POST',
    headers: Object.entries(headers).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
    ),
    body,
  });
  const got = await arrived;
  await (await sent).text();
  return {
    ...got,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('webRequest', () => {
  it('answers the method, headers and signal without building a web Request', async () => {
    const { req, text, close } = await nodeRequest(
      { 'content-type': 'application/json', 'MCP-Method': 'tools/call', 'x-many': ['a', 'b'] },
      '{"jsonrpc":"2.0"}',
    );
    try {
      const built = vi.spyOn(globalThis, 'Request');
      const abort = new AbortController();
      const request = webRequest(req, text, abort.signal);
      expect(request.method).toBe('POST');
      expect(request.headers.get('Content-Type')).toBe('application/json');
      expect(request.headers.get('mcp-method')).toBe('tools/call');
      expect(request.headers.get('x-many')).toBe('a, b');
      expect(request.headers.get('mcp-name')).toBeNull();
      expect(request.headers.has('MCP-METHOD')).toBe(true);
      expect(request.headers.has('mcp-session-id')).toBe(false);
      expect(request.signal).toBe(abort.signal);
      expect(request).toBeInstanceOf(Request);
      expect(request.headers).toBeInstanceOf(Headers);
      expect(built).not.toHaveBeenCalled();
    } finally {
      close();
    }
  });

  it('builds the whole request, once, for anything else', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const { req, text, close } = await nodeRequest({ 'content-type': 'application/json', 'x-many': ['a', 'b'] }, body);
    try {
      const built = vi.spyOn(globalThis, 'Request');
      const request = webRequest(req, text, new AbortController().signal);
      expect(new URL(request.url).pathname).toBe('/mcp');
      expect(new URL(request.url).search).toBe('?x=1');
      expect(await request.clone().text()).toBe(body);
      expect(await request.json()).toEqual(JSON.parse(body));
      expect(request.bodyUsed).toBe(true);
      expect(Object.fromEntries(request.headers.entries())).toMatchObject({
        'content-type': 'application/json',
        'x-many': 'a, b',
      });
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      close();
    }
  });
});
