// The 2025-era session's wire form (issue 28): an answer with nothing sent before it is one JSON
// body; an exchange becomes an SSE stream only when the server sends something first (progress);
// batches, notifications, the GET stream and refused initializes keep the protocol's rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpWorld, startMcpWorld } from './support.ts';

let world: McpWorld;
beforeAll(async () => {
  world = await startMcpWorld();
});
afterAll(async () => {
  await world?.close();
});

const ACCEPT = 'application/json, text/event-stream';
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(world.http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body,
    signal: AbortSignal.timeout(15_000),
  });
}

/** A new session of a new key: the headers its requests carry. */
async function session(): Promise<{ key: string; headers: Record<string, string> }> {
  const { key } = await world.service.tenant('pro', 1);
  const opened = await post({ authorization: `Bearer ${key}` }, initialize);
  expect(opened.status).toBe(200);
  await opened.text();
  const headers = {
    authorization: `Bearer ${key}`,
    'mcp-session-id': opened.headers.get('mcp-session-id') as string,
    'mcp-protocol-version': '2025-11-25',
  };
  const initialized = await post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  expect(initialized.status).toBe(202);
  return { key, headers };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

/** The JSON-RPC messages of an SSE body, in order. */
function events(text: string): { id?: number; method?: string; result?: unknown }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));
}

describe('a 2025-11-25 session over mcp --http', () => {
  it('answers initialize and a call that sends nothing first as one JSON body with its length', async () => {
    const { key } = await world.service.tenant('pro', 1);
    const opened = await post({ authorization: `Bearer ${key}` }, initialize);
    expect(opened.headers.get('content-type')).toBe('application/json');
    expect((await opened.json()) as object).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    const { headers } = await session();
    const answer = await post(headers, JSON.stringify(call(2, 'whoami')));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('mcp-session-id')).toBe(headers['mcp-session-id']);
    const body = await answer.text();
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', id: 2, result: { structuredContent: { plan: 'pro' } } });
  });

  it('streams as SSE once the server sends progress before the answer, the answer last', async () => {
    const { key, headers } = await session();
    const projectId = await world.service.createProject(key, world.slowSite.host);
    const run = await world.service.request<{ runId: string }>('/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId },
    });
    const answer = await post(
      headers,
      JSON.stringify(call(3, 'wait_for_run', { runId: run.body.runId, maxWaitSeconds: 1 }, { progressToken: 'p' })),
    );
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const messages = events(await answer.text());
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.slice(0, -1).every((m) => m.method === 'notifications/progress')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ id: 3, result: { structuredContent: { runId: run.body.runId } } });
  });

  it('answers a batch with an array in request order, and a body of notifications alone with 202', async () => {
    const { headers } = await session();
    const batch = await post(
      headers,
      JSON.stringify([call(4, 'whoami'), { jsonrpc: '2.0', id: 5, method: 'ping' }, call(6, 'list_projects')]),
    );
    expect(batch.headers.get('content-type')).toBe('application/json');
    const answers = (await batch.json()) as { id: number }[];
    expect(answers.map((a) => a.id)).toEqual([4, 5, 6]);
    const note = await post(
      headers,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }),
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
  });

  it('holds one GET stream per session: a second is refused with 409', async () => {
    const { headers } = await session();
    const stream = new AbortController();
    const first = await fetch(world.http.url, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: stream.signal,
    });
    try {
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('text/event-stream');
      const second = await fetch(world.http.url, { headers: { ...headers, accept: 'text/event-stream' } });
      expect(second.status).toBe(409);
      const notAccepted = await fetch(world.http.url, { headers: { ...headers, accept: 'application/json' } });
      expect(notAccepted.status).toBe(406);
    } finally {
      stream.abort();
    }
  });

  it('opens no session on an initialize it refuses, and refuses what breaks the transport’s rules', async () => {
    const { key } = await world.service.tenant('pro', 1);
    const refused = await fetch(world.http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
      body: initialize,
    });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    const { headers } = await session();
    const cases: [Record<string, string>, string, number, number][] = [
      [{ 'content-type': 'text/plain' }, JSON.stringify(call(7, 'whoami')), 415, -32000],
      [{}, '{"jsonrpc":', 400, -32700],
      [{}, JSON.stringify({ jsonrpc: '2.0', id: 8 }), 400, -32600],
      [{}, initialize, 400, -32600],
      [{ 'mcp-protocol-version': '1999-01-01' }, JSON.stringify(call(9, 'whoami')), 400, -32000],
      [{}, JSON.stringify(Array.from({ length: 101 }, (_, i) => call(100 + i, 'whoami'))), 400, -32600],
    ];
    for (const [extra, body, status, code] of cases) {
      const answer = await post({ ...headers, ...extra }, body);
      expect(answer.status, body.slice(0, 40)).toBe(status);
      expect(((await answer.json()) as { error: { code: number } }).error.code, body.slice(0, 40)).toBe(code);
    }
    // A DELETE refused for its protocol version ends nothing.
    const refusedEnd = await fetch(world.http.url, {
      method: 'DELETE',
      headers: { ...headers, 'mcp-protocol-version': '1999-01-01' },
    });
    expect(refusedEnd.status).toBe(400);
    // None of it broke the session; a body with a byte order mark reads as its JSON, as web Request.text() reads it.
    expect((await post(headers, JSON.stringify(call(10, 'whoami')))).status).toBe(200);
    expect((await post(headers, `\uFEFF${JSON.stringify(call(11, 'whoami'))}`)).status).toBe(200);
    expect((await fetch(world.http.url, { method: 'DELETE', headers })).status).toBe(200);
    expect((await post(headers, JSON.stringify(call(12, 'whoami')))).status).toBe(404);
  });
});
