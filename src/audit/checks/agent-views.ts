// What each agent gets (issue 29): the text a browser shows of a page (rendered in Chromium when it
// was, else its served HTML), beside what each probed AI agent was served (agent-views.ts) and the
// markdown the page answers, in words and estimated tokens (agent-text.ts). Two checks:
//   agent-text-parity: an agent that robots.txt lets in gets far less than a browser: under half of
//     its words (when it shows at least 50), an app shell it cannot run, a refusal, a bot challenge
//     or an error. A 402 (pay per crawl) and a failure to answer are not judged.
//   page-token-weight: a page whose served HTML costs over 10 times the tokens of its text, and over
//     10,000 tokens, with no markdown answer to read instead.
import type { AgentViews } from '../../contract/index.ts';
import { TOKEN_ESTIMATE, tokenEstimate } from '../agent-text.ts';
import type { AgentGot, PageAsked } from '../agent-views.ts';
import { AGENT_VIEW_PAGES } from '../agent-views.ts';
import { PROBED_AGENTS } from '../ai-access.ts';
import { type CheckResult, type CheckSpec, type Evidence, fail, note, pass } from '../checks.ts';
import { shellWord } from '../citations.ts';
import type { CrawledPage } from '../crawler.ts';
import { isAllowedByPolicy } from '../robots.ts';
import { htmlPages, type SiteSnapshot } from '../site.ts';
import { RFC, ref } from '../standards.ts';

/** An agent gets far less than a browser below this share of the browser's words... */
export const SHORT_SHARE = 0.5;
/** ...where the browser shows at least this many words (fewer, and there is little to lose). */
export const BROWSER_WORDS_MIN = 50;
/** A page is heavy when its served HTML costs more than this many times the tokens of its text... */
export const HEAVY_RATIO = 10;
/** ...and more than this many tokens in all (about 40 KB of HTML). */
export const HEAVY_TOKENS = 10_000;

const GPTBOT_UA = (PROBED_AGENTS.find((a) => a.name === 'GPTBot') ?? PROBED_AGENTS[0])?.userAgent ?? 'GPTBot';

/**
 * The words of an HTML page as a browser without scripts shows them, counted by Python's own HTML
 * parser (text outside script, style, template, noscript, svg and title); an answer with no tags is
 * all text. `c[0]` words, `c[2]` characters of text; `b` the answer.
 */
const PY_TEXT =
  'import sys,html.parser as h; K=("script","style","template","noscript","svg","title"); c=[0,0,0]; P=type("P",(h.HTMLParser,),{"handle_starttag":lambda s,t,a:c.__setitem__(1,c[1]+(t in K)),"handle_endtag":lambda s,t:c.__setitem__(1,max(0,c[1]-(t in K))),"handle_data":lambda s,d:None if c[1] else (c.__setitem__(0,c[0]+len(d.split())),c.__setitem__(2,c[2]+len(" ".join(d.split()))))}); b=sys.stdin.buffer.read().decode("utf-8","replace"); p=P(); p.feed(b); p.close()';

/** The words an agent is served: `curl -f`, so a refusal or an error page counts as no words. */
const wordsLine = (userAgent: string, url: string, print: string) =>
  `curl -sSf -A ${shellWord(userAgent)} ${url} | python3 -c '${PY_TEXT}; ${print}'`;

/** The line of one finding: "short: N words" below the share of the browser's words, "ok: N words" at or above it. */
export function parityVerify(userAgent: string, url: string, browserWords: number): string {
  const need = Math.ceil(SHORT_SHARE * browserWords);
  return wordsLine(
    userAgent,
    shellWord(url),
    `print(("ok: " if c[0]>=${need} else "short: ")+"%d words (a browser shows ${browserWords}; ${need} wanted)" % c[0])`,
  );
}

export const AGENT_VIEW_SPECS = {
  parity: {
    id: 'agent-text-parity',
    label: 'AI agents get the text a browser shows',
    category: 'discoverability',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'Vercel and MERJ: The rise of the AI crawler (AI crawlers do not run JavaScript)',
          'https://vercel.com/blog/the-rise-of-the-ai-crawler',
        ),
        ref(
          'Google Search Central: Understand the JavaScript SEO basics',
          'https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics',
        ),
        ref(
          'Google Search Central: Spam policies, cloaking',
          'https://developers.google.com/search/docs/essentials/spam-policies#cloaking',
        ),
        ref('OpenAI: Overview of OpenAI crawlers', 'https://platform.openai.com/docs/bots'),
      ],
      verify: wordsLine(GPTBOT_UA, '{url}', 'print("%d words" % c[0])'),
      anchors: [],
    },
  },
  tokenWeight: {
    id: 'page-token-weight',
    label: 'Pages cost agents few tokens beyond their text (or answer markdown)',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        ref(
          'Cloudflare: Markdown for Agents',
          'https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/',
        ),
        RFC(7763, '', 'The text/markdown Media Type'),
        ref('llmstxt.org: The /llms.txt file', 'https://llmstxt.org/'),
        ref(
          'OpenAI Help: What are tokens and how to count them (about 4 characters a token)',
          'https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them',
        ),
      ],
      // The answer an agent that asks for markdown gets: "heavy" while it is the heavy HTML, "ok" once
      // it is markdown or light HTML (tokens as characters ÷ 4, as the check counts them).
      verify: `curl -sS -H 'Accept: text/markdown' {url} | python3 -c '${PY_TEXT}; T=-(-len(b)//4); x=-(-c[2]//4); print(("heavy: " if T>${HEAVY_RATIO}*x and T>${HEAVY_TOKENS} else "ok: ")+"about %d tokens for %d tokens of text" % (T,x))'`,
      anchors: [],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = AGENT_VIEW_SPECS;

const n = (value: number) => value.toLocaleString('en-US');

interface BrowserView {
  words: number;
  tokens: number;
  source: 'rendered' | 'served';
}

/** What a browser shows of a page: the rendered DOM's text when Chromium rendered it, else the served HTML's. */
function browserView(page: CrawledPage): BrowserView | undefined {
  const facts = page.facts;
  if (!facts) return undefined;
  return {
    words: facts.textWords,
    tokens: tokenEstimate(facts.textLength),
    source: page.rendered ? 'rendered' : 'served',
  };
}

type Row = AgentViews['pages'][number]['agents'][number];

/** One agent's answer beside the browser's text: the row of the report, and what it gets when it is short. */
function judgeAgent(got: AgentGot, browser: BrowserView, robotsAllowed: boolean): Row & { gets?: string } {
  const base = { agent: got.name, purpose: got.purpose, status: got.status, robotsAllowed };
  const gets = browser.words === 0 ? 'a browser shows no text' : `a browser shows ${n(browser.words)} words`;
  const outside = robotsAllowed ? '' : '; robots.txt refuses it, so it is not judged';
  if (got.status === null)
    // The fetcher's reason can carry the site's addresses (a redirect's Location): not repeated here.
    return { ...base, answer: 'no_answer', vsBrowser: 'no answer (a timeout or a connection that failed), not judged' };
  if (got.kind === 'payment_required')
    return { ...base, answer: 'payment_required', vsBrowser: `asked to pay (402): a choice, not judged` };
  if (got.kind !== 'served' || got.status >= 300) {
    const what =
      got.kind === 'refused'
        ? `refused (${got.status})`
        : got.kind === 'challenge'
          ? `a bot challenge (${got.status})`
          : `an error (${got.status})`;
    const answer = got.kind === 'refused' || got.kind === 'challenge' ? got.kind : 'error';
    return {
      ...base,
      answer,
      words: 0,
      vsBrowser: `${what} where ${gets}${outside}`,
      ...(robotsAllowed ? { short: true as const, gets: `${what} where ${gets}` } : {}),
    };
  }
  const measure = got.measure;
  if (!measure) return { ...base, answer: 'unread', vsBrowser: 'its text could not be read in time, not judged' };
  const words = measure.words;
  const short = robotsAllowed && browser.words >= BROWSER_WORDS_MIN && words < SHORT_SHARE * browser.words;
  const shell = measure.shell && words < browser.words ? ': an app shell it cannot run' : '';
  const versus =
    browser.words === 0
      ? `${n(words)} words; a browser shows none`
      : words === browser.words
        ? 'the same text as a browser'
        : `${Math.round((100 * words) / browser.words)}% of the ${n(browser.words)} words a browser shows`;
  return {
    ...base,
    answer: shell ? 'app_shell' : 'served',
    words,
    tokens: tokenEstimate(measure.bodyChars),
    vsBrowser: `${versus}${shell}${outside}`,
    ...(short
      ? {
          short: true as const,
          gets: `${n(words)} words of the ${n(browser.words)} a browser shows${shell ? ' (an app shell it cannot run)' : ''}`,
        }
      : {}),
  };
}

interface PageView {
  page: CrawledPage;
  browser: BrowserView;
  html: { tokens: number; truncated?: true };
  asked?: PageAsked;
  rows: Array<Row & { gets?: string }>;
}

const pageUrl = (page: CrawledPage) => page.fetched?.url ?? page.url;

/** The pages of the views: those asked as agents, or (none asked) the first HTML pages. */
function pageViews(site: SiteSnapshot): PageView[] {
  const pages = htmlPages(site);
  const byUrl = new Map(pages.map((page) => [pageUrl(page), page]));
  const policy = site.robots?.policy ?? { kind: 'allow_all' as const };
  const chosen: Array<{ page: CrawledPage; asked?: PageAsked }> = site.agentPages
    ? site.agentPages.flatMap((asked) => {
        const page = byUrl.get(asked.url);
        return page ? [{ page, asked }] : [];
      })
    : pages.slice(0, AGENT_VIEW_PAGES).map((page) => ({ page }));
  return chosen.flatMap(({ page, asked }) => {
    const browser = browserView(page);
    const fetched = page.fetched;
    if (!browser || !fetched) return [];
    const url = pageUrl(page);
    const rows = (asked?.agents ?? []).map((got) => judgeAgent(got, browser, isAllowedByPolicy(policy, got.name, url)));
    return [
      {
        page,
        browser,
        html: {
          tokens: tokenEstimate(fetched.body.length),
          ...(fetched.truncated ? { truncated: true as const } : {}),
        },
        ...(asked ? { asked } : {}),
        rows,
      },
    ];
  });
}

/** The report's agentViews: what a browser, the served HTML, the markdown answer and each agent give of a few pages. */
export function agentViewsReport(site: SiteSnapshot): AgentViews | undefined {
  const views = pageViews(site);
  if (views.length === 0) return undefined;
  return {
    tokens: TOKEN_ESTIMATE,
    agentsAsked: site.agentPages !== undefined,
    pages: views.map(({ page, browser, html, asked, rows }) => {
      const markdown = asked?.markdown;
      return {
        url: pageUrl(page),
        browser,
        html,
        ...(markdown
          ? {
              markdown: {
                url: markdown.url,
                via: markdown.via,
                words: markdown.measure.words,
                tokens: tokenEstimate(markdown.measure.bodyChars),
              },
            }
          : {}),
        agents: rows.map(({ gets: _gets, ...row }) => row),
      };
    }),
  };
}

const isHome = (site: SiteSnapshot, page: CrawledPage) => site.pages[0] === page;

/** "a", "a and b", "a, b and c" */
const listed = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** What the short agents of a page get, one sentence for the agents that get the same ("A and B each get ..."). */
function sentences(rows: ReadonlyArray<Row & { gets?: string }>): string {
  const byWhat = new Map<string, string[]>();
  for (const row of rows) if (row.gets) byWhat.set(row.gets, [...(byWhat.get(row.gets) ?? []), row.agent]);
  return [...byWhat]
    .map(([gets, names]) => (names.length === 1 ? `${names[0]} gets ${gets}` : `${listed(names)} each get ${gets}`))
    .join('; ');
}

/** agent-text-parity: the agents that get far less than a browser, page by page. */
function parityCheck(site: SiteSnapshot, views: readonly PageView[]): CheckResult | undefined {
  if (!site.agentPages) return undefined;
  const asked = views.filter((view) => view.asked);
  const judged = asked.flatMap((view) => view.rows.filter((row) => row.robotsAllowed && row.answer !== 'no_answer'));
  if (judged.length === 0)
    return note(
      S.parity,
      'not judged: no agent that robots.txt lets in got an answer to compare with what a browser shows',
    );
  const short = asked
    .map((view) => ({ view, rows: view.rows.filter((row) => row.short) }))
    .filter(({ rows }) => rows.length > 0);
  const agentNames = [...new Set(asked.flatMap((view) => view.rows.map((row) => row.agent)))];
  if (short.length === 0)
    return pass(
      S.parity,
      `${agentNames.length} AI agents get what a browser shows on ${asked.length} page(s) (${asked
        .map((view) => `${n(view.browser.words)} words`)
        .join(', ')})`,
    );
  const names = [...new Set(short.flatMap(({ rows }) => rows.map((row) => row.agent)))];
  const where = (view: PageView) => (isHome(site, view.page) ? 'on the home page' : 'on another page');
  const first = short[0] as (typeof short)[number];
  const worst = first.rows[0] as Row;
  const ua = PROBED_AGENTS.find((agent) => agent.name === worst.agent)?.userAgent ?? worst.agent;
  const verify = parityVerify(ua, pageUrl(first.view.page), first.view.browser.words);
  const evidence: Evidence[] = short.map(({ view, rows }) => ({
    type: 'page',
    url: pageUrl(view.page),
    summary: `${sentences(rows)} (${view.browser.source === 'rendered' ? 'rendered in Chromium' : 'its served HTML, not rendered'})`,
  }));
  const blocked = short.some(({ rows }) => rows.some((row) => row.answer !== 'served' && row.answer !== 'app_shell'));
  const shells = short.some(({ rows }) => rows.some((row) => row.answer === 'app_shell' || row.answer === 'served'));
  return fail(S.parity, {
    detail: `${listed(names)} get${names.length === 1 ? 's' : ''} far less than a browser on ${short.length} of ${asked.length} page(s) asked; ${where(first.view)}: ${sentences(first.rows)}`,
    title: `${names.length === 1 ? names[0] : `${names.length} AI agents`} get${names.length === 1 ? 's' : ''} far less of your pages than a browser`,
    remediation: [
      'AI crawlers and assistants read the HTML your server sends them and do not run its scripts: what they are not sent, AI answers and AI search cannot use.',
      shells
        ? 'Send the page’s text in the HTML itself to every user agent: render it on the server (server-side rendering, static generation or prerendering) instead of building it in the browser, and do not answer these agents with a lighter page.'
        : '',
      blocked
        ? 'A firewall, CDN or bot-management rule refuses or challenges agents that robots.txt lets in: allow them there, or, if you mean to keep them out, say so in robots.txt, where agents and this audit read it as your choice.'
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    agentAction: `Make the pages listed send ${listed(names)} the same text as a browser (render the content on the server for every user agent${blocked ? ', and lift the bot rule that refuses or challenges them' : ''}); then this must print "ok": ${verify}`,
    affectedUrls: short.map(({ view }) => pageUrl(view.page)),
    evidence,
    verify,
  });
}

/** page-token-weight: pages whose HTML costs far more tokens than their text, with no markdown to read instead. */
function tokenWeightCheck(site: SiteSnapshot, views: readonly PageView[]): CheckResult | undefined {
  // A local scan reads a development server, whose HTML is not what the site will serve.
  if (site.local) return undefined;
  const markdownOf = new Map(views.flatMap((view) => (view.asked?.markdown ? [[view.page, view.asked.markdown]] : [])));
  const pages = htmlPages(site).flatMap((page) => {
    const browser = browserView(page);
    const fetched = page.fetched;
    if (!browser || !fetched) return [];
    const html = tokenEstimate(fetched.body.length);
    const markdown = markdownOf.get(page);
    const heavy = html > HEAVY_RATIO * browser.tokens && html > HEAVY_TOKENS && !markdown;
    return [{ page, browser, html, truncated: fetched.truncated, heavy }];
  });
  if (pages.length === 0) return undefined;
  const heavy = pages.filter((p) => p.heavy).sort((a, b) => b.html - a.html);
  const offered = pages.filter((p) => markdownOf.has(p.page)).length;
  if (heavy.length === 0)
    return pass(
      S.tokenWeight,
      `the served HTML of ${pages.length} page(s) costs agents at most ${n(Math.max(...pages.map((p) => p.html)))} tokens${offered ? `; ${offered} answer markdown` : ''} (${TOKEN_ESTIMATE})`,
    );
  const times = (p: (typeof heavy)[number]) =>
    p.browser.tokens === 0 ? 'a page with no text' : `${Math.round(p.html / p.browser.tokens)} times its text`;
  const sentence = (p: (typeof heavy)[number]) =>
    `the HTML costs about ${n(p.html)}${p.truncated ? '+' : ''} tokens for ${n(p.browser.tokens)} tokens of text (${times(p)})`;
  const top = heavy[0] as (typeof heavy)[number];
  const llms = site.llms?.status === 200;
  return fail(S.tokenWeight, {
    detail: `${heavy.length} of ${pages.length} page(s) cost an agent over ${HEAVY_RATIO} times the tokens of their text; the heaviest: ${sentence(top)} (${TOKEN_ESTIMATE})`,
    title: 'Pages that cost AI agents far more tokens than their text',
    remediation: `An AI agent reads a page's whole HTML into its context: on these pages inline scripts, styles and markup cost over ${HEAVY_RATIO} times the tokens of the text itself, so agents spend their budget on code, may cut the page short, and cost more to run on your site. Give agents the text without the weight: answer requests that send "Accept: text/markdown" with a markdown version of the page (with "Vary: Accept"; Cloudflare's Markdown for Agents does it at the edge), or link one with <link rel="alternate" type="text/markdown">; ${llms ? 'list your key pages in /llms.txt' : 'publish /llms.txt listing your key pages'}; and move inline scripts and styles into files the browser caches.`,
    agentAction: `Cut what an agent reads on the pages listed: serve a markdown version of each on "Accept: text/markdown" (and send "Vary: Accept"), or move the inline <script> and <style> blocks into external files; then the verify line must print "ok".`,
    affectedUrls: heavy.map((p) => pageUrl(p.page)),
    evidence: heavy.map((p) => ({ type: 'page' as const, url: pageUrl(p.page), summary: sentence(p) })),
  });
}

export function agentViewChecks(site: SiteSnapshot): CheckResult[] {
  const views = pageViews(site);
  return [parityCheck(site, views), tokenWeightCheck(site, views)].filter(
    (row): row is CheckResult => row !== undefined,
  );
}
