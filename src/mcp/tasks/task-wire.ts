// The two wire generations of MCP tasks, and the only module that knows them apart:
// - v1, MCP 2025-11-25 (basic/utilities/tasks): the requester asks with `params.task`, the server
//   declares `capabilities.tasks` and each tool's `execution.taskSupport`; tasks/get, tasks/result,
//   tasks/list and tasks/cancel; a tool error result makes the task `failed`.
// - v2, the tasks extension for 2026-07-28 (io.modelcontextprotocol/tasks, ext-tasks 0.2.2): the
//   requester declares the extension per request and the server decides; tasks/get answers with
//   the result inside, tasks/cancel with `{}`; a tool error result is `completed`.
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/server';
import type { TaskRecord, TaskStatus } from './task-store.ts';

export type TaskGeneration = 'v1' | 'v2';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Both generations' declarations at once: the 2026 codec drops `tasks`, a 2025 client ignores the extension. */
export const TASK_SERVER_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

/** The generation of the task a tools/call asks for, or undefined for a plain call. */
export function requestedTask(
  era: 'legacy' | 'modern',
  params: Record<string, unknown>,
  envelope: Record<string, unknown> | undefined,
): { generation: TaskGeneration; ttlMs?: number } | undefined {
  if (era === 'modern') return declaresTasks(envelope) ? { generation: 'v2' } : undefined;
  const task = params.task;
  if (typeof task !== 'object' || task === null) return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return { generation: 'v1', ...(typeof ttl === 'number' && Number.isFinite(ttl) ? { ttlMs: ttl } : {}) };
}

/** Whether a 2026-07-28 request declares the tasks extension among its client capabilities. */
export function declaresTasks(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** What a requester sees of the state: a v1 tool error is a failed task. */
function wireStatus(generation: TaskGeneration, record: TaskRecord): TaskStatus {
  return generation === 'v1' && record.status === 'completed' && record.result?.isError ? 'failed' : record.status;
}

/** A v1 requester learns why a task failed from statusMessage alone (it fetches no result then). */
function wireMessage(generation: TaskGeneration, record: TaskRecord): string | undefined {
  if (wireStatus(generation, record) === 'failed' && record.result) return textOf(record.result);
  return record.statusMessage;
}

const iso = (ms: number) => new Date(ms).toISOString();

function v1Task(record: TaskRecord) {
  const statusMessage = wireMessage('v1', record);
  return {
    taskId: record.taskId,
    status: wireStatus('v1', record),
    ...(statusMessage ? { statusMessage } : {}),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
}

function v2Task(record: TaskRecord) {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage ? { statusMessage: record.statusMessage } : {}),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The answer to the tools/call that made the task. */
export function createTaskResult(generation: TaskGeneration, record: TaskRecord): Record<string, unknown> {
  return generation === 'v1' ? { task: v1Task(record) } : { resultType: 'task', ...v2Task(record) };
}

/** tasks/get: v1 the task; v2 the detailed task, with the result or error once it ended. */
export function taskView(generation: TaskGeneration, record: TaskRecord): Record<string, unknown> {
  if (generation === 'v1') return v1Task(record);
  return {
    ...v2Task(record),
    // The result inside a detailed task is a complete tools/call result (CompleteCallToolResultV2Schema).
    ...(record.status === 'completed' && record.result ? { result: { ...record.result, resultType: 'complete' } } : {}),
    ...(record.status === 'failed'
      ? { error: record.error ?? { code: ProtocolErrorCode.InternalError, message: 'failed' } }
      : {}),
  };
}

/** tasks/list (v1 only): all of the owner's tasks fit one page (task-store.ts bounds them). */
export function taskList(records: readonly TaskRecord[]): Record<string, unknown> {
  return { tasks: records.map(v1Task) };
}

/**
 * tasks/result (v1 only) of an ended task: the tool's result, or for a cancelled task what became
 * of the work, each tied to its task.
 */
export function v1TaskResult(record: TaskRecord): Record<string, unknown> {
  const related = { _meta: { [RELATED_TASK_META_KEY]: { taskId: record.taskId } } };
  if (record.status === 'failed')
    throw new ProtocolError(
      record.error?.code ?? ProtocolErrorCode.InternalError,
      record.error?.message ?? 'the task failed',
    );
  if (record.status === 'cancelled' || !record.result)
    return {
      content: [{ type: 'text', text: record.statusMessage ?? 'The task was cancelled.' }],
      isError: true,
      ...related,
    };
  return { ...record.result, ...related };
}

/** tasks/cancel's answer: v1 the task (now cancelled), v2 an acknowledgement. */
export function cancelAnswer(generation: TaskGeneration, record: TaskRecord): Record<string, unknown> {
  return generation === 'v1' ? v1Task(record) : {};
}

export function taskNotFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
}

/** v1: tasks/cancel on a task in a terminal state MUST be refused with -32602. */
export function taskAlreadyEnded(generation: TaskGeneration, record: TaskRecord): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Task ${record.taskId} has already ended (${wireStatus(generation, record)}): nothing to cancel`,
  );
}

/** v2: tasks/* from a 2026-07-28 client that did not declare the extension. */
export function tasksExtensionRequired(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `tasks/* needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** v1: a task asked of a tool that runs only as a plain call SHOULD get -32601. */
export function taskNotSupported(toolName: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${toolName} does not run as a task`);
}

function textOf(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  return block && 'text' in block ? block.text : 'The tool answered with an error.';
}
