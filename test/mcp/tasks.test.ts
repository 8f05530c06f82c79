// start_run and recheck as MCP tasks, driven by the official requester (ext-tasks' session over the
// SDK's own client) against the real service auditing fixture sites: v1 on 2025-11-25 and v2 (the
// tasks extension) on 2026-07-28 over streamable HTTP, and v1 over stdio. A task is polled to the end
// with its progress in statusMessage; a cancelled start_run stops watching while the run goes on (the
// spec has no cancelled run); a cancelled recheck stops; another bearer never sees a task.
import type { Client } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  type TaskEnabledSession,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import type { TaskId } from '@modelcontextprotocol/ext-tasks/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { connectStdio, type Era, textOf } from '../support/mcp.ts';
import { type McpWorld, startMcpWorld, structured } from './support.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const CLIENT_INFO = { name: 'siteaudit-tests', version: '1.0.0' };
const Anything = z.looseObject({});

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let world: McpWorld;
/** A site whose home page is held open until the test lets it go: its audit stays in flight. */
let held: FixtureSite;
let release = () => {};
let gate = Promise.resolve();
function holdHomePage(): void {
  gate = new Promise<void>((resolve) => {
    release = resolve;
  });
}

beforeAll(async () => {
  world = await startMcpWorld();
  held = await startFixtureSite({
    '/': (_req, res) => {
      void gate.then(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          html('<title>Held</title>', `<main><h1>Held</h1><p>${'Words. '.repeat(30)}</p><img src="/a.png"></main>`),
        );
      });
    },
  });
});
afterAll(async () => {
  release();
  await held?.close();
  await world?.close();
});

let nextId = 0;
/**
 * One JSON-RPC request POSTed to /mcp as a client of `era` sends it with no session (2025-11-25: the
 * stateless leg), the answer parsed (JSON or SSE).
 */
async function post(
  key: string,
  message: { method: string; params?: Record<string, unknown> },
  init: { headers?: Record<string, string>; signal?: AbortSignal; era?: Era } = {},
): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const era = init.era ?? '2026-07-28';
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${key}`,
    'mcp-protocol-version': era,
    ...init.headers,
  });
  if (era === '2026-07-28') {
    headers.set('mcp-method', message.method);
    const named = message.method === 'tools/call' ? message.params?.name : message.params?.taskId;
    if (typeof named === 'string') headers.set('mcp-name', named);
  }
  const response = await fetch(world.http.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, ...message }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  const data = text.includes('data:')
    ? (text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
        .pop() ?? '')
    : text;
  return JSON.parse(data);
}

/** The per-request envelope of a 2026-07-28 request, declaring the tasks extension or not. */
function framed(params: Record<string, unknown>, withTasks: boolean): Record<string, unknown> {
  return {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': withTasks ? { extensions: { [TASKS]: {} } } : {},
    },
  };
}

/** ext-tasks sends v2 task traffic itself (the SDK client refuses tasks/* on 2026-07-28): over fetch. */
function rawDispatch(key: string): RawClientDispatch {
  return async (request, options) => {
    const answer = await post(key, request as { method: string; params?: Record<string, unknown> }, {
      ...(options?.context?.headers ? { headers: { ...options.context.headers } } : {}),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    if (answer.error) return { kind: 'error', error: answer.error as never };
    return { kind: 'result', result: answer.result as never };
  };
}

function taskSession(client: Client, era: Era, key: string): TaskEnabledSession {
  if (era === '2025-11-25') return createTaskSessionFromClient(client, { endpointId: `tasks-${era}` });
  return createTaskSessionFromClient(client, {
    endpointId: `tasks-${era}`,
    rawDispatch: rawDispatch(key),
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
}

/** tasks/get as another requester would send it: v1 through the SDK client, v2 raw. */
async function getTask(era: Era, client: Client, key: string, taskId: string): Promise<unknown> {
  if (era === '2025-11-25') return client.request({ method: 'tasks/get', params: { taskId } } as never, Anything);
  const answer = await post(key, { method: 'tasks/get', params: framed({ taskId }, true) });
  if (answer.error) throw answer.error;
  return answer.result;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * start_run as a task on the held site, polled to its end: the home page is let go once a progress
 * message has been seen, so the progress is seen however fast the audit would be.
 */
async function startRunPolled(session: TaskEnabledSession, args: Record<string, string>, retentionMs?: number) {
  holdHomePage();
  // No progress seen at all: the page goes anyway, and the assertions say what was seen.
  const fallback = setTimeout(() => release(), 10_000);
  const execution = await session.callTool('start_run', args, {
    task: { preference: 'require', ...(retentionMs ? { retentionMs } : {}) },
  });
  const seen: string[] = [];
  const { outcome } = await execution.settle({
    onEvent: (event) => {
      if (event.type !== 'task' || !event.task.statusMessage) return;
      seen.push(event.task.statusMessage);
      if (/— \d+%/.test(event.task.statusMessage)) release();
    },
  });
  clearTimeout(fallback);
  release();
  return { execution, outcome, seen };
}

describe.each(['2025-11-25', '2026-07-28'] as const)('tasks over HTTP, %s', (era) => {
  const generation = era === '2025-11-25' ? 'v1' : 'v2';
  let key: string;
  let client: Client;
  let session: TaskEnabledSession;
  let completedRunId = '';
  let completedProjectId = '';
  let completedTaskId = '' as TaskId;

  beforeAll(async () => {
    ({ key } = await world.service.tenant('pro', 40));
    ({ client } = await world.connect('http', key, { era }));
    session = taskSession(client, era, key);
  });
  afterAll(async () => {
    await session?.close();
    await client?.close();
  });
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it(`advertises tasks as ${generation} does`, async () => {
    const capabilities = client.getServerCapabilities();
    const { tools } = await client.listTools();
    const execution = Object.fromEntries(tools.filter((t) => t.execution).map((t) => [t.name, t.execution]));
    if (era === '2025-11-25') {
      expect(capabilities?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      expect(execution).toEqual({ start_run: { taskSupport: 'optional' }, recheck: { taskSupport: 'optional' } });
    } else {
      expect(capabilities?.extensions?.[TASKS]).toEqual({});
      // The 2026-07-28 codec drops the 2025 declarations: the server decides per call there.
      expect(capabilities).not.toHaveProperty('tasks');
      expect(execution).toEqual({});
    }
    expect(session.capabilities).toMatchObject({ execution: true, cancellation: true });
  });

  it('runs start_run as a task polled to completion, its progress in statusMessage', async () => {
    const projectId = await world.service.createProject(key, held.host);
    const { execution, outcome, seen } = await startRunPolled(
      session,
      { projectId, idempotencyKey: 'polled' },
      30 * 60_000,
    );
    expect(execution.kind).toBe('task');
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    if (outcome.status !== 'completed') return;
    const result = outcome.result as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ projectId, status: 'completed', done: true, replayed: false });
    expect(textOf(result)).toContain('Next: get_report');
    expect(result.content.filter((block) => block.type === 'resource_link')).toHaveLength(2);
    // What a host shows meanwhile: "Waiting to start — 0%", "Running — 40%: …".
    expect(seen.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(
      seen.some((message) => /— \d+%/.test(message)),
      JSON.stringify(seen),
    ).toBe(true);
    completedRunId = String(result.structuredContent?.runId);
    completedProjectId = projectId;
    if (execution.kind === 'task') completedTaskId = execution.handle.taskId;
    const view = await session.task(completedTaskId).snapshot();
    expect(view).toMatchObject({ status: 'completed' });
    // v1: a ttl asked for may shorten the hour the server keeps a task.
    if (era === '2025-11-25') expect(view.ttl).toBe(30 * 60_000);
    else expect(view.ttl).toBe(60 * 60_000);
  });

  it('runs recheck as a task', async () => {
    const page = await call('page_findings', { runId: completedRunId, limit: 100 });
    const finding = structured<{ findings: { findingId: string; title: string }[] }>(page).findings.find(
      (f) => f.title === 'Images without alt text',
    );
    expect(finding, textOf(page)).toBeDefined();
    const execution = await session.callTool(
      'recheck',
      { runId: completedRunId, findingId: finding?.findingId ?? '' },
      { task: { preference: 'require' } },
    );
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    if (outcome.status !== 'completed') return;
    const result = outcome.result as ToolResult;
    expect(result.structuredContent).toMatchObject({
      findingId: finding?.findingId,
      results: [expect.objectContaining({ status: 'fail' })],
    });
  });

  it('cancels a start_run task: it stops watching, says so, and the run goes on to completion', async () => {
    holdHomePage();
    const projectId = await world.service.createProject(key, held.host);
    const execution = await session.callTool(
      'start_run',
      { projectId, idempotencyKey: 'cancelled' },
      { task: { preference: 'require' } },
    );
    if (execution.kind !== 'task') throw new Error('not a task');
    const taskId = execution.handle.taskId;
    const before = held.requests.length;
    // The audit is on the held home page: the run is in flight.
    await waitUntil('the audit to reach the held page', () => held.requests.slice(before).some((r) => r.path === '/'));
    await execution.cancel();
    const outcome = await execution.result();
    expect(outcome.status).toBe('cancelled');
    const view: TaskView = await session.task(taskId).snapshot();
    expect(view.status).toBe('cancelled');
    expect(view.statusMessage).toContain('Stopped watching at your request');
    expect(view.statusMessage).toContain('continues on the service (runs cannot be cancelled)');
    expect(view.statusMessage).toContain('credits are spent');
    const runId = /`([0-9a-f-]{36})`/.exec(view.statusMessage ?? '')?.[1];
    expect(runId, view.statusMessage).toBeDefined();
    if (era === '2025-11-25') {
      // v1: the cancelled task's result says the same, tied to its task.
      const answer = (await client.request(
        { method: 'tasks/result', params: { taskId } } as never,
        Anything,
      )) as unknown as ToolResult & {
        _meta?: Record<string, unknown>;
      };
      expect(textOf(answer)).toContain(`\`${runId}\` continues`);
      expect(answer._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    }

    // The audit was never stopped: let the page go and the run completes.
    release();
    let waited = await call('wait_for_run', { runId, maxWaitSeconds: 20 });
    while (structured<{ stillRunning: boolean }>(waited).stillRunning)
      waited = await call('wait_for_run', { runId, maxWaitSeconds: 20 });
    expect(structured(waited)).toMatchObject({ runId, projectId, status: 'completed' });
    // And the cancelled task stays cancelled.
    expect((await session.task(taskId).snapshot()).status).toBe('cancelled');
  });

  it('cancels a recheck task: the recheck stops', async () => {
    const page = await call('page_findings', { runId: completedRunId, limit: 100 });
    const finding = structured<{ findings: { findingId: string; title: string }[] }>(page).findings.find(
      (f) => f.title === 'Images without alt text',
    );
    expect(finding, textOf(page)).toBeDefined();
    holdHomePage();
    const before = held.requests.length;
    const execution = await session.callTool(
      'recheck',
      { runId: completedRunId, findingId: finding?.findingId ?? '' },
      { task: { preference: 'require' } },
    );
    if (execution.kind !== 'task') throw new Error('not a task');
    await waitUntil('the recheck to reach the held page', () =>
      held.requests.slice(before).some((r) => r.path === '/'),
    );
    await execution.cancel();
    expect((await execution.result()).status).toBe('cancelled');
    const view = await session.task(execution.handle.taskId).snapshot();
    expect(view.statusMessage).toBe(
      'Cancelled at your request: recheck was stopped before it answered. It changes nothing stored.',
    );
    release();
  });

  it("keeps a task to the bearer that made it: another key's tasks/get finds nothing", async () => {
    const other = await world.service.tenant('pro', 1);
    const stranger = await world.connect('http', other.key, { era });
    try {
      await expect(getTask(era, stranger.client, other.key, completedTaskId)).rejects.toMatchObject({ code: -32602 });
      // The owner still sees it.
      await expect(getTask(era, client, key, completedTaskId)).resolves.toMatchObject({ status: 'completed' });
    } finally {
      await stranger.close();
    }
  });

  if (era === '2025-11-25') {
    it('v1: refuses to cancel an ended task, a task of a tool without task support, and bad arguments', async () => {
      await expect(
        client.request({ method: 'tasks/cancel', params: { taskId: completedTaskId } } as never, Anything),
      ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('already ended (completed)') });
      await expect(
        client.request(
          { method: 'tools/call', params: { name: 'whoami', arguments: {}, task: {} } } as never,
          Anything,
        ),
      ).rejects.toMatchObject({ code: -32601 });
      await expect(
        client.request(
          { method: 'tools/call', params: { name: 'start_run', arguments: { projectId: 'nope' }, task: {} } } as never,
          Anything,
        ),
      ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('projectId') });
      const listed = (await client.request({ method: 'tasks/list', params: {} } as never, Anything)) as {
        tasks: { taskId: string; status: string }[];
      };
      expect(listed.tasks).toContainEqual(expect.objectContaining({ taskId: completedTaskId, status: 'completed' }));
    });

    it('v1: serves tasks on the stateless leg too (no session): one store for every request', async () => {
      const v1 = { era } as const;
      // The same call again (same idempotencyKey): the same run, ended already, so the task ends at once.
      const created = await post(
        key,
        {
          method: 'tools/call',
          params: {
            name: 'start_run',
            arguments: { projectId: completedProjectId, idempotencyKey: 'polled' },
            task: {},
          },
        },
        v1,
      );
      const task = (created.result as { task: { taskId: string; status: string; ttl: number } }).task;
      expect(task).toMatchObject({ status: 'working', ttl: 60 * 60_000 });
      await waitUntil('the task to end', async () => {
        const got = await post(key, { method: 'tasks/get', params: { taskId: task.taskId } }, v1);
        return (got.result as { status: string }).status === 'completed';
      });
      const answer = await post(key, { method: 'tasks/result', params: { taskId: task.taskId } }, v1);
      expect(answer.result).toMatchObject({
        structuredContent: { runId: completedRunId, status: 'completed' },
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
      });
    });
  } else {
    it('v2: answers tasks/* from a client without the extension with -32021', async () => {
      const answer = await post(key, { method: 'tasks/get', params: framed({ taskId: completedTaskId }, false) });
      expect(answer.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
      });
      // Without the extension a start_run is a plain call, answered at once with the run.
      const projectId = await world.service.createProject(key, world.slowSite.host);
      const plain = await post(key, {
        method: 'tools/call',
        params: framed({ name: 'start_run', arguments: { projectId } }, false),
      });
      expect(plain.result).toMatchObject({ resultType: 'complete', structuredContent: { projectId } });
      // tasks/update (input for a task) is acknowledged: no task here ever asks for input.
      const update = await post(key, {
        method: 'tasks/update',
        params: framed({ taskId: completedTaskId, inputResponses: {} }, true),
      });
      expect(update.result).toMatchObject({ resultType: 'complete' });
    });
  }
});

describe('tasks over stdio, 2025-11-25', () => {
  it('runs start_run as a task polled to completion', async () => {
    const { key } = await world.service.tenant('pro', 5);
    const projectId = await world.service.createProject(key, held.host);
    const connection = await connectStdio(world.env(key), { era: '2025-11-25' });
    const session = createTaskSessionFromClient(connection.client, { endpointId: 'stdio' });
    try {
      const { execution, outcome, seen } = await startRunPolled(session, { projectId });
      expect(execution.kind).toBe('task');
      expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
      if (outcome.status === 'completed')
        expect((outcome.result as ToolResult).structuredContent).toMatchObject({ projectId, status: 'completed' });
      expect(
        seen.some((message) => /— \d+%/.test(message)),
        JSON.stringify(seen),
      ).toBe(true);
    } finally {
      await session.close();
      await connection.close();
    }
  });
});
