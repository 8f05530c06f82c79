// What a site offers agents beyond its pages (issue 13): the home page asked for markdown
// (`Accept: text/markdown`), its `Link` header (RFC 8288), the API catalog (RFC 9727), OAuth
// discovery documents (RFC 8414, RFC 9728) and an MCP server card; and (issue 29) the documents of
// the agent standards of 2026: the ARD ai-catalog.json, the A2A agent card, an Agent Skills index,
// a Web Bot Auth key directory and the UCP and ACP commerce profiles (one request each; the Agent
// Skills index at its v0.1 path only when the v0.2 path has none). Read once per AI readiness audit
// of a deployed site; each document is judged by the parsers here and in checks/agent-standards.ts.
import type { AgentDocumentKind, Judged } from './agent-documents.ts';
import { cpuPool } from './cpu/pool.ts';
import { type Fetcher, tryFetch } from './net/fetcher.ts';
import { DOCUMENT_MAX } from './schema-check.ts';
import { isWhiteSpace, skipWhiteSpace } from './white-space.ts';

/** A well-known document as fetched: status, media type and the start of its body. */
export interface DocumentFetch {
  url: string;
  status: number | 'unreachable';
  contentType: string;
  body: string;
  vary: string;
  error?: string;
  /** Larger than the body kept (DOCUMENT_MAX for the agent standards' documents): not judged. */
  oversize?: boolean;
  /** The response's HTTP Message Signature fields (RFC 9421), for the Web Bot Auth directory. */
  signatureInput?: string;
  /** The agent standards' documents: the verdict against its schema (agent-documents.ts), when offered. */
  judged?: Judged;
  /** Why there is no verdict (the CPU thread failed or timed out). */
  judgeError?: string;
}

/** Where the ai-catalog.json was looked for: where the site says it is, or else the well-known path. */
export type CatalogSource = 'robots' | 'link' | 'header' | 'well-known';

/** The agent standards' documents (issue 29), each fetched once. */
export interface AgentStandardsFetch {
  aiCatalog: DocumentFetch & { via: CatalogSource };
  agentCard: DocumentFetch;
  agentSkills: DocumentFetch;
  botAuthDirectory: DocumentFetch;
  ucp: DocumentFetch;
  acp: DocumentFetch;
  /** Pages the crawl found answering 402 Payment Required (at most PAYMENTS_READ), with their x402 verdicts. */
  payments: Array<{ url: string; judged?: Judged }>;
}

/** What the site said before discovery: robots.txt and the home page, for where the ai-catalog is. */
export interface DiscoveryHints {
  robotsBody?: string;
  /** The home page's Link header. */
  linkHeader?: string;
  /** The home page's <link> elements. */
  htmlLinks?: ReadonlyArray<{ rel: string; href: string }>;
  /** Pages the crawl found answering 402 Payment Required: their PAYMENT-REQUIRED header and body. */
  paymentPages?: ReadonlyArray<{ url: string; header?: string; body: string }>;
}

/** 402 answers judged per audit. */
export const PAYMENTS_READ = 3;

/** A document the site offers (a 200 that is no HTML page) judged on a CPU thread; others as they are. */
async function judged(doc: DocumentFetch, kind: AgentDocumentKind): Promise<DocumentFetch> {
  if (doc.status !== 200 || /^text\/html/.test(doc.contentType)) return doc;
  try {
    return {
      ...doc,
      judged: await cpuPool().run('judgeAgentDocument', [kind, doc.body, doc.oversize === true, doc.contentType]),
    };
  } catch (error) {
    return { ...doc, judgeError: (error as Error).message.slice(0, 200) };
  }
}

export interface AgentDiscovery {
  markdown: DocumentFetch;
  apiCatalog: DocumentFetch;
  oauthServer: DocumentFetch;
  protectedResource: DocumentFetch;
  /** The MCP server card, at /.well-known/mcp/server-card.json or else /.well-known/mcp.json. */
  mcpCard: DocumentFetch;
  /** The agent standards' documents (issue 29). */
  standards?: AgentStandardsFetch;
}

const BODY_KEPT = 64 * 1024;

async function fetchDocument(
  fetcher: Fetcher,
  url: string,
  signal?: AbortSignal,
  accept?: string,
  kept = BODY_KEPT,
): Promise<DocumentFetch> {
  const { page, status, error } = await tryFetch(fetcher, url, signal, accept ? { accept } : undefined);
  const signatureInput = page?.headers['signature-input'];
  return {
    url: page?.url ?? url,
    status,
    contentType: (page?.headers['content-type'] ?? '').toLowerCase(),
    body: page?.body.slice(0, kept) ?? '',
    vary: (page?.headers.vary ?? '').toLowerCase(),
    ...(error ? { error } : {}),
    ...(page && (page.truncated || page.body.length > kept) ? { oversize: true } : {}),
    ...(signatureInput ? { signatureInput: signatureInput.slice(0, 2000) } : {}),
  };
}

/** The value of the first `Agentmap:` line of robots.txt (ARD §6.1), by a scan of each line's start. */
export function robotsAgentmap(robots: string): string | undefined {
  for (const line of robots.split('\n')) {
    const at = skipWhiteSpace(line, 0);
    if (line.slice(at, at + 9).toLowerCase() !== 'agentmap:') continue;
    const start = skipWhiteSpace(line, at + 9);
    let end = start;
    while (end < line.length && !isWhiteSpace(line.charCodeAt(end)) && line[end] !== '#') end++;
    if (end > start) return line.slice(start, end);
  }
  return undefined;
}

/**
 * Where a site says its ai-catalog.json is, in Lighthouse's order (robots.txt `Agentmap`, then
 * `<link rel="ai-catalog">`, then a `Link` header with rel ai-catalog), else the well-known URI.
 */
export function aiCatalogLocation(homeUrl: string, hints: DiscoveryHints = {}): { url: string; via: CatalogSource } {
  const absolute = (href: string | undefined) => {
    if (!href) return undefined;
    try {
      const url = new URL(href, homeUrl);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
    } catch {
      return undefined;
    }
  };
  const robots = absolute(hints.robotsBody ? robotsAgentmap(hints.robotsBody) : undefined);
  if (robots) return { url: robots, via: 'robots' };
  const html = absolute(hints.htmlLinks?.find((l) => l.rel.split(/\s+/).includes('ai-catalog'))?.href);
  if (html) return { url: html, via: 'link' };
  const header = absolute(parseLinkHeader(hints.linkHeader ?? '').find((l) => l.rel.includes('ai-catalog'))?.href);
  if (header) return { url: header, via: 'header' };
  return { url: `${new URL(homeUrl).origin}/.well-known/ai-catalog.json`, via: 'well-known' };
}

async function discoverStandards(
  fetcher: Fetcher,
  homeUrl: string,
  signal: AbortSignal | undefined,
  hints: DiscoveryHints,
): Promise<AgentStandardsFetch> {
  const origin = new URL(homeUrl).origin;
  const json = 'application/json, */*;q=0.1';
  const get = (url: string, accept = json) => fetchDocument(fetcher, url, signal, accept, DOCUMENT_MAX);
  const catalog = aiCatalogLocation(homeUrl, hints);
  const skills = async () => {
    const index = await get(`${origin}/.well-known/agent-skills/index.json`);
    // The v0.1.0 draft's path, where the v0.2.0 one has nothing.
    return judged(index.status === 200 ? index : await get(`${origin}/.well-known/skills/index.json`), 'skills');
  };
  const payment = async (page: { url: string; header?: string; body: string }) => {
    try {
      const verdict = await cpuPool().run('judgePaymentRequired', [page.header, page.body]);
      return { url: page.url, ...(verdict ? { judged: verdict } : {}) };
    } catch (error) {
      return { url: page.url, judged: { problems: [`could not be read (${(error as Error).message.slice(0, 120)})`] } };
    }
  };
  const [aiCatalog, agentCard, agentSkills, botAuthDirectory, ucp, acp, payments] = await Promise.all([
    get(catalog.url).then((doc) => judged(doc, 'ard')),
    get(`${origin}/.well-known/agent-card.json`).then((doc) => judged(doc, 'a2a')),
    skills(),
    get(
      `${origin}/.well-known/http-message-signatures-directory`,
      'application/http-message-signatures-directory+json, application/json;q=0.9',
    ).then((doc) => judged(doc, 'directory')),
    get(`${origin}/.well-known/ucp`).then((doc) => judged(doc, 'ucp')),
    get(`${origin}/.well-known/acp.json`).then((doc) => judged(doc, 'acp')),
    Promise.all((hints.paymentPages ?? []).slice(0, PAYMENTS_READ).map(payment)),
  ]);
  return {
    aiCatalog: { ...aiCatalog, via: catalog.via },
    agentCard,
    agentSkills,
    botAuthDirectory,
    ucp,
    acp,
    payments,
  };
}

export async function discoverForAgents(
  fetcher: Fetcher,
  homeUrl: string,
  signal?: AbortSignal,
  hints: DiscoveryHints = {},
): Promise<AgentDiscovery> {
  const origin = new URL(homeUrl).origin;
  const json = 'application/json, application/linkset+json;q=0.9, */*;q=0.1';
  const [markdown, apiCatalog, oauthServer, protectedResource, card, standards] = await Promise.all([
    fetchDocument(fetcher, homeUrl, signal, 'text/markdown, text/html;q=0.5'),
    fetchDocument(
      fetcher,
      `${origin}/.well-known/api-catalog`,
      signal,
      'application/linkset+json, application/json;q=0.9',
    ),
    fetchDocument(fetcher, `${origin}/.well-known/oauth-authorization-server`, signal, json),
    fetchDocument(fetcher, `${origin}/.well-known/oauth-protected-resource`, signal, json),
    fetchDocument(fetcher, `${origin}/.well-known/mcp/server-card.json`, signal, json),
    discoverStandards(fetcher, homeUrl, signal, hints),
  ]);
  const mcpCard =
    card.status === 200 ? card : await fetchDocument(fetcher, `${origin}/.well-known/mcp.json`, signal, json);
  return { markdown, apiCatalog, oauthServer, protectedResource, mcpCard, standards };
}

export interface LinkValue {
  href: string;
  rel: string[];
  type: string | null;
}

/**
 * RFC 8288 §3: `<uri>; rel="a b"; type="x", <uri2>; rel=c`. Commas inside <> or quotes do not split.
 * A hand scan: the header comes from the audited site, and a pattern over it (<([^>]*)>(params)*)
 * rescans the rest of the value from every `<` that is never closed (quadratic). Each search below
 * starts past the previous one, or is skipped once it has found nothing.
 */
export function parseLinkHeader(value: string): LinkValue[] {
  const links: LinkValue[] = [];
  let quotesLeft = true;
  let at = 0;
  for (;;) {
    const open = value.indexOf('<', at);
    if (open < 0) break;
    const close = value.indexOf('>', open + 1);
    // No `>` after this `<`: none after any later one either.
    if (close < 0) break;
    const params = new Map<string, string>();
    at = close + 1;
    for (;;) {
      at = skipWhiteSpace(value, at);
      if (value[at] !== ';') break;
      at++;
      at = skipWhiteSpace(value, at);
      const nameStart = at;
      while (at < value.length && !';,="'.includes(value[at] as string) && !isWhiteSpace(value.charCodeAt(at))) at++;
      const name = value.slice(nameStart, at).toLowerCase();
      at = skipWhiteSpace(value, at);
      let param = '';
      if (value[at] === '=') {
        at++;
        at = skipWhiteSpace(value, at);
        if (value[at] === '"') {
          const end = quotesLeft ? value.indexOf('"', at + 1) : -1;
          if (end < 0) {
            // An unclosed quote ends this link's parameters.
            quotesLeft = false;
            at++;
            if (name && !params.has(name)) params.set(name, '');
            break;
          }
          param = value.slice(at + 1, end);
          at = end + 1;
        } else {
          const start = at;
          while (at < value.length && !';,"'.includes(value[at] as string) && !isWhiteSpace(value.charCodeAt(at))) at++;
          param = value.slice(start, at);
        }
      }
      if (name && !params.has(name)) params.set(name, param);
      // Anything else up to the next parameter or link is not a parameter.
      while (at < value.length && value[at] !== ';' && value[at] !== ',') at++;
    }
    links.push({
      href: value.slice(open + 1, close),
      rel: (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean),
      type: params.get('type') ?? null,
    });
  }
  return links;
}

/** Link relations that point an agent somewhere useful (RFC 8288, RFC 9727, RFC 8631, IANA). */
export const AGENT_LINK_RELS = ['api-catalog', 'service-desc', 'service-doc', 'describedby', 'sitemap', 'alternate'];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a document that is there (empty: nothing). */
export type Problems = string[];

/** RFC 9727 §4: an application/linkset+json document (RFC 9264) whose linkset lists the APIs. */
export function apiCatalogProblems(doc: DocumentFetch): Problems {
  const problems: Problems = [];
  if (!/application\/linkset\+json|application\/json/.test(doc.contentType))
    problems.push(`served as ${doc.contentType || 'no media type'}, not application/linkset+json`);
  const parsed = parseJson(doc.body);
  if (!isObject(parsed) || !Array.isArray(parsed.linkset)) {
    problems.push('the body is not a JSON object with a "linkset" array');
    return problems;
  }
  if (parsed.linkset.length === 0) problems.push('the linkset is empty');
  if (parsed.linkset.some((entry) => !isObject(entry) || typeof entry.anchor !== 'string'))
    problems.push('a linkset entry has no "anchor"');
  return problems;
}

/** Whether `field` holds an address on `origin` (compared as origins: a prefix would admit shop.example.evil.test). */
function offOrigin(parsed: Record<string, unknown>, field: string, origin: string): string | undefined {
  const value = parsed[field];
  if (typeof value !== 'string') return `"${field}" is missing`;
  let at: string | undefined;
  try {
    at = new URL(value).origin;
  } catch {
    at = undefined;
  }
  return at === origin ? undefined : `"${field}" is ${value}, not on ${origin}`;
}

/** RFC 8414 §2 and §3.3, and what MCP clients need (PKCE S256). */
export function oauthServerProblems(doc: DocumentFetch, origin: string): Problems {
  const parsed = parseJson(doc.body);
  if (!isObject(parsed)) return ['the body is not a JSON object'];
  const problems: Problems = [];
  const issuer = offOrigin(parsed, 'issuer', origin);
  if (issuer) problems.push(issuer);
  for (const field of ['authorization_endpoint', 'token_endpoint'])
    if (typeof parsed[field] !== 'string') problems.push(`"${field}" is missing`);
  if (!Array.isArray(parsed.response_types_supported)) problems.push('"response_types_supported" is missing');
  if (
    !Array.isArray(parsed.code_challenge_methods_supported) ||
    !parsed.code_challenge_methods_supported.includes('S256')
  )
    problems.push('"code_challenge_methods_supported" does not list S256, which MCP clients require');
  return problems;
}

/** RFC 9728 §2 and §3.3: the resource names itself and its authorization servers. */
export function protectedResourceProblems(doc: DocumentFetch, origin: string): Problems {
  const parsed = parseJson(doc.body);
  if (!isObject(parsed)) return ['the body is not a JSON object'];
  const problems: Problems = [];
  const resource = offOrigin(parsed, 'resource', origin);
  if (resource) problems.push(resource);
  if (!Array.isArray(parsed.authorization_servers) || parsed.authorization_servers.length === 0)
    problems.push('"authorization_servers" is missing or empty');
  return problems;
}

/** An MCP server card (SEP-1649 and SEP-2127 drafts): a name, a version and where to connect. */
export function mcpCardProblems(doc: DocumentFetch): Problems {
  const parsed = parseJson(doc.body);
  if (!isObject(parsed)) return ['the body is not a JSON object'];
  const info = isObject(parsed.serverInfo) ? parsed.serverInfo : parsed;
  const problems: Problems = [];
  if (typeof info.name !== 'string' || info.name === '') problems.push('no server "name"');
  if (typeof info.version !== 'string') problems.push('no "version"');
  const transports = [parsed.transport, ...(Array.isArray(parsed.transports) ? parsed.transports : [])].filter(
    isObject,
  );
  const endpoint =
    transports.some((t) => typeof t.url === 'string' || typeof t.endpoint === 'string') ||
    typeof parsed.url === 'string' ||
    typeof parsed.endpoint === 'string';
  if (!endpoint) problems.push('no transport URL to connect to');
  return problems;
}
