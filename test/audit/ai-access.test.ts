// AI crawler access by purpose (issue 13): the vendored ai.robots.txt list, robots.txt judged per
// purpose for the home page, the stance it adds up to, and how answers to agents are classed.
import { afterAll, describe, expect, it } from 'vitest';
import {
  accessByPurpose,
  classifyAgentAnswer,
  JUDGED_PURPOSES,
  judgeStance,
  MAJOR_AGENTS,
  PROBED_AGENTS,
} from '../../src/audit/ai-access.ts';
import { AI_AGENTS, AI_AGENTS_SOURCE } from '../../src/audit/data/ai-agents.ts';
import { runAudit } from '../../src/audit/index.ts';
import { policyFromResponse } from '../../src/audit/robots.ts';
import { type FixtureSite, startShopSite } from '../support/fixture-site.ts';

const HOME = 'https://shop.example/';
const judge = (robots: string) => {
  const access = accessByPurpose(policyFromResponse(200, robots), HOME);
  return { access, stance: judgeStance(access) };
};

describe('the vendored list of AI agents', () => {
  it('names its source and version, and holds every purpose', () => {
    expect(AI_AGENTS_SOURCE.project).toBe('ai-robots-txt/ai.robots.txt');
    expect(AI_AGENTS_SOURCE.version).toMatch(/^[0-9a-f]{40}$/);
    expect(AI_AGENTS.length).toBeGreaterThan(100);
    for (const purpose of ['training', 'search', 'user', 'other'])
      expect(AI_AGENTS.some((a) => a.purpose === purpose)).toBe(true);
  });

  it('has every major and probed agent, with the purpose we judge it by', () => {
    for (const purpose of JUDGED_PURPOSES)
      for (const name of MAJOR_AGENTS[purpose])
        expect(AI_AGENTS.find((a) => a.name === name)?.purpose, name).toBe(purpose);
    for (const probe of PROBED_AGENTS) {
      expect(AI_AGENTS.find((a) => a.name === probe.name)?.purpose, probe.name).toBe(probe.purpose);
      expect(probe.userAgent).toContain(`${probe.name}/`);
    }
  });
});

describe('robots.txt judged by purpose', () => {
  it('an open file lets every purpose in', () => {
    const { access, stance } = judge('User-agent: *\nAllow: /\n');
    for (const purpose of JUDGED_PURPOSES) expect(access[purpose].blocked).toEqual([]);
    expect(stance).toMatchObject({ stance: 'open', intended: true });
  });

  it('training blocked while search and user agents are allowed is a deliberate stance', () => {
    const { access, stance } = judge(
      'User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    );
    expect(access.training.majorBlocked).toEqual(['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot']);
    expect(access.search.blocked).toEqual([]);
    expect(access.user.blocked).toEqual([]);
    expect(stance).toMatchObject({ stance: 'training_opt_out', intended: true });
  });

  it('a blanket `*` disallow that admits only search engines looks unintended', () => {
    const { access, stance } = judge('User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n');
    for (const purpose of JUDGED_PURPOSES) {
      expect(access[purpose].majorAllowed).toEqual([]);
      expect(access[purpose].blocked.length).toBe(access[purpose].listed);
    }
    expect(stance).toMatchObject({ stance: 'closed', intended: false });
    expect(stance.text).toContain('blanket');
  });

  it('every AI agent refused by name is a choice', () => {
    const names = JUDGED_PURPOSES.flatMap((p) => MAJOR_AGENTS[p]);
    const { stance } = judge(
      `${names.map((n) => `User-agent: ${n}`).join('\n')}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`,
    );
    expect(stance).toMatchObject({ stance: 'closed', intended: true });
  });

  it('search or user agents refused while training is allowed looks unintended', () => {
    const { access, stance } = judge('User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nDisallow: /\n');
    expect(access.search.majorBlocked).toEqual(['OAI-SearchBot']);
    expect(access.user.majorBlocked).toEqual(['ChatGPT-User']);
    expect(stance).toMatchObject({ stance: 'inverted', intended: false });
  });

  it('some agents of a purpose refused and others not is mixed', () => {
    const { stance } = judge('User-agent: GPTBot\nUser-agent: PerplexityBot\nDisallow: /\n');
    expect(stance).toMatchObject({ stance: 'mixed', intended: false });
    expect(stance.text).toContain('AI search crawlers');
  });

  it('judges the home page only: a private path blocked for an agent is not a refusal', () => {
    const { access } = judge('User-agent: GPTBot\nDisallow: /account/\n');
    expect(access.training.blocked).toEqual([]);
  });

  it('an unavailable file (404) allows everything; an unreachable one refuses everything', () => {
    const missing = accessByPurpose(policyFromResponse(404, ''), HOME);
    expect(missing.search.blocked).toEqual([]);
    const down = accessByPurpose(policyFromResponse(503, ''), HOME);
    expect(down.user.majorAllowed).toEqual([]);
  });
});

describe('answers to an agent’s user agent', () => {
  it.each([
    [200, {}, '<html><title>Shop</title></html>', 'served'],
    [301, { location: '/' }, '', 'served'],
    [403, {}, 'Forbidden', 'refused'],
    [401, {}, '', 'refused'],
    [429, {}, '', 'refused'],
    [402, {}, 'Payment required to crawl', 'payment_required'],
    [403, { 'cf-mitigated': 'challenge' }, '', 'challenge'],
    [503, {}, '<!DOCTYPE html><html><head><title>Just a moment...</title>', 'challenge'],
    [200, {}, '<script src="https://ct.captcha-delivery.com/c.js"></script>', 'challenge'],
    [500, {}, 'oops', 'error'],
  ] as const)('%i %j is %s', (status, headers, body, kind) => {
    expect(classifyAgentAnswer(status, headers as Record<string, string>, body)).toBe(kind);
  });
});

describe('AI access in an AI readiness audit', () => {
  const sites: FixtureSite[] = [];
  afterAll(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });

  /** A two-page site with this robots.txt, whose home page answers user agents as `door` says. */
  async function site(
    robots: string,
    door: (userAgent: string) => { status: number; body?: string; headers?: Record<string, string> } | undefined,
  ) {
    const s = await startShopSite();
    sites.push(s);
    s.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: robots });
    const home = s.routes.get('/') as { body: string };
    s.routes.set('/', (req, res) => {
      const answer = door(String(req.headers['user-agent'] ?? ''));
      if (answer)
        res.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers }).end(answer.body ?? '');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(home.body);
    });
    return s;
  }
  const audit = (s: FixtureSite) =>
    runAudit('ai_readiness', { url: `${s.origin}/`, local: false }, { allowPrivate: true });
  const row = (outcome: Awaited<ReturnType<typeof audit>>, id: string) => outcome.checks.find((c) => c.id === id);

  it('fails when robots.txt invites agents that the site refuses or challenges', async () => {
    const s = await site('User-agent: *\nAllow: /\n', (ua) =>
      ua.includes('GPTBot')
        ? { status: 403, body: 'Forbidden' }
        : ua.includes('ChatGPT-User')
          ? { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '<title>Just a moment...</title>' }
          : undefined,
    );
    const outcome = await audit(s);
    const answered = row(outcome, 'ai-agents-answered');
    expect(answered?.status).toBe('fail');
    expect(answered?.detail).toContain('robots.txt allows GPTBot, ChatGPT-User');
    expect(answered?.detail).toContain('refused GPTBot (403)');
    expect(answered?.detail).toContain('given a bot challenge ChatGPT-User (403)');
    expect(answered?.finding?.evidence.map((e) => e.summary)).toContain(
      'Claude-User: allowed by robots.txt, served (200)',
    );
    // Each probed agent asked the home page once, with its own user agent.
    for (const probe of PROBED_AGENTS)
      expect(s.requests.filter((r) => r.path === '/' && r.userAgent === probe.userAgent)).toHaveLength(1);
    expect(row(outcome, 'ai-access-by-purpose')).toMatchObject({ status: 'info' });
    expect(row(outcome, 'ai-access-by-purpose')?.finding?.title).toBe('AI access by purpose: a consistent stance');
  });

  it('passes when refusals match robots.txt, and reads training opted out as a deliberate stance', async () => {
    const s = await site('User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n', (ua) =>
      /GPTBot|ClaudeBot/.test(ua) ? { status: 403 } : undefined,
    );
    const outcome = await audit(s);
    expect(row(outcome, 'ai-agents-answered')?.status).toBe('pass');
    expect(row(outcome, 'ai-agents-answered')?.detail).toContain('GPTBot: refused by robots.txt, refused (403)');
    expect(row(outcome, 'robots-allows-ai-answer-bots')?.status).toBe('pass');
    const purposes = row(outcome, 'ai-access-by-purpose');
    expect(purposes?.detail).toMatch(/^a deliberate stance: training crawlers are refused/);
    expect(purposes?.detail).toContain('training crawlers: 2 of');
    expect(purposes?.detail).toContain('AI search crawlers: all');
    expect(purposes?.finding?.title).toBe('AI access by purpose: a consistent stance');
  });

  it('says a blanket `*` disallow looks unintended, and fails the AI search and user agents', async () => {
    const s = await site('User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n', () => undefined);
    const outcome = await audit(s);
    const answerBots = row(outcome, 'robots-allows-ai-answer-bots');
    expect(answerBots?.status).toBe('fail');
    expect(answerBots?.detail).toContain('through its `User-agent: *` group');
    expect(row(outcome, 'ai-access-by-purpose')?.finding?.title).toBe('AI access by purpose looks unintended');
    expect(row(outcome, 'ai-access-by-purpose')?.detail).toContain('blanket rule');
  });

  it('asks as agents only in a full AI readiness audit', async () => {
    const s = await site('User-agent: *\nAllow: /\n', () => undefined);
    const local = await runAudit('ai_readiness', { url: `${s.origin}/`, local: true });
    expect(row(local, 'ai-agents-answered')).toBeUndefined();
    await runAudit('marketing_signal', { url: `${s.origin}/`, local: false }, { allowPrivate: true });
    expect(s.requests.filter((r) => r.userAgent?.includes('GPTBot'))).toHaveLength(0);
  });
});
