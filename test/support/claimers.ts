// The service's webhook deliverers or site monitors in processes of their own (issue 28): each opens
// its own connection to one store and runs on its own timers, as the `serve` processes of one
// deployment do, until told to stop. A second connection to one SQLite file inside the test's own
// process is not a stand-in for another process: SQLite waits for a busy lock synchronously, holding
// up the one event loop that the other connection's transaction needs in order to commit.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoreLocation } from '../../src/service/store/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CLAIMER = `
import { once } from 'node:events';
const config = JSON.parse(process.env.SITEAUDIT_TEST_CLAIMER);
const load = (path) => import(new URL(path, 'file://' + config.root).href);
const { openStore } = await load('src/service/store/index.ts');
const { createResolver } = await load('src/audit/net/resolver.ts');
const store = await openStore(config.location);
const resolver = createResolver([config.dns]);
let job;
if (config.kind === 'deliverer') {
  const { Deliverer } = await load('src/service/deliverer.ts');
  job = new Deliverer({
    ...config.options,
    store,
    kek: Buffer.from(config.kek, 'hex'),
    allowPrivate: true,
    resolver,
    ca: config.ca,
    log: (line) => process.stderr.write(line + '\\n'),
  });
} else {
  const { SiteMonitor } = await load('src/service/monitor.ts');
  job = new SiteMonitor({
    ...config.options,
    store,
    publicUrl: () => 'http://127.0.0.1',
    engine: { ...config.engine, allowPrivate: true, resolver, ca: config.ca },
    log: (line) => process.stderr.write(line + '\\n'),
  });
}
job.start();
process.stdout.write('ready\\n');
process.stdin.resume();
await once(process.stdin, 'end');
await job.stop();
await store.close();
process.stdout.write('stopped\\n');
`;

export interface ClaimerConfig {
  kind: 'deliverer' | 'monitor';
  location: StoreLocation;
  /** The tests' DNS server, and their CA (PEM). */
  dns: string;
  ca: string;
  /** The deliverer's key-encryption key. */
  kek?: Buffer;
  /** JSON-able options of the Deliverer or SiteMonitor (timeouts, lanes, limits, poll pace). */
  options: Record<string, unknown>;
  /** The monitor's engine options besides DNS, CA and allowPrivate (timeouts, the port map). */
  engine?: Record<string, unknown>;
}

export interface Claimers {
  /** Stops each process as SIGTERM would stop `serve`'s job (its work in hand ended or given back). */
  stop(): Promise<void>;
}

/** Starts `count` processes running the deliverer or the monitor of `config`; answers once all run. */
export async function startClaimers(count: number, config: ClaimerConfig): Promise<Claimers> {
  const env = {
    ...process.env,
    SITEAUDIT_TEST_CLAIMER: JSON.stringify({ ...config, root: ROOT, kek: config.kek?.toString('hex') }),
  };
  const children: ChildProcess[] = [];
  const exits: Array<Promise<void>> = [];
  const ready: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', CLAIMER],
      { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(child);
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    ready.push(
      new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.startsWith('ready\n')) resolve();
        });
        child.on('close', () => reject(new Error(`a claimer exited before it was ready: ${err}`)));
      }),
    );
    const exit = new Promise<void>((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 && out.includes('stopped\n')
          ? resolve()
          : reject(new Error(`a claimer exited with ${code}: ${err}`)),
      ),
    );
    // Reported by stop(); a claimer that dies before then is not an unhandled rejection meanwhile.
    exit.catch(() => {});
    exits.push(exit);
  }
  try {
    await Promise.all(ready);
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  return {
    async stop() {
      for (const child of children) child.stdin?.end();
      await Promise.all(exits);
    },
  };
}

/** The most of each key a repeated count read ever found, read every `everyMs` until stopped. */
export interface Sampler {
  most(key: string): number;
  /** Forgets what was found so far. */
  reset(): void;
  stop(): Promise<void>;
}

/**
 * Reads `count` (rows in progress by key, as the claims count them: live leases in the store) every
 * `everyMs` and keeps the most found for each key. What the claimers hold is read where they hold
 * it: a server's count of open connections also counts one its client has dropped but whose close
 * the server has not handled yet.
 */
export function sampleMost(count: () => Promise<Array<{ key: string; n: number | string }>>, everyMs = 10): Sampler {
  const most = new Map<string, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const { key, n } of await count()) most.set(key, Math.max(most.get(key) ?? 0, Number(n)));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    most: (key) => most.get(key) ?? 0,
    reset: () => most.clear(),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
