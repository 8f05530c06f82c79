// wait_for_run: long-poll a run (falling back to the spec's 10 s poll against a deployment without
// the long poll), stream its progress, and come back within a bounded time either with the finished
// run or with "still running, call again", so no host's request timeout is ever reached and a
// cancelled call stops waiting at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Run } from '../src/contract/index.ts';
import { RUN_WAIT_SECONDS_MAX, Uuid } from '../src/contract/index.ts';
import { isApiError } from '../src/mcp/errors.ts';
import { runMarkdown } from '../src/mcp/markdown.ts';
import { markQuotes } from '../src/mcp/page-content.ts';
import { runResourceLinks } from '../src/mcp/resources.ts';
import { MAX_WAIT_SECONDS } from '../src/mcp/settings.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { isTerminal, RunView, runView } from '../src/mcp/views.ts';

// A deployment without the long poll answers an unchanged run at once; an answer this much earlier
// than asked says so, and the call falls back to polling at the spec's interval.
const EARLY_ANSWER_MS = 1000;

const sameState = (a: Run, b: Run) =>
  a.status === b.status && a.progressPct === b.progressPct && a.currentStep === b.currentStep;

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
    const deadline = began + (args.maxWaitSeconds ?? settings.defaultWaitSeconds) * 1000;
    let lastProgress = -1;
    // The service's long poll (GET /runs/{runId}?waitSeconds) until the deployment shows it has none.
    let longPoll = true;
    let run: Run = await client.runs.get(args.runId);
    while (!isTerminal(run) && !signal.aborted) {
      // Progress must only grow (MCP spec), so a repeated percentage sends nothing new.
      if (run.progressPct > lastProgress) {
        lastProgress = run.progressPct;
        await progress(run.progressPct, 100, markQuotes(run.currentStep ?? run.status));
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      try {
        if (longPoll) {
          const waitSeconds = Math.min(RUN_WAIT_SECONDS_MAX, Math.max(1, Math.floor(remaining / 1000)));
          const asked = Date.now();
          const next = await client.runs.get(args.runId, { waitSeconds, signal });
          if (!isTerminal(next) && sameState(next, run) && Date.now() - asked < waitSeconds * 1000 - EARLY_ANSWER_MS)
            longPoll = false;
          run = next;
          if (longPoll) continue;
        }
        await sleep(Math.min(settings.pollIntervalMs, remaining), undefined, { signal });
        run = await client.runs.get(args.runId);
      } catch (error) {
        if (signal.aborted) break; // cancelled by the host
        // A deployment that refuses the parameter it does not know: poll instead.
        if (longPoll && isApiError(error) && error.status === 400) {
          longPoll = false;
          continue;
        }
        throw error;
      }
    }
    // No closing 100% notification: the result says the run is done, and the SDK clients (1.x and
    // 2.x) drop a notification that reaches them in the same read as the response (they dispatch
    // notifications a microtask late but settle responses at once), so hosts could not rely on it.
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
