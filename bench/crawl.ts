// Crawl benchmark: pages audited per second and peak memory of a full ai_readiness audit of a
// 500-page fixture site, against bare fetch-and-parse crawls of the same pages (tag events, and the
// HTML5 tree the audit reads), in one run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SITE_PAGES, startCrawlSite } from './crawl-site.ts';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_CRAWL_ROUNDS ?? 3);

interface Sample {
  pages: number;
  /** The first crawl of a fresh process. */
  seconds: number;
  /** The second crawl in the same process, compiled code warm. */
  warmSeconds: number;
  maxRssMb: number;
}

type Mode = 'audit' | 'bare' | 'bare-tree';

async function sample(mode: Mode, origin: string): Promise<Sample> {
  const worker = new URL('./crawl-worker.ts', import.meta.url).pathname;
  const { stdout } = await run(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', worker, mode, origin, String(SITE_PAGES)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Sample;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runCrawlBenchmark(): Promise<string> {
  const site = await startCrawlSite();
  const results: Record<Mode, Sample[]> = { audit: [], bare: [], 'bare-tree': [] };
  try {
    // Alternate the two so that machine noise falls on both alike.
    for (let i = 0; i < ROUNDS; i++) {
      results.bare.push(await sample('bare', site.origin));
      results['bare-tree'].push(await sample('bare-tree', site.origin));
      results.audit.push(await sample('audit', site.origin));
    }
  } finally {
    await site.close();
  }
  const row = (mode: Mode) => {
    const samples = results[mode];
    const seconds = median(samples.map((s) => s.seconds));
    const warm = median(samples.map((s) => s.warmSeconds));
    const pages = samples[0]?.pages ?? 0;
    return {
      pages,
      seconds,
      pagesPerSecond: pages / seconds,
      warmPagesPerSecond: pages / warm,
      rss: median(samples.map((s) => s.maxRssMb)),
    };
  };
  const audit = row('audit');
  const bare = row('bare');
  const tree = row('bare-tree');
  const line = (name: string, r: ReturnType<typeof row>) =>
    `| ${name} | ${r.pages} | ${r.seconds.toFixed(2)} | ${r.pagesPerSecond.toFixed(0)} | ${r.warmPagesPerSecond.toFixed(0)} | ${r.rss.toFixed(0)} |`;
  const ratio = (name: string, base: ReturnType<typeof row>) =>
    `| audit vs ${name} | | | ${(audit.pagesPerSecond / base.pagesPerSecond).toFixed(2)}x | ${(audit.warmPagesPerSecond / base.warmPagesPerSecond).toFixed(2)}x | ${(audit.rss / base.rss).toFixed(2)}x |`;
  return [
    `Crawl: ${SITE_PAGES}-page fixture site on loopback, 4 requests in flight, median of ${ROUNDS} runs each, Node ${process.version}`,
    '',
    '| run | pages | cold seconds | cold pages/s | warm pages/s | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|',
    line('bare fetch + tag events (htmlparser2)', bare),
    line('bare fetch + HTML5 tree (parse5)', tree),
    line('ai_readiness audit', audit),
    ratio('bare tree', tree),
    ratio('bare tag events', bare),
  ].join('\n');
}
