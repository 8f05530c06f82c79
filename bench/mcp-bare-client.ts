// A bare MCP client for the benchmark: prebuilt JSON-RPC over undici, reading the answer as JSON or
// as an SSE stream. It does what any streamable HTTP client must and nothing more (no validation of
// messages or results), so a row measured with it shows what the MCP server costs apart from the
// SDK client's own work, which runs on the same two cores.
import { request } from 'undici';

export type BareEra = '2025-11-25' | '2026-07-28';

export interface BareClient {
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

const ACCEPT = 'application/json, text/event-stream';

/** The answer to request `id` in a body that is one JSON message or an SSE stream of them. */
function answerOf(body: string, contentType: string, id: number): { result?: unknown; error?: { message: string } } {
  if (contentType.startsWith('application/json')) return JSON.parse(body);
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const message = JSON.parse(line.slice(6));
    if (message.id === id) return message;
  }
  throw new Error(`no answer to request ${id} in the stream`);
}

export async function bareClient(url: string, key: string, era: BareEra): Promise<BareClient> {
  let nextId = 1;
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    accept: ACCEPT,
    'content-type': 'application/json',
  };
  const post = async (message: Record<string, unknown>, extra: Record<string, string> = {}) => {
    const response = await request(url, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify(message),
    });
    const text = await response.body.text();
    if (response.statusCode >= 400) throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
    return { text, contentType: String(response.headers['content-type'] ?? ''), headers: response.headers };
  };
  if (era === '2025-11-25') {
    const opened = await post({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'siteaudit-bench-bare', version: '1' } },
    });
    headers['mcp-session-id'] = String(opened.headers['mcp-session-id']);
    headers['mcp-protocol-version'] = era;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  } else {
    headers['mcp-protocol-version'] = era;
  }
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': era,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'siteaudit-bench-bare', version: '1' },
  };
  return {
    async call(name, args = {}) {
      const id = nextId++;
      const params = { name, arguments: args, ...(era === '2026-07-28' ? { _meta: envelope } : {}) };
      const extra: Record<string, string> =
        era === '2026-07-28' ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {};
      const { text, contentType } = await post({ jsonrpc: '2.0', id, method: 'tools/call', params }, extra);
      const answer = answerOf(text, contentType, id);
      if (answer.error) throw new Error(`${name}: ${answer.error.message}`);
      const result = answer.result as { isError?: boolean };
      if (result.isError) throw new Error(`${name}: tool error`);
      return result;
    },
    async close() {
      if (era !== '2025-11-25') return;
      const response = await request(url, { method: 'DELETE', headers });
      await response.body.text();
    },
  };
}
