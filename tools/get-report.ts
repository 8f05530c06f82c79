// get_report: the compact report context of a completed run, read before any findings.
import { z } from 'zod';
import { Uuid } from '../src/contract/index.ts';
import { agentViewsLines } from '../src/mcp/agent-views-text.ts';
import { REPORT_APP_URI } from '../src/mcp/app/report-resource.ts';
import { reportMarkdown } from '../src/mcp/markdown.ts';
import { runResourceLinks } from '../src/mcp/resources.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { ReportView, reportView } from '../src/mcp/views.ts';

export const getReport = defineTool({
  name: 'get_report',
  title: 'Read an audit report',
  description:
    "Reads the report of a completed run: score and label, an executive summary, severity counts, the top findings with their fixes, failing checks, and the product's own sections. Read it before page_findings; share its humanUrl with the person. scoreStatus unverified (no score): the site renders only in the browser. Reads only.",
  inputSchema: z.object({ runId: Uuid.describe('a completed run, from start_run or wait_for_run') }),
  outputSchema: ReportView,
  // idempotentHint and destructiveHint mean something only for tools that write (MCP, ToolAnnotations).
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: REPORT_APP_URI,
  async run(args, { client }) {
    const report = await client.runs.report(args.runId);
    const view = reportView(report);
    // What each agent gets (issue 29) is told in the text only: the structured view keeps its schema.
    const sections = report.product === 'ai_readiness' ? agentViewsLines(report.agentViews) : [];
    return { structured: view, markdown: reportMarkdown(view, sections), links: runResourceLinks(args.runId) };
  },
});
