// MCP tasks for the tools that may take long (start_run to the end of its audit, recheck): a host
// asks for a task, gets it at once, polls it (its statusMessage carries the progress), fetches the
// result, or cancels it. Both wire generations (task-wire.ts) on one process-wide store
// (task-store.ts). The SDK has no server side for tasks: tools/call is wrapped in its private handler
// table (as request-guard.ts does), because the SDK validates every tools/call result as a
// CallToolResult and a task is not one, and tasks/* go through the untyped setRequestHandler.
import { createHash } from 'node:crypto';
import {
  type McpRequestContext,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { SiteAuditClient } from '../../client/index.ts';
import { describeIssues } from '../request-guard.ts';
import type { McpSettings } from '../settings.ts';
import type { AnyTool, ToolContext } from '../tool.ts';
import { TaskLimitError, type TaskRecord, type TaskStore } from './task-store.ts';
import {
  cancelAnswer,
  createTaskResult,
  declaresTasks,
  requestedTask,
  TASK_SERVER_CAPABILITIES,
  type TaskGeneration,
  taskAlreadyEnded,
  taskList,
  taskNotFound,
  taskNotSupported,
  tasksExtensionRequired,
  taskView,
  v1TaskResult,
} from './task-wire.ts';
import { firstMessage, startTaskWork } from './task-work.ts';

/** How often a requester is asked to poll: the progress a run reports changes no faster. */
const TASK_POLL_MS = 2000;

/** JSON-RPC's range for a server's own errors: the bound of working tasks is reached. */
const TOO_MANY_TASKS = -32000;

export interface ToolTasksOptions {
  store: TaskStore;
  era: McpRequestContext['era'];
  /** Whose tasks these are (taskOwner). */
  owner: string;
  tools: readonly AnyTool[];
  client: () => SiteAuditClient;
  settings: McpSettings;
  log?: (line: string) => void;
}

/** A hash of the request's bearer over HTTP (never the bearer itself); stdio serves one person. */
export function taskOwner(context: McpRequestContext): string {
  const token = context.authInfo?.token;
  return token ? `bearer:${createHash('sha256').update(token).digest('hex')}` : 'stdio';
}

type Request = { method: string; params?: Record<string, unknown> };
type Handler = (request: Request, context: ServerContext) => Promise<unknown>;
/** The untyped three-argument setRequestHandler: the SDK's typed surface leaves the task methods out. */
type LooseServer = {
  setRequestHandler(
    method: string,
    schemas: { params: z.ZodType },
    handler: (params: never, context: ServerContext) => Promise<unknown>,
  ): void;
};

const TaskIdParams = z.looseObject({ taskId: z.string() });

/** Declares tasks and serves them; call after the tools are registered. */
export function enableToolTasks(server: McpServer, options: ToolTasksOptions): void {
  server.server.registerCapabilities(TASK_SERVER_CAPABILITIES);
  wrapToolsCall(server, options);
  serveTaskMethods(server, options);
}

function wrapToolsCall(server: McpServer, options: ToolTasksOptions): void {
  // The handler table is private in SDK 2.4; test/mcp/tasks.test.ts fails if it moves.
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const plain = handlers?.get('tools/call');
  if (!handlers || !plain) throw new Error('the MCP SDK no longer keeps _requestHandlers: update tool-tasks.ts');
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  handlers.set('tools/call', async (request, context) => {
    const params = request.params ?? {};
    const asked = requestedTask(options.era, params, context.mcpReq.envelope as Record<string, unknown> | undefined);
    if (!asked) return plain(request, context);
    const tool = byName.get(String(params.name));
    if (!tool?.taskSupport) {
      // v2: the server decides, and this one runs it as a plain call. v1: the tool said it cannot.
      if (asked.generation === 'v1' && tool) throw taskNotSupported(tool.name);
      return plain(request, context);
    }
    const parsed = tool.inputSchema.safeParse(params.arguments ?? {});
    if (!parsed.success) {
      if (asked.generation === 'v2') return plain(request, context);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid arguments for tool ${tool.name}: ${describeIssues(parsed.error.issues)}`,
      );
    }
    const record = createTask(options, tool, asked.ttlMs);
    startTaskWork({
      store: options.store,
      record,
      tool,
      args: parsed.data as Record<string, unknown>,
      context: taskContext(options, record, context),
      ...(options.log ? { log: options.log } : {}),
    });
    return createTaskResult(asked.generation, record);
  });
}

function createTask(options: ToolTasksOptions, tool: AnyTool, ttlMs: number | undefined): TaskRecord {
  try {
    const record = options.store.create(options.owner, {
      toolName: tool.name,
      pollIntervalMs: Math.min(TASK_POLL_MS, options.settings.pollIntervalMs),
      ...(ttlMs !== undefined ? { ttlMs } : {}),
    });
    options.store.progress(record, firstMessage(tool));
    return record;
  } catch (error) {
    if (error instanceof TaskLimitError) throw new ProtocolError(TOO_MANY_TASKS, `Too many tasks: ${error.message}`);
    throw error;
  }
}

/** The tool's context for work that outlives its request: the task's signal, progress into statusMessage. */
function taskContext(options: ToolTasksOptions, record: TaskRecord, request: ServerContext): ToolContext {
  return {
    client: options.client(),
    settings: options.settings,
    signal: record.abort.signal,
    request,
    canElicit: false,
    progress: async (_progress, _total, message) => {
      if (message) options.store.progress(record, message);
    },
  };
}

function serveTaskMethods(server: McpServer, options: ToolTasksOptions): void {
  const { store, owner } = options;
  const generation: TaskGeneration = options.era === 'modern' ? 'v2' : 'v1';
  const loose = server.server as unknown as LooseServer;
  const serve = <Params extends z.ZodType>(
    method: string,
    params: Params,
    answer: (params: z.infer<Params>, context: ServerContext) => Promise<unknown> | unknown,
  ) =>
    loose.setRequestHandler(method, { params }, async (given: never, context: ServerContext) => {
      if (generation === 'v2' && !declaresTasks(context.mcpReq.envelope as Record<string, unknown> | undefined))
        throw tasksExtensionRequired();
      return answer(given as z.infer<Params>, context);
    });
  // Another owner's task is as unknown as one that never was.
  const find = (taskId: string) => {
    const record = store.get(owner, taskId);
    if (!record) throw taskNotFound(taskId);
    return record;
  };

  serve('tasks/get', TaskIdParams, ({ taskId }) => taskView(generation, find(taskId)));
  serve('tasks/cancel', TaskIdParams, async ({ taskId }) => {
    const record = find(taskId);
    if (record.status !== 'working') {
      // v1: MUST refuse a task in a terminal state; v2: cancellation is cooperative, so it is acknowledged.
      if (generation === 'v1') throw taskAlreadyEnded(generation, record);
      return cancelAnswer(generation, record);
    }
    const message = record.stop ? await record.stop() : 'Cancelled at your request.';
    store.cancel(record, message);
    return cancelAnswer(generation, record);
  });
  if (generation === 'v1') {
    serve('tasks/result', TaskIdParams, async ({ taskId }, context) => {
      const record = find(taskId);
      await Promise.race([record.ended, abortedPromise(context.mcpReq.signal)]);
      // Still working: the request was cancelled, or the task expired while it waited.
      if (record.status === 'working') throw taskNotFound(taskId);
      return v1TaskResult(record);
    });
    serve('tasks/list', z.looseObject({ cursor: z.string().optional() }), () => taskList(store.list(owner)));
  } else {
    // No task here ever asks for input; an update is acknowledged for a task that exists.
    serve('tasks/update', z.looseObject({ taskId: z.string() }), ({ taskId }) => {
      find(taskId);
      return {};
    });
  }
}

function abortedPromise(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
