// A small pool of worker threads for CPU work on site content (issue 22). A page of hostile markup
// can cost seconds of parsing; on a worker thread it costs that thread, while the process's event
// loop keeps answering the API, renewing leases and delivering webhooks. Each task has a deadline:
// a task past it has its thread terminated (V8 stops the script wherever it is) and a new one
// started, so no input holds a thread for ever. Each thread has its own heap ceiling, so a page
// that would exhaust memory ends that thread, not the process.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CpuTaskName, CpuTasks } from './tasks.ts';

export class CpuTaskError extends Error {
  override readonly name = 'CpuTaskError';
  /** timeout: past its deadline; crashed: the thread died (its heap ceiling); failed: the task threw. */
  readonly code: 'timeout' | 'crashed' | 'failed';
  constructor(code: CpuTaskError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export interface CpuPoolOptions {
  /** Worker threads; 0 runs every task on the calling thread (SITEAUDIT_CPU_THREADS). */
  threads: number;
  /** The longest one task may take before its thread is terminated. */
  deadlineMs: number;
  /** Each thread's old-generation heap ceiling. */
  heapMb: number;
}

interface Job {
  task: CpuTaskName;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  deadlineMs: number;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

type Reply = { ok: true; value: unknown } | { ok: false; message: string };

// The entry is a .ts file when run from source (tests, type stripping) and .js once built.
const ENTRY = new URL(`./worker-entry${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export function defaultPoolOptions(env = process.env): CpuPoolOptions {
  const fromEnv = env.SITEAUDIT_CPU_THREADS;
  const parsed = fromEnv === undefined || fromEnv === '' ? Number.NaN : Number(fromEnv);
  // One core is left for the event loop; a two-core machine gets one thread.
  const threads =
    Number.isInteger(parsed) && parsed >= 0 ? parsed : Math.max(1, Math.min(4, availableParallelism() - 1));
  return { threads, deadlineMs: 30_000, heapMb: 512 };
}

export class CpuPool {
  readonly #options: CpuPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #inline?: Promise<CpuTasks>;
  #closed = false;

  constructor(options: CpuPoolOptions) {
    this.#options = options;
  }

  /** Runs `task` with `args` (structured-cloned both ways) and answers its result. */
  run<K extends CpuTaskName>(
    task: K,
    args: Parameters<CpuTasks[K]>,
    deadlineMs = this.#options.deadlineMs,
  ): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
    if (this.#closed) return Promise.reject(new CpuTaskError('failed', 'the CPU pool is closed'));
    if (this.#options.threads === 0) return this.#runInline(task, args);
    return new Promise((resolve, reject) => {
      this.#queue.push({ task, args, resolve: resolve as (value: unknown) => void, reject, deadlineMs });
      this.#pump();
    });
  }

  /** Ends every thread; tasks in hand fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new CpuTaskError('failed', 'the CPU pool closed'));
    await Promise.all(this.#slots.splice(0).map((slot) => this.#retire(slot)));
  }

  async #runInline<K extends CpuTaskName>(
    task: K,
    args: Parameters<CpuTasks[K]>,
  ): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
    this.#inline ??= import('./tasks.ts').then((m) => m.CPU_TASKS);
    const tasks = await this.#inline;
    return (tasks[task] as (...a: unknown[]) => Awaited<ReturnType<CpuTasks[K]>>)(...args);
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => !s.job);
      if (!slot && this.#slots.length < this.#options.threads) slot = this.#spawn();
      if (!slot) return;
      this.#start(slot, this.#queue.shift() as Job);
    }
  }

  #spawn(): Slot {
    // A thread's standard output is never the process's (in `mcp` stdio mode that carries only
    // protocol messages): the thread drops what it would print there (worker-entry.ts). Not by
    // taking its stdout here and reading it, which kept an idle process from ever exiting.
    const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.#options.heapMb } });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (reply: Reply) => this.#settle(slot, reply));
    worker.on('error', (error) =>
      this.#fail(slot, new CpuTaskError('crashed', `a CPU thread failed: ${error.message}`)),
    );
    worker.on('exit', () => this.#fail(slot, new CpuTaskError('crashed', 'a CPU thread exited')));
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref(); // a task in hand keeps the process alive; an idle pool does not
    slot.timer = setTimeout(() => {
      job.reject(new CpuTaskError('timeout', `${job.task} took over ${job.deadlineMs} ms`));
      slot.job = undefined;
      void this.#retire(slot);
      this.#pump();
    }, job.deadlineMs);
    slot.worker.postMessage({ task: job.task, args: job.args });
  }

  #settle(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker.unref();
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new CpuTaskError('failed', reply.message));
    this.#pump();
  }

  /** The thread died under a task (or idle): the task fails, the slot goes, the queue moves on. */
  #fail(slot: Slot, error: CpuTaskError): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    this.#slots.splice(index, 1);
    clearTimeout(slot.timer);
    slot.job?.reject(error);
    slot.job = undefined;
    if (!this.#closed) this.#pump();
  }

  async #retire(slot: Slot): Promise<void> {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    clearTimeout(slot.timer);
    await slot.worker.terminate();
  }
}

let shared: CpuPool | undefined;

/** The process's pool, made at its first task (threads start on demand and idle unreferenced). */
export function cpuPool(): CpuPool {
  shared ??= new CpuPool(defaultPoolOptions());
  return shared;
}
