// The site monitor of every `serve` process (issue 11; docs/decisions.md, "Monitoring"). It leases
// due monitored projects through the store, looks at each one's home page and the pages its last run
// found most linked, and writes the checks, the pages' new state and a `monitoring.changed` event for
// each page whose status class or meaningful content changed, in one transaction. Issue 28: each
// check runs in a lane of its own (lanes.ts) within a time budget, and the claim keeps each
// organization, and its slow sites, to their caps and each host to one check at a time.
import { randomBytes } from 'node:crypto';
import { pageKey } from '../audit/crawler.ts';
import {
  type AuditOptions,
  createPageWatcher,
  judgeLook,
  KEY_PAGES_MAX,
  nextState,
  type PageLook,
  type PageState,
  type PageWatcher,
} from '../audit/index.ts';
import type { MonitoringChangedData } from '../contract/index.ts';
import { Lanes } from './lanes.ts';
import { observeMonitorCheck } from './metrics.ts';
import { PassLoop } from './pass-loop.ts';
import type { AccessLoader } from './project-access.ts';
import { startUrlFor } from './runs.ts';
import { eventId, uuidv7 } from './store/ids.ts';
import type { MonitorRow, ProjectRow, Store } from './store/index.ts';
import { type CheckResults, DEFAULT_MONITOR_LIMITS, type MonitorLimits } from './store/monitors.ts';

/** The interval of a project that sets none (`serve --monitor-interval-minutes`). */
export const DEFAULT_MONITOR_INTERVAL_MINUTES = 60;
/** The shortest interval a project may ask for (`serve --monitor-min-interval-minutes`). */
export const DEFAULT_MONITOR_MIN_INTERVAL_MINUTES = 5;
/** Checks older than this are deleted by the housekeeper (`serve --monitor-history-days`; 0 keeps them). */
export const DEFAULT_MONITOR_HISTORY_DAYS = 90;
/** A check looks at a few pages at once; a process that dies mid-check gives its project up after this. */
const MONITOR_LEASE_MS = 120_000;
/**
 * The time one check may take, all its pages and their second looks (`serve --monitor-check-seconds`):
 * a site that drips or redirects slowly holds a lane this long at most, and below the lease.
 */
export const DEFAULT_MONITOR_CHECK_SECONDS = 30;
export const MONITOR_CHECK_MAX_SECONDS = 100;

export const monitoringHumanUrl = (publicUrl: string, projectId: string) =>
  `${publicUrl}/projects/${projectId}/monitoring`;

const localRefused = (url: string): PageLook => ({
  url,
  httpStatus: null,
  up: false,
  error: 'local targets are not allowed on this service',
  durationMs: 0,
  fingerprint: null,
});

export interface MonitorOptions {
  store: Store;
  publicUrl: () => string;
  defaultIntervalMinutes?: number;
  /**
   * The engine's fetch options: local targets, DNS, CA, ports, timeouts. allowPrivate is read at
   * each check, so a getter (the local-targets policy) that turns false applies from the next one.
   */
  engine?: Omit<AuditOptions, 'signal' | 'onProgress' | 'pageBudget'>;
  /** How long a page that seems down is given before it is looked at again (default 2 s). */
  confirmAfterMs?: number;
  pollMs?: number;
  leaseMs?: number;
  /** Projects checked at once by this process. */
  concurrency?: number;
  /** What the claim keeps to across processes: caps per organization and for slow sites (issue 28). */
  limits?: MonitorLimits;
  /** The time budget of one check (DEFAULT_MONITOR_CHECK_SECONDS); one that used half of it was slow. */
  checkBudgetMs?: number;
  /** The time in milliseconds; tests drive the schedule with their own. */
  clock?: () => number;
  /** Run on a timer (false: a test calls tick() itself). */
  autoStart?: boolean;
  /** Told after a check wrote events (the deliverer sends them now rather than at its next look). */
  onEvents?: () => void;
  log?: (line: string) => void;
  /** The project's access settings for its own origin (issue 29). */
  accessFor?: AccessLoader;
}

export class SiteMonitor {
  readonly owner = `monitor-${randomBytes(6).toString('hex')}`;
  readonly #options: MonitorOptions;
  readonly #clock: () => number;
  /** One watcher per answer to allowPrivate, so none keeps a connection made under the other. */
  readonly #watchers = new Map<boolean, PageWatcher>();
  readonly #loop: PassLoop;
  readonly #lanes: Lanes<{ monitor: MonitorRow; project: ProjectRow }>;
  readonly #abort = new AbortController();

  constructor(options: MonitorOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#lanes = new Lanes({
      lanes: options.concurrency ?? 2,
      claim: () =>
        this.#loop.stopped
          ? Promise.resolve(undefined)
          : options.store.monitors.claim(
              this.owner,
              new Date(this.#clock()).toISOString(),
              options.leaseMs ?? MONITOR_LEASE_MS,
              options.limits ?? DEFAULT_MONITOR_LIMITS,
            ),
      work: ({ monitor, project }) => this.#check(monitor, project),
      // A check that ended freed a lane (and maybe its organization's cap or its host): look again now.
      onFree: () => {
        if (options.autoStart !== false) this.#loop.wake();
      },
      onError: (error) => {
        if (!this.#loop.stopped) options.log?.(`monitoring: ${error.message}`);
      },
    });
    this.#loop = new PassLoop(
      () => this.#lanes.fill(),
      options.pollMs ?? 5000,
      (error) => {
        if (!this.#loop.stopped) options.log?.(`monitoring: ${error.message}`);
      },
    );
  }

  start(): void {
    if (this.#options.autoStart !== false) this.#loop.start();
  }

  /** A pass now (monitoring was just switched on). */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Checks every due project it may, `concurrency` at a time, until none is left (tests drive the
   * monitor so; its own passes fill the free lanes without waiting for their checks). Old checks are
   * the housekeeper's to delete.
   */
  async tick(): Promise<void> {
    await this.#lanes.drain();
  }

  #watcher(allowPrivate: boolean): PageWatcher {
    let watcher = this.#watchers.get(allowPrivate);
    if (!watcher) {
      watcher = createPageWatcher({
        ...this.#options.engine,
        allowPrivate,
        ...(this.#options.confirmAfterMs !== undefined ? { confirmAfterMs: this.#options.confirmAfterMs } : {}),
      });
      this.#watchers.set(allowPrivate, watcher);
    }
    return watcher;
  }

  async #check(monitor: MonitorRow, project: ProjectRow): Promise<void> {
    const { store } = this.#options;
    const home = startUrlFor(project);
    const keyPages = await store.runs.latestKeyPages(project.id);
    const urls = [...new Map([home.url, ...keyPages].map((url) => [pageKey(url), url])).values()].slice(
      0,
      1 + KEY_PAGES_MAX,
    );
    const allowPrivate = this.#options.engine?.allowPrivate ?? false;
    // Settings that cannot be opened (the key-encryption key changed): the pages are looked at
    // without them, as a visitor sees them, and the operator is told.
    const access = await this.#options.accessFor?.(project.id, home.url).catch((error: Error) => {
      this.#options.log?.(`monitoring: project ${project.id}: ${error.message}`);
      return undefined;
    });
    const budgetMs = this.#options.checkBudgetMs ?? DEFAULT_MONITOR_CHECK_SECONDS * 1000;
    const budget = AbortSignal.timeout(budgetMs);
    const signal = AbortSignal.any([this.#abort.signal, budget]);
    const started = performance.now();
    // The watcher fetches a local project whatever allowPrivate says: once local targets are
    // refused, its pages are down for that reason, unfetched.
    const looks = await Promise.all(
      urls.map((url) =>
        home.local && !allowPrivate
          ? Promise.resolve(localRefused(url))
          : this.#watcher(allowPrivate)
              .look({ url, local: home.local }, signal, access)
              .catch((error: unknown): PageLook => {
                // Stopping abandons the check; a page the budget cut off is down, as one that never answers.
                if (this.#abort.signal.aborted || !budget.aborted) throw error;
                return {
                  url,
                  httpStatus: null,
                  up: false,
                  error: `no answer within the check's time budget (${budgetMs / 1000} s)`,
                  durationMs: Math.round(performance.now() - started),
                  fingerprint: null,
                };
              }),
      ),
    );
    // Slow sites go after the others' until a check of theirs is quick again (store/monitors.ts).
    const slow = performance.now() - started >= budgetMs / 2;
    const checkedAt = new Date(this.#clock()).toISOString();
    const previous = JSON.parse(monitor.pages) as Record<string, PageState>;
    const pages: Record<string, PageState> = {};
    const results: CheckResults = {
      checkedAt,
      pages: '',
      checks: [],
      events: [],
      nextCheckAt: new Date(
        this.#clock() + (monitor.interval_minutes ?? this.defaultIntervalMinutes) * 60_000,
      ).toISOString(),
      slow,
    };
    for (const look of looks) {
      const before = previous[look.url];
      const { kind, changes } = judgeLook(before, look);
      const id = kind ? eventId() : null;
      if (id && kind) {
        const data: MonitoringChangedData = {
          projectId: project.id,
          url: look.url,
          kind,
          httpStatus: look.httpStatus,
          previousHttpStatus: before?.httpStatus ?? null,
          changes,
          error: look.error,
          checkedAt,
          humanUrl: monitoringHumanUrl(this.#options.publicUrl(), project.id),
        };
        results.events.push({ id, type: 'monitoring.changed', created_at: checkedAt, data: JSON.stringify(data) });
      }
      results.checks.push({
        id: uuidv7(),
        url: look.url,
        created_at: checkedAt,
        http_status: look.httpStatus,
        up: look.up ? 1 : 0,
        kind,
        changes: JSON.stringify(changes),
        error: look.error,
        duration_ms: look.durationMs,
        event_id: id,
      });
      pages[look.url] = nextState(before, look, kind, checkedAt);
    }
    results.pages = JSON.stringify(pages);
    const kept = await store.monitors.finish(project.id, this.owner, results);
    if (kept) observeMonitorCheck(monitor, this.#clock());
    if (!kept) this.#options.log?.(`monitoring: project ${project.id} was taken over before its check was written`);
    else if (results.events.length > 0) this.#options.onEvents?.();
  }

  get defaultIntervalMinutes(): number {
    return this.#options.defaultIntervalMinutes ?? DEFAULT_MONITOR_INTERVAL_MINUTES;
  }

  /** Stops: the check in hand is abandoned (its project stays due) and the leases are given back. */
  async stop(): Promise<void> {
    this.#abort.abort(new Error('monitor stopping'));
    await this.#loop.stop();
    await this.#lanes.settled();
    await this.#options.store.monitors.release(this.owner).catch(() => {});
    await Promise.all([...this.#watchers.values()].map((watcher) => watcher.close()));
  }
}
