// page_findings: a run's findings a page at a time, worst first, with fixes a coding agent can apply.
import { z } from 'zod';
import { PAGE_LIMIT_MAX, Severity, Uuid } from '../src/contract/index.ts';
import { toolRefusal } from '../src/mcp/errors.ts';
import { findingsPageMarkdown } from '../src/mcp/markdown.ts';
import { PAGE_CONTENT_NOTICE } from '../src/mcp/page-content.ts';
import { locateElements, locationsOf, sourceDirectory } from '../src/mcp/source/element-locations.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { FindingView, findingView } from '../src/mcp/views.ts';

export const pageFindings = defineTool({
  name: 'page_findings',
  title: 'Page through findings',
  description:
    "Lists the findings of a completed run, most severe first: what is wrong, where (affected URLs, evidence elements, with file:line in the site's source when it is known), how to fix it (remediation, agentActions) and a humanUrl for each. Read get_report first. Pass nextCursor as cursor while hasMore. Reads only.",
  inputSchema: z.object({
    runId: Uuid.describe('a completed run'),
    severity: Severity.optional().describe('only findings of this severity'),
    limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional().describe('default 20'),
    cursor: z.string().min(1).optional().describe('nextCursor from the previous page'),
    sourceDir: z.string().min(1).optional().describe("the site's repository on this machine"),
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
  async run(args, { client, settings, signal }) {
    let sourceDir = settings.sourceDir;
    if (args.sourceDir !== undefined) {
      const dir = settings.sourceDirArgument ? await sourceDirectory(args.sourceDir) : undefined;
      if (!dir)
        return toolRefusal(
          'validation_failed',
          settings.sourceDirArgument
            ? `sourceDir ${args.sourceDir} is not a directory on this machine`
            : 'sourceDir is only taken over stdio: over HTTP the files would be the server’s',
          settings.sourceDirArgument
            ? "Pass the absolute path of the site's repository, or leave sourceDir out."
            : 'Leave sourceDir out.',
          400,
        );
      // Remembered for recheck: one person's server on stdio.
      settings.sourceDir = sourceDir = dir;
    }
    const page = await client.runs.findings(args.runId, {
      ...(args.severity ? { severity: args.severity } : {}),
      ...(args.limit ? { limit: args.limit } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    const found = sourceDir
      ? await locateElements(
          sourceDir,
          page.findings.flatMap((f) => f.evidence.flatMap((item) => item.elements ?? [])),
          signal,
        )
      : undefined;
    const locate = found ? (element: { selector: string; snippet: string }) => locationsOf(found, element) : undefined;
    const findings = page.findings.map((finding) => findingView(finding, locate));
    const nextCursor = page.pagination.nextCursor;
    return {
      structured: {
        runId: args.runId,
        findings,
        ...(nextCursor ? { nextCursor } : {}),
        hasMore: nextCursor !== null,
        contentNotice: PAGE_CONTENT_NOTICE,
      },
      markdown: findingsPageMarkdown(args.runId, page.findings, nextCursor, args.severity, locate),
    };
  },
});
