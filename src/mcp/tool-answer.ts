// One tool call turned into what the host sees, the same for a plain call (server.ts) and a task
// (tasks/tool-tasks.ts): an answer as markdown plus structuredContent and resource links, an API
// error as a tool error that says what to do; anything else is logged (stderr) and thrown.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { isApiError, toolErrorFromApi } from './errors.ts';
import { type AnyTool, isToolAnswer, type ToolAnswer, type ToolContext } from './tool.ts';

export function toCallToolResult(answer: ToolAnswer<unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: answer.markdown },
      ...(answer.links ?? []).map((link) => ({ type: 'resource_link' as const, ...link })),
    ],
    structuredContent: answer.structured as Record<string, unknown>,
  };
}

export async function answerTool(
  tool: AnyTool,
  args: Record<string, unknown>,
  context: ToolContext,
  log?: (line: string) => void,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    const outcome = await tool.run(args, context);
    return isToolAnswer(outcome) ? toCallToolResult(outcome) : (outcome as CallToolResult | InputRequiredResult);
  } catch (error) {
    if (isApiError(error)) return toolErrorFromApi(error);
    log?.(`siteaudit mcp: ${tool.name} failed: ${(error as Error).stack ?? String(error)}`);
    throw error;
  }
}
