// How both sides of the crawl benchmark time their crawls and print their figures. It imports
// nothing, so the bare side stays free of the engine.

export interface CrawlFigures {
  pages: number;
  /** The first crawl of a fresh process: it pays for compiling the code it runs. */
  seconds: number;
  /** The second crawl in the same process, as a long-lived service worker runs: the steady state. */
  warmSeconds: number;
  /** CPU time of each crawl, the process's (worker threads included). */
  coldCpuSeconds: number;
  warmCpuSeconds: number;
  maxRssMb: number;
}

/** Runs `crawl` twice, cold then warm; answers the figures and both crawls' own results. */
export async function timeTwice<T extends { pages: number }>(
  crawl: () => Promise<T>,
): Promise<{ figures: CrawlFigures; cold: T; warm: T }> {
  const timed = async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await crawl();
    const used = process.cpuUsage(cpu);
    return { result, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  };
  const cold = await timed();
  const warm = await timed();
  return {
    figures: {
      pages: cold.result.pages,
      seconds: cold.seconds,
      warmSeconds: warm.seconds,
      coldCpuSeconds: cold.cpuSeconds,
      warmCpuSeconds: warm.cpuSeconds,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    },
    cold: cold.result,
    warm: warm.result,
  };
}
