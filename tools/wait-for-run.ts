// wait_for_run: poll a run at the spec's interval, stream its progress, and come back within a
// bounded time either with the finished run or with "still running, call again", so no host's
// request timeout is ever reached and a cancelled call stops polling at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Run } from '../src/contract/index.ts';
import { Uuid } from '../src/contract/index.ts';
import { runMarkdown } from '../src/mcp/markdown.ts';
import { runResourceLinks } from '../src/mcp/resources.ts';
import { MAX_WAIT_SECONDS } from '../src/mcp/settings.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { isTerminal, RunView, runView } from '../src/mcp/views.ts';

export const waitForRun = defineTool({
  name: 'wait_for_run',
  title: 'Wait for an audit to finish',
  description: `Waits for a run to finish, checking it about every 10 seconds and reporting progress, then returns the run. It returns within maxWaitSeconds (default about 25, at most ${MAX_WAIT_SECONDS}) even if the audit is not done: then done is false and you should simply call wait_for_run again with the same runId. When status is completed, call get_report next; failed and failed_auto_credit runs say why (credits of failed_auto_credit runs were returned). Reads only.`,
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
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, { client, settings, signal, progress }) {
    const began = Date.now();
    const deadline = began + (args.maxWaitSeconds ?? settings.defaultWaitSeconds) * 1000;
    let lastProgress = -1;
    let run: Run = await client.runs.get(args.runId);
    while (!isTerminal(run) && !signal.aborted) {
      // Progress must only grow (MCP spec), so a repeated percentage sends nothing new.
      if (run.progressPct > lastProgress) {
        lastProgress = run.progressPct;
        await progress(run.progressPct, 100, run.currentStep ?? run.status);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      try {
        await sleep(Math.min(settings.pollIntervalMs, remaining), undefined, { signal });
      } catch {
        break; // cancelled by the host
      }
      run = await client.runs.get(args.runId);
    }
    if (isTerminal(run) && run.progressPct > lastProgress) await progress(100, 100, run.status);
    const view = runView(run);
    const waitedSeconds = Math.round((Date.now() - began) / 100) / 10;
    const stillRunning = !view.done;
    const next = stillRunning
      ? `Still ${view.status} after ${waitedSeconds} s. Call wait_for_run again with runId \`${run.runId}\`.`
      : nextStep(view);
    return {
      structured: { ...view, waitedSeconds, stillRunning },
      markdown: `${runMarkdown(view)}\n${next}`,
      ...(view.status === 'completed' ? { links: runResourceLinks(run.runId) } : {}),
    };
  },
});

function nextStep(view: RunView): string {
  switch (view.status) {
    case 'completed':
      return `Next: get_report with runId \`${view.runId}\`, then page_findings.`;
    case 'failed_auto_credit':
      return 'The audit failed after retries and its credits were returned. Check that the site is reachable, then start a new run.';
    case 'refunded':
      return 'The run was refunded by an operator; start a new run if the person still wants an audit.';
    default:
      return 'The audit failed. Check that the site is reachable, then start a new run.';
  }
}
