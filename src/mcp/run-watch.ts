// Watching one run until it ends: the service's long poll (GET /runs/{runId}?waitSeconds), falling
// back to the spec's 10 s poll against a deployment without it. wait_for_run watches within a
// deadline and comes back "still running"; a start_run task watches to the end (tasks/tool-tasks.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { SiteAuditClient } from '../client/index.ts';
import type { Run } from '../contract/index.ts';
import { RUN_WAIT_SECONDS_MAX, runStatusText } from '../contract/index.ts';
import { isApiError } from './errors.ts';
import { markQuotes } from './page-content.ts';
import type { McpSettings } from './settings.ts';
import { isTerminal, type RunView } from './views.ts';

// A deployment without the long poll answers an unchanged run at once; an answer this much earlier
// than asked says so, and the watch falls back to polling at the spec's interval.
const EARLY_ANSWER_MS = 1000;

const sameState = (a: Run, b: Run) =>
  a.status === b.status && a.progressPct === b.progressPct && a.currentStep === b.currentStep;

export interface RunWatch {
  client: SiteAuditClient;
  settings: McpSettings;
  /** Stops the watch (the host cancelled, the task was cancelled): the run as last seen is returned. */
  signal: AbortSignal;
  /** When to stop watching a run that is still going (epoch ms); none: until it ends. */
  deadline?: number;
  /** The run as already known (start_run's answer), saving the first read. */
  initial?: Run;
  /** Each state seen before the run ends, including the first. */
  onRun?: (run: Run) => Promise<void> | void;
}

/** The run once it ended, or as last seen when the deadline passed or the signal stopped the watch. */
export async function watchRun(runId: string, watch: RunWatch): Promise<Run> {
  const { client, settings, signal } = watch;
  const deadline = watch.deadline ?? Number.POSITIVE_INFINITY;
  // The service's long poll until the deployment shows it has none.
  let longPoll = true;
  let run: Run = watch.initial ?? (await client.runs.get(runId));
  while (!isTerminal(run) && !signal.aborted) {
    await watch.onRun?.(run);
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    try {
      if (longPoll) {
        const waitSeconds = Math.min(RUN_WAIT_SECONDS_MAX, Math.max(1, Math.floor(remaining / 1000)));
        const asked = Date.now();
        const next = await client.runs.get(runId, { waitSeconds, signal });
        if (!isTerminal(next) && sameState(next, run) && Date.now() - asked < waitSeconds * 1000 - EARLY_ANSWER_MS)
          longPoll = false;
        run = next;
        if (longPoll) continue;
      }
      await sleep(Math.min(settings.pollIntervalMs, remaining), undefined, { signal });
      run = await client.runs.get(runId);
    } catch (error) {
      if (signal.aborted) break;
      // A deployment that refuses the parameter it does not know: poll instead.
      if (longPoll && isApiError(error) && error.status === 400) {
        longPoll = false;
        continue;
      }
      throw error;
    }
  }
  return run;
}

/** A run still going, in a line: "Running — 40%: Fetching pages" (a task's statusMessage). */
export function progressLine(run: Run): string {
  const step = run.currentStep ? `: ${markQuotes(run.currentStep)}` : '';
  return `${runStatusText(run.status)} — ${run.progressPct}%${step}`;
}

/** What to do once a run has ended, by how it ended. */
export function finishedRunNext(view: RunView): string {
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
