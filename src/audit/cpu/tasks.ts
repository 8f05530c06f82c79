// The work a CPU thread does on site content: each entry takes and answers structured-cloneable
// data (no functions, no class instances), so the pool can run it on a thread or, with no threads,
// on the caller's.
import { parseLlmsTxt, parseSitemap } from '../foundation-files.ts';
import { parseHtml } from '../html.ts';
import { policyFromResponse } from '../robots.ts';

export const CPU_TASKS = {
  parseHtml,
  parseSitemap,
  parseLlmsTxt,
  policyFromResponse,
};

export type CpuTasks = typeof CPU_TASKS;
export type CpuTaskName = keyof CpuTasks;
