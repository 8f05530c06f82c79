// wait_for_run: watch a run (run-watch.ts: the service's long poll, or the spec's 10 s poll), stream
// its progress, and come back within a bounded time either with the finished run or with "still
// running, call again", so no host's request timeout is ever reached and a cancelled call stops
// waiting at once. Hosts with MCP tasks can run start_run as a task instead.
import { z } from 'zod';
import { Uuid } from '../src/contract/index.ts';
import { runMarkdown } from '../src/mcp/markdown.ts';
import { markQuotes } from '../src/mcp/page-content.ts';
import { runResourceLinks } from '../src/mcp/resources.ts';
import { finishedRunNext, watchRun } from '../src/mcp/run-watch.ts';
import { MAX_WAIT_SECONDS } from '../src/mcp/settings.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { RunView, runView } from '../src/mcp/views.ts';

export const waitForRun = defineTool({
  name: 'wait_for_run',
  title: 'Wait for an audit to finish',
  description: `Waits for a run to finish and returns it as soon as the audit ends, reporting progress meanwhile. It returns within maxWaitSeconds (default about 25) even if the audit is not done (stillRunning true): call it again with the same runId. When completed, call get_report next; a failed run says why. Reads only.`,
  inputSchema: z.object({
    runId: Uuid.describe('from start_run'),
    maxWaitSeconds: z
      .int()
      .min(1)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe('longest time to wait in this call before returning still running'),
  }),
  outputSchema: RunView.extend({
    waitedSeconds: z.number(),
    stillRunning: z.boolean().describe('true when the wait ended before the run finished: call again'),
  }),
  // idempotentHint and destructiveHint mean something only for tools that write (MCP, ToolAnnotations).
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, { client, settings, signal, progress }) {
    const began = Date.now();
    let lastProgress = -1;
    const run = await watchRun(args.runId, {
      client,
      settings,
      signal,
      deadline: began + (args.maxWaitSeconds ?? settings.defaultWaitSeconds) * 1000,
      // Progress must only grow (MCP spec), so a repeated percentage sends nothing new.
      onRun: async (seen) => {
        if (seen.progressPct <= lastProgress) return;
        lastProgress = seen.progressPct;
        await progress(seen.progressPct, 100, markQuotes(seen.currentStep ?? seen.status));
      },
    });
    // No closing 100% notification: the result says the run is done, and the SDK clients (1.x and
    // 2.x) drop a notification that reaches them in the same read as the response (they dispatch
    // notifications a microtask late but settle responses at once), so hosts could not rely on it.
    const view = runView(run);
    const waitedSeconds = Math.round((Date.now() - began) / 100) / 10;
    const stillRunning = !view.done;
    const next = stillRunning
      ? `Still ${view.status} after ${waitedSeconds} s. Call wait_for_run again with runId \`${run.runId}\`.`
      : finishedRunNext(view);
    return {
      structured: { ...view, waitedSeconds, stillRunning },
      markdown: `${runMarkdown(view)}\n${next}`,
      ...(view.status === 'completed' ? { links: runResourceLinks(run.runId) } : {}),
    };
  },
});
