// Foundation checks: robots.txt, who it lets in (search engines, AI answer bots, training
// crawlers), the sitemap and llms.txt. Not run on local on-page scans.
import { type CheckResult, type CheckSpec, fail, info, pass, unverified } from '../checks.ts';
import { quote, quoteAll } from '../quote.ts';
import { isAllowedByPolicy } from '../robots.ts';
import type { SiteSnapshot } from '../site.ts';

// audit-checks.md, "AI crawlers (2026)".
export const SEARCH_BOTS = ['Googlebot', 'Bingbot'];
export const ANSWER_BOTS = [
  'OAI-SearchBot',
  'ChatGPT-User',
  'Claude-SearchBot',
  'Claude-User',
  'PerplexityBot',
  'Perplexity-User',
  'DuckAssistBot',
  'Applebot',
];
export const TRAINING_BOTS = [
  'GPTBot',
  'ClaudeBot',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'meta-externalagent',
  'Bytespider',
];

export const FOUNDATION_SPECS = {
  robotsValid: {
    id: 'robots-txt-valid',
    label: 'robots.txt answers and parses',
    category: 'discoverability',
    severity: 'low',
  },
  searchAllowed: {
    id: 'robots-allows-search',
    label: 'Search engines may crawl the site',
    category: 'discoverability',
    severity: 'critical',
  },
  answerBots: {
    id: 'robots-allows-ai-answer-bots',
    label: 'AI answer bots may read the site',
    category: 'discoverability',
    severity: 'high',
  },
  trainingBots: {
    id: 'robots-training-crawlers',
    label: 'Stance on AI training crawlers',
    category: 'discoverability',
    severity: 'info',
  },
  sitemap: {
    id: 'sitemap-valid',
    label: 'A valid sitemap is discoverable',
    category: 'discoverability',
    severity: 'medium',
  },
  sitemapLive: {
    id: 'sitemap-urls-live',
    label: 'Sitemap URLs answer 200',
    category: 'discoverability',
    severity: 'medium',
  },
  llmsTxt: {
    id: 'llms-txt',
    label: 'llms.txt is present and well formed',
    category: 'agent_operability',
    severity: 'low',
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

function answerBots(site: SiteSnapshot): CheckResult {
  if (robotsUnknown(site)) return unverified(S.answerBots, UNKNOWN_RULES);
  const blocked = blockedAgents(site, ANSWER_BOTS);
  if (blocked.length === 0)
    return pass(S.answerBots, `all ${ANSWER_BOTS.length} AI answer and search bots may read the home page`);
  return fail(S.answerBots, {
    detail: `robots.txt blocks AI answer bots: ${blocked.join(', ')}`,
    title: 'AI answer bots are blocked',
    remediation:
      'These agents fetch pages to answer users’ questions and cite sources; blocking them hides the site from AI answers. Allow them (training crawlers are a separate choice).',
    agentAction: `In robots.txt, allow ${blocked.join(', ')}: remove their Disallow rules or add a group "User-agent: ${blocked[0]}\\nAllow: /".`,
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    evidence: [{ type: 'file', url: site.robots?.url, summary: `blocked: ${blocked.join(', ')}` }],
  });
}

function trainingBots(site: SiteSnapshot): CheckResult {
  if (robotsUnknown(site)) return unverified(S.trainingBots, UNKNOWN_RULES);
  const blocked = blockedAgents(site, TRAINING_BOTS);
  const signals = site.robots?.parsed?.groups.flatMap((g) => g.contentSignals) ?? [];
  const stance =
    blocked.length === 0 ? 'all training crawlers are allowed' : `training crawlers blocked: ${blocked.join(', ')}`;
  const detail = `${stance}${signals.length > 0 ? `; Content-Signal: ${quoteAll(signals, ' | ')}` : '; no Content-Signal preferences'}`;
  return info(S.trainingBots, {
    detail,
    title: 'Your stance on AI training crawlers',
    remediation:
      'Blocking training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot, ...) is a business choice; it does not affect AI answers. State preferences with a Content-Signal line (search, ai-input, ai-train).',
    agentAction:
      'No change needed unless the owner wants a different stance; to state it, add e.g. "Content-Signal: search=yes, ai-input=yes, ai-train=no" to the * group of robots.txt.',
    affectedUrls: [site.robots?.url ?? `${site.origin}/robots.txt`],
    evidence: [{ type: 'file', url: site.robots?.url, summary: detail }],
  });
}

function sitemap(site: SiteSnapshot): CheckResult[] {
  const file = site.sitemap;
  if (!file) return [];
  const missing = file.status !== 200 || !file.parsed;
  if (missing) {
    return [
      fail(S.sitemap, {
        detail: `no sitemap at ${file.url} (${file.status})${file.source === 'default' ? ' and none declared in robots.txt' : ''}`,
        title: 'No sitemap found',
        remediation:
          'Publish a sitemap.xml listing your canonical pages and declare it in robots.txt with a Sitemap: line.',
        agentAction:
          'Generate /sitemap.xml (urlset in the http://www.sitemaps.org/schemas/sitemap/0.9 namespace, absolute <loc> URLs) and add "Sitemap: https://<host>/sitemap.xml" to robots.txt.',
        affectedUrls: [file.url],
        evidence: [{ type: 'file', url: file.url, summary: file.error ?? `status ${file.status}` }],
      }),
    ];
  }
  const parsed = file.parsed;
  const rows: CheckResult[] = [];
  if (!parsed || parsed.kind === 'invalid' || !parsed.namespaceOk || parsed.badLocs.length > 0 || parsed.tooManyUrls) {
    const problems = [
      parsed?.kind === 'invalid' ? 'the root element is neither urlset nor sitemapindex' : '',
      parsed && !parsed.namespaceOk ? 'the sitemaps.org 0.9 namespace is missing' : '',
      parsed && parsed.badLocs.length > 0
        ? `${parsed.badLocs.length} <loc> value(s) are relative or on another host`
        : '',
      parsed?.tooManyUrls ? 'more than 50,000 URLs in one file' : '',
    ].filter(Boolean);
    rows.push(
      fail(S.sitemap, {
        detail: `sitemap ${file.url}: ${problems.join('; ')}`,
        title: 'The sitemap does not follow the sitemaps protocol',
        remediation:
          'Use <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> with absolute, same-host <loc> URLs, at most 50,000 per file (a sitemap index for more).',
        agentAction: `Fix the sitemap generator: ${problems.join('; ')}.`,
        affectedUrls: [file.url],
        evidence: [
          { type: 'file', url: file.url, summary: problems.join('; ') },
          ...(parsed?.badLocs ?? [])
            .slice(0, 3)
            .map((loc) => ({ type: 'file' as const, url: file.url, summary: `bad <loc>: ${quote(loc)}` })),
        ],
      }),
    );
  } else {
    rows.push(pass(S.sitemap, `${parsed.kind} with ${parsed.locs.length} URL(s) at ${file.url}`));
  }
  if (parsed?.kind === 'urlset' && parsed.locs.length > 0) {
    const sampled = new Set(parsed.locs.slice(0, 5));
    const broken = site.pages.filter((p) => sampled.has(p.url) && (p.error || (p.fetched && p.fetched.status !== 200)));
    if (broken.length > 0) {
      rows.push(
        fail(S.sitemapLive, {
          detail: `${broken.length} of the first ${sampled.size} sitemap URLs do not answer 200`,
          title: 'The sitemap lists pages that do not answer 200',
          remediation: 'List only live, canonical, indexable URLs in the sitemap; drop or redirect the rest.',
          agentAction: 'Remove these URLs from the sitemap or make them answer 200.',
          affectedUrls: broken.map((p) => p.url),
          evidence: broken.map((p) => ({
            type: 'page' as const,
            url: p.url,
            summary: p.error?.message ?? `status ${p.fetched?.status}`,
          })),
        }),
      );
    } else {
      rows.push(pass(S.sitemapLive, `the first ${sampled.size} sitemap URLs answer 200`));
    }
  }
  return rows;
}

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
      'Create /llms.txt with "# <Site name>", "> <one-line summary>", and "## Docs" / "## Optional" sections of "- [Title](https://<host>/path): what it is" links to the key pages.',
    affectedUrls: [file.url],
    evidence: [{ type: 'file', url: file.url, summary: file.error ?? `status ${file.status}` }],
  });
}

export function foundationChecks(site: SiteSnapshot): CheckResult[] {
  if (site.local) return [];
  return [
    robotsValid(site),
    searchAllowed(site),
    answerBots(site),
    trainingBots(site),
    ...sitemap(site),
    llmsTxt(site),
  ];
}
