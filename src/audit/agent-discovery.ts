// What a site offers agents beyond its pages (issue 13): the home page asked for markdown
// (`Accept: text/markdown`), its `Link` header (RFC 8288), the API catalog (RFC 9727), OAuth
// discovery documents (RFC 8414, RFC 9728) and an MCP server card. Read once per AI readiness audit
// of a deployed site; each document is judged by the parsers here.
import { type Fetcher, tryFetch } from './net/fetcher.ts';
import { isWhiteSpace, skipWhiteSpace } from './white-space.ts';

/** A well-known document as fetched: status, media type and the start of its body. */
export interface DocumentFetch {
  url: string;
  status: number | 'unreachable';
  contentType: string;
  body: string;
  vary: string;
  error?: string;
}

export interface AgentDiscovery {
  markdown: DocumentFetch;
  apiCatalog: DocumentFetch;
  oauthServer: DocumentFetch;
  protectedResource: DocumentFetch;
  /** The MCP server card, at /.well-known/mcp/server-card.json or else /.well-known/mcp.json. */
  mcpCard: DocumentFetch;
}

const BODY_KEPT = 64 * 1024;

async function fetchDocument(
  fetcher: Fetcher,
  url: string,
  signal?: AbortSignal,
  accept?: string,
): Promise<DocumentFetch> {
  const { page, status, error } = await tryFetch(fetcher, url, signal, accept ? { accept } : undefined);
  return {
    url: page?.url ?? url,
    status,
    contentType: (page?.headers['content-type'] ?? '').toLowerCase(),
    body: page?.body.slice(0, BODY_KEPT) ?? '',
    vary: (page?.headers.vary ?? '').toLowerCase(),
    ...(error ? { error } : {}),
  };
}

export async function discoverForAgents(
  fetcher: Fetcher,
  homeUrl: string,
  signal?: AbortSignal,
): Promise<AgentDiscovery> {
  const origin = new URL(homeUrl).origin;
  const json = 'application/json, application/linkset+json;q=0.9, */*;q=0.1';
  const [markdown, apiCatalog, oauthServer, protectedResource, card] = await Promise.all([
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
  ]);
  const mcpCard =
    card.status === 200 ? card : await fetchDocument(fetcher, `${origin}/.well-known/mcp.json`, signal, json);
  return { markdown, apiCatalog, oauthServer, protectedResource, mcpCard };
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
