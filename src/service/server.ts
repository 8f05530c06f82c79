// Runs the service on a socket: store, app, periodic housekeeping, and a clean stop on SIGTERM.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type Provider from 'oidc-provider';
import { createResolver } from '../audit/net/resolver.ts';
import { AddressThrottle, DEFAULT_REFUSALS_PER_MINUTE } from './address-throttle.ts';
import { createApp } from './app.ts';
import { AuditBursts } from './audit-bursts.ts';
import { DEFAULT_AUDIT_LOG_DAYS } from './audit-retention.ts';
import type { ServiceOptions, SocketHolder } from './context.ts';
import { CursorCodec } from './cursor.ts';
import { Deliverer, type DelivererOptions } from './deliverer.ts';
import { Housekeeper, type HousekeeperOptions, type RetentionDays } from './housekeeper.ts';
import { LocalLinks } from './local-links.ts';
import { LocalTargets } from './local-targets.ts';
import { logLine } from './logger.ts';
import {
  DEFAULT_MONITOR_INTERVAL_MINUTES,
  DEFAULT_MONITOR_MIN_INTERVAL_MINUTES,
  type MonitorOptions,
  SiteMonitor,
} from './monitor.ts';
import { guardedMetadataFetch, type MetadataFetchOptions } from './oauth/metadata-fetch.ts';
import { CONSENT_PATH, createOAuthProvider, OAUTH_PATH, resourcePolicy } from './oauth/provider.ts';
import { accessLoader } from './project-access.ts';
import { RunWatch } from './run-watch.ts';
import { sessionStore } from './sessions.ts';
import type { Store } from './store/index.ts';
import {
  DEFAULT_POLL_PACES,
  DELIVERIES_DUE,
  type ListenerTimings,
  localWakeups,
  type PollPace,
  PostgresWakeups,
  pollPace,
  RUN_CHANGED,
  RUNS_QUEUED,
  type WakeupChannel,
  type Wakeups,
} from './wakeups.ts';
import { RunWorker, type WorkerOptions } from './worker.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_RATE_LIMIT = 60;
/** The local service's own key: one person's command line and MCP hosts together (about 21 requests per audit). */
export const DEFAULT_LOCAL_RATE_LIMIT = 600;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface StartOptions extends Partial<Omit<ServiceOptions, 'publicUrl' | 'allowLocalTargets'>> {
  /** Whether this service may reach this machine and private networks, for its whole life (tests). */
  allowLocalTargets?: boolean;
  /** The same, as a policy that may turn them off while the service runs (`serve`); wins over allowLocalTargets. */
  localTargets?: LocalTargets;
  /** Refused requests per address per minute before 429 (DEFAULT_REFUSALS_PER_MINUTE). */
  refusalsPerMinute?: number;
  /**
   * Give the local key humanUrls that sign the local person in (src/service/local-links.ts): only
   * for the single-user local service on loopback (`serve` decides; tests opt in).
   */
  localLinks?: boolean;
  /** Days the audit log keeps its rows (DEFAULT_AUDIT_LOG_DAYS); 0 keeps them for ever. */
  auditLogDays?: number;
  /** Days runs, events, webhook deliveries and monitoring checks are kept (housekeeper.ts; 0: for ever). */
  retention?: Partial<Omit<RetentionDays, 'auditLog'>>;
  /** This process's candidate for housekeeper (every process has one unless a test says false). */
  housekeeping?: false | Omit<HousekeeperOptions, 'store' | 'retention' | 'log'>;
  /** The MCP servers (their /mcp URLs) OAuth tokens may be issued for (`serve --mcp-url`). */
  mcpUrls?: string[];
  /** How the authorization server resolves and trusts the documents clients name (tests' DNS and CA). */
  oauthFetch?: Omit<MetadataFetchOptions, 'allowPrivate'>;
  store: Store;
  kek: Buffer | Error;
  host?: string;
  port?: number;
  /** Base address for links; defaults to the address the service listens on. */
  publicUrl?: string;
  /** The run worker of this process; false for an API-only process. */
  worker?: false | Omit<WorkerOptions, 'store' | 'publicUrl'>;
  /** The webhook deliverer of this process (every process has one unless a test says false). */
  deliverer?: false | Omit<DelivererOptions, 'store' | 'kek' | 'allowPrivate'>;
  /** The site monitor of this process (every process has one unless told false). */
  monitor?: false | Omit<MonitorOptions, 'store' | 'publicUrl' | 'defaultIntervalMinutes'>;
  /** How long a client may take to send a request (DEFAULT_REQUEST_TIMEOUTS; tests shorten them). */
  timeouts?: Partial<RequestTimeouts>;
  /**
   * PostgreSQL: where this process's wake-ups listener connects (`serve --database-listen-url`, else
   * the database URL): a session of its own, so not through PgBouncer in transaction mode. Without
   * it the process hears only its own wake-ups and polls at the fast pace (wakeups.ts).
   */
  databaseListenUrl?: string;
  /** Polling paces (wakeups.ts DEFAULT_POLL_PACES); the worker's and the deliverer's pollMs are their fast pace. */
  pollPaces?: { worker?: Partial<PollPace>; deliverer?: Partial<PollPace>; longPoll?: Partial<PollPace> };
  /** The wake-ups listener's reconnect back-off and heartbeat (tests shorten them). */
  listenerTimings?: Partial<ListenerTimings>;
}

/** A job's pace: a function given outright as is; else wakeups.ts's, whose fast pace a number given sets. */
function pacing(
  wakeups: Wakeups,
  channel: WakeupChannel,
  given: number | (() => number) | undefined,
  defaults: PollPace,
  asked: Partial<PollPace> | undefined,
): () => number {
  if (typeof given === 'function') return given;
  return pollPace(wakeups, channel, { ...defaults, ...(given === undefined ? {} : { fastMs: given }), ...asked });
}

/**
 * Bounds on sending a request, against clients that drip it: its headers, and all of it with its
 * body. Answers may take longer (a long poll): these end when the request has arrived. The same as
 * `mcp --http`'s.
 */
export interface RequestTimeouts {
  headersMs: number;
  requestMs: number;
}
export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = { headersMs: 30_000, requestMs: 60_000 };

/** Node's options for the timeouts, checked often enough that a short one (a test's) holds to within a quarter. */
function timeoutOptions(given: Partial<RequestTimeouts> = {}) {
  const requestTimeout = given.requestMs ?? DEFAULT_REQUEST_TIMEOUTS.requestMs;
  const headersTimeout = Math.min(given.headersMs ?? DEFAULT_REQUEST_TIMEOUTS.headersMs, requestTimeout);
  const connectionsCheckingInterval = Math.max(25, Math.min(5_000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

export interface RunningService {
  url: string;
  port: number;
  /**
   * Stops: the worker first (no new claims; runs in hand aborted and given back), then HTTP, whose
   * requests in flight get `drainMs` to finish before their connections are cut.
   */
  close(): Promise<void>;
  /** Gives back the runs this process holds, at once (a forced exit must not leave them leased). */
  releaseRuns(): Promise<void>;
  /** Writes the counts of refusal bursts now (the service does it every 5 s, and when it stops). */
  flushAuditLog(): Promise<void>;
  /** How this process is woken (wakeups.ts): whether its listener hears other processes now. */
  wakeups: Wakeups;
}

/** How long a stopping service waits for requests in flight (a half-sent request must not hold it). */
export const DRAIN_MS = 10_000;

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers or URL too large, malformed
 * request line) still get the spec's envelope rather than Node's bare 400 or 431.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing may be written once an answer has begun (the client would read a corrupt one).
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || answering) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['431 Request Header Fields Too Large', 'request line or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['408 Request Timeout', 'the request was not received in time']
        : ['400 Bad Request', 'malformed HTTP request'];
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  // Closed once written: a client still sending (a dripped body) must not hold the socket half-open.
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * Engine options whose allowPrivate is the policy's answer at each read (the worker and the monitor
 * read it per run and per check), unless the options set their own (tests).
 */
function followingPolicy<T extends { allowPrivate?: boolean }>(engine: T | undefined, allowed: () => boolean): T {
  if (engine?.allowPrivate !== undefined) return engine;
  return Object.defineProperty({ ...engine } as T, 'allowPrivate', { get: allowed, enumerable: true });
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const host = options.host ?? DEFAULT_HOST;
  const cursorSecret = await options.store.settings.getOrCreate('cursor_secret', () =>
    randomBytes(32).toString('base64url'),
  );
  const csrfSecret = await options.store.settings.getOrCreate('csrf_secret', () =>
    randomBytes(32).toString('base64url'),
  );
  const localLinks = options.localLinks
    ? new LocalLinks(
        await options.store.settings.getOrCreate('local_link_secret', () => randomBytes(32).toString('base64url')),
      )
    : undefined;
  let publicUrl = options.publicUrl;
  const localTargets = options.localTargets ?? LocalTargets.fixed(options.allowLocalTargets ?? false);
  const allowLocal = () => localTargets.allowed;
  // Wake-ups: calls within this process, and on PostgreSQL NOTIFY to the others (wakeups.ts).
  const wakeups =
    options.store.backend === 'postgres'
      ? new PostgresWakeups({
          ...(options.databaseListenUrl ? { listenUrl: options.databaseListenUrl } : {}),
          db: options.store.db,
          ...(options.listenerTimings ? { timings: options.listenerTimings } : {}),
        })
      : localWakeups();
  // A retry comes due later: the claimers are woken then (their fallback poll would find it later).
  const dueLater = new Set<NodeJS.Timeout>();
  const runQueued = (runId: string, dueInMs: number) => {
    if (dueInMs <= 0) {
      void wakeups.notify(RUNS_QUEUED, runId);
      return;
    }
    const timer = setTimeout(() => {
      dueLater.delete(timer);
      void wakeups.notify(RUNS_QUEUED, runId);
    }, dueInMs);
    timer.unref();
    dueLater.add(timer);
  };
  const paces = options.pollPaces ?? {};
  const runWatch = new RunWatch({
    pollMs: pacing(wakeups, RUN_CHANGED, undefined, DEFAULT_POLL_PACES.longPoll, paces.longPoll),
  });
  const worker =
    options.worker === false
      ? undefined
      : new RunWorker({
          ...options.worker,
          store: options.store,
          publicUrl: () => publicUrl ?? '',
          pollMs: pacing(wakeups, RUNS_QUEUED, options.worker?.pollMs, DEFAULT_POLL_PACES.worker, paces.worker),
          // Each change wakes this process's long polls of the run, and the other processes'.
          onRunChanged: (runId) => void wakeups.notify(RUN_CHANGED, runId),
          // An attempt that ended may have written its run's event: deliver it now, not at the next look.
          onAttemptEnded: () => {
            void wakeups.notify(DELIVERIES_DUE);
            // A run in progress fewer: a run held back by its organization's or host's cap may start.
            void wakeups.notify(RUNS_QUEUED);
          },
          onRunQueued: runQueued,
          engine: followingPolicy(options.worker?.engine, allowLocal),
          accessFor: accessLoader(options.store, options.kek),
        });
  const log = logLine;
  const engine = options.worker ? options.worker.engine : undefined;
  const deliverer =
    options.deliverer === false
      ? undefined
      : new Deliverer({
          // Endpoints are resolved and trusted as the audits are (tests' DNS and CA), unless told otherwise.
          ...(engine?.resolver ? { resolver: engine.resolver } : {}),
          ...(engine?.ca ? { ca: engine.ca } : {}),
          ...options.deliverer,
          pollMs: pacing(
            wakeups,
            DELIVERIES_DUE,
            options.deliverer?.pollMs,
            DEFAULT_POLL_PACES.deliverer,
            paces.deliverer,
          ),
          store: options.store,
          kek: options.kek,
          allowPrivate: allowLocal,
          log,
        });
  const monitorIntervalMinutes = options.monitorIntervalMinutes ?? DEFAULT_MONITOR_INTERVAL_MINUTES;
  const monitor =
    options.monitor === false
      ? undefined
      : new SiteMonitor({
          // Pages are fetched as the audits fetch them (local targets, tests' DNS, CA and ports).
          engine: followingPolicy(engine, allowLocal),
          ...options.monitor,
          store: options.store,
          publicUrl: () => publicUrl ?? '',
          defaultIntervalMinutes: monitorIntervalMinutes,
          onEvents: () => void wakeups.notify(DELIVERIES_DUE),
          log,
          accessFor: accessLoader(options.store, options.kek),
        });
  const addressThrottle = new AddressThrottle(options.refusalsPerMinute ?? DEFAULT_REFUSALS_PER_MINUTE);
  const auditBursts = new AuditBursts(options.store, log);
  // Client metadata documents are fetched as webhooks are sent: the audits' DNS, CA and address guard.
  const metadataFetch = guardedMetadataFetch({
    resolver: options.oauthFetch?.resolver ?? engine?.resolver ?? createResolver(),
    ca: options.oauthFetch?.ca ?? engine?.ca,
    allowPrivate: allowLocal,
  });
  const oauthResources = resourcePolicy(options.mcpUrls ?? [], allowLocal);
  // The issuer is the public address, known once the socket listens; made at the first OAuth request
  // (nothing is written at start-up for a feature a deployment may not use).
  let oauthReady: Promise<Provider> | undefined;
  const oauth = () => {
    // A failed start (the database away) is tried again at the next request, not remembered.
    oauthReady ??= createOAuthProvider({
      store: options.store,
      publicUrl: publicUrl ?? '',
      resources: oauthResources,
      fetch: metadataFetch,
      trustProxy: options.trustProxy ?? false,
    }).catch((error: Error) => {
      oauthReady = undefined;
      throw error;
    });
    return oauthReady;
  };
  const app = createApp({
    engine: followingPolicy(engine, allowLocal),
    oauth,
    oauthResources,
    ...(localLinks ? { localLinks } : {}),
    onRunCreated: () => void wakeups.notify(RUNS_QUEUED),
    onDeliveryQueued: () => void wakeups.notify(DELIVERIES_DUE),
    onMonitoringChanged: () => monitor?.wake(),
    runWatch,
    addressThrottle,
    auditBursts,
    store: options.store,
    kek: options.kek,
    cursors: new CursorCodec(cursorSecret),
    // A person who signs in (a newcomer through an invitation, one an operator added) is counted.
    sessions: sessionStore(
      options.store,
      () => publicUrl ?? '',
      csrfSecret,
      () => localTargets.recheck(),
    ),
    options: {
      rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
      localRateLimit: options.localRateLimit ?? DEFAULT_LOCAL_RATE_LIMIT,
      get allowLocalTargets() {
        return localTargets.allowed;
      },
      version: options.version ?? '0.0.0',
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      trustProxy: options.trustProxy ?? false,
      ...(options.mcpSecret ? { mcpSecret: options.mcpSecret } : {}),
      monitorIntervalMinutes,
      monitorMinIntervalMinutes: options.monitorMinIntervalMinutes ?? DEFAULT_MONITOR_MIN_INTERVAL_MINUTES,
      get publicUrl() {
        return publicUrl ?? '';
      },
    },
  });

  // Requests still running when the socket side has closed (a client that hung up mid-request) must
  // finish before the caller closes the store under them.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const fetch = async (request: Request, env: { incoming?: SocketHolder }) => {
    inFlight++;
    try {
      const response = await app.fetch(request, env);
      // A stopping service ends each connection after its answer rather than keep it alive.
      if (closing) response.headers.set('connection', 'close');
      return response;
    } finally {
      inFlight--;
      if (inFlight === 0) drained?.();
    }
  };

  // Node's own refusal of a request without Host, and the adapter's of one it cannot make a URL of
  // (`OPTIONS *`), are empty 400s: both come here instead and get the spec's envelope.
  const listener = getRequestListener(fetch, {
    errorHandler: () =>
      Response.json(
        { error: { code: 'invalid_request', message: 'a request needs a Host header and a path' } },
        { status: 400, headers: { connection: 'close' } },
      ),
  });
  let oauthCallback: ReturnType<Provider['callback']> | undefined;
  // oidc-provider answers under /oauth (but the consent screen, which is the dashboard's) and at the
  // RFC 8414 metadata address; everything else is the app.
  const server = createServer({ requireHostHeader: false, ...timeoutOptions(options.timeouts) }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const metadata =
      path === '/.well-known/oauth-authorization-server' ||
      path === `/.well-known/oauth-authorization-server${OAUTH_PATH}`;
    if (!metadata && !(path.startsWith(`${OAUTH_PATH}/`) && !path.startsWith(`${CONSENT_PATH}/`))) {
      listener(req, res);
      return;
    }
    const original = metadata ? `${OAUTH_PATH}/.well-known/openid-configuration` : (req.url ?? '/');
    oauth()
      .then((provider) => {
        Object.assign(req, { originalUrl: original, baseUrl: OAUTH_PATH });
        req.url = original.slice(OAUTH_PATH.length) || '/';
        oauthCallback ??= provider.callback();
        oauthCallback(req, res);
      })
      .catch((error: Error) => {
        log(`oauth: ${error.message}`);
        if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: 'temporarily_unavailable',
            error_description: 'the authorization server is starting',
          }),
        );
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => resolve());
  });
  server.on('clientError', answerClientError);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicUrl ??= url;

  // What wakes what, here and (PostgreSQL) from the other processes; then the listener, before the jobs.
  wakeups.on(RUN_CHANGED, (runId) => runWatch.changed(runId));
  if (worker) wakeups.on(RUNS_QUEUED, () => worker.wake());
  if (deliverer) wakeups.on(DELIVERIES_DUE, () => deliverer.wake());
  await wakeups.start();
  // The listener up or down: the paces change, and wake-ups may have been missed: everything looks once.
  wakeups.onListeningChanged(() => {
    worker?.wake();
    deliverer?.repace();
    runWatch.recheck();
  });
  worker?.start();
  deliverer?.start();
  monitor?.start();

  // This process's throttled addresses are of no further use; drop them once a minute. (What the
  // whole deployment shares, rate-limit windows and OAuth records, the housekeeper sweeps.)
  const sweeper = setInterval(() => {
    addressThrottle.sweep();
    // People added from the command line while this runs count before they first sign in.
    localTargets.recheck().catch(() => {});
  }, 60_000);
  sweeper.unref();
  // One process of the deployment at a time keeps the database: sweeps, and retention by age.
  const housekeeper =
    options.housekeeping === false
      ? undefined
      : new Housekeeper({
          ...options.housekeeping,
          store: options.store,
          retention: { ...options.retention, auditLog: options.auditLogDays ?? DEFAULT_AUDIT_LOG_DAYS },
          log,
        });
  housekeeper?.start();

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        await housekeeper?.stop();
        runWatch.close(); // long polls answer now rather than hold the stop for up to 25 s
        // The runs first: released before anything can hold the stop up, so none stays leased.
        await worker?.stop();
        await monitor?.stop();
        await deliverer?.stop();
        await new Promise<void>((resolve) => {
          // Stop accepting, drop idle keep-alive sockets, let requests in flight finish, within bounds.
          const cut = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, DRAIN_MS);
          cut.unref();
          const done = () => {
            clearTimeout(cut);
            resolve();
          };
          server.close(() => {
            if (inFlight === 0) done();
            else drained = done;
          });
          server.closeIdleConnections();
        });
        // After the requests: a run they started still wakes the other processes' claimers.
        for (const timer of dueLater) clearTimeout(timer);
        await wakeups.close();
        await auditBursts.close();
      })();
      return closing;
    },
    releaseRuns: async () => {
      await worker?.release();
    },
    flushAuditLog: () => auditBursts.flush(),
    wakeups,
  };
}
