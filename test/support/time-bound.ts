// Calls a module's exports in a worker thread and gives up after a time bound (issue 22). Vitest's
// timeout cannot interrupt synchronous code, so a parser that backtracks or a matcher that blows up
// on hostile input would hang the whole test process; a worker can be terminated mid-loop.
//
//   const parsed = await runBounded(new URL('../../src/audit/robots.ts', import.meta.url),
//     'parseRobotsTxt', [hostileText], 5_000);
//
// The module is imported natively by Node in the worker (no Vitest transform): a .ts module must be
// erasable syntax importing .ts paths, as this project's modules are. Arguments and the result are
// structured-cloned (plain data, no functions or class instances). A promise result is awaited.
import { Worker } from 'node:worker_threads';

/** A module loaded in a worker, whose exports are called one at a time, each within the bound. */
export interface BoundedModule {
  call<T = unknown>(exportName: string, args: unknown[]): Promise<T>;
  /** Ends the worker; a call after close starts a new one. */
  close(): Promise<void>;
}

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

// CommonJS, run by `eval`: imports the module once, then answers { id, exportName, args } messages.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = import(workerData.moduleUrl);
parentPort.on('message', async ({ id, exportName, args }) => {
  try {
    const exported = (await loaded)[exportName];
    if (typeof exported !== 'function') throw new TypeError(exportName + ' is not a function exported by ' + workerData.moduleUrl);
    parentPort.postMessage({ id, ok: true, result: await exported(...args) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
`;

/**
 * Loads `moduleUrl` (a file URL, e.g. `new URL('../src/x.ts', import.meta.url)`) in a worker and
 * returns a handle whose calls each fail after `ms` (module loading counts against the first call).
 * A call that outlasts the bound terminates the worker; the next call starts a fresh one. Calls are
 * queued, so each bound covers only its own call. Close the handle when done (an idle worker does
 * not keep the process alive, but holds memory).
 */
export function openBounded(moduleUrl: string | URL, ms: number): BoundedModule {
  const url = String(moduleUrl);
  let worker: Worker | undefined;
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();

  function stop(): Promise<void> {
    const ending = worker;
    worker = undefined;
    return ending ? ending.terminate().then(() => undefined) : Promise.resolve();
  }

  /** A worker that died on its own is not reused. */
  function forget(dead: Worker): void {
    if (worker === dead) worker = undefined;
  }

  function callNow<T>(exportName: string, args: unknown[]): Promise<T> {
    worker ??= new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl: url } });
    const current = worker;
    current.unref();
    const id = nextId++;
    const described = `${exportName}() of ${url}`;
    return new Promise<T>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        current.off('message', onMessage).off('error', onError).off('exit', onExit);
        outcome();
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        settle(() => (reply.ok ? resolve(reply.result as T) : reject(new Error(`${described} threw: ${reply.error}`))));
      };
      const onError = (error: Error) => {
        forget(current);
        settle(() => reject(new Error(`${described}: the worker failed`, { cause: error })));
      };
      const onExit = (code: number) => {
        forget(current);
        settle(() => reject(new Error(`${described}: the worker exited (${code})`)));
      };
      const timer = setTimeout(() => {
        settle(() => reject(new Error(`${described} did not finish within ${ms} ms; the worker was terminated`)));
        void stop();
      }, ms);
      current.on('message', onMessage).on('error', onError).on('exit', onExit);
      try {
        current.postMessage({ id, exportName, args });
      } catch (error) {
        settle(() => reject(new Error(`${described}: the arguments cannot be sent to a worker`, { cause: error })));
      }
    });
  }

  return {
    call<T = unknown>(exportName: string, args: unknown[]): Promise<T> {
      const result = queue.then(() => callNow<T>(exportName, args));
      queue = result.catch(() => undefined);
      return result;
    },
    close: () => queue.then(stop),
  };
}

/** One call of `exportName` from `moduleUrl` in a fresh worker, rejected after `ms` (see openBounded). */
export async function runBounded<T = unknown>(
  moduleUrl: string | URL,
  exportName: string,
  args: unknown[],
  ms: number,
): Promise<T> {
  const bounded = openBounded(moduleUrl, ms);
  try {
    return await bounded.call<T>(exportName, args);
  } finally {
    await bounded.close();
  }
}
