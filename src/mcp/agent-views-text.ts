// "What each agent gets" (issue 29) as get_report's text: one line a page, what a browser shows, what
// the served HTML costs, the markdown answer and each AI agent beside them, agents that get the same
// said once. Text only: the tool's structured result keeps its schema (the tool list's token budget,
// docs/mcp.md), and page_findings carries the agent-text-parity and page-token-weight findings.
import type { AgentViews } from '../contract/index.ts';
import { markQuotes, siteUrl } from './page-content.ts';

/** Pages shown, at most (the engine asks five). */
const PAGES_SHOWN = 5;

const n = (value: number) => value.toLocaleString('en-US');

type PageView = AgentViews['pages'][number];

/** "GPTBot 0 words (far less: ...); ClaudeBot, OAI-SearchBot ... 306 words (the same text as a browser)" */
function agentsText(page: PageView): string {
  const groups = new Map<string, string[]>();
  for (const agent of page.agents) {
    const words = agent.words === undefined ? '' : `${n(agent.words)} words `;
    const key = `${words}(${agent.short ? 'far less: ' : ''}${markQuotes(agent.vsBrowser)})`;
    groups.set(key, [...(groups.get(key) ?? []), agent.agent]);
  }
  return [...groups].map(([what, names]) => `${names.join(', ')} ${what}`).join('; ');
}

function pageLine(page: PageView): string {
  const browser = `a browser shows ${n(page.browser.words)} words (≈${n(page.browser.tokens)} tokens, ${page.browser.source === 'rendered' ? 'rendered' : 'served HTML, not rendered'})`;
  const ratio = page.html.tokens / page.browser.tokens;
  const times = page.browser.tokens > 0 ? `, ${ratio < 10 ? ratio.toFixed(1) : n(Math.round(ratio))}× the text` : '';
  const html = `the HTML costs ≈${page.html.truncated ? 'at least ' : ''}${n(page.html.tokens)} tokens${times}`;
  const markdown = page.markdown
    ? `; markdown (${page.markdown.via === 'accept' ? 'Accept: text/markdown' : 'linked alternate'}) ${n(page.markdown.words)} words ≈${n(page.markdown.tokens)} tokens`
    : '';
  const agents = page.agents.length > 0 ? `. ${agentsText(page)}` : '';
  return `- ${siteUrl(page.url)}: ${browser}; ${html}${markdown}${agents}.`;
}

/**
 * The lines of get_report's section, or none when no agent was asked (a local scan: what a browser
 * shows and what the HTML costs stay in the report context and on the run page, not in the text).
 */
export function agentViewsLines(views: AgentViews | undefined): string[] {
  if (!views?.agentsAsked || views.pages.length === 0) return [];
  const more = views.pages.length > PAGES_SHOWN ? [`- and ${views.pages.length - PAGES_SHOWN} more page(s)`] : [];
  return [
    '',
    '### What each agent gets',
    `Words of text; tokens ${views.tokens}.`,
    ...views.pages.slice(0, PAGES_SHOWN).map(pageLine),
    ...more,
  ];
}
