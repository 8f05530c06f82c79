// What a task does in the background once its tools/call has been answered with the task: the
// tool's own run, through the same answer as a plain call (tool-answer.ts), and for start_run the
// watch of the run to its end. The work has its own signal (the task's), never the request's, and
// says on a cancel what became of it: the spec has no cancelled run (site-audit-api-v1 2.4, 4.11),
// so a cancelled start_run stops watching and the run goes on; a cancelled recheck is stopped.
import {
  type CallToolResult,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { startRun } from '../../../tools/start-run.ts';
import { isApiError } from '../errors.ts';
import { runMarkdown } from '../markdown.ts';
import { runResourceLinks } from '../resources.ts';
import { finishedRunNext, progressLine, watchRun } from '../run-watch.ts';
import type { AnyTool, ToolContext } from '../tool.ts';
import { answerTool, toCallToolResult } from '../tool-answer.ts';
import { runView } from '../views.ts';
import type { TaskRecord, TaskStore } from './task-store.ts';

export interface TaskWork {
  store: TaskStore;
  record: TaskRecord;
  tool: AnyTool;
  /** Arguments already parsed by the tool's input schema. */
  args: Record<string, unknown>;
  /** The tool's context, with the task's signal. */
  context: ToolContext;
  log?: (line: string) => void;
}

/** The first statusMessage, set before the requester sees the task. */
export function firstMessage(tool: AnyTool): string {
  return tool.name === startRun.name ? 'Starting the audit' : `${tool.title}: working`;
}

/** Runs the task's work to the end and records how it ended; a stopped task records nothing more. */
export function startTaskWork(work: TaskWork): void {
  const { store, record } = work;
  const signal = record.abort.signal;
  // Failures after a cancel are the cancel's doing, not worth a line on stderr.
  const log = (line: string) => {
    if (!signal.aborted) work.log?.(line);
  };
  const run = work.tool.name === startRun.name ? startAndWatch({ ...work, log }) : plainCall({ ...work, log });
  void run.then(
    (result) => {
      if (!signal.aborted) store.complete(record, result);
    },
    (error: unknown) => {
      if (!signal.aborted)
        store.fail(record, {
          code: ProtocolErrorCode.InternalError,
          message: (error as Error).message ?? String(error),
        });
    },
  );
}

/** recheck (and any other task tool): one call; a cancel aborts it, its requests included. */
async function plainCall({ record, tool, args, context, log }: TaskWork): Promise<CallToolResult> {
  record.stop = async () => {
    record.abort.abort();
    return `Cancelled at your request: ${tool.name} was stopped before it answered.${tool.annotations.readOnlyHint ? ' It changes nothing stored.' : ''}`;
  };
  return checked(tool, await answerTool(tool, args, context, log));
}

/**
 * start_run: start the audit (with its Idempotency-Key), then watch the run to its end, keeping the
 * task's statusMessage on its progress. The result is start_run's, with the final status.
 */
async function startAndWatch({ store, record, tool, args, context, log }: TaskWork): Promise<CallToolResult> {
  const start = answerTool(tool, args, context, log).then((result) => checked(tool, result));
  record.stop = async () => {
    record.abort.abort();
    // A start still on its way is let finish (retrying it would give the same run): its runId is
    // what the requester needs to find the audit again.
    const started = await start.catch(() => undefined);
    const runId = started && !started.isError ? startedRun(started).runId : undefined;
    return runId
      ? `Stopped watching at your request. The audit run \`${runId}\` continues on the service (runs cannot be cancelled) and its credits are spent; use wait_for_run or get_report with this runId later.`
      : 'Cancelled at your request before the audit started: no run was started and no credits were spent.';
  };
  const started = await start;
  if (started.isError) return started;
  const first = startedRun(started);
  if (first.done || context.signal.aborted) return started;
  let run: Awaited<ReturnType<typeof watchRun>>;
  try {
    run = await watchRun(first.runId, {
      client: context.client,
      settings: context.settings,
      signal: context.signal,
      onRun: (seen) => store.progress(record, progressLine(seen)),
    });
  } catch (error) {
    const reason = isApiError(error) ? error.serviceMessage : (error as Error).message;
    throw new Error(
      `Lost track of run ${first.runId} (${reason}). The run continues on the service; use wait_for_run with runId ${first.runId}.`,
    );
  }
  const view = runView(run);
  return checked(
    tool,
    toCallToolResult({
      structured: { ...first, status: view.status, done: view.done },
      markdown: `${runMarkdown(view)}\n${finishedRunNext(view)}`,
      ...(view.status === 'completed' ? { links: runResourceLinks(view.runId) } : {}),
    }),
  );
}

function startedRun(result: CallToolResult): { runId: string; done: boolean; status: string } {
  return result.structuredContent as { runId: string; done: boolean; status: string };
}

/** What McpServer checks of a plain call's result, checked here too: a task gives no input and keeps its schema. */
function checked(tool: AnyTool, result: CallToolResult | InputRequiredResult): CallToolResult {
  if (isInputRequiredResult(result)) throw new Error(`${tool.name} asked for input, which a task cannot give`);
  if (result.isError) return result;
  const parsed = tool.outputSchema.safeParse(result.structuredContent);
  if (!parsed.success) throw new Error(`Output validation error: ${tool.name} answered outside its output schema`);
  return result;
}
