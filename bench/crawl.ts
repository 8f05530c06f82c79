// Crawl benchmark: pages audited per second and peak memory of full scans (every check of the
// product, as a service run) of a generated CMS-like site, against bare fetch-and-parse crawls of the
// same pages in processes that never load the engine. Each sample is a fresh process that crawls
// twice (cold, then warm); the sides take turns in every round, and each audit is also compared with
// the bare tree crawl of its own round.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startCrawlSite } from './crawl-site.ts';
import type { CrawlFigures } from './support/crawl-timing.ts';
import { ratios, spread } from './support/stats.ts';

const run = promisify(execFile);
const ROUNDS = Math.max(1, Number(process.env.BENCH_CRAWL_ROUNDS ?? 3));
const PRODUCTS = (process.env.BENCH_CRAWL_PRODUCTS ?? 'ai_readiness,marketing_signal').split(',').filter(Boolean);

interface Sample extends CrawlFigures {
  /** Requests the site answered for one crawl. */
  requests: number;
  /** The audit's outcome was a full scan (no local on-page coverage). */
  full?: boolean;
  checks?: number;
}

interface Side {
  name: string;
  label: string;
  worker: string;
  args: string[];
}

const here = (file: string) => new URL(file, import.meta.url).pathname;
const SIDES: Side[] = [
  {
    name: 'bare',
    label: 'bare fetch + tag events (htmlparser2), engine not loaded',
    worker: here('./crawl-bare-worker.ts'),
    args: ['bare'],
  },
  {
    name: 'bare-tree',
    label: 'bare fetch + HTML5 tree (parse5), engine not loaded',
    worker: here('./crawl-bare-worker.ts'),
    args: ['bare-tree'],
  },
  ...PRODUCTS.map((product) => ({
    name: product,
    label: `${product} full scan (all checks)`,
    worker: here('./crawl-worker.ts'),
    args: ['audit'],
  })),
];

async function sample(side: Side, site: Awaited<ReturnType<typeof startCrawlSite>>): Promise<Sample> {
  const before = site.requests();
  const product = side.worker.endsWith('crawl-worker.ts') ? [side.name] : [];
  const { stdout } = await run(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', side.worker, ...side.args, site.origin, String(site.pages), ...product],
    { maxBuffer: 1 << 20 },
  );
  const figures = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Omit<Sample, 'requests'>;
  // Both sides must read the same pages, and the audit must be the full scan it says it is.
  if (figures.pages !== site.pages) throw new Error(`${side.name} crawled ${figures.pages} of ${site.pages} pages`);
  if (figures.full === false) throw new Error(`${side.name}: the audit was not a full scan`);
  return { ...figures, requests: (site.requests() - before) / 2 };
}

export async function runCrawlBenchmark(): Promise<string> {
  const site = await startCrawlSite();
  const results = new Map<string, Sample[]>(SIDES.map((s) => [s.name, []]));
  try {
    // Every side once a round, the order turned each round, so the machine's drift falls on all alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < SIDES.length; k++) {
        const side = SIDES[(round + k) % SIDES.length] as Side;
        results.get(side.name)?.push(await sample(side, site));
      }
    }
  } finally {
    await site.close();
  }
  const of = (name: string) => results.get(name) ?? [];
  const pagesPerSecond = (samples: Sample[], warm = false) =>
    samples.map((s) => s.pages / (warm ? s.warmSeconds : s.seconds));
  const cpuPerPage = (samples: Sample[]) => samples.map((s) => (s.warmCpuSeconds * 1000) / s.pages);
  const pages = (samples: Sample[]) => [...new Set(samples.map((s) => s.pages))].join('/');
  const lines = [
    `Crawl: ${site.pages}-page CMS-like site on loopback (${(site.htmlBytes / site.pages / 1024).toFixed(0)} KiB and ${site.linksPerPage.median} links a page at the median, ${site.linksPerPage.min} at the fewest; ${(site.htmlBytes / 2 ** 20).toFixed(1)} MiB of HTML), 4 requests in flight, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, each side a fresh process per round; median (min–max) over the rounds; Node ${process.version}`,
    '',
    '| run | pages | requests per crawl | cold s | cold pages/s | warm pages/s | warm CPU ms/page | peak RSS MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const side of SIDES) {
    const samples = of(side.name);
    lines.push(
      `| ${side.label} | ${pages(samples)} | ${spread(
        samples.map((s) => s.requests),
        0,
      )} | ${spread(
        samples.map((s) => s.seconds),
        2,
      )} | ${spread(pagesPerSecond(samples), 0)} | ${spread(pagesPerSecond(samples, true), 0)} | ${spread(
        cpuPerPage(samples),
        2,
      )} | ${spread(
        samples.map((s) => s.maxRssMb),
        0,
      )} |`,
    );
  }
  lines.push(
    '',
    'Each full scan against a bare crawl of the same round (ratios paired by round; pages/s: under 1 is slower; CPU and memory: over 1 is more):',
    '',
    '| comparison | cold pages/s | warm pages/s | warm CPU per page | peak RSS |',
    '|---|---:|---:|---:|---:|',
  );
  for (const product of PRODUCTS) {
    for (const base of ['bare-tree', 'bare']) {
      const a = of(product);
      const b = of(base);
      lines.push(
        `| ${product} vs ${base} | ${spread(ratios(pagesPerSecond(a), pagesPerSecond(b)), 2, 'x')} | ${spread(
          ratios(pagesPerSecond(a, true), pagesPerSecond(b, true)),
          2,
          'x',
        )} | ${spread(ratios(cpuPerPage(a), cpuPerPage(b)), 2, 'x')} | ${spread(
          ratios(
            a.map((s) => s.maxRssMb),
            b.map((s) => s.maxRssMb),
          ),
          2,
          'x',
        )} |`,
      );
    }
  }
  const checks = PRODUCTS.map((p) => `${p} ${of(p)[0]?.checks ?? '?'} checks`).join(', ');
  lines.push(
    '',
    `Every audit above was a full scan (no local on-page coverage): ${checks}. Its extra requests are robots.txt, the sitemap, llms.txt and what AI readiness asks as agents.`,
  );
  return lines.join('\n');
}
