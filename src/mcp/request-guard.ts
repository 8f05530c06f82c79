// Malformed params answered as -32602 with a short message. The SDK validates spec requests before
// our handlers run, but for every method other than tools/call it throws a plain Error carrying
// the raw validation dump, which goes out as -32603 (internal error): a client's mistake reported as
// our fault, in a form no host shows well. Found by the attack battery (prompts/get with a number
// for an argument, initialize with a numeric protocolVersion).
import { type McpServer, ProtocolError, ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';

type Handler = (request: { method: string; params?: unknown }, context: unknown) => Promise<unknown>;

/** The spec's schema for each request method a server answers. */
const REQUEST_SCHEMAS: Record<string, keyof typeof specTypeSchemas> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
};

const MAX_ISSUES = 3;

/** "params.arguments.url: expected string, received number", at most three issues. */
export function describeIssues(issues: readonly { message: string; path?: readonly unknown[] }[]): string {
  const described = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = (issue.path ?? [])
      .map((part) => (typeof part === 'object' && part !== null && 'key' in part ? part.key : part))
      .map(String)
      .join('.');
    const message = issue.message.replace(/^Invalid input: /, '').slice(0, 160);
    return path ? `${path}: ${message}` : message;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return `${described.join('; ')}${more}`;
}

async function invalidParams(method: string, request: unknown): Promise<ProtocolError | undefined> {
  const schema = REQUEST_SCHEMAS[method];
  if (!schema) return undefined;
  const outcome = await specTypeSchemas[schema]['~standard'].validate(request);
  if (!outcome.issues) return undefined;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params for ${method}: ${describeIssues(outcome.issues)}`,
  );
}

/**
 * What the SDK throws for params its schema refuses: a plain Error holding the dump, or (tools/call)
 * an InvalidParams ProtocolError whose message embeds it.
 */
function isValidationFailure(error: unknown): boolean {
  if (error instanceof ProtocolError)
    return error.code === ProtocolErrorCode.InvalidParams && error.message.includes('"code"');
  return error instanceof Error;
}

/**
 * Wraps every request handler registered on the server so a request the spec's schema refuses is
 * answered -32602 with a short message. Only failures are re-examined: a request the SDK accepts
 * takes the same path as before.
 */
export function guardRequestParams(server: McpServer): void {
  // The handler table is private in SDK 2.4; test/mcp/edges.test.ts ("malformed params") fails if it moves.
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map))
    throw new Error('the MCP SDK no longer keeps _requestHandlers: update request-guard.ts');
  for (const [method, handler] of handlers) {
    if (!REQUEST_SCHEMAS[method]) continue;
    handlers.set(method, async (request, context) => {
      try {
        return await handler(request, context);
      } catch (error) {
        if (!isValidationFailure(error)) throw error;
        throw (await invalidParams(method, request)) ?? error;
      }
    });
  }
}
