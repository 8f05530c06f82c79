// The work a CPU thread does on site content: each entry takes and answers structured-cloneable
// data (no functions, no class instances), so the pool can run it on a thread or, with no threads,
// on the caller's. A task may answer a promise (readSitemap streams gzip through zlib).
import { judgeAgentDocument, judgePaymentRequired } from '../agent-documents.ts';
import { measureHtml, measureMarkdown } from '../agent-text.ts';
import { evaluateCsp } from '../csp-evaluation.ts';
import { parseLlmsTxt, parseSitemap } from '../foundation-files.ts';
import { parseHtml } from '../html.ts';
import { scanScriptUrls } from '../retire.ts';
import { policyFromResponse } from '../robots.ts';
import { readSitemap } from '../sitemap-read.ts';

export const CPU_TASKS = {
  parseHtml,
  parseSitemap,
  readSitemap,
  parseLlmsTxt,
  policyFromResponse,
  evaluateCsp,
  scanScriptUrls,
  measureHtml,
  measureMarkdown,
  judgeAgentDocument,
  judgePaymentRequired,
};

export type CpuTasks = typeof CPU_TASKS;
export type CpuTaskName = keyof CpuTasks;
