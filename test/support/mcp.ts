// MCP clients of the SDK's own, connected to our server over stdio (the real `siteaudit mcp`
// process) or streamable HTTP, speaking either protocol era.
import { tmpdir } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type McpHttpOptions, type McpHttpServer, startMcpHttpServer } from '../../src/mcp/http.ts';
import { BIN } from './cli.ts';

export type Era = '2025-11-25' | '2026-07-28';

export interface ClientOptions {
  era: Era;
  /**
   * Where a stdio server starts (default: the temporary directory, as hosts start servers outside any
   * repository; inside a git work tree `siteaudit mcp` looks for findings in its files).
   */
  cwd?: string;
  /** Answers to elicitation requests; without it the client declares no elicitation capability. */
  onElicit?: (message: string) => {
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, string | number | boolean | string[]>;
  };
}

function newClient(options: ClientOptions): Client {
  const client = new Client(
    { name: 'siteaudit-tests', version: '1.0.0' },
    {
      capabilities: options.onElicit ? { elicitation: { form: {} } } : {},
      ...(options.era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (options.onElicit) {
    const answer = options.onElicit;
    client.setRequestHandler('elicitation/create', async (request) => answer(String(request.params.message)));
  }
  return client;
}

export interface StdioConnection {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

export async function connectStdio(env: Record<string, string>, options: ClientOptions): Promise<StdioConnection> {
  const client = newClient(options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SITEAUDIT_LOCAL_PORT: '0', ...env },
    cwd: options.cwd ?? tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export async function connectHttp(url: string, key: string | undefined, options: ClientOptions): Promise<Client> {
  const client = newClient(options);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** The first text block of a tool result. */
export function textOf(result: { content?: unknown }): string {
  const blocks = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return blocks.find((block) => block.type === 'text')?.text ?? '';
}

export interface ToolErrorFields {
  code: string;
  status?: number;
  retryAfterSeconds?: number;
  details?: Record<string, unknown>;
}

/**
 * The fields of a tool error, read from its text as every host sees it: error results carry no
 * structuredContent (clients on SDK 1.x validate it against the output schema).
 */
export function errorOf(result: {
  isError?: unknown;
  content?: unknown;
  structuredContent?: unknown;
}): ToolErrorFields {
  if (result.isError !== true) throw new Error(`not a tool error: ${textOf(result)}`);
  if (result.structuredContent !== undefined) throw new Error('a tool error carries structuredContent');
  const line = textOf(result)
    .split('\n')
    .find((text) => text.startsWith('error: '));
  if (!line) throw new Error(`no error line in: ${textOf(result)}`);
  return JSON.parse(line.slice('error: '.length)) as ToolErrorFields;
}

/** `mcp --http` on a loopback port in front of `apiUrl`, quiet, polling fast; `options` changes any of it. */
export function startLoopbackMcp(apiUrl: string, options: Partial<McpHttpOptions> = {}): Promise<McpHttpServer> {
  return startMcpHttpServer({
    apiUrl,
    host: '127.0.0.1',
    port: 0,
    version: '9.9.9',
    settings: { pollIntervalMs: 50, defaultWaitSeconds: 5 },
    log: () => {},
    ...options,
  });
}
