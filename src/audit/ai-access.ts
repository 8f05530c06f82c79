// Who robots.txt lets in, by what AI agents do (issue 13): every agent of the vendored ai.robots.txt
// list (data/ai-agents.ts) judged against the home page, grouped by purpose (training crawlers, AI
// search crawlers, user-triggered agents), and the stance those answers add up to, with whether it
// looks intended. Also how the site actually answered a few of those agents' user agents.
import { type AgentPurpose, AI_AGENTS } from './data/ai-agents.ts';
import { groupsFor, isAllowedByPolicy, productToken, type RobotsPolicy } from './robots.ts';

export type JudgedPurpose = Exclude<AgentPurpose, 'other'>;
export const JUDGED_PURPOSES: readonly JudgedPurpose[] = ['training', 'search', 'user'];

export const PURPOSE_TEXT: Record<JudgedPurpose, string> = {
  training: 'training crawlers',
  search: 'AI search crawlers',
  user: 'user-triggered agents',
};

/**
 * The tokens that matter most per purpose: the large operators' documented agents. Each is in the
 * vendored list with this purpose (test/audit/ai-access.test.ts holds that).
 */
export const MAJOR_AGENTS: Record<JudgedPurpose, readonly string[]> = {
  training: [
    'GPTBot',
    'ClaudeBot',
    'Google-Extended',
    'Applebot-Extended',
    'CCBot',
    'meta-externalagent',
    'Bytespider',
  ],
  search: ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot', 'DuckAssistBot', 'Applebot', 'Amazonbot'],
  user: ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User', 'meta-externalfetcher'],
};

export interface PurposeAccess {
  purpose: JudgedPurpose;
  /** Listed agents of this purpose (distinct robots.txt tokens). */
  listed: number;
  /** Every listed agent of this purpose that may not fetch the home page. */
  blocked: string[];
  majorBlocked: string[];
  majorAllowed: string[];
  /** Blocked major agents that no group names: the `*` group's rule reached them. */
  blockedByWildcard: string[];
}

/** The agents of each purpose, one per robots.txt token (the list spells some twice). */
function agentsByPurpose(): Record<JudgedPurpose, string[]> {
  const seen = new Set<string>();
  const out: Record<JudgedPurpose, string[]> = { training: [], search: [], user: [] };
  for (const agent of AI_AGENTS) {
    const token = productToken(agent.name);
    if (!token || seen.has(token) || agent.purpose === 'other') continue;
    seen.add(token);
    out[agent.purpose].push(agent.name);
  }
  return out;
}
const BY_PURPOSE = agentsByPurpose();

export function accessByPurpose(policy: RobotsPolicy, homeUrl: string): Record<JudgedPurpose, PurposeAccess> {
  const allowed = (name: string) => isAllowedByPolicy(policy, productToken(name), homeUrl);
  const byWildcard = (name: string) =>
    policy.kind !== 'parsed' || groupsFor(policy.robots, productToken(name)).every((g) => g.agents.includes('*'));
  const entries = JUDGED_PURPOSES.map((purpose): [JudgedPurpose, PurposeAccess] => {
    const majorBlocked = MAJOR_AGENTS[purpose].filter((name) => !allowed(name));
    return [
      purpose,
      {
        purpose,
        listed: BY_PURPOSE[purpose].length,
        blocked: BY_PURPOSE[purpose].filter((name) => !allowed(name)),
        majorBlocked,
        majorAllowed: MAJOR_AGENTS[purpose].filter((name) => allowed(name)),
        blockedByWildcard: majorBlocked.filter(byWildcard),
      },
    ];
  });
  return Object.fromEntries(entries) as Record<JudgedPurpose, PurposeAccess>;
}

export type Stance = 'open' | 'training_opt_out' | 'closed' | 'inverted' | 'mixed';

export interface StanceJudgement {
  stance: Stance;
  /** Whether the rules look like a choice the owner made (false: probably a side effect). */
  intended: boolean;
  text: string;
}

/** What the per-purpose answers add up to, judged on the major agents. */
export function judgeStance(access: Record<JudgedPurpose, PurposeAccess>): StanceJudgement {
  const blocked = (p: JudgedPurpose) => access[p].majorBlocked.length;
  const all = (p: JudgedPurpose) => access[p].majorAllowed.length === 0;
  const [training, search, user] = JUDGED_PURPOSES.map(blocked) as [number, number, number];
  if (training + search + user === 0)
    return { stance: 'open', intended: true, text: 'every AI purpose may read the site' };
  if (search === 0 && user === 0)
    return {
      stance: 'training_opt_out',
      intended: true,
      text: 'a deliberate stance: training crawlers are refused while AI search crawlers and user-triggered agents may read the site',
    };
  if (all('training') && all('search') && all('user')) {
    const wildcard = JUDGED_PURPOSES.every((p) => access[p].blockedByWildcard.length === access[p].majorBlocked.length);
    return wildcard
      ? {
          stance: 'closed',
          intended: false,
          text: 'every AI agent is refused by the `User-agent: *` group, AI search and user-triggered agents included: this looks like a blanket rule rather than a choice about AI',
        }
      : {
          stance: 'closed',
          intended: true,
          text: 'every AI agent is refused by name, AI search and user-triggered agents included: the site is left out of AI answers and agents cannot act for its users',
        };
  }
  if (training === 0)
    return {
      stance: 'inverted',
      intended: false,
      text: 'AI search or user-triggered agents are refused while training crawlers are allowed: the opposite of the usual stance, which looks unintended',
    };
  return {
    stance: 'mixed',
    intended: false,
    text: `a mixed stance: ${JUDGED_PURPOSES.filter((p) => blocked(p) > 0)
      .map((p) => `some ${PURPOSE_TEXT[p]}`)
      .join(' and ')} are refused, others of the same purpose are allowed`,
  };
}

/** One representative agent per purpose and operator, asked for the home page with its own user agent. */
export const PROBED_AGENTS: ReadonlyArray<{ name: string; purpose: JudgedPurpose; userAgent: string }> = [
  {
    name: 'GPTBot',
    purpose: 'training',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)',
  },
  {
    name: 'ClaudeBot',
    purpose: 'training',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  },
  {
    name: 'OAI-SearchBot',
    purpose: 'search',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot',
  },
  {
    name: 'PerplexityBot',
    purpose: 'search',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  },
  {
    name: 'ChatGPT-User',
    purpose: 'user',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  },
  {
    name: 'Claude-User',
    purpose: 'user',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  },
];

export type AgentAnswerKind = 'served' | 'refused' | 'payment_required' | 'challenge' | 'error';

export interface AgentAnswer {
  name: string;
  purpose: JudgedPurpose;
  kind: AgentAnswerKind;
  /** HTTP status, or null when no answer came. */
  status: number | null;
  note: string;
}

/** Bot-management interstitials: Cloudflare, Akamai, DataDome, PerimeterX/HUMAN, Imperva, AWS WAF, Vercel. */
const CHALLENGE_MARKERS = [
  /<title>\s*just a moment\.\.\.\s*<\/title>/i,
  /<title>\s*attention required!? \| cloudflare\s*<\/title>/i,
  /cf-chl-|challenge-platform|cf_chl_opt/i,
  /captcha-delivery\.com|datadome/i,
  /px-captcha|_pxCaptcha|perimeterx/i,
  /_Incapsula_Resource|incapsula incident/i,
  /awswaf|aws-waf-token/i,
  /vercel security checkpoint/i,
];

/** What an answer to an agent's request was, from its status, headers and the start of its body. */
export function classifyAgentAnswer(status: number, headers: Record<string, string>, body: string): AgentAnswerKind {
  const head = body.slice(0, 32 * 1024);
  if (headers['cf-mitigated'] === 'challenge' || CHALLENGE_MARKERS.some((marker) => marker.test(head)))
    return 'challenge';
  if (status === 402) return 'payment_required';
  if (status === 401 || status === 403 || status === 429 || status === 451) return 'refused';
  if (status >= 200 && status < 400) return 'served';
  return 'error';
}
