// start_run: start one audit of a project. Always sent with an Idempotency-Key, so a retried call
// returns the run the first call started instead of spending credits on a second audit.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Product, Uuid } from '../src/contract/index.ts';
import { runMarkdown } from '../src/mcp/markdown.ts';
import { runResourceLinks } from '../src/mcp/resources.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { RunView, runView } from '../src/mcp/views.ts';

const SCAN_MODE: Record<Product, string> = {
  ai_readiness: 'paid_ai_readiness',
  marketing_signal: 'paid_marketing_signal',
  website_security: 'paid_website_security',
};

// Calls repeating the same request within this window are one audit (the default key).
const SAME_REQUEST_WINDOW_MS = 10 * 60_000;

const StartedRun = RunView.pick({
  runId: true,
  projectId: true,
  product: true,
  status: true,
  done: true,
  url: true,
  createdAt: true,
  humanUrl: true,
});

export const startRun = defineTool({
  name: 'start_run',
  title: 'Start an audit',
  description:
    'Starts an audit of a project and returns at once with the run (pending); it takes seconds to minutes. product: ai_readiness (the default: how AI agents read the site), website_security (headers, TLS, DNS, email) or marketing_signal (the funnel). Costs credits (see whoami). Safe to retry: the same call within 10 minutes returns the same run; a new idempotencyKey forces a fresh audit. Next: wait_for_run.',
  inputSchema: z.object({
    projectId: Uuid.describe('from create_project or list_projects'),
    product: Product.default('ai_readiness').describe('which audit to run'),
    idempotencyKey: z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/, '1 to 200 visible ASCII characters')
      .optional()
      .describe('reuse to retry safely; a new value starts a new audit'),
  }),
  // The run as it starts: its progress, score and counts come from wait_for_run.
  outputSchema: StartedRun.extend({
    idempotencyKey: z.string(),
    replayed: z.boolean().describe('true when an earlier identical call had already started this run'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // As a task, the call lasts until the audit ends (src/mcp/tasks/task-work.ts).
  taskSupport: 'optional',
  async run(args, { client }) {
    const startedAt = Date.now();
    const idempotencyKey = args.idempotencyKey ?? defaultKey(args.projectId, args.product, startedAt);
    const run = await client.runs.start(
      { projectId: args.projectId, scanMode: SCAN_MODE[args.product] },
      idempotencyKey,
    );
    // A replay answers with the run the first call created, made before this call began.
    const replayed = Date.parse(run.createdAt) < startedAt - 2_000;
    const view = runView(run);
    const next = view.done
      ? `It is already ${view.status}: read it with get_report, or pass a new idempotencyKey to audit again.`
      : `Next: wait_for_run with runId \`${run.runId}\`.`;
    return {
      structured: { ...StartedRun.parse(view), idempotencyKey, replayed },
      markdown: `${replayed ? 'An identical request already started this audit.' : 'Started the audit.'}\n${runMarkdown(view)}\n${next}`,
      links: runResourceLinks(run.runId),
    };
  },
});

function defaultKey(projectId: string, product: Product, now: number): string {
  const window = Math.floor(now / SAME_REQUEST_WINDOW_MS);
  return `mcp-${createHash('sha256').update(`${projectId}:${product}:${window}`).digest('hex').slice(0, 32)}`;
}
