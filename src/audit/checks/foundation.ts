// Foundation checks: robots.txt, who it lets in (search engines, AI answer bots, training
// crawlers), the sitemap and llms.txt. Not run on local on-page scans.

import {
  type AgentAnswer,
  accessByPurpose,
  JUDGED_PURPOSES,
  judgeStance,
  MAJOR_AGENTS,
  PURPOSE_TEXT,
  type PurposeAccess,
} from '../ai-access.ts';
import { type CheckResult, type CheckSpec, fail, info, pass, unverified } from '../checks.ts';
import { AI_AGENTS_SOURCE } from '../data/ai-agents.ts';
import type { Sitemap } from '../foundation-files.ts';
import { quote, quoteAll } from '../quote.ts';
import { isAllowedByPolicy } from '../robots.ts';
import { homePage, type SiteSnapshot } from '../site.ts';
import {
  SITEMAP_CHILDREN_MAX,
  SITEMAPS_DECLARED_MAX,
  type SitemapFile,
  sitemapListing,
  sitemapSeeds,
} from '../sitemaps.ts';
import { RFC, ROBOTS, ref } from '../standards.ts';
import { allowGroup, starterLlmsTxt, starterRobotsTxt } from '../starters.ts';
import type { Suggestion } from '../suggestions.ts';

// audit-checks.md, "AI crawlers (2026)"; the AI agents by purpose are the vendored ai.robots.txt list.
export const SEARCH_BOTS = ['Googlebot', 'Bingbot'];

export const FOUNDATION_SPECS = {
  robotsValid: {
    id: 'robots-txt-valid',
    label: 'robots.txt answers and parses',
    category: 'discoverability',
    severity: 'low',
    cite: {
      references: [RFC(9309, '2.2', 'The Allow and Disallow lines')],
      verify: 'curl -sSf {origin}/robots.txt',
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
  searchAllowed: {
    id: 'robots-allows-search',
    label: 'Search engines may crawl the site',
    category: 'discoverability',
    severity: 'critical',
    cite: {
      references: [
        RFC(9309, '2.2.2', 'The Allow and Disallow lines'),
        ref(
          'Google: How Google interprets robots.txt',
          'https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt',
        ),
      ],
      verify: 'curl -sSf {origin}/robots.txt | grep -i -B2 -E "^disallow:[[:space:]]*/\\*?[[:space:]]*$"',
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
  answerBots: {
    id: 'robots-allows-ai-answer-bots',
    label: 'AI search crawlers and user-triggered agents may read the site',
    category: 'discoverability',
    severity: 'high',
    cite: {
      references: [
        ROBOTS,
        ref('OpenAI: Overview of OpenAI crawlers', 'https://platform.openai.com/docs/bots'),
        ref('Anthropic: Does Anthropic crawl data from the web', 'https://support.claude.com/en/articles/8896518'),
      ],
      verify:
        'curl -sSf {origin}/robots.txt | grep -i -A3 -E "^user-agent:[[:space:]]*(OAI-SearchBot|Claude-SearchBot|PerplexityBot|ChatGPT-User|Claude-User|Perplexity-User|\\*)[[:space:]]*$"',
      anchors: ['Cloudflare'],
    },
  },
  purposes: {
    id: 'ai-access-by-purpose',
    label: 'AI access by purpose (training, search, user agents) and whether it looks intended',
    category: 'discoverability',
    severity: 'info',
    cite: {
      references: [
        ROBOTS,
        ref('ai.robots.txt: a list of AI agents and robots to block', 'https://github.com/ai-robots-txt/ai.robots.txt'),
      ],
      verify: 'curl -sSf {origin}/robots.txt',
      anchors: ['Cloudflare'],
    },
  },
  agentAnswers: {
    id: 'ai-agents-answered',
    label: 'The site answers AI agents as its robots.txt says',
    category: 'discoverability',
    severity: 'medium',
    cite: {
      references: [ROBOTS, RFC(9110, '15.5.4', '403 Forbidden')],
      verify:
        'curl -sS -o /dev/null -w "%{http_code}\\n" -A "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot" {url}',
      anchors: [],
    },
  },
  trainingBots: {
    id: 'robots-training-crawlers',
    label: 'Stance on AI training crawlers',
    category: 'discoverability',
    severity: 'info',
    cite: {
      references: [ROBOTS, ref('Content Signals Policy', 'https://contentsignals.org/')],
      verify: 'curl -sSf {origin}/robots.txt | grep -i -E "content-signal|gptbot|claudebot|google-extended|ccbot"',
      anchors: ['Cloudflare'],
    },
  },
  sitemap: {
    id: 'sitemap-valid',
    label: 'A valid sitemap is discoverable',
    category: 'discoverability',
    severity: 'medium',
    cite: {
      references: [
        ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html'),
        RFC(9309, '2.3.5', 'Sitemaps'),
      ],
      verify: 'curl -sSf {url} | gzip -dcf | head -c 600',
      anchors: ['Cloudflare'],
    },
  },
  sitemapLive: {
    id: 'sitemap-urls-live',
    label: 'Sitemap URLs answer 200',
    category: 'discoverability',
    severity: 'medium',
    cite: {
      references: [ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html')],
      verify: 'curl -sS -o /dev/null -w "%{http_code}\\n" {url}',
      anchors: [],
    },
  },
  llmsTxt: {
    id: 'llms-txt',
    label: 'llms.txt is present and well formed',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [ref('llmstxt.org: The /llms.txt file', 'https://llmstxt.org/')],
      verify: 'curl -sSi {origin}/llms.txt | head -20',
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = FOUNDATION_SPECS;

function robotsValid(site: SiteSnapshot): CheckResult {
  const robots = site.robots;
  if (!robots) return pass(S.robotsValid, 'not evaluated');
  const url = robots.url;
  if (robots.status === 'unreachable' || (typeof robots.status === 'number' && robots.status >= 500)) {
    return fail(S.robotsValid, {
      severity: 'high',
      detail: `robots.txt is unreachable (${robots.status}); crawlers treat that as "disallow everything" (RFC 9309 2.3.1.4)`,
      title: 'robots.txt is unreachable, so crawlers stay away',
      remediation:
        'Serve /robots.txt with status 200 (or 404 if you want no rules). A 5xx or timeout makes compliant crawlers skip the whole site.',
      agentAction:
        'Make GET /robots.txt answer 200 with a text/plain body, e.g. "User-agent: *\\nAllow: /\\nSitemap: https://<host>/sitemap.xml".',
      affectedUrls: [url],
      suggestions: [robotsSuggestion(site)],
      evidence: [{ type: 'file', url, summary: robots.error ?? `status ${robots.status}` }],
    });
  }
  if (robots.status >= 400) {
    return fail(S.robotsValid, {
      detail: `no robots.txt (status ${robots.status}): everything is allowed, but there is no place to declare the sitemap`,
      title: 'No robots.txt',
      remediation: 'Add /robots.txt that allows crawling and names your sitemap with a Sitemap: line.',
      agentAction:
        'Create robots.txt at the web root: "User-agent: *\\nAllow: /\\nSitemap: https://<host>/sitemap.xml".',
      affectedUrls: [url],
      suggestions: [robotsSuggestion(site)],
      evidence: [{ type: 'file', url, summary: `status ${robots.status}` }],
    });
  }
  const invalid = robots.parsed?.invalidLines ?? 0;
  if (invalid > 0) {
    return fail(S.robotsValid, {
      detail: `${invalid} line(s) of robots.txt are not valid rules and are ignored by crawlers`,
      title: 'robots.txt has lines crawlers ignore',
      remediation: 'Each line must be a "Key: value" rule (User-agent, Allow, Disallow, Sitemap) or a # comment.',
      agentAction: 'Fix or remove the robots.txt lines that are not User-agent, Allow, Disallow, Sitemap or comments.',
      affectedUrls: [url],
      evidence: [{ type: 'file', url, summary: `${invalid} invalid line(s)` }],
    });
  }
  return pass(S.robotsValid, `robots.txt parsed: ${robots.parsed?.groups.length ?? 0} group(s)`);
}

/**
 * robots.txt that could not be read: crawlers stay away (robotsValid says so), but which agents its
 * rules would admit is unknown, never "blocked".
 */
function robotsUnknown(site: SiteSnapshot): boolean {
  const status = site.robots?.status;
  return status === 'unreachable' || (typeof status === 'number' && status >= 500);
}

const UNKNOWN_RULES = 'not evaluated: robots.txt could not be read, so its rules for each agent are unknown';

function blockedAgents(site: SiteSnapshot, agents: string[]): string[] {
  const policy = site.robots?.policy;
  if (!policy) return [];
  return agents.filter((agent) => !isAllowedByPolicy(policy, agent, `${site.origin}/`));
}

function searchAllowed(site: SiteSnapshot): CheckResult {
  if (robotsUnknown(site)) return unverified(S.searchAllowed, UNKNOWN_RULES);
  const blocked = blockedAgents(site, ['*', ...SEARCH_BOTS]);
  if (blocked.length === 0)
    return pass(S.searchAllowed, 'the home page is crawlable for all agents and major search engines');
  return fail(S.searchAllowed, {
    detail: `robots.txt blocks the home page for ${blocked.join(', ')}`,
    title: 'robots.txt blocks search engines from the site',
    remediation:
      'Remove the Disallow rules that cover "/" for these agents. A blocked site drops out of search and AI answers alike.',
    agentAction: `In robots.txt, remove "Disallow: /" from the groups for ${blocked.join(', ')} (or add "Allow: /").`,
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    evidence: [{ type: 'file', url: site.robots?.url, summary: `blocked: ${blocked.join(', ')}` }],
  });
}

function homeUrl(site: SiteSnapshot): string {
  return homePage(site)?.url ?? `${site.origin}/`;
}

type Access = ReturnType<typeof accessByPurpose>;

function purposeAccess(site: SiteSnapshot): Access {
  return accessByPurpose(site.robots?.policy ?? { kind: 'allow_all' }, homeUrl(site));
}

/** `training crawlers: 4 of 56 refused (GPTBot, ClaudeBot, ...)`, for one purpose. */
function purposeLine(access: PurposeAccess): string {
  const named = access.blocked.slice(0, 6).join(', ');
  const more = access.blocked.length > 6 ? `, and ${access.blocked.length - 6} more` : '';
  return access.blocked.length === 0
    ? `${PURPOSE_TEXT[access.purpose]}: all ${access.listed} allowed`
    : `${PURPOSE_TEXT[access.purpose]}: ${access.blocked.length} of ${access.listed} refused (${named}${more})`;
}

function answerBots(site: SiteSnapshot, access: Access): CheckResult {
  if (robotsUnknown(site)) return unverified(S.answerBots, UNKNOWN_RULES);
  const blocked = [...access.search.majorBlocked, ...access.user.majorBlocked];
  const major = MAJOR_AGENTS.search.length + MAJOR_AGENTS.user.length;
  if (blocked.length === 0)
    return pass(
      S.answerBots,
      `the ${major} major AI search crawlers and user-triggered agents may read the home page; ${purposeLine(access.search)}; ${purposeLine(access.user)}`,
    );
  const wildcard = [...access.search.blockedByWildcard, ...access.user.blockedByWildcard];
  const detail = `robots.txt refuses ${blocked.length} of the ${major} major AI search crawlers and user-triggered agents (${blocked.join(', ')})${wildcard.length === blocked.length ? ' through its `User-agent: *` group' : ''}`;
  return fail(S.answerBots, {
    detail,
    title: 'AI search crawlers or user-triggered agents are refused',
    remediation:
      'AI search crawlers index pages for AI answers that cite their sources, and user-triggered agents fetch a page when a person asks for it; refusing them hides the site from AI answers and stops agents acting for your users. Allow them; training crawlers are a separate choice.',
    agentAction: `In robots.txt, add a group that allows them before any wider rule: "${blocked.map((b) => `User-agent: ${b}`).join('\\n')}\\nAllow: /"; where they are refused by name, delete those Disallow lines.`,
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    suggestions: [
      {
        label: 'robots.txt group',
        target: `${site.robots?.url ?? `${site.origin}/robots.txt`}, above the groups that refuse them`,
        format: 'robots',
        content: allowGroup(blocked),
      },
    ],
    evidence: [
      { type: 'file', url: site.robots?.url, summary: purposeLine(access.search) },
      { type: 'file', url: site.robots?.url, summary: purposeLine(access.user) },
    ],
  });
}

function trainingBots(site: SiteSnapshot, { training }: Access): CheckResult {
  if (robotsUnknown(site)) return unverified(S.trainingBots, UNKNOWN_RULES);
  const signals = site.robots?.parsed?.groups.flatMap((g) => g.contentSignals) ?? [];
  const detail = `${purposeLine(training)}${signals.length > 0 ? `; Content-Signal: ${quoteAll(signals, ' | ')}` : '; no Content-Signal preferences'}`;
  return info(S.trainingBots, {
    detail,
    title: 'Your stance on AI training crawlers',
    remediation:
      'Refusing training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot, ...) is a business choice; it does not affect AI answers. State preferences with a Content-Signal line (search, ai-input, ai-train).',
    agentAction:
      'No change needed unless the owner wants a different stance; to state it, add e.g. "Content-Signal: search=yes, ai-input=yes, ai-train=no" to the * group of robots.txt.',
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    evidence: [{ type: 'file', url: site.robots?.url, summary: detail }],
  });
}

function purposes(site: SiteSnapshot, access: Access): CheckResult {
  if (robotsUnknown(site)) return unverified(S.purposes, UNKNOWN_RULES);
  const stance = judgeStance(access);
  const lines = JUDGED_PURPOSES.map((p) => purposeLine(access[p]));
  const detail = `${stance.text}. ${lines.join('; ')} (agents from ${AI_AGENTS_SOURCE.project} at ${AI_AGENTS_SOURCE.version.slice(0, 7)})`;
  return info(S.purposes, {
    detail,
    title: stance.intended ? 'AI access by purpose: a consistent stance' : 'AI access by purpose looks unintended',
    remediation: stance.intended
      ? 'No change needed: the rules state a consistent stance per purpose. Keep the list of refused agents current as new agents appear.'
      : 'Decide per purpose: training crawlers (a licensing choice), AI search crawlers (visibility in AI answers) and user-triggered agents (people asking an assistant about your pages). Name agents in their own groups rather than relying on the `*` group.',
    agentAction: stance.intended
      ? 'No change needed.'
      : 'Rewrite robots.txt so each purpose gets the intended answer: a group naming the training crawlers to refuse, and a group allowing OAI-SearchBot, Claude-SearchBot, PerplexityBot, ChatGPT-User, Claude-User and Perplexity-User, before the `*` group.',
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    evidence: lines.map((summary) => ({ type: 'file' as const, url: site.robots?.url, summary })),
  });
}

const ANSWER_TEXT: Record<AgentAnswer['kind'], string> = {
  served: 'served',
  refused: 'refused',
  payment_required: 'asked to pay (402)',
  challenge: 'given a bot challenge',
  error: 'not answered',
};

function agentAnswers(site: SiteSnapshot): CheckResult | undefined {
  const answers = site.agentAnswers;
  if (!answers || answers.length === 0 || robotsUnknown(site)) return undefined;
  const policy = site.robots?.policy ?? { kind: 'allow_all' as const };
  const judged = answers.map((a) => {
    const invited = isAllowedByPolicy(policy, a.name, homeUrl(site));
    return {
      ...a,
      invited,
      line: `${a.name}: ${invited ? 'allowed' : 'refused'} by robots.txt, ${ANSWER_TEXT[a.kind]}${a.status ? ` (${a.status})` : ''}`,
    };
  });
  // Invited by robots.txt but turned away at the door: the declared stance is not the real one. A 402
  // is a deliberate pay-per-crawl answer, and a failure to answer proves nothing.
  const turnedAway = judged.filter((a) => a.invited && (a.kind === 'refused' || a.kind === 'challenge'));
  if (turnedAway.length === 0)
    return pass(
      S.agentAnswers,
      `the home page answered ${judged.length} AI agents as robots.txt says: ${judged.map((a) => a.line).join('; ')}`,
    );
  return fail(S.agentAnswers, {
    detail: `robots.txt allows ${turnedAway.map((a) => a.name).join(', ')}, but the home page ${turnedAway.map((a) => `${ANSWER_TEXT[a.kind]} ${a.name}${a.status ? ` (${a.status})` : ''}`).join(', ')}`,
    title: 'robots.txt invites AI agents that the site then turns away',
    remediation:
      'A firewall or bot-management rule refuses agents that robots.txt allows, so agents and their operators see a different stance from the one you declare. Make them agree: allow these agents in the firewall (for example Cloudflare AI Crawl Control, or the WAF rule matching their user agents), or refuse them in robots.txt too.',
    agentAction: `Either allow ${turnedAway.map((a) => a.name).join(', ')} through the bot-management or WAF rule that answers them ${[...new Set(turnedAway.map((a) => a.status))].join('/')}, or add "${turnedAway.map((a) => `User-agent: ${a.name}`).join('\\n')}\\nDisallow: /" to robots.txt.`,
    affectedUrls: [homeUrl(site)],
    evidence: judged.map((a) => ({ type: 'check' as const, url: homeUrl(site), summary: a.line })),
  });
}

/** What keeps a sitemap that answered from following the sitemaps protocol. */
function sitemapProblems(parsed: Sitemap): string[] {
  return [
    parsed.kind === 'invalid' ? 'the root element is neither urlset nor sitemapindex' : '',
    !parsed.namespaceOk ? 'the sitemaps.org 0.9 namespace is missing' : '',
    parsed.badLocs.length > 0 ? `${parsed.badLocs.length} <loc> value(s) are relative or on another host` : '',
    parsed.tooManyUrls ? 'more than 50,000 URLs in one file' : '',
    parsed.tooLarge ? 'more than 50 MB once uncompressed (read up to there)' : '',
    parsed.gzipError ?? '',
  ].filter(Boolean);
}

const unanswered = (file: SitemapFile) => file.status !== 200 || !file.parsed;

/** Why a sitemap gave nothing to read. */
function unansweredText(file: SitemapFile): string {
  if (file.error?.startsWith('not fetched')) return file.error;
  if (file.status === 'unreachable') return `could not be fetched (${file.error ?? 'no answer'})`;
  if (file.status !== 200) return `answers ${file.status}`;
  return `could not be read${file.error ? ` (${file.error})` : ''}`;
}

const whence = (file: SitemapFile) => (file.source === 'index' ? ` (listed by ${file.index})` : '');

/** Sitemap lines and index entries past the bounds, said once. */
function unreadText(set: SiteSnapshot['sitemap']): string {
  const unread = set?.unread;
  if (!unread || unread.declared + unread.children === 0) return '';
  const parts = [
    unread.declared > 0 ? `${unread.declared} more Sitemap: line(s)` : '',
    unread.children > 0 ? `${unread.children} more index entries` : '',
  ].filter(Boolean);
  return `; ${parts.join(' and ')} not read (at most ${SITEMAPS_DECLARED_MAX} lines and ${SITEMAP_CHILDREN_MAX} index entries are)`;
}

function sitemap(site: SiteSnapshot): CheckResult[] {
  const set = site.sitemap;
  if (!set) return [];
  const files = set.files ?? [set];
  const declared = files.filter((f) => f.source !== 'index');
  // No declared sitemap answered: the site has none a search engine can use.
  if (declared.every(unanswered)) {
    const first = declared[0] ?? set;
    const detail =
      declared.length <= 1
        ? `no sitemap at ${first.url} (${first.status})${set.source === 'default' ? ' and none declared in robots.txt' : ''}`
        : `no sitemap at any of the ${declared.length} declared in robots.txt: ${declared.map((f) => `${f.url} (${f.status})`).join(', ')}`;
    return [
      fail(S.sitemap, {
        detail,
        title: 'No sitemap found',
        remediation:
          'Publish a sitemap.xml listing your canonical pages and declare it in robots.txt with a Sitemap: line.',
        agentAction:
          'Generate /sitemap.xml (urlset in the http://www.sitemaps.org/schemas/sitemap/0.9 namespace, absolute <loc> URLs) and add "Sitemap: https://<host>/sitemap.xml" to robots.txt.',
        affectedUrls: declared.map((f) => f.url),
        evidence: declared.map((f) => ({
          type: 'file' as const,
          url: f.url,
          summary: f.error ?? `status ${f.status}`,
        })),
      }),
    ];
  }
  const rows: CheckResult[] = [];
  const broken = files.flatMap((file) => {
    const problems = unanswered(file) ? [unansweredText(file)] : sitemapProblems(file.parsed as Sitemap);
    return problems.length > 0 ? [{ file, problems }] : [];
  });
  const misplaced = set.problems ?? [];
  if (broken.length > 0 || misplaced.length > 0) {
    const protocol = misplaced.length > 0 || broken.some((b) => !unanswered(b.file));
    const single = files.length === 1 && misplaced.length === 0;
    const lines = [
      ...broken.map((b) => `${b.file.url}${whence(b.file)}: ${b.problems.join('; ')}`),
      ...misplaced.map((m) => `${m.url}: ${m.problem}`),
    ];
    const problems = [...new Set([...broken.flatMap((b) => b.problems), ...misplaced.map((m) => m.problem)])];
    const parsedOf = broken.find((b) => b.file.parsed)?.file;
    rows.push(
      fail(S.sitemap, {
        detail: single
          ? `sitemap ${files[0]?.url}: ${broken[0]?.problems.join('; ')}`
          : `${lines.length} of the ${files.length} sitemaps read: ${lines.join('; ')}${unreadText(set)}`,
        title: protocol
          ? 'The sitemap does not follow the sitemaps protocol'
          : 'A sitemap named in robots.txt or in a sitemap index cannot be read',
        ...(broken.every((b) => b.file.status === 'unreachable') && misplaced.length === 0
          ? { confidence: 'medium' as const }
          : {}),
        remediation: [
          protocol
            ? 'Use <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> with absolute, same-host <loc> URLs, at most 50,000 per file and 50 MB uncompressed (a sitemap index for more).'
            : '',
          broken.some((b) => unanswered(b.file))
            ? 'Every Sitemap: line of robots.txt and every <sitemap> of an index should lead to a sitemap that answers 200: fix or remove the others, since search engines report them as errors.'
            : '',
          misplaced.length > 0 ? 'A sitemap index lists sitemaps only: never itself, never another index.' : '',
        ]
          .filter(Boolean)
          .join(' '),
        agentAction: single
          ? `Fix the sitemap generator: ${problems.join('; ')}.`
          : `Fix the sitemap generator, or remove the entries from robots.txt or the index: ${lines.join('; ')}.`,
        affectedUrls: [...broken.map((b) => b.file.url), ...misplaced.map((m) => m.url)],
        evidence: [
          ...lines.map((summary, i) => ({
            type: 'file' as const,
            url: broken[i]?.file.url ?? misplaced[i - broken.length]?.url,
            summary,
          })),
          ...(parsedOf?.parsed?.badLocs ?? []).slice(0, 3).map((loc) => ({
            type: 'file' as const,
            url: parsedOf?.url,
            summary: `bad <loc>: ${quote(loc)}`,
          })),
        ],
      }),
    );
  } else {
    const kinds = (f: SitemapFile) => `${f.parsed?.kind} with ${f.parsed?.locs.length} URL(s) at ${f.url}`;
    rows.push(
      pass(
        S.sitemap,
        files.length === 1
          ? `${kinds(files[0] as SitemapFile)}${unreadText(set)}`
          : `${files.length} sitemaps: ${files.map(kinds).join('; ')}${unreadText(set)}`,
      ),
    );
  }
  // The pages the crawl started from (sitemaps.ts): the first of each urlset, in turn.
  const seeds = sitemapSeeds(files);
  if (seeds.length > 0) {
    const sampled = new Set(seeds);
    const dead = site.pages.filter((p) => sampled.has(p.url) && (p.error || (p.fetched && p.fetched.status !== 200)));
    const listedIn = (url: string) => (files.length > 1 ? ` (listed in ${sitemapListing(files, url)})` : '');
    if (dead.length > 0) {
      rows.push(
        fail(S.sitemapLive, {
          detail: `${dead.length} of the first ${sampled.size} sitemap URLs do not answer 200`,
          title: 'The sitemap lists pages that do not answer 200',
          remediation: 'List only live, canonical, indexable URLs in the sitemap; drop or redirect the rest.',
          agentAction: 'Remove these URLs from the sitemap or make them answer 200.',
          affectedUrls: dead.map((p) => p.url),
          evidence: dead.map((p) => ({
            type: 'page' as const,
            url: p.url,
            summary: `${p.error?.message ?? `status ${p.fetched?.status}`}${listedIn(p.url)}`,
          })),
        }),
      );
    } else {
      rows.push(pass(S.sitemapLive, `the first ${sampled.size} sitemap URLs answer 200`));
    }
  }
  return rows;
}

const llmsSuggestion = (site: SiteSnapshot): Suggestion => ({
  label: 'llms.txt',
  target: `${site.origin}/llms.txt (served as text/markdown or text/plain)`,
  format: 'markdown',
  content: starterLlmsTxt(site),
});

const robotsSuggestion = (site: SiteSnapshot): Suggestion => ({
  label: 'robots.txt',
  target: `${site.origin}/robots.txt (served as text/plain)`,
  format: 'robots',
  content: starterRobotsTxt(site),
});

function llmsTxt(site: SiteSnapshot): CheckResult {
  const file = site.llms;
  if (!file) return pass(S.llmsTxt, 'not evaluated');
  if (file.parsed?.wellFormed)
    return pass(S.llmsTxt, `llms.txt "${file.parsed.title}" with ${file.parsed.links.length} link(s)`);
  if (file.parsed) {
    return fail(S.llmsTxt, {
      severity: 'medium',
      detail: 'llms.txt exists but lacks an H1 title, a markdown link, or 50 characters of content',
      title: 'llms.txt is not well formed',
      remediation:
        'Start llms.txt with "# Site name", a "> one-line summary", then "## Sections" of "- [Page](url): notes" links.',
      agentAction:
        'Rewrite /llms.txt: an H1 with the site name, a > summary line, and ## sections listing key pages as markdown links.',
      affectedUrls: [file.url],
      suggestions: [llmsSuggestion(site)],
      evidence: [
        {
          type: 'file',
          url: file.url,
          summary: `title: ${file.parsed.title === undefined ? 'none' : quote(file.parsed.title)}, links: ${file.parsed.links.length}`,
        },
      ],
    });
  }
  return fail(S.llmsTxt, {
    detail: `no llms.txt (${file.status})`,
    title: 'No llms.txt for AI agents',
    remediation: 'Add /llms.txt: a short markdown guide to the site for language models (the llms.txt proposal).',
    agentAction:
      'Create /llms.txt with "# <Site name>", "> <one-line summary>", and "## Docs" / "## Optional" sections of "- [Title](https://<host>/path): what it is" links to the key pages (a starter built from the crawl is suggested).',
    affectedUrls: [file.url],
    suggestions: [llmsSuggestion(site)],
    evidence: [{ type: 'file', url: file.url, summary: file.error ?? `status ${file.status}` }],
  });
}

export function foundationChecks(site: SiteSnapshot): CheckResult[] {
  if (site.local) return [];
  const answered = agentAnswers(site);
  // Every listed agent judged once for the three rows that read it.
  const access = purposeAccess(site);
  return [
    robotsValid(site),
    searchAllowed(site),
    answerBots(site, access),
    trainingBots(site, access),
    purposes(site, access),
    ...(answered ? [answered] : []),
    ...sitemap(site),
    llmsTxt(site),
  ];
}
