// Render benchmark (issue 14): seconds and peak memory per rendered page, the engine's renderer
// (Chromium, axe-core, the accessibility tree) against Lighthouse 13 on the same pages and the same
// Chromium, in one run. Each side runs in its own process; peak memory is the highest summed RSS of
// that process and every process under it (Chromium's), sampled every 100 ms.
import { execFileSync, spawn } from 'node:child_process';
import { startRenderSite } from './render-site.ts';

type Mode = 'ours' | 'lighthouse' | 'lighthouse-a11y';
const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 2);

/** Summed RSS (MiB) of a process and its descendants. */
function treeRssMb(root: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
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

async function sample(mode: Mode, urls: string[]): Promise<{ seconds: number[]; peakMb: number }> {
  const worker = new URL('./render-worker.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', worker, mode, ...urls], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let peakMb = 0;
  const timer = setInterval(() => {
    if (child.pid) peakMb = Math.max(peakMb, treeRssMb(child.pid));
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runRenderBenchmark(): Promise<string> {
  const site = await startRenderSite();
  const modes: Mode[] = ['ours', 'lighthouse-a11y', 'lighthouse'];
  const results = new Map<Mode, Array<{ seconds: number[]; peakMb: number }>>(modes.map((m) => [m, []]));
  try {
    // Alternate the sides so that machine noise falls on all alike.
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of modes) results.get(mode)?.push(await sample(mode, site.urls));
  } finally {
    await site.close();
  }
  const stats = (mode: Mode) => {
    const runs = results.get(mode) ?? [];
    return {
      // The first page carries the browser's start; the rest are the steady cost of a page.
      first: median(runs.map((r) => r.seconds[0] ?? Number.NaN)),
      perPage: median(runs.flatMap((r) => r.seconds.slice(1))),
      peakMb: median(runs.map((r) => r.peakMb)),
    };
  };
  const ours = stats('ours');
  const lines = [
    `Render benchmark: ${site.urls.length} pages (app shell, article, product with form, contrast failures, table layout), ${ROUNDS} rounds, medians; the same Chromium`,
    '| | first page (s, with browser start) | per page after (s) | peak memory (MiB, process tree) | time per page vs Lighthouse |',
    '|---|---|---|---|---|',
  ];
  for (const mode of modes) {
    const s = stats(mode);
    const label =
      mode === 'ours'
        ? 'siteaudit renderer (load, DOM, axe-core, accessibility tree)'
        : mode === 'lighthouse'
          ? 'Lighthouse 13, all categories'
          : 'Lighthouse 13, accessibility only';
    const ratio = mode === 'ours' ? '' : `${(ours.perPage / s.perPage).toFixed(3)}x`;
    lines.push(`| ${label} | ${s.first.toFixed(2)} | ${s.perPage.toFixed(3)} | ${s.peakMb.toFixed(0)} | ${ratio} |`);
  }
  return lines.join('\n');
}
