// `siteaudit serve`: the Site Audit Service on a socket until SIGTERM or SIGINT.
import type { Command } from 'commander';
import { DEFAULT_PAGE_BUDGET } from '../../audit/crawler.ts';
import { KeyEncryptionUnavailable, loadKeyEncryptionKey } from '../../service/key-encryption.ts';
import { bootstrapLocalService, localKeyPath } from '../../service/local-bootstrap.ts';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE_LIMIT, startService } from '../../service/server.ts';
import { clearServiceRecord, writeServiceRecord } from '../../service/service-file.ts';
import { describeLocation, openStore } from '../../service/store/index.ts';
import { VERSION } from '../../version.ts';
import { parsePositiveInt, type StoreFlags, storeLocation, withStoreOptions } from '../options.ts';

interface ServeFlags extends StoreFlags {
  host: string;
  port: string;
  allowLocalTargets?: boolean;
  rateLimit: string;
  publicUrl?: string;
  localOrg: boolean;
  worker: boolean;
  workerConcurrency: string;
  pageBudget: string;
}

const log = (line: string) => process.stderr.write(`siteaudit: ${line}\n`);

export function serveCommand(program: Command): void {
  withStoreOptions(program.command('serve'))
    .description('run the Site Audit Service: API v1 and /openapi.json')
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(DEFAULT_PORT))
    .option('--allow-local-targets', 'let projects target this machine (localhost, 127.0.0.1)')
    .option('--rate-limit <n>', 'requests per minute per key', String(DEFAULT_RATE_LIMIT))
    .option('--public-url <url>', 'base address used in links (env SITEAUDIT_PUBLIC_URL)')
    .option('--no-local-org', 'do not create the local organization and key in an empty embedded store')
    .option('--no-worker', 'serve the API only; other processes run the audits')
    .option('--worker-concurrency <n>', 'audits run at once by this process', '2')
    .option('--page-budget <n>', 'pages crawled per audit', String(DEFAULT_PAGE_BUDGET))
    .action(async (flags: ServeFlags) => {
      const port = parsePositiveInt('--port', flags.port);
      const rateLimit = parsePositiveInt('--rate-limit', flags.rateLimit, 1);
      const concurrency = parsePositiveInt('--worker-concurrency', flags.workerConcurrency, 1);
      const pageBudget = parsePositiveInt('--page-budget', flags.pageBudget, 1);
      const location = storeLocation(flags);
      const store = await openStore(location);
      let kek: Buffer | Error;
      try {
        kek = loadKeyEncryptionKey(location.dataDir);
      } catch (error) {
        if (!(error instanceof KeyEncryptionUnavailable)) throw error;
        kek = error;
        log(`key issuing disabled: ${error.message}`);
      }
      if (!location.databaseUrl && flags.localOrg && kek instanceof Buffer) {
        if (await bootstrapLocalService(store, kek, location.dataDir)) {
          log(`created the local organization; its API key is in ${localKeyPath(location.dataDir)} (mode 0600)`);
        }
      }
      const service = await startService({
        store,
        kek,
        host: flags.host,
        port,
        rateLimit,
        allowLocalTargets: flags.allowLocalTargets ?? false,
        publicUrl: flags.publicUrl ?? process.env.SITEAUDIT_PUBLIC_URL,
        version: VERSION,
        worker: flags.worker ? { concurrency, engine: { pageBudget }, log } : false,
      });
      // The embedded store's service records where it listens, for local clients to share it.
      if (!location.databaseUrl) {
        writeServiceRecord(location.dataDir, {
          url: service.url,
          pid: process.pid,
          version: VERSION,
          startedAt: new Date().toISOString(),
        });
      }
      log(`serving API v1 at ${service.url} (${describeLocation(location)})`);

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) {
          log(`${signal} again: exiting now`);
          process.exit(1);
        }
        stopping = true;
        log(`${signal}: finishing requests in flight, then stopping`);
        if (!location.databaseUrl) clearServiceRecord(location.dataDir, process.pid);
        await service.close();
        await store.close();
        log('stopped');
        // Everything is closed, so the process ends by itself; this only guards against a stray handle.
        setTimeout(() => process.exit(0), 3000).unref();
      };
      process.on('SIGTERM', () => void stop('SIGTERM'));
      process.on('SIGINT', () => void stop('SIGINT'));
    });
}
