// A CPU thread of the pool (pool.ts): runs one task at a time and answers its result or its error.
import { parentPort } from 'node:worker_threads';
import { CPU_TASKS, type CpuTaskName } from './tasks.ts';

// Nothing a thread prints reaches the process's standard output, which in `mcp` stdio mode carries
// only protocol messages; its warnings still go to stderr.
process.stdout.write = () => true;

parentPort?.on('message', async ({ task, args }: { task: CpuTaskName; args: unknown[] }) => {
  try {
    const value = await (CPU_TASKS[task] as (...a: unknown[]) => unknown)(...args);
    parentPort?.postMessage({ ok: true, value });
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
