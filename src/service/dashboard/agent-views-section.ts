// The run page's "What each agent gets" (issue 29): for each page asked, what a browser shows, what
// the served HTML costs, the markdown answer and what each AI agent got, in words and estimated
// tokens. One small table a page, reflowed into cards on a phone (layout.ts, table.reflow).
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AgentViews } from '../../contract/index.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;
type PageView = AgentViews['pages'][number];

const n = (value: number) => value.toLocaleString('en-US');
/** "1.1×" below ten, "14×" from there. */
const times = (ratio: number) => `${ratio < 10 ? ratio.toFixed(1) : n(Math.round(ratio))}×`;

const PURPOSE: Record<string, string> = {
  training: 'training crawler',
  search: 'AI search crawler',
  user: 'acts for a user',
};

const VIA: Record<string, string> = {
  accept: 'asked with Accept: text/markdown',
  link: 'its linked markdown alternate',
};

/** "14× its text" (the served HTML beside what a browser shows), or nothing to compare with. */
const weight = (page: PageView) =>
  page.browser.tokens === 0 ? 'a page with no text' : `${times(page.html.tokens / page.browser.tokens)} the text`;

function row(
  reader: Content | string,
  words: number | undefined,
  tokens: number | undefined,
  versus: Content | string,
) {
  return html`<tr><td>${reader}</td><td data-label="Words">${words === undefined ? '—' : n(words)}</td><td data-label="Tokens">${tokens === undefined ? '—' : `≈${n(tokens)}`}</td><td data-label="Beside a browser">${versus}</td></tr>`;
}

function pageTable(page: PageView): Content {
  const markdown = page.markdown;
  return html`<h3 class="agent-page"><code>${page.url}</code></h3>
    <div class="scroll"><table class="reflow">
      <thead><tr><th>Reader</th><th>Words</th><th>Tokens</th><th>Beside a browser</th></tr></thead>
      ${row(
        html`A browser <span class="muted">(${page.browser.source === 'rendered' ? 'rendered in Chromium' : 'the served HTML, not rendered'})</span>`,
        page.browser.words,
        page.browser.tokens,
        'what a reader sees',
      )}
      ${row(
        html`The HTML, read whole <span class="muted">(markup, inline scripts and styles)</span>`,
        undefined,
        page.html.tokens,
        `${page.html.truncated ? 'at least ' : ''}${weight(page)}`,
      )}
      ${
        markdown
          ? row(
              html`Markdown <span class="muted">(${VIA[markdown.via] ?? markdown.via})</span>`,
              markdown.words,
              markdown.tokens,
              page.html.tokens > 0
                ? `${Math.round((100 * markdown.tokens) / page.html.tokens)}% of the HTML’s tokens`
                : '',
            )
          : ''
      }
      ${page.agents.map((agent) =>
        row(
          html`${agent.agent} <span class="muted">(${PURPOSE[agent.purpose] ?? agent.purpose})</span>`,
          agent.words,
          agent.tokens,
          agent.short ? html`<span class="badge fail">far less</span> ${agent.vsBrowser}` : agent.vsBrowser,
        ),
      )}
    </table></div>`;
}

export function agentViewsSection(views: AgentViews | undefined): Content | string {
  if (!views || views.pages.length === 0) return '';
  const markdownless = views.pages.every((page) => !page.markdown);
  return html`<h2 id="agent-views">What each agent gets</h2>
    <p class="muted">${
      views.agentsAsked
        ? 'Each page as a browser shows it, beside what six AI agents were served and what a request for markdown answers.'
        : 'Each page as a browser shows it and what its HTML costs to read; AI agents are asked only in a full scan of a deployed site.'
    } Tokens are ${views.tokens}.${views.agentsAsked && markdownless ? ' No page answered markdown.' : ''}</p>
    ${views.pages.map(pageTable)}`;
}
