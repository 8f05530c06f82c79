// The MCP battery: junk over streamable HTTP in both protocol eras. JSON-RPC framing, initialize,
// every tool with junk in each argument of its advertised input schema, every prompt, resource
// URIs, and the transport's headers. Every answer must be a client error the host can read:
// never -32603 or an HTTP 5xx, never a validation dump, a stack trace, an internal address or a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, startMcpHttpServer } from '../../src/mcp/http.ts';
import { type McpWorld, startMcpWorld } from '../mcp/support.ts';
import { connectHttp } from '../support/mcp.ts';
import { JUNK_VALUES, Tally } from './junk.ts';

const ALLOWED_HTTP = new Set([200, 202, 400, 404, 405, 406, 413, 415, 429]);
const PARALLEL = 8;
/** Every junk request is answered promptly; none may hang. */
const ANSWER_MS = 10_000;
const ERA_2026 = '2026-07-28';
const MISSING_UUID = '01234567-89ab-7def-8123-456789abcdef';

type Message = {
  id?: unknown;
  result?: { isError?: boolean; content?: unknown[] };
  error?: { code: number; message: string };
};

interface McpCase {
  what: string;
  body: string;
  headers?: Record<string, string>;
}

/** JSON-RPC messages in a JSON or SSE answer. */
function messagesOf(text: string): Message[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as Message | Message[];
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return [...trimmed.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] ?? '{}') as Message);
}

let world: McpWorld;
let mcp: McpHttpServer;
beforeAll(async () => {
  world = await startMcpWorld();
  // Unpaced: the battery's one key makes thousands of calls, and the pacer's 429s are tested elsewhere.
  mcp = await startMcpHttpServer({
    apiUrl: world.service.url,
    host: '127.0.0.1',
    port: 0,
    version: '9.9.9',
    settings: { pollIntervalMs: 100, defaultWaitSeconds: 1 },
    pacing: false,
    log: () => {},
  });
});
afterAll(async () => {
  await mcp?.close();
  await world?.close();
});

describe('MCP junk battery over HTTP', () => {
  it('answers junk in both eras with client errors a host can read', async () => {
    const { key } = await world.service.tenant('pro', 100);
    const auth = { authorization: `Bearer ${key}` };
    const base = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(mcp.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(ANSWER_MS),
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    };
    // Ids are unique within the session, as the spec asks of clients.
    let nextId = 1;
    const rpc = (method: string, params?: unknown, id: unknown = nextId++) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    const initialize = (
      params: unknown = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
    ) => rpc('initialize', params);

    // A 2025 session for the requests that need one.
    const opened = await post(base, initialize());
    await opened.text;
    const session = {
      ...base,
      'mcp-session-id': opened.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    await post(session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const listed = messagesOf((await post(session, rpc('tools/list'))).text)[0] as {
      result: { tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] };
    };
    const prompts = (
      messagesOf((await post(session, rpc('prompts/list'))).text)[0] as {
        result: { prompts: { name: string; arguments?: { name: string }[] }[] };
      }
    ).result.prompts;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': ERA_2026,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'battery', version: '1' },
    };
    const modern = (method: string, name?: string) => ({
      ...base,
      'mcp-protocol-version': ERA_2026,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    const plausible: Record<string, unknown> = {
      projectId: MISSING_UUID,
      runId: MISSING_UUID,
      domain: 'battery-mcp.example',
      confirm: 'not-the-domain.example',
      maxWaitSeconds: 1,
      product: 'ai_readiness',
    };

    /** A request in both eras: in the 2025 session, and stateless 2026 with its envelope and headers. */
    const both = (what: string, method: string, params: Record<string, unknown>, name?: string): McpCase[] => [
      { what: `2025 ${what}`, headers: session, body: rpc(method, params) },
      {
        what: `2026 ${what}`,
        headers: modern(method, name),
        body: rpc(method, { ...params, _meta: envelope }),
      },
    ];

    const cases: McpCase[] = [];
    // Framing.
    for (const body of ['', '{', 'null', '[]', '[1,2]', '"x"', '{}', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
      cases.push({ what: `framing ${body}`, headers: session, body });
    }
    for (const id of [null, {}, [], 1e308, 'x'.repeat(10_000), true])
      cases.push({
        what: `id ${JSON.stringify(id)?.slice(0, 20)}`,
        headers: session,
        body: rpc('ping', undefined, id),
      });
    for (const method of [
      42,
      '',
      'x'.repeat(10_000),
      'rpc.discover',
      'tools/CALL',
      '__proto__',
      'notifications/../initialize',
    ])
      cases.push({ what: `method ${String(method).slice(0, 20)}`, headers: session, body: rpc(method as string) });
    for (const params of [42, 'x', [], null])
      cases.push({ what: `params ${JSON.stringify(params)}`, headers: session, body: rpc('tools/list', params) });
    // initialize, outside any session.
    for (const version of [20251125, '', 'x', '1999-01-01', '9999-12-31', null, ['2025-11-25'], { v: 1 }])
      cases.push({
        what: `initialize protocolVersion ${JSON.stringify(version)}`,
        headers: base,
        body: initialize({ protocolVersion: version, capabilities: {}, clientInfo: { name: 'b', version: '1' } }),
      });
    for (const junk of JUNK_VALUES.slice(0, 12)) {
      cases.push({
        what: `initialize capabilities ${JSON.stringify(junk)?.slice(0, 20)}`,
        headers: base,
        body: initialize({
          protocolVersion: '2025-11-25',
          capabilities: junk,
          clientInfo: { name: 'b', version: '1' },
        }),
      });
      cases.push({
        what: `initialize clientInfo ${JSON.stringify(junk)?.slice(0, 20)}`,
        headers: base,
        body: initialize({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: junk }),
      });
    }
    // Every tool, junk in each argument of its advertised schema, the others plausible.
    for (const tool of listed.result.tools) {
      const names = [...Object.keys(tool.inputSchema.properties ?? {}), 'unexpected'];
      const plausibleArgs = Object.fromEntries(
        Object.keys(tool.inputSchema.properties ?? {}).map((name) => [name, plausible[name] ?? 'x']),
      );
      for (const name of names)
        for (const junk of JUNK_VALUES)
          cases.push(
            ...both(
              `${tool.name} ${name}=${JSON.stringify(junk)?.slice(0, 20)}`,
              'tools/call',
              { name: tool.name, arguments: { ...plausibleArgs, [name]: junk } },
              tool.name,
            ),
          );
      for (const args of [null, 42, 'x', []])
        cases.push(
          ...both(
            `${tool.name} arguments ${JSON.stringify(args)}`,
            'tools/call',
            { name: tool.name, arguments: args },
            tool.name,
          ),
        );
    }
    for (const name of ['', 'nope', 'x'.repeat(5000), `svc_${'k'.repeat(40)}`, '../whoami'])
      cases.push(
        ...both(`unknown tool ${name.slice(0, 12)}`, 'tools/call', { name, arguments: {} }, name.slice(0, 100) || 'x'),
      );
    // Every prompt.
    for (const prompt of prompts) {
      for (const argument of [...(prompt.arguments ?? []).map((a) => a.name), 'unexpected'])
        for (const junk of JUNK_VALUES)
          cases.push(
            ...both(
              `prompt ${prompt.name} ${argument}=${JSON.stringify(junk)?.slice(0, 20)}`,
              'prompts/get',
              { name: prompt.name, arguments: { [argument]: junk } },
              prompt.name,
            ),
          );
    }
    // Resources.
    for (const uri of [
      '',
      'x',
      'siteaudit://runs/',
      `siteaudit://runs/${MISSING_UUID}/report`,
      'siteaudit://runs/../../etc/passwd',
      'file:///etc/passwd',
      'http://169.254.169.254/',
      `siteaudit://runs/${'a'.repeat(5000)}/findings`,
      42,
      null,
    ])
      cases.push(
        ...both(
          `resource ${String(uri).slice(0, 30)}`,
          'resources/read',
          { uri },
          typeof uri === 'string' ? uri.slice(0, 100) || 'x' : 'x',
        ),
      );
    // Transport headers.
    for (const [name, value] of [
      ['mcp-session-id', 'not-a-session'],
      ['mcp-session-id', 'x'.repeat(2000)],
      ['mcp-protocol-version', '1999-01-01'],
      ['mcp-protocol-version', `svc_${'h'.repeat(40)}`],
      ['accept', 'text/html'],
      ['content-type', 'text/plain'],
      ['mcp-method', 'tools/list'],
    ] as const)
      cases.push({
        what: `header ${name}=${value.slice(0, 20)}`,
        headers: { ...session, [name]: value },
        body: rpc('ping'),
      });

    const tally = new Tally();
    const problems: string[] = [];
    const slow: string[] = [];
    for (let i = 0; i < cases.length; i += PARALLEL) {
      await Promise.all(
        cases.slice(i, i + PARALLEL).map(async (c) => {
          const began = Date.now();
          const answer = await post(c.headers ?? session, c.body).catch((error: Error) => ({
            status: 0,
            headers: new Headers(),
            text: `no answer: ${error.message}`,
          }));
          if (Date.now() - began > 2000) {
            slow.push(`${c.what} ${Date.now() - began} ms`);
          }
          tally.note(answer.status);
          const where = `[${c.what}] -> ${answer.status}`;
          if (!ALLOWED_HTTP.has(answer.status)) problems.push(`${where}: HTTP status ${answer.text.slice(0, 120)}`);
          if (/\n\s+at |node_modules|"invalid_type"|\\"expected\\"/.test(answer.text))
            problems.push(`${where}: a dump or stack: ${answer.text.slice(0, 160)}`);
          if (answer.text.includes(world.service.url)) problems.push(`${where}: the internal API address`);
          if (answer.text.includes(key.slice(12))) problems.push(`${where}: the key`);
          let messages: Message[] = [];
          try {
            messages = messagesOf(answer.text);
          } catch {
            problems.push(`${where}: not JSON-RPC: ${answer.text.slice(0, 80)}`);
          }
          for (const message of messages) {
            if (message.error?.code === -32603)
              problems.push(`${where}: -32603 ${message.error.message.slice(0, 120)}`);
            if (message.result?.isError && !(message.result.content?.length ?? 0))
              problems.push(`${where}: a tool error without text`);
          }
        }),
      );
    }
    console.log(`battery: MCP junk over HTTP, both eras: ${tally.summary()}; ${problems.length} outside the contract`);
    if (slow.length) console.log(`slow: ${slow.slice(0, 20).join('; ')}`);
    const kinds = [...new Set(problems.map((p) => p.slice(0, 240)))];
    expect(kinds.slice(0, 30)).toEqual([]);
    expect(tally.cases).toBeGreaterThan(1500);

    // Still serving: an SDK client of each era works after the battery.
    for (const era of ['2025-11-25', ERA_2026] as const) {
      const client = await connectHttp(mcp.url, key, { era });
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.isError).toBeFalsy();
      await client.close();
    }
  }, 240_000);
});
