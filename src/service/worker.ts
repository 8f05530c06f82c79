// The run worker: claims due runs with a lease, runs the audit engine, and ends each run in one
// transaction. A crashed worker's lease expires and another claims the run; a timed-out or failed
// attempt is retried with back-off; after the last attempt (one that never ended, because it took
// its process down, counts too) the run ends failed_auto_credit with its credits returned. Stopping releases the runs in hand, so a restart loses none.
import { randomBytes } from 'node:crypto';
import { type AuditOptions, ENGINE_PRODUCTS, type EngineProduct, runAudit, SiteUnreachable } from '../audit/index.ts';
import { toFindings, toReportContext } from '../audit/report.ts';
import { nextTurn } from '../audit/turns.ts';
import { observeClaim, observeRunEnd } from './metrics.ts';
import { planRunCaps } from './plans.ts';
import { type AccessLoader, AccessUnavailable } from './project-access.ts';
import { runEventData, runHumanUrl } from './runs.ts';
import { eventId } from './store/ids.ts';
import type { RunRow, Store } from './store/index.ts';
import type { ClaimLimits } from './store/runs.ts';

/** How long a claimed run stays with its worker without a renewal (`serve --worker-lease-seconds`). */
export const DEFAULT_LEASE_MS = 60_000;

/** The claim's fairness (issue 28; docs/decisions.md says why these): see Fairness. */
export const DEFAULT_ORG_MAX_RUNNING_RUNS = 4;
export const DEFAULT_HOST_MAX_RUNNING_RUNS = 1;
export const DEFAULT_HOST_MIN_GAP_MS = 2000;

/** What every process's claims keep to together, counted across processes (store/runs.ts `claim`). */
export interface Fairness {
  /** Runs in progress of one organization whose plan sets no cap (plans.ts maxRunningRuns). */
  orgMaxRunningRuns: number;
  /** Runs in progress on one host (a target on this machine has no cap). */
  hostMaxRunningRuns: number;
  /** Least time between the starts of two audits of one host. */
  hostMinGapMs: number;
}

export interface WorkerOptions {
  store: Store;
  publicUrl: () => string;
  /** Runs audited at once by this process. */
  concurrency?: number;
  /** The fairness caps, each the default above unless given. */
  fairness?: Partial<Fairness>;
  leaseMs?: number;
  /** Milliseconds between looks for work when nothing wakes the worker; a function is asked before each wait (wakeups.ts). */
  pollMs?: number | (() => number);
  maxAttempts?: number;
  /** Longest one attempt may take before it is aborted and retried. */
  attemptTimeoutMs?: number;
  /**
   * Engine options: local targets, DNS, page budget, extra CAs. Read at each run, so an allowPrivate
   * getter (the local-targets policy) that turns false applies from the next run on.
   */
  engine?: Omit<AuditOptions, 'signal' | 'onProgress'>;
  log?: (line: string) => void;
  /** Told after each change this worker wrote to a run, so long polls of it answer at once. */
  onRunChanged?: (runId: string) => void;
  /** Told when an attempt ended (a run.completed or run.failed event may have been written). */
  onAttemptEnded?: () => void;
  /** Told when a run went back to the queue: given back now (dueInMs 0), or to be retried after dueInMs. */
  onRunQueued?: (runId: string, dueInMs: number) => void;
  /** The project's access settings for its own origin (issue 29); none when absent. */
  accessFor?: AccessLoader;
}

class LocalTargetRefused extends Error {
  constructor(url: string) {
    super(`${url} is on this machine, and local targets are not allowed on this service`);
  }
}

export class RunWorker {
  readonly owner = `worker-${randomBytes(6).toString('hex')}`;
  readonly #options: Required<
    Omit<WorkerOptions, 'engine' | 'log' | 'onRunChanged' | 'onAttemptEnded' | 'onRunQueued' | 'accessFor'>
  > &
    Pick<WorkerOptions, 'engine' | 'log' | 'onRunChanged' | 'onAttemptEnded' | 'onRunQueued' | 'accessFor'>;
  readonly #active = new Map<string, { abort: AbortController; done: Promise<void> }>();
  #running = false;
  #wake: (() => void) | undefined;
  /** A wake-up came since the loop last began a look (one during a claim must not be lost). */
  #woken = false;
  #loop: Promise<void> | undefined;
  readonly #limits: ClaimLimits;

  constructor(options: WorkerOptions) {
    this.#options = {
      concurrency: 2,
      fairness: {},
      leaseMs: DEFAULT_LEASE_MS,
      pollMs: 1000,
      maxAttempts: 3,
      attemptTimeoutMs: 5 * 60_000,
      ...options,
    };
    const fairness = this.#options.fairness;
    this.#limits = {
      orgMaxRunning: fairness.orgMaxRunningRuns ?? DEFAULT_ORG_MAX_RUNNING_RUNS,
      planMaxRunning: planRunCaps(),
      hostMaxRunning: fairness.hostMaxRunningRuns ?? DEFAULT_HOST_MAX_RUNNING_RUNS,
      hostMinGapMs: fairness.hostMinGapMs ?? DEFAULT_HOST_MIN_GAP_MS,
    };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Look for work now (a run was just created). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Gives the runs in hand back to the queue now, without waiting for their audits to stop. */
  async release(): Promise<void> {
    this.#running = false;
    await Promise.all(
      [...this.#active.keys()].map((id) =>
        this.#options.store.runs
          .release(id, this.owner)
          .then(() => this.#options.onRunQueued?.(id, 0))
          .catch(() => {}),
      ),
    );
  }

  /** Stops claiming, aborts the runs in hand and gives them back to the queue. */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    for (const { abort } of this.#active.values()) abort.abort(new Error('worker stopping'));
    await Promise.all([...this.#active.values()].map((a) => a.done));
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let claimed: RunRow | undefined;
      this.#woken = false;
      if (this.#active.size < this.#options.concurrency) {
        try {
          // Never a second attempt of a run this worker still works on, whatever its lease says.
          claimed = await this.#options.store.runs.claim(
            this.owner,
            this.#options.leaseMs,
            [...this.#active.keys()],
            {
              maxAttempts: this.#options.maxAttempts,
              error: (run) =>
                `audit failed: attempt ${run.attempts} of ${this.#options.maxAttempts} never finished (its process stopped or froze while auditing this site)`,
              event: (failed) => this.#failedEvent(failed),
              gaveUp: (id) => {
                this.#options.log?.(`worker: run ${id} gave up: its last attempt never finished`);
                this.#options.onRunChanged?.(id);
                this.#options.onAttemptEnded?.();
              },
            },
            this.#limits,
          );
        } catch (error) {
          this.#options.log?.(`worker: claim failed: ${(error as Error).message}`);
        }
      }
      if (claimed) {
        observeClaim(claimed);
        const abort = new AbortController();
        const run = claimed;
        this.#options.onRunChanged?.(run.id);
        const done = this.#process(run, abort).finally(() => {
          this.#active.delete(run.id);
          this.#options.onRunChanged?.(run.id);
          this.#options.onAttemptEnded?.();
          this.wake();
        });
        this.#active.set(run.id, { abort, done });
        continue;
      }
      // Woken while it looked (a run queued meanwhile, perhaps after the read that found none): again.
      if (this.#woken) continue;
      await new Promise<void>((resolve) => {
        const { pollMs } = this.#options;
        const timer = setTimeout(resolve, typeof pollMs === 'function' ? pollMs() : pollMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #failedEvent(failed: RunRow) {
    return {
      id: eventId(),
      type: 'run.failed',
      created_at: new Date().toISOString(),
      data: JSON.stringify(runEventData(failed, this.#options.publicUrl())),
    };
  }

  async #process(run: RunRow, abort: AbortController): Promise<void> {
    const { store } = this.#options;
    const timeout = setTimeout(
      () => abort.abort(new Error(`attempt timed out after ${this.#options.attemptTimeoutMs} ms`)),
      this.#options.attemptTimeoutMs,
    );
    // The lease is renewed while the attempt lives, not only when it reports progress: one slow fetch
    // must not let the lease lapse and the run be claimed again.
    const renewal = setInterval(
      () => {
        store.runs
          .renewLease(run.id, this.owner, this.#options.leaseMs)
          .then((kept) => {
            if (!kept) abort.abort(new Error('lease lost'));
          })
          .catch(() => {});
      },
      Math.max(50, Math.floor(this.#options.leaseMs / 3)),
    );
    let lastWrite = 0;
    let pending: Promise<unknown> = Promise.resolve();
    const onProgress = (progressPct: number, step: string) => {
      const now = Date.now();
      if (now - lastWrite < 250 && progressPct < 100) return;
      lastWrite = now;
      pending = pending
        .then(() => store.runs.progress(run.id, this.owner, progressPct, step, this.#options.leaseMs))
        .then((kept) => {
          if (!kept) abort.abort(new Error('lease lost'));
          else this.#options.onRunChanged?.(run.id);
        })
        .catch(() => {});
    };
    try {
      if (!(ENGINE_PRODUCTS as readonly string[]).includes(run.product))
        throw new Error(`product ${run.product} is not available on this service yet`);
      const engine = { ...this.#options.engine, signal: abort.signal, onProgress };
      // The engine fetches a local run's target whatever allowPrivate says: one queued while local
      // targets were allowed must not run once they are not.
      if (run.local === 1 && !engine.allowPrivate) throw new LocalTargetRefused(run.url);
      const access = await this.#options.accessFor?.(run.project_id, run.url);
      const outcome = await runAudit(
        run.product as EngineProduct,
        { url: run.url, local: run.local === 1 },
        access ? { ...engine, access } : engine,
      );
      await pending;
      abort.signal.throwIfAborted();
      const completedAt = new Date().toISOString();
      const humanUrl = runHumanUrl(this.#options.publicUrl(), run.id);
      const meta = {
        runId: run.id,
        projectId: run.project_id,
        scanMode: run.scan_mode,
        createdAt: run.created_at,
        completedAt,
        humanUrl,
      };
      // Validating the findings and the report against the contract takes a while on a large
      // audit: each in a turn of its own, as the judging was (audit/turns.ts).
      await nextTurn();
      const findings = toFindings(outcome, meta);
      await nextTurn();
      const report = toReportContext(outcome, meta, findings);
      await nextTurn();
      const completedRow: RunRow = {
        ...run,
        status: 'completed',
        score: outcome.score,
        score_status: outcome.scoreStatus,
        severity_counts: JSON.stringify(outcome.severityCounts),
        findings_total: findings.length,
        completed_at: completedAt,
        error: null,
      };
      const ok = await store.runs.complete(run.id, this.owner, {
        score: outcome.score,
        scoreStatus: outcome.scoreStatus,
        severityCounts: JSON.stringify(outcome.severityCounts),
        findingsTotal: findings.length,
        coverage: outcome.coverage ? JSON.stringify(outcome.coverage) : null,
        report: JSON.stringify(report),
        keyPages: outcome.keyPages ? JSON.stringify(outcome.keyPages) : null,
        findings: findings.map((f, position) => ({
          finding_id: f.findingId,
          position,
          severity: f.severity,
          body: JSON.stringify(f),
        })),
        event: {
          id: eventId(),
          type: 'run.completed',
          created_at: completedAt,
          data: JSON.stringify(runEventData(completedRow, this.#options.publicUrl())),
        },
      });
      if (!ok) this.#options.log?.(`worker: run ${run.id} was taken over before it completed here`);
      else observeRunEnd(run, 'completed');
    } catch (error) {
      await pending;
      if (!this.#running) {
        await store.runs
          .release(run.id, this.owner)
          .then(() => this.#options.onRunQueued?.(run.id, 0))
          .catch(() => {});
        return;
      }
      const reason = abort.signal.aborted
        ? String((abort.signal.reason as Error)?.message ?? 'aborted')
        : (error as Error).message;
      if (reason === 'lease lost') return;
      const message = `audit failed: ${reason}`.slice(0, 500);
      // A name without an address or a blocked target will not change in a few seconds: fail at once.
      const hopeless =
        (error instanceof SiteUnreachable && !error.retryable) ||
        error instanceof LocalTargetRefused ||
        error instanceof AccessUnavailable;
      const final = hopeless || run.attempts >= this.#options.maxAttempts;
      const retryInMs = 2000 * 2 ** (run.attempts - 1);
      this.#options.log?.(`worker: run ${run.id} attempt ${run.attempts}: ${message}${final ? ' (giving up)' : ''}`);
      await store.runs
        .failAttempt(
          run.id,
          this.owner,
          message,
          final ? { final: true, event: (failed) => this.#failedEvent(failed) } : { final: false, retryInMs },
        )
        .then((kept) => {
          if (kept && final) observeRunEnd(run, 'failed');
          else if (kept) this.#options.onRunQueued?.(run.id, retryInMs);
        })
        .catch((e: Error) => this.#options.log?.(`worker: could not record the failure of ${run.id}: ${e.message}`));
    } finally {
      clearTimeout(timeout);
      clearInterval(renewal);
    }
  }
}
