// What each agent gets (issue 29): fixture sites on loopback audited for AI readiness as deployed
// sites; each page is asked again as the six probed agents and for markdown, and what each gets is
// compared with what a browser shows, in words and estimated tokens. A site that serves GPTBot an
// empty app shell has a finding naming GPTBot with its numbers; a site that serves every agent the
// same has none; a page whose inline scripts and styles weigh 20 times its text has a token-weight
// finding; a page with a markdown answer (by Accept, or at its linked alternate) is counted, and its
// weight forgiven. Rendered in Chromium, the browser's words are the rendered page's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureHtml, measureMarkdown, tokenEstimate } from '../../src/audit/agent-text.ts';
import { PROBED_AGENTS } from '../../src/audit/ai-access.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { countWords } from '../../src/audit/page-text.ts';
import type { AiReadinessDetails } from '../../src/audit/products/ai-readiness.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { toFindings, toReportContext } from '../../src/audit/report.ts';
import { type AgentViews, AiReadinessReport } from '../../src/contract/index.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { openBounded } from '../support/time-bound.ts';

const SENTENCE = 'Our workshop forges garden spades, forks and shears by hand, and sharpens them for life. ';
/** 15 words a sentence: 20 sentences are 300 words. */
const CONTENT = `<main><h1>Forged garden tools</h1><p>${SENTENCE.repeat(20)}</p><a href="/about">About the forge</a></main>`;
const FULL = html('<title>Forge</title>', CONTENT);
const SHELL = html('<title>Forge</title><script type="module" src="/assets/app.js"></script>', '<div id="app"></div>');
const ABOUT = html('<title>About</title>', `<main><h1>About</h1><p>${SENTENCE.repeat(6)}</p></main>`);

/** Inline styles and scripts 20 times the text (about 2,700 characters of it): a page over 10,000 tokens. */
function heavy(text: string): string {
  const style = `.c{color:#123456;margin:0 auto;padding:4px 8px}`.repeat(600);
  const script = `window.__DATA__=${JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, label: `item-${i}-label`, price: i * 3 })) })};`;
  return html(
    `<title>Heavy</title><style>${style}</style><script>${script}</script>`,
    `<main><h1>Heavy</h1><p>${text}</p><a href="/about">About the forge</a></main>`,
  );
}
const HEAVY_TEXT = SENTENCE.repeat(30);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A page that answers by user agent: `forAgent` to the user agents it names, FULL to everyone else. */
const byAgent =
  (forAgent: (ua: string) => string | { status: number; body: string } | undefined): Handler =>
  (req, res) => {
    const answer = forAgent(String(req.headers['user-agent'] ?? ''));
    if (answer === undefined) return void res.writeHead(200, { 'content-type': 'text/html' }).end(FULL);
    if (typeof answer === 'string') return void res.writeHead(200, { 'content-type': 'text/html' }).end(answer);
    res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.body);
  };

const ROBOTS_OPEN = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

const sites: FixtureSite[] = [];
async function site(routes: Record<string, Handler | { body: string; headers?: Record<string, string> }>) {
  const s = await startFixtureSite({ '/robots.txt': ROBOTS_OPEN, '/about': { body: ABOUT }, ...routes });
  sites.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
});

const audit = (s: FixtureSite, options: { render?: Renderer } = {}) =>
  runAudit(
    'ai_readiness',
    { url: `${s.origin}/`, local: false },
    {
      allowPrivate: true,
      pageBudget: 3,
      ...(options.render ? { render: { renderer: options.render, mode: 'always' as const } } : {}),
    },
  );
const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);
const finding = (outcome: AuditOutcome<unknown>, id: string) => outcome.findings.find((f) => f.checkId === id);
const views = (outcome: AuditOutcome<AiReadinessDetails>) => outcome.details.agentViews as AgentViews;
const agentRow = (outcome: AuditOutcome<AiReadinessDetails>, path: string, agent: string) =>
  views(outcome)
    .pages.find((p) => new URL(p.url).pathname === path)
    ?.agents.find((a) => a.agent === agent);

describe('words, tokens and answers', () => {
  it('counts words as a reader does: runs with a letter or digit, each CJK character one', () => {
    expect(countWords('Forged garden tools, since 1901.')).toBe(5);
    expect(countWords('  | - # —  ')).toBe(1); // the em dash is past ASCII: taken as a letter of some script
    expect(countWords('| - #')).toBe(0);
    expect(countWords('お問い合わせ contact')).toBe(7);
    expect(countWords('')).toBe(0);
  });

  it('measures an HTML answer by its visible text, and a markdown answer whole', () => {
    const measured = measureHtml(FULL, 'https://forge.example/');
    expect(measured.words).toBe(306);
    expect(measured.bodyChars).toBe(FULL.length);
    expect(measured.shell).toBeUndefined();
    expect(measureHtml(SHELL, 'https://forge.example/')).toMatchObject({ words: 0, shell: true });
    expect(measureMarkdown('# Forge\n\n- [Spades](https://forge.example/spades): hand-forged')).toMatchObject({
      words: 3,
    });
    expect(tokenEstimate(4001)).toBe(1001);
  });

  it('counts the words of hostile text within a time bound, on a thread that is ended if it hangs', async () => {
    const words = openBounded(new URL('../../src/audit/page-text.ts', import.meta.url), 5_000);
    const measure = openBounded(new URL('../../src/audit/agent-text.ts', import.meta.url), 15_000);
    try {
      const MiB = 1024 * 1024;
      for (const [unit, expected] of [
        ['a', 1],
        ['a ', 4 * MiB],
        ['\u3042', 8 * MiB],
        ['| ', 0],
        ['\ud83d', 1],
      ] as const)
        expect(await words.call<number>('countWords', [unit.repeat((8 * MiB) / unit.length)])).toBe(expected);
      const deep = `${'<div><span>'.repeat(100_000)}word`;
      expect(await measure.call('measureHtml', [deep, 'https://forge.example/'])).toMatchObject({ words: 1 });
      expect(await measure.call('measureMarkdown', ['# '.repeat(MiB)])).toMatchObject({ words: 0 });
    } finally {
      await Promise.all([words.close(), measure.close()]);
    }
  }, 60_000);
});

describe('what each agent gets, in an AI readiness audit', () => {
  it('names GPTBot with its numbers when it is served an empty app shell that browsers get filled', async () => {
    const s = await site({ '/': byAgent((ua) => (ua.includes('GPTBot') ? SHELL : undefined)) });
    const outcome = await audit(s);
    const parity = finding(outcome, 'agent-text-parity');
    expect(parity?.title).toBe('GPTBot gets far less of your pages than a browser');
    expect(parity?.detail).toContain(
      'GPTBot gets far less than a browser on 1 of 2 page(s) asked; on the home page: GPTBot gets 0 words of the 306 a browser shows (an app shell it cannot run)',
    );
    expect(parity?.detail).not.toMatch(/ClaudeBot|OAI-SearchBot|PerplexityBot|ChatGPT-User|Claude-User/);
    expect(parity?.affectedUrls).toEqual([`${s.origin}/`]);
    expect(parity?.severity).toBe('medium');
    expect(parity?.references.map((r) => r.url)).toContain('https://vercel.com/blog/the-rise-of-the-ai-crawler');
    // The line of the finding asks as GPTBot, for at least half the browser's words.
    expect(parity?.verify).toContain('GPTBot/1.3');
    expect(parity?.verify).toContain('153 wanted');
    // The report carries the table: the browser, the HTML, and each agent beside them.
    const gpt = agentRow(outcome, '/', 'GPTBot');
    expect(gpt).toMatchObject({ answer: 'app_shell', status: 200, words: 0, short: true, robotsAllowed: true });
    expect(gpt?.vsBrowser).toBe('0% of the 306 words a browser shows: an app shell it cannot run');
    expect(agentRow(outcome, '/', 'ClaudeBot')).toMatchObject({
      answer: 'served',
      words: 306,
      vsBrowser: 'the same text as a browser',
    });
    expect(agentRow(outcome, '/', 'ClaudeBot')?.short).toBeUndefined();
    const home = views(outcome).pages[0];
    expect(home?.browser).toEqual({ words: 306, tokens: expect.any(Number), source: 'served' });
    expect(home?.html.tokens).toBe(Math.ceil(FULL.length / 4));
    expect(views(outcome).tokens).toBe('estimated as characters ÷ 4 (no tokenizer is run)');
    // The next pages are asked too.
    expect(views(outcome).pages.map((p) => new URL(p.url).pathname)).toEqual(['/', '/about']);
    // Through the contract, as the report context carries it.
    const meta = {
      runId: '01890a5d-ac96-774b-bcce-b302099a8057',
      projectId: null,
      scanMode: null,
      createdAt: '2026-11-26T10:00:00.000Z',
      completedAt: '2026-11-26T10:01:00.000Z',
      humanUrl: 'https://siteaudit.example/runs/01890a5d-ac96-774b-bcce-b302099a8057',
    };
    const report = AiReadinessReport.parse(toReportContext(outcome, meta, toFindings(outcome, meta)));
    expect(report.agentViews?.pages[0]?.agents.find((a) => a.agent === 'GPTBot')?.words).toBe(0);
  });

  it('gives no finding when every agent gets what a browser gets', async () => {
    const s = await site({ '/': { body: FULL } });
    const outcome = await audit(s);
    expect(row(outcome, 'agent-text-parity')).toMatchObject({ status: 'pass' });
    expect(row(outcome, 'agent-text-parity')?.detail).toBe(
      '6 AI agents get what a browser shows on 2 page(s) (306 words, 91 words)',
    );
    expect(finding(outcome, 'agent-text-parity')).toBeUndefined();
    for (const agent of PROBED_AGENTS)
      expect(agentRow(outcome, '/', agent.name)).toMatchObject({ answer: 'served', words: 306, robotsAllowed: true });
    expect(row(outcome, 'page-token-weight')).toMatchObject({ status: 'pass' });
  });

  it('names an agent refused at the door that robots.txt lets in, and forgives one robots.txt refuses', async () => {
    const s = await site({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
      },
      '/': byAgent((ua) =>
        /GPTBot|ClaudeBot/.test(ua)
          ? { status: 403, body: 'Forbidden' }
          : ua.includes('PerplexityBot')
            ? { status: 402, body: 'Payment required to crawl' }
            : undefined,
      ),
    });
    const outcome = await audit(s);
    const parity = finding(outcome, 'agent-text-parity');
    expect(parity?.title).toBe('ClaudeBot gets far less of your pages than a browser');
    expect(parity?.detail).toContain('on the home page: ClaudeBot gets refused (403) where a browser shows 306 words');
    expect(parity?.detail).not.toContain('GPTBot');
    expect(parity?.remediation).toContain('bot-management rule');
    expect(agentRow(outcome, '/', 'GPTBot')).toMatchObject({ answer: 'refused', robotsAllowed: false });
    expect(agentRow(outcome, '/', 'GPTBot')?.short).toBeUndefined();
    expect(agentRow(outcome, '/', 'GPTBot')?.vsBrowser).toContain('robots.txt refuses it, so it is not judged');
    // Pay per crawl is a choice: shown, not judged.
    expect(agentRow(outcome, '/', 'PerplexityBot')).toMatchObject({ answer: 'payment_required', status: 402 });
    expect(agentRow(outcome, '/', 'PerplexityBot')?.short).toBeUndefined();
    expect(parity?.detail).not.toContain('PerplexityBot');
  });

  it('finds a page whose inline scripts and styles weigh twenty times its text', async () => {
    const page = heavy(HEAVY_TEXT);
    const s = await site({ '/': { body: page } });
    const outcome = await audit(s);
    const weight = finding(outcome, 'page-token-weight');
    const htmlTokens = Math.ceil(page.length / 4);
    expect(htmlTokens).toBeGreaterThan(10_000);
    expect(weight?.title).toBe('Pages that cost AI agents far more tokens than their text');
    expect(weight?.affectedUrls).toEqual([`${s.origin}/`]);
    const text = views(outcome).pages[0]?.browser.tokens ?? 0;
    expect(htmlTokens / text).toBeGreaterThan(20);
    expect(weight?.evidence[0]?.summary).toBe(
      `the HTML costs about ${htmlTokens.toLocaleString('en-US')} tokens for ${text.toLocaleString('en-US')} tokens of text (${Math.round(htmlTokens / text)} times its text)`,
    );
    expect(weight?.remediation).toContain('Accept: text/markdown');
    expect(weight?.remediation).toContain('/llms.txt');
    expect(weight?.severity).toBe('low');
    // Every agent gets the same heavy page: no parity finding.
    expect(finding(outcome, 'agent-text-parity')).toBeUndefined();
  });

  it('counts a markdown answer, by Accept or at a linked alternate, and forgives the weight of a page that has one', async () => {
    const markdown = `# Heavy\n\n${HEAVY_TEXT}\n`;
    const s = await site({
      '/': (req, res) => {
        if (String(req.headers.accept ?? '').includes('text/markdown'))
          return void res
            .writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' })
            .end(markdown);
        res.writeHead(200, { 'content-type': 'text/html', vary: 'Accept' }).end(heavy(HEAVY_TEXT));
      },
      '/about': {
        body: html(
          '<title>About</title><link rel="alternate" type="text/markdown" href="/about.md">',
          `<main><h1>About</h1><p>${SENTENCE.repeat(6)}</p></main>`,
        ),
      },
      '/about.md': { headers: { 'content-type': 'text/markdown' }, body: `# About\n\n${SENTENCE.repeat(6)}` },
    });
    const outcome = await audit(s);
    const [home, about] = views(outcome).pages;
    expect(home?.markdown).toEqual({
      url: `${s.origin}/`,
      via: 'accept',
      words: countWords(markdown),
      tokens: Math.ceil(markdown.length / 4),
    });
    expect(about?.markdown).toMatchObject({ url: `${s.origin}/about.md`, via: 'link', words: 91 });
    expect(finding(outcome, 'page-token-weight')).toBeUndefined();
    expect(row(outcome, 'page-token-weight')?.detail).toContain('2 answer markdown');
  });

  it('says what it saw on a local scan: the browser and the HTML, no agent asked', async () => {
    const s = await site({ '/': { body: FULL } });
    const outcome = await runAudit('ai_readiness', { url: `${s.origin}/`, local: true }, { pageBudget: 2 });
    expect(views(outcome as AuditOutcome<AiReadinessDetails>)).toMatchObject({
      agentsAsked: false,
      pages: [{ browser: { words: 306 }, agents: [] }, { agents: [] }],
    });
    expect(row(outcome, 'agent-text-parity')).toBeUndefined();
    expect(s.requests.filter((r) => r.userAgent?.includes('GPTBot'))).toHaveLength(0);
  });
});

describe.skipIf(!hasChromium)('what a rendered page shows, beside what agents get', () => {
  let renderer: Renderer;
  beforeAll(() => {
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
  });

  it('compares each agent with the rendered page: every agent gets the shell a browser fills', async () => {
    const build = `document.getElementById('app').innerHTML = '<main><h1>Forged garden tools</h1><p>' + ${JSON.stringify(SENTENCE)}.repeat(20) + '</p></main>';`;
    const s = await site({
      '/': { body: SHELL },
      '/assets/app.js': { headers: { 'content-type': 'text/javascript' }, body: build },
    });
    const outcome = await audit(s, { render: renderer });
    const home = views(outcome).pages[0];
    expect(home?.browser).toMatchObject({ words: 303, source: 'rendered' });
    const parity = finding(outcome, 'agent-text-parity');
    expect(parity?.title).toBe('6 AI agents get far less of your pages than a browser');
    expect(parity?.detail).toBe(
      'GPTBot, ClaudeBot, OAI-SearchBot, PerplexityBot, ChatGPT-User and Claude-User get far less than a browser on 1 of 1 page(s) asked; on the home page: GPTBot, ClaudeBot, OAI-SearchBot, PerplexityBot, ChatGPT-User and Claude-User each get 0 words of the 303 a browser shows (an app shell it cannot run)',
    );
    expect(parity?.evidence[0]?.summary).toContain('(rendered in Chromium)');
  }, 120_000);
});
