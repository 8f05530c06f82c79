// Figures over rounds, as the crawl, API and render benchmarks print them: the median to quote,
// with the lowest and highest round beside it, so a reader sees how noisy the machine was.

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `median (min–max)` with `digits` decimals; the median alone for a single value. */
export function spread(values: number[], digits: number, suffix = ''): string {
  const f = (v: number) => `${v.toFixed(digits)}${suffix}`;
  if (values.length === 0) return '-';
  if (values.length === 1) return f(values[0] as number);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

/** Pairwise ratios a[i] / b[i]: rounds run side by side, so each round's noise falls on both. */
export function ratios(a: number[], b: number[]): number[] {
  return a.map((value, i) => value / (b[i] as number)).filter((r) => Number.isFinite(r));
}
