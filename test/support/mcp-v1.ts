// MCP clients of the official SDK's 1.x line (`@modelcontextprotocol/sdk`), which most hosts run
// today. Unlike the 2.x client, it validates every structuredContent against the tool's outputSchema
// and replaces a result that does not match with an -32602 error.
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './cli.ts';

export type V1Client = Client;

function newClient(onElicit?: () => ElicitResult): Client {
  const client = new Client(
    { name: 'siteaudit-tests-sdk1', version: '1.0.0' },
    { capabilities: onElicit ? { elicitation: { form: {} } } : {} },
  );
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async () => onElicit());
  return client;
}

export async function connectStdioV1(
  env: Record<string, string>,
  onElicit?: () => ElicitResult,
  cwd: string = tmpdir(),
): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = newClient(onElicit);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    // Hosts start servers outside any repository; inside a git work tree mcp locates findings there.
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SITEAUDIT_LOCAL_PORT: '0', ...env },
    stderr: 'ignore',
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

export async function connectHttpV1(
  url: string,
  key: string,
  onElicit?: () => ElicitResult,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = newClient(onElicit);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A tool call as a plain CallToolResult (the 1.x type also admits the 2024 `toolResult` form). */
export async function callV1(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
