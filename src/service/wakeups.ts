// Wake-ups between the service's jobs (issue 28): a run queued wakes the claimers, webhook work
// written (an event, a redelivery) wakes the deliverers, a run that changed wakes its long polls.
// Within a process a wake-up is a call. Across the processes of one PostgreSQL it is a NOTIFY, heard
// by one LISTEN connection per process: its own `pg.Client`, not one of the pool's, for LISTEN holds
// a session (behind PgBouncer in transaction mode it connects directly: `--database-listen-url`).
// Polling stays as the fallback: slowly while the listener hears the channel, at the old pace on
// SQLite (one process, every wake-up a call) and whenever the listener is down.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { logger } from './logger.ts';
import type { Database } from './store/index.ts';

/** A run became due (created, given back to the queue, its retry time come): claimers look. */
export const RUNS_QUEUED = 'siteaudit_runs_queued';
/** A run's status, progress or step changed; the payload is its id: its long polls re-read it. */
export const RUN_CHANGED = 'siteaudit_run_changed';
/** An event was written or a delivery queued: deliverers look. */
export const DELIVERIES_DUE = 'siteaudit_deliveries_due';
export type WakeupChannel = typeof RUNS_QUEUED | typeof RUN_CHANGED | typeof DELIVERIES_DUE;

export type WakeupHandler = (payload: string) => void;

export interface Wakeups {
  /** Starts hearing other processes (PostgreSQL: connects the listener), once the handlers are added. */
  start(): Promise<void>;
  /** Whether wake-ups on `channel` from other processes reach this one now (the listener is up). */
  listening(channel: WakeupChannel): boolean;
  /** Wakes this process's handlers of `channel` now, and, on PostgreSQL, every other process's. */
  notify(channel: WakeupChannel, payload?: string): Promise<void>;
  /** Calls `handler` at each wake-up of `channel`; answers how to stop. */
  on(channel: WakeupChannel, handler: WakeupHandler): () => void;
  /**
   * Calls `handler` when the listener comes up or goes down: the polling pace changes, and wake-ups
   * sent while it was down (or before it noticed) are lost, so everything should look once.
   */
  onListeningChanged(handler: (listening: boolean) => void): () => void;
  close(): Promise<void>;
}

/** How often a job looks without being woken: `fastMs` unless the listener hears its channel, then `listeningMs`. */
export interface PollPace {
  fastMs: number;
  listeningMs: number;
}

/**
 * The paces (docs/running.md, "Several processes"). While the listener is up, polls only catch what
 * no one announces: a lease that lapsed (a process killed), a webhook retry come due, a wake-up lost
 * between a drop and its detection.
 */
export const DEFAULT_POLL_PACES = {
  worker: { fastMs: 1000, listeningMs: 10_000 },
  deliverer: { fastMs: 1000, listeningMs: 10_000 },
  longPoll: { fastMs: 500, listeningMs: 5000 },
} as const satisfies Record<string, PollPace>;

/** The pace of a job woken on `channel`, as asked before each wait. */
export function pollPace(wakeups: Wakeups, channel: WakeupChannel, pace: PollPace): () => number {
  // Never slower without the listener than with it (a test's or an operator's long fast pace).
  const listeningMs = Math.max(pace.listeningMs, pace.fastMs);
  return () => (wakeups.listening(channel) ? listeningMs : pace.fastMs);
}

/** Handlers by channel, called in this process; a handler that throws does not stop the others. */
class Handlers {
  readonly #byChannel = new Map<string, Set<WakeupHandler>>();
  readonly #listening = new Set<(listening: boolean) => void>();

  add(channel: WakeupChannel, handler: WakeupHandler): () => void {
    let set = this.#byChannel.get(channel);
    if (!set) {
      set = new Set();
      this.#byChannel.set(channel, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  call(channel: string, payload: string): void {
    for (const handler of this.#byChannel.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        logger().error({ err: error }, `wake-ups: a ${channel} handler failed`);
      }
    }
  }

  addListening(handler: (listening: boolean) => void): () => void {
    this.#listening.add(handler);
    return () => this.#listening.delete(handler);
  }

  callListening(listening: boolean): void {
    for (const handler of this.#listening) {
      try {
        handler(listening);
      } catch (error) {
        logger().error({ err: error }, 'wake-ups: a listening handler failed');
      }
    }
  }
}

/** Wake-ups of one process (SQLite, or PostgreSQL without a listener): calls, and nothing heard from elsewhere. */
export function localWakeups(): Wakeups {
  const handlers = new Handlers();
  return {
    async start() {},
    listening: () => false,
    async notify(channel, payload = '') {
      handlers.call(channel, payload);
    },
    on: (channel, handler) => handlers.add(channel, handler),
    onListeningChanged: () => () => {},
    async close() {},
  };
}

export interface ListenerTimings {
  /** The first wait before connecting again after a failure; doubled at each failure up to maxMs. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** A `select 1` on the listening connection this often finds a connection that died silently (a NAT, a firewall). */
  heartbeatMs: number;
  /** How long connecting, and the heartbeat's answer, may take before the connection counts as lost. */
  timeoutMs: number;
}

export const DEFAULT_LISTENER_TIMINGS: ListenerTimings = {
  reconnectMinMs: 500,
  reconnectMaxMs: 30_000,
  heartbeatMs: 60_000,
  timeoutMs: 10_000,
};

export interface PostgresWakeupsOptions {
  /**
   * The connection string the listener connects with: a session of its own, so not through PgBouncer
   * in transaction mode. Without one (`serve --no-database-listen-url`) the process hears nothing
   * from the others but still wakes them.
   */
  listenUrl?: string;
  /** The store's queries: NOTIFY goes through its pool (any connection, PgBouncer's too, may send one). */
  db: Kysely<Database>;
  timings?: Partial<ListenerTimings>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Wake-ups over PostgreSQL's LISTEN/NOTIFY. A notification carries `origin:payload`: this process's
 * own come back through the listener too, and are dropped there, since notify() already called this
 * process's handlers. Call start() once before use.
 */
export class PostgresWakeups implements Wakeups {
  readonly #options: PostgresWakeupsOptions;
  readonly #timings: ListenerTimings;
  readonly #origin = randomBytes(6).toString('hex');
  readonly #handlers = new Handlers();
  /** The channels LISTENed to on the connection of the moment. */
  readonly #heard = new Set<string>();
  readonly #sending = new Set<Promise<void>>();
  /** Connections already given up (their error and their end are one loss). */
  readonly #dropped = new WeakSet<pg.Client>();
  #client: pg.Client | undefined;
  #failures = 0;
  #downSince: number | undefined;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: PostgresWakeupsOptions) {
    this.#options = options;
    this.#timings = { ...DEFAULT_LISTENER_TIMINGS, ...options.timings };
  }

  /** Connects the listener; on failure it is tried again with back-off, and the jobs poll meanwhile. */
  async start(): Promise<void> {
    if (this.#options.listenUrl) await this.#connect();
  }

  listening(channel: WakeupChannel): boolean {
    return this.#client !== undefined && this.#heard.has(channel);
  }

  notify(channel: WakeupChannel, payload = ''): Promise<void> {
    this.#handlers.call(channel, payload);
    if (this.#closed) return Promise.resolve();
    const sent = sql`select pg_notify(${channel}, ${`${this.#origin}:${payload}`})`
      .execute(this.#options.db)
      .then(
        () => {},
        // The other processes' polls find the change instead.
        (error: Error) => logger().warn(`wake-ups: could not notify ${channel}: ${error.message}`),
      )
      .finally(() => this.#sending.delete(sent));
    this.#sending.add(sent);
    return sent;
  }

  on(channel: WakeupChannel, handler: WakeupHandler): () => void {
    const first = !this.#handlers.channels().includes(channel);
    const off = this.#handlers.add(channel, handler);
    // A channel asked for after the connection came up is listened to from now on.
    if (first && this.#client) this.#listen(this.#client, [channel]).catch(() => {});
    return off;
  }

  onListeningChanged(handler: (listening: boolean) => void): () => void {
    return this.#handlers.addListening(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#heartbeat);
    await Promise.allSettled([...this.#sending]);
    const client = this.#client;
    this.#client = undefined;
    this.#heard.clear();
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#options.listenUrl,
      // Names the connection in pg_stat_activity; one given in the URL wins.
      application_name: 'siteaudit-listen',
      connectionTimeoutMillis: this.#timings.timeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: this.#timings.timeoutMs,
    });
    client.on('notification', (message) => {
      const text = message.payload ?? '';
      const colon = text.indexOf(':');
      if (colon < 0 || text.slice(0, colon) === this.#origin) return;
      this.#handlers.call(message.channel, text.slice(colon + 1));
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('the connection ended')));
    try {
      await client.connect();
      if (this.#closed) {
        await client.end().catch(() => {});
        return;
      }
      this.#client = client;
      this.#heard.clear();
      await this.#listen(client, this.#handlers.channels());
    } catch (error) {
      this.#lost(client, error as Error);
      return;
    }
    if (this.#client !== client) return;
    const wasDown = this.#downSince;
    this.#failures = 0;
    this.#downSince = undefined;
    this.#heartbeat = setInterval(() => this.#beat(client), this.#timings.heartbeatMs);
    this.#heartbeat.unref();
    if (wasDown !== undefined)
      logger().info(
        `wake-ups: listening again after ${Math.round((Date.now() - wasDown) / 1000)} s; every job looks once for what it missed`,
      );
    this.#handlers.callListening(true);
  }

  async #listen(client: pg.Client, channels: string[]): Promise<void> {
    for (const channel of channels) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`not a wake-up channel: ${channel}`);
      await client.query(`LISTEN ${channel}`);
      if (this.#client === client) this.#heard.add(channel);
    }
  }

  /** A `select 1` answered in time, or the connection counts as lost. */
  #beat(client: pg.Client): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the heartbeat was not answered in time')), this.#timings.timeoutMs);
    });
    Promise.race([client.query('select 1'), late])
      .catch((error: Error) => this.#lost(client, error))
      .finally(() => clearTimeout(timer));
  }

  #lost(client: pg.Client, error: Error): void {
    // An error and then the end may both come for one loss: the first is acted on.
    if (this.#dropped.has(client)) return;
    this.#dropped.add(client);
    const wasUp = this.#client === client;
    if (wasUp) {
      this.#client = undefined;
      this.#heard.clear();
      clearInterval(this.#heartbeat);
    }
    // A connection that died silently may never end by itself (end() cuts one with a query waiting).
    client.end().catch(() => {});
    if (this.#closed) return;
    if (this.#downSince === undefined) {
      this.#downSince = Date.now();
      logger().warn(
        `wake-ups: the listening connection is ${wasUp ? 'lost' : 'not available'} (${error.message}); polling at the fast pace until it is back`,
      );
    } else logger().debug(`wake-ups: the listening connection is still not available (${error.message})`);
    const delay = Math.min(this.#timings.reconnectMaxMs, this.#timings.reconnectMinMs * 2 ** this.#failures);
    this.#failures++;
    // Jittered, so the processes that lost the server together do not all come back at once.
    clearTimeout(this.#retry);
    this.#retry = setTimeout(
      () => {
        this.#retry = undefined;
        void this.#connect();
      },
      Math.round(delay * (0.5 + Math.random() / 2)),
    );
    this.#retry.unref();
    if (wasUp) this.#handlers.callListening(false);
  }
}
