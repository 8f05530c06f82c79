// Long polls of a run (GET /api/v1/runs/{runId}?waitSeconds=N, an extension of spec 4.11): the
// request waits until the run's status, progress or step changes, or the deadline. The waiters of
// one run share its re-reads (issue 28): one read in flight per run whatever the number of clients,
// its row handed to every waiter. A run is re-read when `changed` tells of a change (a worker of this
// process, or another process's through wakeups.ts) and otherwise every `pollMs()`: the fallback,
// slow while the PostgreSQL listener is up, fast where nothing else would tell.
import type { RunRow } from './store/index.ts';

/** The re-read pace unless told otherwise (the wiring passes wakeups.ts's). */
const DEFAULT_POLL_MS = 500;
/**
 * A change told this recently may be missing from the row a new waiter brings (its request read the
 * run while the change was committed): its run is re-read at once rather than at the next poll.
 */
const RECENT_CHANGE_MS = 2000;

/** What a waiting client is waiting to see change. */
function fingerprint(row: RunRow): string {
  return `${row.status}|${row.progress_pct}|${row.current_step ?? ''}`;
}

interface Waiter {
  /** The fingerprint of the row the client has. */
  seen: string;
  /** The newest row known to this waiter: the answer at its deadline. */
  current: RunRow;
  joinedAt: number;
  finish(): void;
  fail(error: unknown): void;
}

/** One run being waited on: its waiters and its one re-read. */
interface Watched {
  id: string;
  waiters: Set<Waiter>;
  load: () => Promise<RunRow | undefined>;
  timer: NodeJS.Timeout | undefined;
  loading: boolean;
  /** When the last re-read started (0: none yet). */
  readAt: number;
  /** Read again once the read in flight is done: a change came during it. */
  again: boolean;
}

export interface RunWatchOptions {
  /** Milliseconds between re-reads of a run nothing told of a change to, asked before each wait. */
  pollMs?: () => number;
}

export class RunWatch {
  readonly #runs = new Map<string, Watched>();
  /** Run ids by when a change to them was last told, oldest first, none older than RECENT_CHANGE_MS. */
  readonly #recent = new Map<string, number>();
  readonly #pollMs: () => number;
  #closed = false;

  constructor(options: RunWatchOptions = {}) {
    this.#pollMs = options.pollMs ?? (() => DEFAULT_POLL_MS);
  }

  /** Told after a change to the run was written (progress, completion, failure, claim), here or elsewhere. */
  changed(runId: string): void {
    const now = Date.now();
    this.#recent.delete(runId);
    this.#recent.set(runId, now);
    for (const [id, at] of this.#recent) {
      if (now - at < RECENT_CHANGE_MS) break;
      this.#recent.delete(id);
    }
    const watched = this.#runs.get(runId);
    if (watched) this.#reread(watched);
  }

  /** Re-reads every watched run now (wake-ups may have been missed) and waits at the pace of the moment after. */
  recheck(): void {
    for (const watched of this.#runs.values()) this.#reread(watched);
  }

  /** Ends every wait at once (the service is stopping): each answers with what it has. */
  close(): void {
    this.#closed = true;
    for (const watched of [...this.#runs.values()]) for (const waiter of [...watched.waiters]) waiter.finish();
  }

  /**
   * `row` as it is once it changed, or as it is at the deadline, when the client hung up (`signal`)
   * or when the service stops; `load` re-reads it (undefined when it is gone). One `load` serves
   * every waiter of the run: any waiter's reads the same row (a run id is one organization's).
   */
  until(
    row: RunRow,
    waitSeconds: number,
    load: () => Promise<RunRow | undefined>,
    signal: AbortSignal,
  ): Promise<RunRow> {
    if (this.#closed || signal.aborted) return Promise.resolve(row);
    return new Promise<RunRow>((resolve, reject) => {
      let watched = this.#runs.get(row.id);
      const fresh = !watched;
      if (!watched) {
        watched = { id: row.id, waiters: new Set(), load, timer: undefined, loading: false, readAt: 0, again: false };
        this.#runs.set(row.id, watched);
      }
      const run = watched;
      const leave = () => {
        clearTimeout(deadline);
        signal.removeEventListener('abort', waiter.finish);
        run.waiters.delete(waiter);
        if (run.waiters.size === 0) {
          clearTimeout(run.timer);
          if (this.#runs.get(run.id) === run) this.#runs.delete(run.id);
        }
      };
      const waiter: Waiter = {
        seen: fingerprint(row),
        current: row,
        joinedAt: Date.now(),
        finish: () => {
          leave();
          resolve(waiter.current);
        },
        fail: (error) => {
          leave();
          reject(error);
        },
      };
      const deadline = setTimeout(waiter.finish, waitSeconds * 1000);
      signal.addEventListener('abort', waiter.finish, { once: true });
      run.waiters.add(waiter);
      const changedAt = this.#recent.get(row.id);
      if (changedAt !== undefined && Date.now() - changedAt < RECENT_CHANGE_MS && run.readAt < changedAt)
        this.#reread(run);
      else if (fresh) this.#schedule(run);
    });
  }

  #schedule(run: Watched): void {
    clearTimeout(run.timer);
    run.timer = setTimeout(() => this.#reread(run), this.#pollMs());
  }

  /** One read of the run for all its waiters; a change told meanwhile asks for one more after it. */
  #reread(run: Watched): void {
    if (run.loading) {
      run.again = true;
      return;
    }
    clearTimeout(run.timer);
    run.timer = undefined;
    run.loading = true;
    const startedAt = Date.now();
    run.readAt = startedAt;
    run
      .load()
      .then(
        (next) => {
          for (const waiter of [...run.waiters]) {
            // Gone: each answers with what it has.
            if (!next) waiter.finish();
            else if (waiter.joinedAt <= startedAt) {
              waiter.current = next;
              if (fingerprint(next) !== waiter.seen) waiter.finish();
            } else if (fingerprint(next) !== waiter.seen) {
              // Joined during the read: its own row may be the newer one; a second read settles it.
              run.again = true;
            }
          }
        },
        (error: unknown) => {
          for (const waiter of [...run.waiters]) waiter.fail(error);
        },
      )
      .finally(() => {
        run.loading = false;
        if (run.waiters.size === 0) return;
        if (run.again) {
          run.again = false;
          this.#reread(run);
        } else this.#schedule(run);
      });
  }
}
