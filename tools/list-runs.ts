// list_runs: a project's runs, newest first, so an agent that kept no runId can get back to a report
// or pick a baseline for compare_runs (issue 26).
import { z } from 'zod';
import { PAGE_LIMIT_MAX, Product, RunStatus, Uuid } from '../src/contract/index.ts';
import { scoreText } from '../src/mcp/markdown.ts';
import { pageUrls, siteUrl } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

const RunLine = z.object({
  runId: z.string(),
  url: z.string(),
  product: Product,
  status: RunStatus,
  score: z.int().optional(),
  scoreStatus: z.literal('unverified').optional(),
  createdAt: z.string(),
  completedAt: z.string().optional(),
  humanUrl: z.string(),
});

export const listRuns = defineTool({
  name: 'list_runs',
  title: 'List runs',
  description:
    'Lists runs newest first (site, product, status, score, completedAt, humanUrl): find a report again when the runId is lost, or a baseline for compare_runs. Filter by project, product, status. Reads only.',
  inputSchema: z.object({
    projectId: Uuid.optional().describe('only this project'),
    product: Product.optional(),
    status: RunStatus.optional(),
    limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional().describe('default 20'),
    cursor: z.string().min(1).optional().describe('nextCursor of the previous page'),
  }),
  outputSchema: z.object({ runs: z.array(RunLine), nextCursor: z.string().optional(), hasMore: z.boolean() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, { client }) {
    const page = await client.runs.list({
      ...(args.projectId ? { projectId: args.projectId } : {}),
      ...(args.product ? { product: args.product } : {}),
      ...(args.status ? { status: args.status } : {}),
      ...(args.limit ? { limit: args.limit } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    const runs = page.runs.map((run) => ({
      runId: run.runId,
      url: siteUrl(run.url),
      product: run.product,
      status: run.status,
      ...(run.score !== null ? { score: run.score } : {}),
      ...(run.scoreStatus === 'unverified' ? { scoreStatus: 'unverified' as const } : {}),
      createdAt: run.createdAt,
      ...(run.status === 'completed' && run.finishedAt ? { completedAt: run.finishedAt } : {}),
      humanUrl: run.humanUrl,
    }));
    const nextCursor = page.pagination.nextCursor;
    const lines = runs.map(
      (run) =>
        `- \`${run.runId}\` ${pageUrls([run.url])} ${run.product} **${run.status}**${run.status === 'completed' ? `, ${scoreText(run.score, run.scoreStatus)}, completed ${run.completedAt}` : `, started ${run.createdAt}`}: ${run.humanUrl}`,
    );
    const markdown =
      runs.length === 0
        ? 'No runs match. Start one with start_run.'
        : [
            `**${runs.length} run(s)**, newest first:`,
            ...lines,
            nextCursor ? `More: call list_runs with cursor \`${nextCursor}\`.` : '',
          ]
            .filter(Boolean)
            .join('\n');
    return { structured: { runs, ...(nextCursor ? { nextCursor } : {}), hasMore: nextCursor !== null }, markdown };
  },
});
