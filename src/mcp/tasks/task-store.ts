// The tasks of task-augmented tool calls (MCP tasks, issue 30), one store for the whole process:
// servers are built per request (2026-07-28) or per session (2025-11-25) and tasks outlive both.
// A task belongs to the owner that made it (a hash of the bearer over HTTP, the one person on
// stdio) and to anyone else it does not exist, as the tasks spec's authorization binding asks.
// Bounded in time (an hour from creation) and number (20 working per owner, 1,000 in all). Held in
// memory: a restart loses the tasks, never the runs they watch.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';

/** A task's state as the store keeps it; task-wire.ts says it in each generation's words. */
export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  readonly taskId: string;
  readonly owner: string;
  readonly toolName: string;
  status: TaskStatus;
  /** What the work is doing (progress) or, once it ended, why. */
  statusMessage?: string;
  readonly createdAt: number;
  lastUpdatedAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** completed: the tool's result, a tool error result included. */
  result?: CallToolResult;
  /** failed: what went wrong outside the tool's own answers. */
  error?: { code: number; message: string };
  /** Aborted when the task is cancelled, expires or the store closes: the work stops. */
  readonly abort: AbortController;
  /** Stops the work on a requester's cancel and says what became of it (set by the work). */
  stop?: () => Promise<string>;
  /** Settles when the task leaves `working`. */
  readonly ended: Promise<void>;
}

export interface TaskLimits {
  /** Working tasks one owner may hold. */
  perOwner: number;
  /** Tasks of every owner together, ended ones included. */
  total: number;
  /** How long a task lives from creation; a requested ttl may only shorten it. */
  ttlMs: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = { perOwner: 20, total: 1000, ttlMs: 60 * 60_000 };

/** A requested ttl below this is raised to it: a task gone before its first poll helps nobody. */
const MIN_TTL_MS = 1000;

/** Refused: the owner, or the whole store, is at its bound of working tasks. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError';
}

export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #settle = new Map<string, () => void>();
  readonly #limits: TaskLimits;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(limits: Partial<TaskLimits> = {}, now: () => number = Date.now) {
    this.#limits = { ...DEFAULT_TASK_LIMITS, ...limits };
    this.#now = now;
    this.#sweeper = setInterval(() => this.sweep(), 60_000);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#tasks.size;
  }

  /** A new working task, or TaskLimitError. Ended tasks give way, oldest first, to working ones. */
  create(owner: string, task: { toolName: string; pollIntervalMs: number; ttlMs?: number }): TaskRecord {
    this.sweep();
    const own = [...this.#tasks.values()].filter((record) => record.owner === owner);
    if (own.filter((record) => record.status === 'working').length >= this.#limits.perOwner)
      throw new TaskLimitError(
        `this key already has ${this.#limits.perOwner} tasks working: wait for one to end or cancel one`,
      );
    // An owner's ended tasks beyond its bound, then anyone's, go first (their results were there to fetch).
    if (own.length >= this.#limits.perOwner) this.#dropOldestEnded(owner);
    if (this.#tasks.size >= this.#limits.total && !this.#dropOldestEnded())
      throw new TaskLimitError(`this server has ${this.#limits.total} tasks working: try again later`);
    const now = this.#now();
    const requested = task.ttlMs === undefined ? this.#limits.ttlMs : Math.max(MIN_TTL_MS, task.ttlMs);
    let settle = () => {};
    const ended = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      toolName: task.toolName,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: Math.min(requested, this.#limits.ttlMs),
      pollIntervalMs: task.pollIntervalMs,
      abort: new AbortController(),
      ended,
    };
    this.#tasks.set(record.taskId, record);
    this.#settle.set(record.taskId, settle);
    return record;
  }

  /** The owner's task, or undefined: unknown, expired and another owner's look the same. */
  get(owner: string, taskId: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId);
    if (!record || record.owner !== owner) return undefined;
    if (this.#expired(record)) {
      this.#remove(record);
      return undefined;
    }
    return record;
  }

  /** The owner's tasks, oldest first. */
  list(owner: string): TaskRecord[] {
    this.sweep();
    return [...this.#tasks.values()].filter((record) => record.owner === owner);
  }

  /** A working task's progress; an ended task keeps the message it ended with. */
  progress(record: TaskRecord, message: string): void {
    if (record.status !== 'working' || record.statusMessage === message) return;
    record.statusMessage = message;
    record.lastUpdatedAt = this.#now();
  }

  /** working -> completed; the last progress message ("Running — 92%") gives way to one that says it ended. */
  complete(record: TaskRecord, result: CallToolResult): boolean {
    return this.#end(record, 'completed', (r) => {
      r.result = result;
      r.statusMessage = result.isError ? 'Ended with an error: the result says why' : 'Done: the result is ready';
    });
  }

  fail(record: TaskRecord, error: { code: number; message: string }): boolean {
    return this.#end(record, 'failed', (r) => {
      r.error = error;
      r.statusMessage = error.message;
    });
  }

  /** working -> cancelled with what became of the work; false when the task had ended already. */
  cancel(record: TaskRecord, message: string): boolean {
    const changed = this.#end(record, 'cancelled', (r) => {
      r.statusMessage = message;
    });
    if (changed) record.abort.abort();
    return changed;
  }

  /** Forgets expired tasks and stops the work of those still working. */
  sweep(): void {
    for (const record of [...this.#tasks.values()]) if (this.#expired(record)) this.#remove(record);
  }

  /** Stops every task's work (the process is stopping). */
  close(): void {
    clearInterval(this.#sweeper);
    for (const record of [...this.#tasks.values()]) this.#remove(record);
  }

  /** Legal moves only: working to one of the ended states, once. */
  #end(record: TaskRecord, status: Exclude<TaskStatus, 'working'>, fill: (record: TaskRecord) => void): boolean {
    if (record.status !== 'working') return false;
    record.status = status;
    fill(record);
    record.lastUpdatedAt = this.#now();
    this.#settle.get(record.taskId)?.();
    this.#settle.delete(record.taskId);
    return true;
  }

  #expired(record: TaskRecord): boolean {
    return this.#now() >= record.createdAt + record.ttlMs;
  }

  #remove(record: TaskRecord): void {
    this.#tasks.delete(record.taskId);
    record.abort.abort();
    // Anyone waiting for its end (tasks/result) is released; the record says it is gone.
    this.#settle.get(record.taskId)?.();
    this.#settle.delete(record.taskId);
  }

  #dropOldestEnded(owner?: string): boolean {
    for (const record of this.#tasks.values()) {
      if (record.status === 'working' || (owner !== undefined && record.owner !== owner)) continue;
      this.#remove(record);
      return true;
    }
    return false;
  }
}
