// page_findings: a run's findings a page at a time, worst first, with fixes a coding agent can apply.
import { z } from 'zod';
import { PAGE_LIMIT_MAX, Severity, Uuid } from '../src/contract/index.ts';
import { findingsPageMarkdown } from '../src/mcp/markdown.ts';
import { PAGE_CONTENT_NOTICE } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { FindingView, findingView } from '../src/mcp/views.ts';

export const pageFindings = defineTool({
  name: 'page_findings',
  title: 'Page through findings',
  description:
    'Lists the findings of a completed run, most severe first: what is wrong, where (affected URLs, evidence), how to fix it (remediation, agentActions for a coding agent) and a humanUrl for each. Read get_report first. Filter with severity; pass nextCursor back as cursor while hasMore is true. Reads only.',
  inputSchema: z.object({
    runId: Uuid.describe('a completed run'),
    severity: Severity.optional().describe('only findings of this severity'),
    limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional().describe('page size, 1 to 100 (default 20)'),
    cursor: z.string().min(1).optional().describe('nextCursor from the previous page'),
  }),
  outputSchema: z.object({
    runId: z.string(),
    findings: z.array(FindingView),
    nextCursor: z.string().optional(),
    hasMore: z.boolean(),
    contentNotice: z.string(),
  }),
  // idempotentHint and destructiveHint mean something only for tools that write (MCP, ToolAnnotations).
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, { client }) {
    const page = await client.runs.findings(args.runId, {
      ...(args.severity ? { severity: args.severity } : {}),
      ...(args.limit ? { limit: args.limit } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    const findings = page.findings.map(findingView);
    const nextCursor = page.pagination.nextCursor;
    return {
      structured: {
        runId: args.runId,
        findings,
        ...(nextCursor ? { nextCursor } : {}),
        hasMore: nextCursor !== null,
        contentNotice: PAGE_CONTENT_NOTICE,
      },
      markdown: findingsPageMarkdown(args.runId, findings, nextCursor, args.severity),
    };
  },
});
