// The shape of one MCP tool module under tools/: its contract with hosts (name, schemas, annotations)
// and a handler that sees only the typed API client, never the service.
import type { CallToolResult, InputRequiredResult, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { SiteAuditClient } from '../client/index.ts';
import type { McpSettings } from './settings.ts';

export interface ToolContext {
  client: SiteAuditClient;
  settings: McpSettings;
  /** Aborted when the host cancels the call or, over HTTP, drops the connection. */
  signal: AbortSignal;
  /** The SDK's request context: progress token, input responses. */
  request: ServerContext;
  /** Whether the client can show the person a form (elicitation), on either protocol era. */
  canElicit: boolean;
  /** Sends a progress notification when the host asked for them; a no-op otherwise. */
  progress: (progress: number, total: number, message?: string) => Promise<void>;
}

/** What a handler returns: a compact structured result plus concise markdown for hosts that read text. */
export interface ToolAnswer<Output> {
  structured: Output;
  markdown: string;
  /** Resources the result points at (report, findings), sent as resource links. */
  links?: { uri: string; name: string; description: string; mimeType: string }[];
}

export interface ToolDefinition<Input extends z.ZodObject, Output extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema: Output;
  annotations: ToolAnnotations;
  /** The `ui://` resource a host with MCP Apps renders the result in (`_meta.ui.resourceUri`). */
  ui?: string;
  /** Whether a host may run a call as a task it polls (MCP tasks; src/mcp/tasks/tool-tasks.ts). */
  taskSupport?: 'optional';
  run: (
    args: z.infer<Input>,
    context: ToolContext,
  ) => Promise<ToolAnswer<z.infer<Output>> | CallToolResult | InputRequiredResult>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type.
export type AnyTool = ToolDefinition<any, any>;

/** Identity helper that keeps each tool module's input and output types tied to its schemas. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return tool;
}

export function isToolAnswer(value: unknown): value is ToolAnswer<unknown> {
  return typeof value === 'object' && value !== null && 'structured' in value && 'markdown' in value;
}
