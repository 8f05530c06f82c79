// Render benchmark (issue 14): seconds and peak memory per rendered page, the engine's renderer
// (Chromium, axe-core, the accessibility tree) against Lighthouse 13 on the same realistic pages
// (render-site.ts) and the same Chromium, over 3 rounds unless BENCH_RENDER_ROUNDS says otherwise.
// Each side runs in its own process; peak memory is the highest summed RSS of that process and every
// process under it (Chromium's), sampled every 100 ms.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { startRenderSite } from './render-site.ts';
import { median, ratios, spread } from './support/stats.ts';

type Mode = 'ours' | 'lighthouse' | 'lighthouse-a11y';
const ROUNDS = Math.max(1, Number(process.env.BENCH_RENDER_ROUNDS ?? 3));

interface Run {
  /** Seconds per page, in the site's order. */
  seconds: number[];
  peakMb: number;
}

const execFileAsync = promisify(execFile);

/**
 * Summed RSS (MiB) of a process and its descendants. Asked without blocking: the pages are served
 * from this process, and a blocked event loop would slow both sides' page loads.
 */
async function treeRssMb(root: number): Promise<number> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' });
  const rows = stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const rss = new Map(rows.map(([pid, , kb]) => [pid, kb]));
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total / 1024;
}

async function sample(mode: Mode, urls: string[]): Promise<Run> {
  const worker = new URL('./render-worker.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', worker, mode, ...urls], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let peakMb = 0;
  let asking = false;
  const timer = setInterval(() => {
    if (!child.pid || asking) return;
    asking = true;
    treeRssMb(child.pid)
      .then((mb) => {
        peakMb = Math.max(peakMb, mb);
      })
      .catch(() => {})
      .finally(() => {
        asking = false;
      });
  }, 100);
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`render worker ${mode} exited ${code}`);
  return { seconds: (JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { seconds: number[] }).seconds, peakMb };
}

export async function runRenderBenchmark(): Promise<string> {
  const site = await startRenderSite();
  const modes: Mode[] = ['ours', 'lighthouse-a11y', 'lighthouse'];
  const results = new Map<Mode, Run[]>(modes.map((m) => [m, []]));
  try {
    // Every side once a round, the order turned each round, so the machine's drift falls on all alike.
    for (let round = 0; round < ROUNDS; round++)
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(round + k) % modes.length] as Mode;
        results.get(mode)?.push(await sample(mode, site.urls));
      }
  } finally {
    await site.close();
  }
  const runs = (mode: Mode) => results.get(mode) ?? [];
  // The first page carries the browser's start; the pages after it are the steady cost of a page,
  // taken as their median within each round.
  const first = (mode: Mode) => runs(mode).map((r) => r.seconds[0] ?? Number.NaN);
  const perPage = (mode: Mode) => runs(mode).map((r) => median(r.seconds.slice(1)));
  const label: Record<Mode, string> = {
    ours: 'siteaudit renderer (load, DOM, axe-core, accessibility tree)',
    'lighthouse-a11y': 'Lighthouse 13, accessibility only',
    lighthouse: 'Lighthouse 13, all categories',
  };
  const lines = [
    `Render benchmark: ${site.urls.length} pages of a CMS-like site (${site.described.join('; ')}), ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, each side a fresh process per round, sides in turns; median (min–max) over the rounds; the same Chromium`,
    '',
    '| | first page s (with browser start) | per page after s (median of the round) | peak MiB (process tree) | per page vs this side, paired by round |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const mode of modes) {
    const ratio = mode === 'ours' ? '' : spread(ratios(perPage('ours'), perPage(mode)), 3, 'x');
    lines.push(
      `| ${label[mode]} | ${spread(first(mode), 2)} | ${spread(perPage(mode), 3)} | ${spread(
        runs(mode).map((r) => r.peakMb),
        0,
      )} | ${ratio} |`,
    );
  }
  lines.push('', 'Seconds per page, median (min–max) over the rounds (the first page includes the browser start):', '');
  lines.push(`| page | ${modes.map((m) => label[m]).join(' | ')} |`, `|---|${modes.map(() => '---:').join('|')}|`);
  site.described.forEach((page, i) => {
    lines.push(
      `| ${page} | ${modes
        .map((m) =>
          spread(
            runs(m).map((r) => r.seconds[i] ?? Number.NaN),
            2,
          ),
        )
        .join(' | ')} |`,
    );
  });
  return lines.join('\n');
}
