// Long polls of a run (GET /api/v1/runs/{runId}?waitSeconds=N, an extension of spec 4.11): the
// request waits until the run's status, progress or step changes, or the deadline. A worker in this
// process reports each change at once; a run worked on by another process (a shared PostgreSQL) is
// seen by re-reading it every CROSS_PROCESS_POLL_MS, so the wait works in every deployment.
import type { RunRow } from './store/index.ts';

const CROSS_PROCESS_POLL_MS = 500;

/** What a waiting client is waiting to see change. */
function fingerprint(row: RunRow): string {
  return `${row.status}|${row.progress_pct}|${row.current_step ?? ''}`;
}

export class RunWatch {
  #waiters = new Map<string, Set<() => void>>();
  #closed = false;

  /** Called after this process wrote a change to the run (progress, completion, failure, claim). */
  changed(runId: string): void {
    for (const wake of this.#waiters.get(runId) ?? []) wake();
  }

  /** Ends every wait at once (the service is stopping): each answers with what it has. */
  close(): void {
    this.#closed = true;
    for (const waiters of this.#waiters.values()) for (const wake of waiters) wake();
  }

  /**
   * `row` as it is once it changed, or as it is at the deadline, when the client hung up (`signal`)
   * or when the service stops; `load` re-reads it (undefined when it is gone).
   */
  async until(
    row: RunRow,
    waitSeconds: number,
    load: () => Promise<RunRow | undefined>,
    signal: AbortSignal,
  ): Promise<RunRow> {
    const seen = fingerprint(row);
    const deadline = Date.now() + waitSeconds * 1000;
    let current = row;
    while (!this.#closed && !signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.#sleep(row.id, Math.min(left, CROSS_PROCESS_POLL_MS), signal);
      const next = await load();
      if (!next) break;
      current = next;
      if (fingerprint(current) !== seen) break;
    }
    return current;
  }

  #sleep(runId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let waiters = this.#waiters.get(runId);
      if (!waiters) {
        waiters = new Set();
        this.#waiters.set(runId, waiters);
      }
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(runId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}
