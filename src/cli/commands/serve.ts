// `siteaudit serve`: the Site Audit Service on a socket until SIGTERM or SIGINT.
import { mkdirSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_PAGE_BUDGET } from '../../audit/crawler.ts';
import { findChromium, preloadChromiumDriver } from '../../audit/render/chromium.ts';
import { RENDER_MODES, type RenderMode } from '../../audit/render/render-site.ts';
import { createChromiumRenderer } from '../../audit/render/renderer.ts';
import { MONITOR_INTERVAL_MAX_MINUTES } from '../../contract/index.ts';
import { DEFAULT_REFUSALS_PER_MINUTE } from '../../service/address-throttle.ts';
import { DEFAULT_AUDIT_LOG_DAYS } from '../../service/audit-retention.ts';
import { mcpSecret } from '../../service/client-address.ts';
import { DEFAULT_DELIVERY_LEASE_MS } from '../../service/deliverer.ts';
import {
  DEFAULT_DELIVERY_RETENTION_DAYS,
  DEFAULT_EVENT_RETENTION_DAYS,
  DEFAULT_RUN_RETENTION_DAYS,
} from '../../service/housekeeper.ts';
import { type InstanceLock, tryInstanceLock } from '../../service/instance-lock.ts';
import { KeyEncryptionUnavailable, loadKeyEncryptionKey } from '../../service/key-encryption.ts';
import { bootstrapLocalService } from '../../service/local-bootstrap.ts';
import { localKeyPath } from '../../service/local-key.ts';
import {
  captureStderr,
  configureLogging,
  LOG_LEVELS,
  type LogSettings,
  logLine,
  logSettingsOf,
} from '../../service/logger.ts';
import { type MetricsServer, metricsToken, startMetricsServer } from '../../service/metrics.ts';
import {
  DEFAULT_MONITOR_CHECK_SECONDS,
  DEFAULT_MONITOR_HISTORY_DAYS,
  DEFAULT_MONITOR_INTERVAL_MINUTES,
  DEFAULT_MONITOR_MIN_INTERVAL_MINUTES,
  MONITOR_CHECK_MAX_SECONDS,
} from '../../service/monitor.ts';
import {
  DEFAULT_HOST,
  DEFAULT_LOCAL_RATE_LIMIT,
  DEFAULT_PORT,
  DEFAULT_RATE_LIMIT,
  startService,
} from '../../service/server.ts';
import { awaitServiceRecord, clearServiceRecord, writeServiceRecord } from '../../service/service-file.ts';
import { DEFAULT_DELIVERY_LIMITS } from '../../service/store/deliveries.ts';
import { DEFAULT_POOL_SIZE, describeLocation, openStore } from '../../service/store/index.ts';
import { DEFAULT_MONITOR_LIMITS } from '../../service/store/monitors.ts';
import {
  DEFAULT_HOST_MAX_RUNNING_RUNS,
  DEFAULT_HOST_MIN_GAP_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_ORG_MAX_RUNNING_RUNS,
} from '../../service/worker.ts';
import { VERSION } from '../../version.ts';
import { chooseLocalTargets, sharedBecause } from '../local-targets.ts';
import {
  CliError,
  parsePositiveInt,
  type StoreFlags,
  storeError,
  storeLocation,
  withStoreOptions,
} from '../options.ts';

interface ServeFlags extends StoreFlags {
  /** false: --no-database-listen-url. */
  databaseListenUrl?: string | false;
  host: string;
  port?: string;
  allowLocalTargets?: boolean;
  rateLimit: string;
  localRateLimit: string;
  publicUrl?: string;
  localOrg: boolean;
  localLinks: boolean;
  worker: boolean;
  workerConcurrency: string;
  workerLeaseSeconds: string;
  orgMaxRunningRuns?: string;
  hostMaxRunningRuns?: string;
  hostMinGapSeconds?: string;
  webhookLeaseSeconds: string;
  orgMaxWebhookDeliveries?: string;
  orgMaxFailingWebhookDeliveries?: string;
  orgMaxMonitorChecks?: string;
  orgMaxSlowMonitorChecks?: string;
  monitorCheckSeconds?: string;
  pageBudget: string;
  refusalsPerMinute: string;
  trustProxy?: boolean;
  auditLogDays?: string;
  runRetentionDays?: string;
  eventRetentionDays?: string;
  deliveryRetentionDays?: string;
  monitor: boolean;
  monitorIntervalMinutes: string;
  monitorMinIntervalMinutes: string;
  monitorHistoryDays: string;
  mcpUrl: string[];
  render: string;
  migrate: boolean;
  logFormat?: string;
  logLevel?: string;
  metricsPort?: string;
  metricsHost: string;
}

// Each line an info record of the process's logger (keys masked there), as configured by the first
// thing the command does.
const log = logLine;

/** Where the embedded service's port is kept, in its own store, across restarts. */
const LOCAL_PORT_SETTING = 'local_port';

/** The port a new embedded service tries first: SITEAUDIT_LOCAL_PORT (0 for any free one), else 8787. */
function firstLocalPort(): number {
  const value = process.env.SITEAUDIT_LOCAL_PORT;
  return value ? parsePositiveInt('SITEAUDIT_LOCAL_PORT', value) : DEFAULT_PORT;
}

/** A fairness setting of a claim (runs, webhook deliveries, monitor checks): the flag, else its environment variable, else the default. */
function fairnessOf(flag: string | undefined, name: string, envName: string, fallback: number, min: number): number {
  if (flag !== undefined) return parsePositiveInt(name, flag, min);
  const env = process.env[envName];
  return env ? parsePositiveInt(envName, env, min) : fallback;
}

/** --audit-log-days, else SITEAUDIT_AUDIT_LOG_DAYS, else the default. */
function auditLogDaysOf(flag: string | undefined): number {
  if (flag !== undefined) return parsePositiveInt('--audit-log-days', flag);
  const env = process.env.SITEAUDIT_AUDIT_LOG_DAYS;
  return env ? parsePositiveInt('SITEAUDIT_AUDIT_LOG_DAYS', env) : DEFAULT_AUDIT_LOG_DAYS;
}

/** A retention setting in days: the flag, else its environment variable, else the default (0: for ever). */
function retentionDaysOf(flag: string | undefined, name: string, envName: string, fallback: number): number {
  if (flag !== undefined) return parsePositiveInt(name, flag);
  const env = process.env[envName];
  return env ? parsePositiveInt(envName, env) : fallback;
}

export function serveCommand(program: Command): void {
  withStoreOptions(program.command('serve'))
    .description('run the Site Audit Service: API v1 and /openapi.json')
    .option(
      '--database-pool-size <n>',
      `PostgreSQL connections this process opens at most, 1 to 100 (env SITEAUDIT_DATABASE_POOL_SIZE; default ${DEFAULT_POOL_SIZE})`,
    )
    .option(
      '--database-listen-url <url>',
      'PostgreSQL connection string of the one session that listens for wake-ups from other processes: a direct one where --database-url goes through PgBouncer in transaction mode (env SITEAUDIT_DATABASE_LISTEN_URL; default --database-url)',
    )
    .option(
      '--no-database-listen-url',
      'open no listening session: this process polls for work at the fast pace, and still wakes the others',
    )
    .option(
      '--no-migrate',
      'apply no database migrations: refuse to start on a schema older or newer than this version (migrate with `siteaudit admin migrate`; for processes behind PgBouncer)',
    )
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .option(
      '--port <port>',
      `port to listen on, 0 for any free one (default ${DEFAULT_PORT}; on the embedded store, the port it used last)`,
    )
    .option(
      '--allow-local-targets',
      'let projects target this machine (localhost, 127.0.0.1) and private addresses; the default only for a single-user embedded service on loopback',
    )
    .option('--no-allow-local-targets', 'refuse local targets, even on a single-user embedded service')
    .option('--rate-limit <n>', 'requests per minute per key', String(DEFAULT_RATE_LIMIT))
    .option(
      '--local-rate-limit <n>',
      "requests per minute for the local service's own key (one person's CLI and MCP hosts)",
      String(DEFAULT_LOCAL_RATE_LIMIT),
    )
    .option('--public-url <url>', 'base address used in links (env SITEAUDIT_PUBLIC_URL)')
    .option('--no-local-org', 'do not create the local organization and key in an empty embedded store')
    .option(
      '--no-local-links',
      "report links given to the local key open the sign-in page, not the report (by default they sign this machine's browser in, on a single-user embedded service on loopback only)",
    )
    .option('--no-worker', 'serve the API only; other processes run the audits')
    .option('--worker-concurrency <n>', 'audits run at once by this process', '2')
    .option(
      '--worker-lease-seconds <n>',
      'how long a run stays with a process that stopped renewing it (one killed with -9) before another takes it',
      String(DEFAULT_LEASE_MS / 1000),
    )
    .option(
      '--org-max-running-runs <n>',
      `runs of one organization audited at once by all processes together, unless its plan sets its own (env SITEAUDIT_ORG_MAX_RUNNING_RUNS; default ${DEFAULT_ORG_MAX_RUNNING_RUNS})`,
    )
    .option(
      '--host-max-running-runs <n>',
      `audits of one site (host name, www. aside) at once by all processes together; targets on this machine have no cap (env SITEAUDIT_HOST_MAX_RUNNING_RUNS; default ${DEFAULT_HOST_MAX_RUNNING_RUNS})`,
    )
    .option(
      '--host-min-gap-seconds <n>',
      `seconds at least between the starts of two audits of one site, 0 for none (env SITEAUDIT_HOST_MIN_GAP_SECONDS; default ${DEFAULT_HOST_MIN_GAP_MS / 1000})`,
    )
    .option(
      '--webhook-lease-seconds <n>',
      'how long a webhook delivery stays with a process that stopped (one killed with -9) before another sends it again',
      String(DEFAULT_DELIVERY_LEASE_MS / 1000),
    )
    .option(
      '--org-max-webhook-deliveries <n>',
      `webhook deliveries of one organization sent at once by all processes together (env SITEAUDIT_ORG_MAX_WEBHOOK_DELIVERIES; default ${DEFAULT_DELIVERY_LIMITS.organizationLanes})`,
    )
    .option(
      '--org-max-failing-webhook-deliveries <n>',
      `of those, to its failing endpoints (a failed attempt and no success since), each of which gets one at a time, after other endpoints' deliveries (env SITEAUDIT_ORG_MAX_FAILING_WEBHOOK_DELIVERIES; default ${DEFAULT_DELIVERY_LIMITS.failingLanes})`,
    )
    .option('--page-budget <n>', 'pages crawled per audit', String(DEFAULT_PAGE_BUDGET))
    .option(
      '--refusals-per-minute <n>',
      'requests refused for a bad or missing key that one client address may make in a minute before 429',
      String(DEFAULT_REFUSALS_PER_MINUTE),
    )
    .option('--trust-proxy', "behind a reverse proxy: the client's address is the last X-Forwarded-For hop")
    .option(
      '--audit-log-days <n>',
      `days the audit log keeps its rows, 0 for ever (env SITEAUDIT_AUDIT_LOG_DAYS; default ${DEFAULT_AUDIT_LOG_DAYS})`,
    )
    .option(
      '--run-retention-days <n>',
      `days ended runs are kept with their findings and report, 0 for ever; a project's latest completed run of each product is always kept (env SITEAUDIT_RUN_RETENTION_DAYS; default ${DEFAULT_RUN_RETENTION_DAYS})`,
    )
    .option(
      '--event-retention-days <n>',
      `days webhook events are kept, 0 for ever; never before their deliveries (env SITEAUDIT_EVENT_RETENTION_DAYS; default ${DEFAULT_EVENT_RETENTION_DAYS})`,
    )
    .option(
      '--delivery-retention-days <n>',
      `days finished webhook deliveries are kept with their attempts, 0 for ever (env SITEAUDIT_DELIVERY_RETENTION_DAYS; default ${DEFAULT_DELIVERY_RETENTION_DAYS})`,
    )
    .option('--no-monitor', 'check no monitored projects in this process; other processes do')
    .option(
      '--monitor-interval-minutes <n>',
      'minutes between checks of a monitored project that sets no interval of its own',
      String(DEFAULT_MONITOR_INTERVAL_MINUTES),
    )
    .option(
      '--monitor-min-interval-minutes <n>',
      'the shortest interval a project may ask for',
      String(DEFAULT_MONITOR_MIN_INTERVAL_MINUTES),
    )
    .option(
      '--monitor-check-seconds <n>',
      `the time one monitoring check may take, 1 to ${MONITOR_CHECK_MAX_SECONDS}: pages with no answer by then count as down, and a check that took half of it marks its site slow (env SITEAUDIT_MONITOR_CHECK_SECONDS; default ${DEFAULT_MONITOR_CHECK_SECONDS})`,
    )
    .option(
      '--org-max-monitor-checks <n>',
      `monitoring checks of one organization made at once by all processes together; one site (host name) is checked by one at a time (env SITEAUDIT_ORG_MAX_MONITOR_CHECKS; default ${DEFAULT_MONITOR_LIMITS.organizationLanes})`,
    )
    .option(
      '--org-max-slow-monitor-checks <n>',
      `of those, of its slow sites, which go after other sites (env SITEAUDIT_ORG_MAX_SLOW_MONITOR_CHECKS; default ${DEFAULT_MONITOR_LIMITS.slowLanes})`,
    )
    .option(
      '--monitor-history-days <n>',
      'days the history of monitoring checks is kept, 0 for ever',
      String(DEFAULT_MONITOR_HISTORY_DAYS),
    )
    .option(
      '--mcp-url <url>',
      'an MCP server of this deployment (its https://.../mcp address) that OAuth tokens may be issued for; repeatable (env SITEAUDIT_MCP_URL, comma-separated)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--render <mode>',
      'render pages in Chromium for rendered evidence and axe-core: auto (app shells and a sample), always, or never (env SITEAUDIT_RENDER; Chromium from SITEAUDIT_CHROMIUM or the usual paths)',
      process.env.SITEAUDIT_RENDER ?? 'auto',
    )
    .option(
      '--log-format <format>',
      'json (one object a line) or text (env SITEAUDIT_LOG_FORMAT; default text on a terminal, json otherwise)',
    )
    .option('--log-level <level>', `${LOG_LEVELS.join(', ')} (env SITEAUDIT_LOG_LEVEL; default info)`)
    .option(
      '--metrics-port <port>',
      'serve Prometheus metrics at /metrics on this port too, 0 for any free one (also at /metrics on the main port with Authorization: Bearer $SITEAUDIT_METRICS_TOKEN)',
    )
    .option('--metrics-host <host>', 'address the metrics port listens on', '127.0.0.1')
    .action(async (flags: ServeFlags) => {
      // First: every line after this one is a record of the chosen format.
      let logSettings: LogSettings;
      try {
        logSettings = logSettingsOf({ format: flags.logFormat, level: flags.logLevel });
        configureLogging(logSettings);
        metricsToken();
      } catch (error) {
        throw new CliError('invalid_argument', (error as Error).message);
      }
      const metricsPort =
        flags.metricsPort === undefined ? undefined : parsePositiveInt('--metrics-port', flags.metricsPort);
      if (!RENDER_MODES.includes(flags.render as RenderMode))
        throw new CliError('invalid_argument', `--render must be auto, always or never, not "${flags.render}"`);
      const renderMode = flags.render as RenderMode;
      const explicitPort = flags.port === undefined ? undefined : parsePositiveInt('--port', flags.port);
      const rateLimit = parsePositiveInt('--rate-limit', flags.rateLimit, 1);
      const localRateLimit = parsePositiveInt('--local-rate-limit', flags.localRateLimit, 1);
      const concurrency = parsePositiveInt('--worker-concurrency', flags.workerConcurrency, 1);
      const leaseMs = parsePositiveInt('--worker-lease-seconds', flags.workerLeaseSeconds, 2) * 1000;
      const fairness = {
        orgMaxRunningRuns: fairnessOf(
          flags.orgMaxRunningRuns,
          '--org-max-running-runs',
          'SITEAUDIT_ORG_MAX_RUNNING_RUNS',
          DEFAULT_ORG_MAX_RUNNING_RUNS,
          1,
        ),
        hostMaxRunningRuns: fairnessOf(
          flags.hostMaxRunningRuns,
          '--host-max-running-runs',
          'SITEAUDIT_HOST_MAX_RUNNING_RUNS',
          DEFAULT_HOST_MAX_RUNNING_RUNS,
          1,
        ),
        hostMinGapMs:
          fairnessOf(
            flags.hostMinGapSeconds,
            '--host-min-gap-seconds',
            'SITEAUDIT_HOST_MIN_GAP_SECONDS',
            DEFAULT_HOST_MIN_GAP_MS / 1000,
            0,
          ) * 1000,
      };
      const pageBudget = parsePositiveInt('--page-budget', flags.pageBudget, 1);
      const deliveryLeaseMs = parsePositiveInt('--webhook-lease-seconds', flags.webhookLeaseSeconds, 2) * 1000;
      const deliveryLimits = {
        organizationLanes: fairnessOf(
          flags.orgMaxWebhookDeliveries,
          '--org-max-webhook-deliveries',
          'SITEAUDIT_ORG_MAX_WEBHOOK_DELIVERIES',
          DEFAULT_DELIVERY_LIMITS.organizationLanes,
          1,
        ),
        failingLanes: fairnessOf(
          flags.orgMaxFailingWebhookDeliveries,
          '--org-max-failing-webhook-deliveries',
          'SITEAUDIT_ORG_MAX_FAILING_WEBHOOK_DELIVERIES',
          DEFAULT_DELIVERY_LIMITS.failingLanes,
          1,
        ),
      };
      const monitorLimits = {
        organizationLanes: fairnessOf(
          flags.orgMaxMonitorChecks,
          '--org-max-monitor-checks',
          'SITEAUDIT_ORG_MAX_MONITOR_CHECKS',
          DEFAULT_MONITOR_LIMITS.organizationLanes,
          1,
        ),
        slowLanes: fairnessOf(
          flags.orgMaxSlowMonitorChecks,
          '--org-max-slow-monitor-checks',
          'SITEAUDIT_ORG_MAX_SLOW_MONITOR_CHECKS',
          DEFAULT_MONITOR_LIMITS.slowLanes,
          1,
        ),
      };
      const monitorCheckSeconds = fairnessOf(
        flags.monitorCheckSeconds,
        '--monitor-check-seconds',
        'SITEAUDIT_MONITOR_CHECK_SECONDS',
        DEFAULT_MONITOR_CHECK_SECONDS,
        1,
      );
      if (monitorCheckSeconds > MONITOR_CHECK_MAX_SECONDS)
        throw new CliError('invalid_argument', `--monitor-check-seconds must be 1 to ${MONITOR_CHECK_MAX_SECONDS}`);
      const refusalsPerMinute = parsePositiveInt('--refusals-per-minute', flags.refusalsPerMinute, 1);
      const auditLogDays = auditLogDaysOf(flags.auditLogDays);
      const monitorIntervalMinutes = parsePositiveInt('--monitor-interval-minutes', flags.monitorIntervalMinutes, 1);
      const monitorMinIntervalMinutes = parsePositiveInt(
        '--monitor-min-interval-minutes',
        flags.monitorMinIntervalMinutes,
        1,
      );
      if (monitorIntervalMinutes > MONITOR_INTERVAL_MAX_MINUTES || monitorMinIntervalMinutes > monitorIntervalMinutes)
        throw new CliError(
          'invalid_argument',
          `--monitor-interval-minutes must be from --monitor-min-interval-minutes to ${MONITOR_INTERVAL_MAX_MINUTES}`,
        );
      const monitorHistoryDays = parsePositiveInt('--monitor-history-days', flags.monitorHistoryDays);
      const retention = {
        runs: retentionDaysOf(
          flags.runRetentionDays,
          '--run-retention-days',
          'SITEAUDIT_RUN_RETENTION_DAYS',
          DEFAULT_RUN_RETENTION_DAYS,
        ),
        events: retentionDaysOf(
          flags.eventRetentionDays,
          '--event-retention-days',
          'SITEAUDIT_EVENT_RETENTION_DAYS',
          DEFAULT_EVENT_RETENTION_DAYS,
        ),
        deliveries: retentionDaysOf(
          flags.deliveryRetentionDays,
          '--delivery-retention-days',
          'SITEAUDIT_DELIVERY_RETENTION_DAYS',
          DEFAULT_DELIVERY_RETENTION_DAYS,
        ),
        monitorChecks: monitorHistoryDays,
      };
      const location = storeLocation(flags);
      const embedded = !location.databaseUrl;
      // The embedded store has one service per data directory (see local-service.ts).
      let lock: InstanceLock | undefined;
      if (embedded) {
        mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
        lock = tryInstanceLock(location.dataDir);
        if (!lock) {
          const running = await awaitServiceRecord(location.dataDir);
          log(
            `the local service of ${location.dataDir} is already running${running ? ` at ${running.url} (pid ${running.pid})` : ''}; not starting another`,
          );
          return;
        }
      }
      // The secret MCP servers sign their clients' addresses with (the embedded service makes its own).
      let sharedMcpSecret: string | undefined;
      try {
        sharedMcpSecret = mcpSecret(process.env, embedded ? location.dataDir : undefined);
      } catch (error) {
        throw new CliError('invalid_argument', (error as Error).message);
      }
      const store = await openStore(location, { migrate: flags.migrate ? 'latest' : 'check' }).catch((error) => {
        throw storeError(error);
      });
      let kek: Buffer | Error;
      try {
        kek = loadKeyEncryptionKey(location.dataDir);
      } catch (error) {
        if (!(error instanceof KeyEncryptionUnavailable)) throw error;
        kek = error;
        log(`key issuing disabled: ${error.message}`);
      }
      if (embedded && flags.localOrg && kek instanceof Buffer) {
        if (await bootstrapLocalService(store, kek, location.dataDir)) {
          log(`created the local organization; its API key is in ${localKeyPath(location.dataDir)} (mode 0600)`);
        }
      }
      // One Chromium for the process, started at the first run that renders and reused by every run after.
      const renderer = flags.worker && renderMode !== 'never' ? createChromiumRenderer() : undefined;
      if (renderer) {
        const chromium = findChromium();
        log(
          chromium
            ? `rendering (${renderMode}) in ${chromium}, started at the first run that renders`
            : 'rendering off: no Chromium found on this machine (install chromium, or set SITEAUDIT_CHROMIUM); pages are judged as served',
        );
        // Before any work is taken: loading the driver holds the event loop (0.5 s on a quiet machine).
        if (chromium) await preloadChromiumDriver();
      }
      // An empty SITEAUDIT_PUBLIC_URL is unset (links take the listening address).
      const publicUrl = flags.publicUrl ?? (process.env.SITEAUDIT_PUBLIC_URL || undefined);
      const mcpUrls = [
        ...flags.mcpUrl,
        ...(process.env.SITEAUDIT_MCP_URL ?? '')
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      ];
      const serviceFacts = {
        embedded,
        host: flags.host,
        publicUrlFrom: flags.publicUrl ? '--public-url' : publicUrl ? 'SITEAUDIT_PUBLIC_URL' : undefined,
        trustProxy: flags.trustProxy ?? false,
        mcpUrlFrom: flags.mcpUrl.length > 0 ? '--mcp-url' : mcpUrls.length > 0 ? 'SITEAUDIT_MCP_URL' : undefined,
      };
      const localTargets = await chooseLocalTargets({ flag: flags.allowLocalTargets, ...serviceFacts }, store, log);
      // Report links that sign in this machine's browser: for one person's service on loopback only.
      const shared = sharedBecause(serviceFacts);
      const localLinks = flags.localLinks && shared === undefined;
      log(
        localLinks
          ? "report links given to the local key open in this machine's browser without a password"
          : `report links need a signed-in member: ${flags.localLinks ? shared : '--no-local-links'}`,
      );
      const start = (port: number) =>
        startService({
          store,
          kek,
          host: flags.host,
          port,
          rateLimit,
          localRateLimit,
          localLinks,
          refusalsPerMinute,
          trustProxy: flags.trustProxy ?? false,
          ...(sharedMcpSecret ? { mcpSecret: sharedMcpSecret } : {}),
          auditLogDays,
          retention,
          localTargets,
          publicUrl,
          version: VERSION,
          worker: flags.worker
            ? {
                concurrency,
                leaseMs,
                fairness,
                engine: { pageBudget, render: { mode: renderMode, ...(renderer ? { renderer } : {}) } },
                log,
              }
            : false,
          deliverer: { leaseMs: deliveryLeaseMs, limits: deliveryLimits },
          monitorIntervalMinutes,
          monitorMinIntervalMinutes,
          monitor: flags.monitor ? { limits: monitorLimits, checkBudgetMs: monitorCheckSeconds * 1000 } : false,
          mcpUrls,
          // LISTEN holds a session: a direct connection when the pool's goes through PgBouncer.
          databaseListenUrl:
            location.databaseUrl && flags.databaseListenUrl !== false
              ? (flags.databaseListenUrl ?? (process.env.SITEAUDIT_DATABASE_LISTEN_URL || location.databaseUrl))
              : undefined,
        });
      let service: Awaited<ReturnType<typeof start>>;
      if (explicitPort !== undefined || !embedded) {
        service = await start(explicitPort ?? DEFAULT_PORT);
      } else {
        // The embedded service keeps its port across restarts, so the humanUrl links it handed out keep working.
        const stored = await store.settings.get(LOCAL_PORT_SETTING);
        const port = stored === undefined ? firstLocalPort() : Number(stored);
        try {
          service = await start(port);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
          service = await start(0);
          log(
            `port ${port} is taken by another program: serving on ${service.port} instead${stored === undefined ? '' : `; links made before now point at port ${port}`}`,
          );
        }
        await store.settings.set(LOCAL_PORT_SETTING, String(service.port));
      }
      let metrics: MetricsServer | undefined;
      if (metricsPort !== undefined) {
        try {
          metrics = await startMetricsServer(store, flags.metricsHost, metricsPort);
        } catch (error) {
          await service.close();
          await store.close();
          lock?.release();
          throw new CliError('invalid_argument', `--metrics-port ${metricsPort}: ${(error as Error).message}`);
        }
        log(`serving metrics at ${metrics.url}`);
      }
      // The embedded store's service records where it listens, for local clients to share it.
      if (embedded) {
        writeServiceRecord(location.dataDir, {
          url: service.url,
          pid: process.pid,
          version: VERSION,
          startedAt: new Date().toISOString(),
        });
      }
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) {
          log(`${signal} again: giving back the runs in hand, then exiting`);
          // Bounded: a database that does not answer must not hold a forced exit.
          await Promise.race([service.releaseRuns(), new Promise((resolve) => setTimeout(resolve, 2000))]);
          process.exit(1);
        }
        stopping = true;
        log(`${signal}: finishing requests in flight, then stopping`);
        if (embedded) clearServiceRecord(location.dataDir, process.pid);
        await service.close();
        await metrics?.close();
        await renderer?.close();
        await store.close();
        lock?.release();
        log('stopped');
        // Everything is closed, so the process ends by itself; this only guards against a stray handle.
        setTimeout(() => process.exit(0), 3000).unref();
      };
      process.on('SIGTERM', () => void stop('SIGTERM'));
      process.on('SIGINT', () => void stop('SIGINT'));
      // Said once the signals are handled: a supervisor that stops us on this line gets a clean stop.
      const pool = embedded ? '' : `, pool of ${location.poolSize ?? DEFAULT_POOL_SIZE}`;
      if (logSettings.format === 'json') captureStderr();
      log(`serving API v1 at ${service.url} (${describeLocation(location)}${pool})`);
    });
}
