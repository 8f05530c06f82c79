// What each AI agent gets of the audited pages (issue 29, "What each agent gets"): the home page and
// the next few crawled pages asked again with each probed agent's user agent (ai-access.ts), and
// once with `Accept: text/markdown` (or at the page's `<link rel="alternate" type="text/markdown">`),
// each answer measured in words and tokens on a CPU thread (agent-text.ts). Only the measures are
// kept, never the bodies. Read once per AI readiness audit of a deployed site; judged, against what
// a browser shows, in checks/agent-views.ts.
import type { TextMeasure } from './agent-text.ts';
import { type AgentAnswer, type AgentAnswerKind, classifyAgentAnswer, PROBED_AGENTS } from './ai-access.ts';
import { shellScripts } from './app-shell.ts';
import { cpuPool } from './cpu/pool.ts';
import type { CrawledPage } from './crawler.ts';
import { type FetchedPage, type Fetcher, tryFetch } from './net/fetcher.ts';

/** Pages asked as every agent: the home page and the next crawled pages (seven requests each). */
export const AGENT_VIEW_PAGES = 5;

/** One agent's answer for one page, and what it holds when it was served. */
export interface AgentGot extends AgentAnswer {
  /** What the answer holds (absent: refused, an error, or it could not be read). */
  measure?: TextMeasure;
  /** The answer was cut at the fetcher's size limit: its measure is of the part read. */
  truncated?: true;
}

/** The markdown a page answers: by content negotiation, or at the alternate its HTML links to. */
export interface MarkdownGot {
  url: string;
  via: 'accept' | 'link';
  measure: TextMeasure;
}

export interface PageAsked {
  /** The page as crawled (its final URL). */
  url: string;
  agents: AgentGot[];
  markdown?: MarkdownGot;
}

const isHtml = (page: FetchedPage) => {
  const type = (page.headers['content-type'] ?? '').toLowerCase();
  return type === '' || type.includes('html');
};

/** The served page's own measure, when an agent got the very same bytes (most sites): no second parse. */
function servedMeasure(page: CrawledPage): TextMeasure | undefined {
  const facts = page.facts;
  const fetched = page.fetched;
  if (!facts || !fetched) return undefined;
  return {
    words: facts.textWords,
    textChars: facts.textLength,
    bodyChars: fetched.body.length,
    ...(shellScripts(facts, fetched.url) > 0 ? { shell: true as const } : {}),
  };
}

/** An answer's words and tokens, read on a CPU thread; undefined when it cannot be read in time. */
async function measure(answer: FetchedPage, same: TextMeasure | undefined): Promise<TextMeasure | undefined> {
  if (same) return same;
  const task = isHtml(answer)
    ? cpuPool().run('measureHtml', [answer.body, answer.url])
    : cpuPool().run('measureMarkdown', [answer.body]);
  return task.catch(() => undefined);
}

/** Measures of one page's answers by their body: agents served the same bytes are read once. */
type Measured = Map<string, Promise<TextMeasure | undefined>>;

async function askAs(
  fetcher: Fetcher,
  page: CrawledPage,
  agent: (typeof PROBED_AGENTS)[number],
  signal: AbortSignal | undefined,
  measured: Measured,
): Promise<AgentGot> {
  const { name, purpose, userAgent } = agent;
  const url = page.fetched?.url ?? page.url;
  const { page: answer, error } = await tryFetch(fetcher, url, signal, { userAgent });
  if (!answer) return { name, purpose, kind: 'error', status: null, note: error ?? 'no answer' };
  const kind: AgentAnswerKind = classifyAgentAnswer(answer.status, answer.headers, answer.body);
  const got: AgentGot = { name, purpose, kind, status: answer.status, note: `answered ${answer.status}` };
  // Only a page served is read: a refusal's or an error page's text is not the page.
  if (kind !== 'served' || answer.status >= 300) return got;
  const served = page.fetched;
  const same = served && answer.body === served.body && page.facts ? servedMeasure(page) : undefined;
  let reading = measured.get(answer.body);
  if (!reading) {
    reading = measure(answer, same);
    measured.set(answer.body, reading);
  }
  const text = await reading;
  if (!text) return { ...got, note: `${got.note}; its text could not be read in time` };
  return { ...got, measure: text, ...(answer.truncated ? { truncated: true as const } : {}) };
}

/** The `<link rel="alternate" type="text/markdown">` of a page, on its own origin. */
function markdownAlternate(page: CrawledPage): string | undefined {
  const base = page.fetched?.url ?? page.url;
  for (const link of page.facts?.links ?? []) {
    if (!link.rel.toLowerCase().split(/\s+/).includes('alternate')) continue;
    if (!(link.type ?? '').toLowerCase().startsWith('text/markdown')) continue;
    try {
      const url = new URL(link.href, base);
      if (url.origin === new URL(base).origin) return url.href;
    } catch {
      // Not a URL: no alternate.
    }
  }
  return undefined;
}

const isMarkdown = (answer: FetchedPage) =>
  answer.status === 200 && (answer.headers['content-type'] ?? '').toLowerCase().startsWith('text/markdown');

/** The markdown of a page: asked for with Accept, else at its linked alternate (any text that is not HTML). */
async function askMarkdown(
  fetcher: Fetcher,
  page: CrawledPage,
  signal: AbortSignal | undefined,
): Promise<MarkdownGot | undefined> {
  const url = page.fetched?.url ?? page.url;
  const negotiated = await tryFetch(fetcher, url, signal, { accept: 'text/markdown, text/html;q=0.5' });
  if (negotiated.page && isMarkdown(negotiated.page)) {
    const measured = await measure(negotiated.page, undefined);
    return measured ? { url, via: 'accept', measure: measured } : undefined;
  }
  const alternate = markdownAlternate(page);
  if (!alternate) return undefined;
  const linked = await tryFetch(fetcher, alternate, signal, { accept: 'text/markdown, text/plain;q=0.9' });
  if (linked.page?.status !== 200 || isHtml(linked.page)) return undefined;
  const measured = await measure(linked.page, undefined);
  return measured ? { url: linked.page.url, via: 'link', measure: measured } : undefined;
}

/**
 * The home page (whatever it answered) and the next crawled HTML pages, up to AGENT_VIEW_PAGES, each
 * asked as every probed agent and for markdown at once; one page after another, so a site gets at
 * most seven of these requests at a time.
 */
export async function askPagesAsAgents(
  fetcher: Fetcher,
  home: CrawledPage,
  pages: readonly CrawledPage[],
  signal?: AbortSignal,
): Promise<PageAsked[]> {
  const asked: PageAsked[] = [];
  const others = pages.filter((page) => page !== home).slice(0, AGENT_VIEW_PAGES - 1);
  for (const page of [home, ...others]) {
    signal?.throwIfAborted();
    const measured: Measured = new Map();
    const [agents, markdown] = await Promise.all([
      Promise.all(PROBED_AGENTS.map((agent) => askAs(fetcher, page, agent, signal, measured))),
      page.facts ? askMarkdown(fetcher, page, signal) : Promise.resolve(undefined),
    ]);
    asked.push({ url: page.fetched?.url ?? page.url, agents, ...(markdown ? { markdown } : {}) });
  }
  return asked;
}

/** How the home page answered each agent, as the foundation check reads it (ai-agents-answered). */
export const homeAnswers = (asked: readonly PageAsked[]): AgentAnswer[] =>
  (asked[0]?.agents ?? []).map(({ name, purpose, kind, status, note }) => ({ name, purpose, kind, status, note }));
