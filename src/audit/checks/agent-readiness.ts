// Agent-readiness checks of 2026 (issue 13; Lighthouse's Agentic Browsing and Cloudflare's
// agent-readiness scanner): llms.txt against the llmstxt.org structure, markdown for
// `Accept: text/markdown`, `Link` headers, Content Signals, the API catalog, OAuth discovery, an MCP
// server card, WebMCP tool forms that validate, and forms an agent can complete. What is optional
// and absent is information (no weight); what is there and broken fails.
import {
  AGENT_LINK_RELS,
  apiCatalogProblems,
  type DocumentFetch,
  mcpCardProblems,
  oauthServerProblems,
  type Problems,
  parseLinkHeader,
  protectedResourceProblems,
} from '../agent-discovery.ts';
import { type CheckResult, type CheckSpec, fail, info, type Offence, pass, perPage } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { markdownLinkTargets } from '../foundation-files.ts';
import type { PageFacts } from '../html.ts';
import { quote, quoteAll } from '../quote.ts';
import { homePage, type SiteSnapshot } from '../site.ts';
import { grepMarkup, RFC, ROBOTS, ref, WCAG } from '../standards.ts';
import { agentStandardChecks } from './agent-standards.ts';

export const AGENT_SPECS = {
  llmsStructure: {
    id: 'llms-txt-structure',
    label: 'llms.txt follows the llmstxt.org structure and is served as text',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [ref('llmstxt.org: Format', 'https://llmstxt.org/#format')],
      verify: 'curl -sSi {origin}/llms.txt | head -20',
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
  markdown: {
    id: 'markdown-negotiation',
    label: 'Pages answer Accept: text/markdown with markdown (and Vary: Accept)',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [RFC(7763, '', 'The text/markdown Media Type'), RFC(9110, '12.5.5', 'Vary')],
      verify: 'curl -sSI -H "Accept: text/markdown" {url} | grep -i -E "^(content-type|vary):"',
      anchors: ['Cloudflare'],
    },
  },
  linkHeaders: {
    id: 'link-headers',
    label: 'The home page’s Link header points agents to the sitemap, API catalog or descriptions',
    category: 'discoverability',
    severity: 'info',
    cite: {
      references: [
        RFC(8288, '3', 'Link Serialisation in HTTP Headers'),
        RFC(9727, '3', 'The api-catalog link relation'),
      ],
      verify: "curl -sSI {url} | grep -i '^link:'",
      anchors: ['Cloudflare'],
    },
  },
  contentSignals: {
    id: 'content-signals',
    label: 'robots.txt states Content Signals (search, ai-input, ai-train) in valid syntax',
    category: 'discoverability',
    severity: 'low',
    cite: {
      references: [ref('Content Signals Policy', 'https://contentsignals.org/'), ROBOTS],
      verify: 'curl -sS {origin}/robots.txt | grep -i content-signal',
      anchors: ['Cloudflare'],
    },
  },
  apiCatalog: {
    id: 'api-catalog',
    label: 'An API catalog at /.well-known/api-catalog (RFC 9727), where the site offers APIs',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [RFC(9727, '4', 'The /.well-known/api-catalog URI'), RFC(9264, '4.2', 'Set of Links as JSON')],
      verify: 'curl -sSi {origin}/.well-known/api-catalog | head -20',
      anchors: ['Cloudflare'],
    },
  },
  oauth: {
    id: 'oauth-discovery',
    label: 'OAuth discovery documents (RFC 8414, RFC 9728) are valid, where the site offers them',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        RFC(8414, '3', 'Obtaining Authorization Server Metadata'),
        RFC(9728, '3', 'Obtaining Protected Resource Metadata'),
      ],
      verify:
        'curl -sS {origin}/.well-known/oauth-authorization-server; curl -sS {origin}/.well-known/oauth-protected-resource',
      anchors: ['Cloudflare'],
    },
  },
  mcpCard: {
    id: 'mcp-server-card',
    label: 'An MCP server card names the server and where to connect, where the site offers one',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        ref('MCP SEP-2127: MCP Server Cards', 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127'),
      ],
      verify: 'curl -sS {url}',
      anchors: ['Cloudflare'],
    },
  },
  webmcpSchema: {
    id: 'webmcp-tool-schema',
    label: 'WebMCP tool forms have valid, unique names, descriptions and named fields',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [ref('W3C Web Machine Learning CG: WebMCP', 'https://webmachinelearning.github.io/webmcp/')],
      verify: grepMarkup('<form[^>]*[[:space:]]toolname[^>]*>|<(input|select|textarea)([[:space:]][^>]*)?>'),
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
  agentForms: {
    id: 'agent-forms',
    label:
      'Forms an agent can complete: named, labelled fields, autocomplete on contact fields, a submit that works without scripts',
    category: 'agent_operability',
    severity: 'medium',
    cite: {
      references: [
        WCAG('1.3.5', 'identify-input-purpose', 'Identify Input Purpose'),
        ref(
          'WHATWG HTML §4.10.21 Form submission',
          'https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-2',
        ),
      ],
      verify: grepMarkup('<form([[:space:]][^>]*)?>|<(input|select|textarea|button)([[:space:]][^>]*)?>'),
      anchors: ['Lighthouse'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = AGENT_SPECS;

/** llmstxt.org: an H1 first, a > summary, then H2 sections of `- [name](url): notes` lists. */
export function llmsTxtProblems(text: string): Problems {
  const lines = text.split(/\r?\n/);
  const problems: Problems = [];
  const first = lines.find((l) => l.trim() !== '') ?? '';
  if (!/^#\s+\S/.test(first)) problems.push('the first line is not the "# Title" H1');
  if (lines.filter((l) => /^#\s/.test(l)).length > 1) problems.push('more than one H1');
  const firstSection = lines.findIndex((l) => /^##\s/.test(l));
  const head = firstSection < 0 ? lines : lines.slice(0, firstSection);
  if (!head.some((l) => /^>\s*\S/.test(l))) problems.push('no "> summary" blockquote before the sections');
  if (firstSection < 0) problems.push('no "## Section" of links');
  const items = lines.slice(Math.max(firstSection, 0)).filter((l) => /^\s*[-*+]\s/.test(l));
  // The end trimmed first: (\s*:.*)?\s*$ would try every split of trailing white space (quadratic).
  const notLinks = items.filter((l) => !/^\s*[-*+]\s+\[[^\]]+\]\([^)\s]+\)(?:\s*:.*)?$/.test(l.trimEnd()));
  if (notLinks.length > 0)
    problems.push(
      `${notLinks.length} list item(s) are not "- [name](url): notes" links, e.g. ${quote(notLinks[0] ?? '')}`,
    );
  const relative = markdownLinkTargets(text).filter((u) => !/^https?:\/\//.test(u));
  if (relative.length > 0)
    problems.push(`${relative.length} link(s) are not absolute URLs, e.g. ${quote(relative[0] ?? '')}`);
  if (lines.some((l) => /^#{3,}\s/.test(l) && firstSection < 0))
    problems.push('sections use H3 or deeper instead of H2');
  return problems;
}

function llmsStructure(site: SiteSnapshot): CheckResult | undefined {
  const file = site.llms;
  if (file?.status !== 200) return undefined;
  const problems = file.body === undefined ? [] : llmsTxtProblems(file.body);
  const type = file.contentType ?? '';
  if (!/^text\/(plain|markdown)/.test(type))
    problems.unshift(`served as ${type || 'no media type'}, not text/plain or text/markdown`);
  if (problems.length === 0)
    return pass(S.llmsStructure, 'llms.txt has the H1, the summary and H2 link lists of llmstxt.org');
  return fail(S.llmsStructure, {
    detail: `llms.txt: ${problems.join('; ')}`,
    title: 'llms.txt does not follow the llmstxt.org structure',
    remediation:
      'Serve /llms.txt as text/plain or text/markdown: "# Site name" on the first line, a "> one-line summary", optional paragraphs, then "## Section" headings each with a list of "- [Page](https://absolute/url): what it holds"; put the less important pages under "## Optional".',
    agentAction: `Rewrite /llms.txt to fix: ${problems.join('; ')}.`,
    affectedUrls: [file.url],
    evidence: problems.map((summary) => ({ type: 'file' as const, url: file.url, summary })),
  });
}

function markdownNegotiation(site: SiteSnapshot): CheckResult | undefined {
  const doc = site.agentDiscovery?.markdown;
  if (!doc) return undefined;
  const markdown = doc.status === 200 && /^text\/markdown/.test(doc.contentType);
  if (!markdown)
    return info(S.markdown, {
      finding: false,
      detail: `the home page answers Accept: text/markdown with ${doc.status === 'unreachable' ? 'no answer' : `${doc.status} ${doc.contentType || 'no media type'}`} (markdown for agents is an emerging practice)`,
      title: '',
      remediation: '',
      agentAction: '',
    });
  if (/(^|,)\s*(accept|\*)\s*(,|$)/.test(doc.vary))
    return pass(S.markdown, 'the home page answers Accept: text/markdown with markdown, and says Vary: Accept');
  return fail(S.markdown, {
    detail: `the home page answers markdown to Accept: text/markdown without Vary: Accept (Vary: ${doc.vary ? quote(doc.vary) : 'none'})`,
    title: 'Markdown negotiation without Vary: Accept',
    remediation:
      'A page that answers markdown or HTML by the Accept header must say Vary: Accept (RFC 9110 §12.5.5), or a cache or CDN will serve the markdown to browsers and the HTML to agents.',
    agentAction:
      'Add "Vary: Accept" to every response whose body depends on the Accept header (the markdown negotiation).',
    affectedUrls: [doc.url],
    evidence: [
      { type: 'check', url: doc.url, summary: `Content-Type: ${doc.contentType}; Vary: ${doc.vary || 'none'}` },
    ],
  });
}

function linkHeaders(site: SiteSnapshot): CheckResult | undefined {
  const home = homePage(site)?.fetched;
  if (!home || site.local) return undefined;
  const links = parseLinkHeader(home.headers.link ?? '');
  const useful = links.filter((l) => l.rel.some((r) => AGENT_LINK_RELS.includes(r)));
  if (useful.length > 0)
    return pass(S.linkHeaders, `Link: ${useful.map((l) => `<${l.href}> rel=${l.rel.join(' ')}`).join(', ')}`);
  return info(S.linkHeaders, {
    detail: `the home page sends ${links.length === 0 ? 'no Link header' : `a Link header without agent relations (${links.map((l) => l.rel.join(' ')).join(', ')})`}`,
    title: 'No Link header for agents',
    remediation:
      'A Link header (RFC 8288) lets an agent find your machine-readable documents from any response, before parsing HTML: the sitemap, the API catalog (rel="api-catalog", RFC 9727), a markdown alternate, an OpenAPI description (rel="service-desc").',
    agentAction: `Suggestion to review: send on the home page "Link: <${site.origin}/sitemap.xml>; rel=\\"sitemap\\", <${site.origin}/llms.txt>; rel=\\"alternate\\"; type=\\"text/plain\\"" (add <${site.origin}/.well-known/api-catalog>; rel="api-catalog" if you publish APIs).`,
    affectedUrls: [home.url],
    evidence: [
      {
        type: 'check',
        url: home.url,
        summary: home.headers.link ? `Link: ${quote(home.headers.link)}` : 'no Link header',
      },
    ],
  });
}

const SIGNAL_KEYS = new Set(['search', 'ai-input', 'ai-train']);

/** contentsignals.org: `Content-Signal: search=yes, ai-input=no, ai-train=no`. */
export function contentSignalProblems(value: string): Problems {
  const problems: Problems = [];
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key = '', setting, extra] = part.split('=').map((x) => x.trim().toLowerCase());
    if (!SIGNAL_KEYS.has(key)) problems.push(`unknown signal ${quote(key)} (search, ai-input, ai-train)`);
    else if ((setting !== 'yes' && setting !== 'no') || extra !== undefined)
      problems.push(`${key} must be yes or no, not ${quote(part)}`);
  }
  return problems;
}

function contentSignals(site: SiteSnapshot): CheckResult | undefined {
  const robots = site.robots;
  if (!robots || robots.status === 'unreachable' || robots.status >= 500) return undefined;
  const signals = robots.parsed?.groups.flatMap((g) => g.contentSignals) ?? [];
  if (signals.length === 0)
    return info(S.contentSignals, {
      detail:
        robots.status >= 400
          ? `no robots.txt (${robots.status}), so no Content Signals`
          : 'robots.txt states no Content Signals',
      title: 'No Content Signals in robots.txt',
      remediation:
        'Content Signals (contentsignals.org) say, in robots.txt, what crawled content may be used for: search results, AI answers (ai-input) and AI training (ai-train). Crawlers that honour them, and Cloudflare, read them.',
      agentAction:
        'Suggestion to review: add "Content-Signal: search=yes, ai-input=yes, ai-train=no" under "User-agent: *" in robots.txt (change the values to the owner’s stance).',
      affectedUrls: [robots.url],
      evidence: [{ type: 'file', url: robots.url, summary: 'no Content-Signal line' }],
    });
  const problems = signals.flatMap(contentSignalProblems);
  if (problems.length === 0) return pass(S.contentSignals, `Content-Signal: ${quoteAll(signals, ' | ')}`);
  return fail(S.contentSignals, {
    detail: `robots.txt Content-Signal lines crawlers cannot read: ${problems.join('; ')}`,
    title: 'Content Signals in robots.txt are malformed',
    remediation:
      'Write each signal as key=yes or key=no, with the keys search, ai-input and ai-train, separated by commas.',
    agentAction: `Fix the Content-Signal lines in robots.txt: ${problems.join('; ')}.`,
    affectedUrls: [robots.url],
    evidence: signals.map((s) => ({ type: 'file' as const, url: robots.url, summary: `Content-Signal: ${quote(s)}` })),
  });
}

/** An optional well-known document: info when absent, pass when valid, fail when broken. */
function wellKnown(
  spec: CheckSpec,
  docs: DocumentFetch[],
  problemsOf: (doc: DocumentFetch) => Problems,
  what: { name: string; absent: string; title: string; remediation: string },
): CheckResult {
  const present = docs.filter((d) => d.status === 200);
  if (present.length === 0)
    return info(spec, {
      finding: false,
      detail: `no ${what.name} (${docs.map((d) => `${new URL(d.url).pathname}: ${d.status}`).join(', ')}); ${what.absent}`,
      title: '',
      remediation: '',
      agentAction: '',
    });
  const broken = present.map((doc) => ({ doc, problems: problemsOf(doc) })).filter((d) => d.problems.length > 0);
  if (broken.length === 0) return pass(spec, `${what.name} at ${present.map((d) => d.url).join(', ')} is valid`);
  const all = broken.flatMap((b) => b.problems.map((p) => `${new URL(b.doc.url).pathname}: ${p}`));
  return fail(spec, {
    detail: `${what.name}: ${all.join('; ')}`,
    title: what.title,
    remediation: what.remediation,
    agentAction: `Fix ${what.name}: ${all.join('; ')}.`,
    affectedUrls: broken.map((b) => b.doc.url),
    evidence: broken.flatMap((b) => b.problems.map((summary) => ({ type: 'file' as const, url: b.doc.url, summary }))),
  });
}

function discoveryDocuments(site: SiteSnapshot): CheckResult[] {
  const found = site.agentDiscovery;
  if (!found) return [];
  return [
    wellKnown(S.apiCatalog, [found.apiCatalog], apiCatalogProblems, {
      name: 'the API catalog',
      absent: 'only a site that offers APIs needs one',
      title: 'The API catalog is not a valid linkset',
      remediation:
        'Serve /.well-known/api-catalog as application/linkset+json (RFC 9727, RFC 9264): {"linkset": [{"anchor": "https://api.example/", "service-desc": [{"href": "https://api.example/openapi.json"}]}]}.',
    }),
    wellKnown(
      S.oauth,
      [found.oauthServer, found.protectedResource],
      (doc) =>
        doc === found.oauthServer ? oauthServerProblems(doc, site.origin) : protectedResourceProblems(doc, site.origin),
      {
        name: 'OAuth discovery',
        absent: 'only a site whose API or MCP server takes OAuth tokens needs it',
        title: 'OAuth discovery documents that clients cannot use',
        remediation:
          'Authorization server metadata (RFC 8414) needs an issuer equal to its own address, the authorization and token endpoints, response_types_supported and, for MCP clients, code_challenge_methods_supported with S256; protected resource metadata (RFC 9728) needs its resource and authorization_servers.',
      },
    ),
    wellKnown(S.mcpCard, [found.mcpCard], mcpCardProblems, {
      name: 'the MCP server card',
      absent: 'only a site that runs an MCP server needs one',
      title: 'The MCP server card is incomplete',
      remediation:
        'An MCP server card (/.well-known/mcp/server-card.json, SEP-2127) names the server, its version and the transport URL to connect to, so agents can find and configure the server without a manual step.',
    }),
  ];
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function toolFormOffences(f: PageFacts): Offence[] {
  const tools = f.forms.filter((form) => form.toolname !== null);
  const offences: Offence[] = [];
  const seen = new Set<string>();
  for (const form of tools) {
    const name = form.toolname ?? '';
    const at = form.fields[0]?.element;
    const add = (what: string) => offences.push({ what, ...(at ? { element: at } : {}) });
    if (!TOOL_NAME.test(name)) add(`toolname ${quote(name)} is not 1 to 64 letters, digits, _ . or -`);
    if (seen.has(name)) add(`toolname ${quote(name)} is used by two forms`);
    seen.add(name);
    if (!form.tooldescription) add(`tool ${quote(name)} has no tooldescription`);
    for (const field of form.fields.filter((x) => x.name === ''))
      offences.push({
        what: `a ${field.type} field of tool ${quote(name)} has no name, so it is no parameter`,
        element: field.element,
      });
  }
  return offences;
}

const CONTACT_TYPES = new Set(['email', 'tel']);
/** Fields that block implicit submission (WHATWG HTML §4.10.21.2): a form with exactly one submits on Enter. */
const IMPLICIT_SUBMISSION_TYPES = new Set([
  'text',
  'search',
  'url',
  'tel',
  'email',
  'password',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
  'number',
]);

/** Labels are form-labels' to judge (one defect, one weight); these are what else stops an agent. */
function agentFormOffences(f: PageFacts): Offence[] {
  const offences: Offence[] = [];
  for (const form of f.forms) {
    if (form.fields.length === 0) continue;
    const at = form.fields[0]?.element;
    const implicit = form.fields.filter((field) => IMPLICIT_SUBMISSION_TYPES.has(field.type)).length === 1;
    if (!form.submits && !implicit)
      offences.push({
        what: 'a form with no action and no submit button: it submits only through JavaScript',
        ...(at ? { element: at } : {}),
      });
    for (const field of form.fields) {
      if (field.name === '') offences.push({ what: `a ${field.type} field without a name`, element: field.element });
      else if (CONTACT_TYPES.has(field.type) && field.autocomplete === null)
        offences.push({
          what: `${field.type} field ${quote(field.name)} without autocomplete`,
          element: field.element,
        });
    }
  }
  return offences;
}

export function agentReadinessChecks(site: SiteSnapshot, pages: CrawledPage[]): CheckResult[] {
  const rows = [llmsStructure(site), markdownNegotiation(site), linkHeaders(site), contentSignals(site)].filter(
    (row): row is CheckResult => row !== undefined,
  );
  rows.push(...discoveryDocuments(site), ...agentStandardChecks(site));
  if (pages.length === 0) return rows;
  const hasTools = pages.some((p) => (p.facts as PageFacts).forms.some((form) => form.toolname !== null));
  if (hasTools)
    rows.push(
      perPage(S.webmcpSchema, pages, toolFormOffences, {
        ok: 'WebMCP tool forms are well formed',
        problem: 'a WebMCP tool form an agent cannot call as declared',
        title: 'WebMCP tool forms that do not validate',
        remediation:
          'Each form[toolname] needs a unique name of letters, digits, _ . or -, a tooldescription saying what the tool does, and a name on every field (the field names are the tool’s parameters).',
        agentAction: 'Fix the toolname, add tooldescription, and name every field of the WebMCP tool forms listed.',
      }),
    );
  rows.push(
    perPage(S.agentForms, pages, agentFormOffences, {
      ok: 'forms can be completed by an agent',
      problem: 'a form an agent cannot complete reliably',
      title: 'Forms an agent cannot complete',
      remediation:
        'Agents fill forms from their field names and labels, and submit them as a browser would: every field needs a name (unnamed fields are not submitted), contact fields an autocomplete token (email, tel), and the form a submit button or action so it works without running the page’s scripts. Fields without a label have a finding of their own ("Form fields without labels").',
      agentAction:
        'Give each listed field a name and (for email and phone) autocomplete="email"/"tel"; give script-only forms an action URL and a <button type="submit">.',
    }),
  );
  return rows;
}
