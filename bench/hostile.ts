// Hostile benchmark (issue 22): the real service audits a site made of pathological inputs
// (test/support/hostile-site.ts) while this process asks its /healthz every 20 ms. Prints, per mode,
// the service's own event-loop delay (perf_hooks.monitorEventLoopDelay) p99 and max, the /healthz
// latency p99 and max seen from outside, and the audit's time: CPU work on CPU threads (the default)
// against the same work on the event loop (SITEAUDIT_CPU_THREADS=0), alternated in one run.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isAllowed, parseRobotsTxt } from '../src/audit/robots.ts';
import {
  HOSTILE_HOST,
  type HostileSiteApart,
  startHostileSiteApart,
  wildcardBombRobots,
} from '../test/support/hostile-site.ts';

const ROUNDS = Number(process.env.BENCH_HOSTILE_ROUNDS ?? 2);

interface Sample {
  auditSeconds: number;
  status: string;
  attempts: number;
  /** Why a run did not complete. */
  error?: string;
  delay: { p99Ms: number; maxMs: number };
  healthz: { p99Ms: number; maxMs: number; count: number };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

async function sample(threads: string | undefined, hostile: HostileSiteApart, caFile: string): Promise<Sample> {
  const worker = new URL('./hostile-worker.ts', import.meta.url).pathname;
  const env = { ...process.env };
  if (threads === undefined) delete env.SITEAUDIT_CPU_THREADS;
  else env.SITEAUDIT_CPU_THREADS = threads;
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      worker,
      hostile.dnsAddress,
      JSON.stringify(hostile.engine.ports),
      caFile,
      HOSTILE_HOST,
    ],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const latencies: number[] = [];
  let polling: Promise<void> | undefined;
  let done = false;
  for await (const line of lines) {
    const message = JSON.parse(line) as { url?: string } & Partial<Sample>;
    if (message.url) {
      const url = `${message.url}/healthz`;
      polling = (async () => {
        while (!done) {
          const started = performance.now();
          await fetch(url)
            .then((r) => r.arrayBuffer())
            .catch(() => {});
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      continue;
    }
    done = true;
    await polling;
    return {
      ...(message as Omit<Sample, 'healthz'>),
      healthz: { p99Ms: percentile(latencies, 99), maxMs: Math.max(...latencies), count: latencies.length },
    };
  }
  throw new Error('the hostile worker ended without a result');
}

const median = (values: number[]) => percentile(values, 50);

/** The most links one audit weighs against robots.txt (25 pages of 500 links). */
const LINKS_PER_AUDIT = 12_500;

/** Milliseconds to weigh LINKS_PER_AUDIT links against the hostile robots.txt, median of 5 fresh parses. */
function robotsMatchingMs(): number {
  const text = wildcardBombRobots();
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const robots = parseRobotsTxt(text);
    const started = performance.now();
    for (let i = 0; i < LINKS_PER_AUDIT; i++) isAllowed(robots, 'siteaudit', `https://${HOSTILE_HOST}/l/${i}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function runHostileBenchmark(): Promise<string> {
  // On a thread of its own: its TLS over 8 MB of pages would otherwise delay this process's /healthz probes.
  const hostile = await startHostileSiteApart();
  const caFile = join(tmpdir(), `siteaudit-hostile-ca-${process.pid}.pem`);
  writeFileSync(caFile, hostile.caPem);
  const modes = { 'CPU threads (default)': undefined, 'on the event loop (SITEAUDIT_CPU_THREADS=0)': '0' } as const;
  const results = new Map<string, Sample[]>(Object.keys(modes).map((name) => [name, []]));
  try {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, threads] of Object.entries(modes)) {
        results.get(name)?.push(await sample(threads, hostile, caFile));
      }
    }
  } finally {
    await hostile.close();
    rmSync(caFile, { force: true });
  }
  const row = (name: string, samples: Sample[]) =>
    `| ${name} | ${median(samples.map((s) => s.delay.p99Ms)).toFixed(0)} | ${median(samples.map((s) => s.delay.maxMs)).toFixed(0)} | ${median(samples.map((s) => s.healthz.p99Ms)).toFixed(0)} | ${median(samples.map((s) => s.healthz.maxMs)).toFixed(0)} | ${median(samples.map((s) => s.auditSeconds)).toFixed(1)} | ${samples.map((s) => `${s.status}/${s.attempts}${s.error ? ` (${s.error})` : ''}`).join(', ')} |`;
  return [
    `Hostile site: the service audits ${HOSTILE_HOST} (wildcard-bomb robots.txt of long lines, 2 MB sitemap, 50,000 links, 2 MB of nested markup, contact bait), median of ${ROUNDS} runs each, Node ${process.version}`,
    '',
    '| CPU work | event-loop delay p99 ms | max ms | /healthz p99 ms | max ms | audit s | status/attempts |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...[...results].map(([name, samples]) => row(name, samples)),
    '',
    `robots.txt matching: ${LINKS_PER_AUDIT.toLocaleString('en')} links against the hostile file, ${robotsMatchingMs().toFixed(1)} ms in all (median of 5)`,
  ].join('\n');
}
