// The housekeeper (issue 28): the database's upkeep, done by one process of a deployment at a time
// instead of by all of them. Every `serve` process runs one; each minute it looks at the lease
// (store/housekeeping.ts), and the one that holds it sweeps what expires by the minute (rate-limit
// windows, OAuth records) and, hourly, deletes what has outlived the retention settings
// (store/retention.ts): ended runs whole, webhook deliveries with their attempts, events, the audit
// log, monitoring checks. Batches are short transactions with a pause between them, and the lease is
// renewed between batches, so a process that lost it (frozen past its lease) stops at the next batch.
// A process that stops gives the lease back; one killed with -9 is replaced when its lease runs out.
// docs/decisions.md, "Retention".
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { counted } from '../contract/words.ts';
import { DEFAULT_AUDIT_LOG_DAYS, retentionCutoff } from './audit-retention.ts';
import { logger } from './logger.ts';
import { DEFAULT_MONITOR_HISTORY_DAYS } from './monitor.ts';
import { PassLoop } from './pass-loop.ts';
import { housekeepingStore } from './store/housekeeping.ts';
import type { Store } from './store/index.ts';
import { type Keyset, type Pruned, retentionStore } from './store/retention.ts';

/** The lease's name in `housekeeping`. */
export const HOUSEKEEPER_JOB = 'housekeeper';

/** Runs are kept for ever unless the operator says otherwise (docs/decisions.md, "Retention"). */
export const DEFAULT_RUN_RETENTION_DAYS = 0;
export const DEFAULT_EVENT_RETENTION_DAYS = 90;
export const DEFAULT_DELIVERY_RETENTION_DAYS = 90;

/** Days each kind of row is kept; 0 keeps it for ever. */
export interface RetentionDays {
  /** Ended runs, each with its findings, report and shares (never a project's latest completed run of a product). */
  runs: number;
  /** Webhook events, once dispatched and no delivery of them is left. */
  events: number;
  /** Webhook deliveries that are over (delivered or failed for good), with their attempts. */
  deliveries: number;
  auditLog: number;
  monitorChecks: number;
}

export const DEFAULT_RETENTION_DAYS: RetentionDays = {
  runs: DEFAULT_RUN_RETENTION_DAYS,
  events: DEFAULT_EVENT_RETENTION_DAYS,
  deliveries: DEFAULT_DELIVERY_RETENTION_DAYS,
  auditLog: DEFAULT_AUDIT_LOG_DAYS,
  monitorChecks: DEFAULT_MONITOR_HISTORY_DAYS,
};

/** Runs per batch: each carries its findings (up to one per check) and shares. */
export const DEFAULT_RUN_BATCH = 100;
/** Rows per batch of the other tables. */
export const DEFAULT_ROW_BATCH = 500;

export interface HousekeeperOptions {
  store: Store;
  retention?: Partial<RetentionDays>;
  /** How often the lease is looked at and the minute's sweeps made (60 s). */
  tickMs?: number;
  /** How long the lease lasts unrenewed: a housekeeper killed with -9 is replaced after this (3 min). */
  leaseMs?: number;
  /** Between two retention passes (an hour). */
  passEveryMs?: number;
  /** The first look, after the process started (1 s). */
  firstTickMs?: number;
  runBatch?: number;
  rowBatch?: number;
  /** The pause between two batches, in which other writers get the database (20 ms). */
  pauseMs?: number;
  log?: (line: string) => void;
  /** Told after each retention pass. */
  onPass?: (pass: RetentionPass) => void;
}

/** What one retention pass did, by table (a table whose retention is 0 is absent). */
export interface RetentionPass {
  owner: string;
  startedAt: number;
  endedAt: number;
  runs?: Pruned;
  deliveries?: Pruned;
  events?: Pruned;
  auditLog?: Pruned;
  monitorChecks?: Pruned;
  /** False when the lease was lost (or the process began to stop) and the pass ended early. */
  complete: boolean;
}

type Table = 'runs' | 'deliveries' | 'events' | 'auditLog' | 'monitorChecks';

/** The log line of a table's pruning, counts with their nouns ("1 run", "2 runs"). */
const SAID: Record<Table, (pruned: Pruned, days: number) => string> = {
  runs: ({ deleted, related, batches }, days) =>
    `retention: deleted ${counted(deleted, 'run')} older than ${counted(days, 'day')}, with ${counted(related, 'finding or share', 'findings and shares')} (${counted(batches, 'batch', 'batches')})`,
  deliveries: ({ deleted, related, batches }, days) =>
    `retention: deleted ${counted(deleted, 'webhook delivery', 'webhook deliveries')} older than ${counted(days, 'day')}, with ${counted(related, 'attempt or event', 'attempts and events')} (${counted(batches, 'batch', 'batches')})`,
  events: ({ deleted, batches }, days) =>
    `retention: deleted ${counted(deleted, 'event')} older than ${counted(days, 'day')} (${counted(batches, 'batch', 'batches')})`,
  auditLog: ({ deleted }, days) => `audit log: deleted ${counted(deleted, 'row')} older than ${counted(days, 'day')}`,
  monitorChecks: ({ deleted }, days) =>
    `monitoring: deleted ${counted(deleted, 'check')} older than ${counted(days, 'day')}`,
};

/** How a table is named in a line a person reads. */
const TABLE_TEXT: Record<Table, string> = {
  runs: 'runs',
  deliveries: 'webhook deliveries',
  events: 'events',
  auditLog: 'the audit log',
  monitorChecks: 'monitoring checks',
};

export class Housekeeper {
  readonly owner = `housekeeper-${randomBytes(6).toString('hex')}`;
  readonly #options: HousekeeperOptions;
  readonly #days: RetentionDays;
  readonly #lease: ReturnType<typeof housekeepingStore>;
  readonly #retention: ReturnType<typeof retentionStore>;
  readonly #loop: PassLoop;
  readonly #leaseMs: number;
  #first: NodeJS.Timeout | undefined;
  #holding = false;
  #renewedAt = 0;
  #lastPass = Number.NEGATIVE_INFINITY;
  /**
   * Where the events walk stopped: the events it passed and kept each have a delivery, and go with
   * their last delivery (pruneDeliveries), so the next pass need not read them again.
   */
  #eventsFrom: Keyset | undefined;

  constructor(options: HousekeeperOptions) {
    this.#options = options;
    this.#days = { ...DEFAULT_RETENTION_DAYS, ...options.retention };
    const context = { db: options.store.db, backend: options.store.backend };
    this.#lease = housekeepingStore(context);
    this.#retention = retentionStore(context);
    this.#leaseMs = options.leaseMs ?? 180_000;
    this.#loop = new PassLoop(
      () => this.#tick(),
      options.tickMs ?? 60_000,
      (error) => {
        if (!this.#loop.stopped) options.log?.(`housekeeping: ${error.message}`);
      },
    );
  }

  /** Whether this process is the housekeeper now (as of its last look). */
  get holding(): boolean {
    return this.#holding;
  }

  start(): void {
    this.#first = setTimeout(() => this.#loop.start(), this.#options.firstTickMs ?? 1_000);
    this.#first.unref();
  }

  /** Stops: the batch in hand finishes, no other starts, and the lease is given back. */
  async stop(): Promise<void> {
    clearTimeout(this.#first);
    await this.#loop.stop();
    if (this.#holding) await this.#lease.release(HOUSEKEEPER_JOB, this.owner).catch(() => {});
    this.#holding = false;
  }

  async #take(): Promise<boolean> {
    const now = Date.now();
    this.#holding = await this.#lease.take(HOUSEKEEPER_JOB, this.owner, new Date(now), this.#leaseMs);
    this.#renewedAt = now;
    return this.#holding;
  }

  async #tick(): Promise<void> {
    if (!(await this.#take())) return;
    await this.#sweep();
    if (Date.now() - this.#lastPass >= (this.#options.passEveryMs ?? 3_600_000)) await this.pass();
  }

  /** What expires by the minute, for the whole deployment. */
  async #sweep(): Promise<void> {
    const { store } = this.#options;
    // Rate-limit windows are a minute long; two minutes back, none is counted in any more.
    await store.rateLimits.sweep(Math.floor(Date.now() / 1000) - 120).catch((error: Error) => {
      logger().warn(`housekeeping: rate-limit sweep failed: ${error.message}`);
    });
    // Expired OAuth codes, tokens and sessions, and registrations no authorization completed.
    await store.oauthRecords.prune().catch((error: Error) => {
      logger().warn(`housekeeping: OAuth records prune failed: ${error.message}`);
    });
  }

  /** Between two batches: a pause, then the lease renewed once a third of it has passed. */
  readonly #between = async (): Promise<boolean> => {
    const pauseMs = this.#options.pauseMs ?? 20;
    await sleep(pauseMs);
    if (this.#loop.stopped) return false;
    if (Date.now() - this.#renewedAt < this.#leaseMs / 3) return true;
    if (await this.#take()) return true;
    this.#options.log?.('housekeeping: the lease passed to another process; this one stops pruning');
    return false;
  };

  /** One retention pass over every table whose retention is set (the lease must be held). */
  async pass(): Promise<RetentionPass> {
    const started = Date.now();
    this.#lastPass = started;
    const days = this.#days;
    const cutoff = (d: number) => retentionCutoff(d, started).toISOString();
    const runBatch = { batchSize: this.#options.runBatch ?? DEFAULT_RUN_BATCH, between: this.#between };
    const rowBatch = { batchSize: this.#options.rowBatch ?? DEFAULT_ROW_BATCH, between: this.#between };
    const result: RetentionPass = { owner: this.owner, startedAt: started, endedAt: started, complete: true };
    const steps: Array<[Table, number, () => Promise<Pruned>]> = [
      // Deliveries before events: an event goes with its last delivery.
      [
        'deliveries',
        days.deliveries,
        () =>
          this.#retention.pruneDeliveries(
            cutoff(days.deliveries),
            days.events ? cutoff(days.events) : undefined,
            rowBatch,
          ),
      ],
      [
        'events',
        days.events,
        async () => {
          const pruned = await this.#retention.pruneEvents(cutoff(days.events), {
            ...rowBatch,
            ...(this.#eventsFrom ? { from: this.#eventsFrom } : {}),
          });
          this.#eventsFrom = pruned.last;
          return pruned;
        },
      ],
      ['runs', days.runs, () => this.#retention.pruneRuns(cutoff(days.runs), runBatch)],
      [
        'monitorChecks',
        days.monitorChecks,
        () => this.#retention.pruneMonitorChecks(cutoff(days.monitorChecks), rowBatch),
      ],
      ['auditLog', days.auditLog, () => this.#retention.pruneAuditLog(cutoff(days.auditLog), rowBatch)],
    ];
    for (const [table, kept, prune] of steps) {
      if (kept === 0) continue;
      if (!this.#holding || this.#loop.stopped) {
        result.complete = false;
        break;
      }
      try {
        const pruned = await prune();
        result[table] = pruned;
        this.#report(table, kept, pruned);
      } catch (error) {
        // A failed pass is the operator's to see: warn, whatever the injected line logger does.
        logger().warn(`housekeeping: pruning ${TABLE_TEXT[table]} failed: ${(error as Error).message}`);
      }
    }
    if (!this.#holding || this.#loop.stopped) result.complete = false;
    result.endedAt = Date.now();
    this.#options.onPass?.(result);
    return result;
  }

  #report(table: Table, days: number, pruned: Pruned): void {
    if (pruned.deleted > 0 || pruned.related > 0) this.#options.log?.(SAID[table](pruned, days));
  }
}
