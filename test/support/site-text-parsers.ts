// Every parser of site text, each as one function of one hostile string, for the fuzz tests
// (test/audit/parsers-fuzz.test.ts). Loaded in a worker by time-bound.ts, so a hang is terminated;
// a batch of inputs is one call, and each input's time is measured here, where it runs.

import {
  aiCatalogLocation,
  apiCatalogProblems,
  type DocumentFetch,
  mcpCardProblems,
  oauthServerProblems,
  parseLinkHeader,
  protectedResourceProblems,
} from '../../src/audit/agent-discovery.ts';
import { judgeAgentDocument, judgePaymentRequired } from '../../src/audit/agent-documents.ts';
import { classifyAgentAnswer } from '../../src/audit/ai-access.ts';
import {
  agentReadinessChecks,
  contentSignalProblems,
  llmsTxtProblems,
} from '../../src/audit/checks/agent-readiness.ts';
import {
  AD_PIXELS,
  ANALYTICS,
  CONSENT_MANAGERS,
  detect,
  EXPERIMENTATION,
  LEGACY_UA,
  TRACKING_COOKIE,
} from '../../src/audit/checks/marketing-signals.ts';
import { browserDefenseChecks, parseCsp } from '../../src/audit/checks/security/browser-defenses.ts';
import { cookieChecks, parseSetCookie } from '../../src/audit/checks/security/cookies.ts';
import { dnsEmailChecks, spfAll, spfLookups } from '../../src/audit/checks/security/dns-email.ts';
import { SENSITIVE_FILES } from '../../src/audit/checks/security/exposure.ts';
import { mailHardeningChecks } from '../../src/audit/checks/security/mail-hardening.ts';
import { parseHsts } from '../../src/audit/checks/security/transport.ts';
import { jsonLdNodes } from '../../src/audit/checks/structured-data.ts';
import type { CrawledPage } from '../../src/audit/crawler.ts';
import { markdownLinkTargets, parseLlmsTxt, parseSitemap } from '../../src/audit/foundation-files.ts';
import { type PageFacts, parseHtml } from '../../src/audit/html.ts';
import {
  dkimKey,
  mtaStsRecordProblem,
  parseMtaStsPolicy,
  parseTags,
  tlsRptRecordProblem,
} from '../../src/audit/mail-records.ts';
import type { FetchedPage } from '../../src/audit/net/fetcher.ts';
import { quote } from '../../src/audit/quote.ts';
import { librariesInUrl, scanScriptUrls } from '../../src/audit/retire.ts';
import { DOCUMENT_MAX } from '../../src/audit/schema-check.ts';
import { parseSecurityTxt } from '../../src/audit/security-txt.ts';
import type { SiteSnapshot } from '../../src/audit/site.ts';
import { siteName, starterLlmsTxt } from '../../src/audit/starters.ts';
import { pageText } from '../../src/mcp/page-content.ts';

const ORIGIN = 'https://site.example';
const NOW = new Date('2026-01-01T00:00:00Z');

const fetched = (body: string, headers: Record<string, string>): FetchedPage => ({
  requestedUrl: `${ORIGIN}/`,
  url: `${ORIGIN}/`,
  status: 200,
  headers,
  setCookies: [],
  body,
  bytes: body.length,
  truncated: false,
  redirects: [],
  ttfbMs: 1,
});

const document = (body: string, contentType: string, vary = ''): DocumentFetch => ({
  url: `${ORIGIN}/`,
  status: 200,
  contentType,
  body,
  vary,
});

/** A page whose facts hold the text where the site's text lands: title, JSON-LD, scripts. */
const pageWith = (text: string): CrawledPage => {
  const facts = parseHtml('<title>x</title>');
  return {
    url: `${ORIGIN}/`,
    isHtml: true,
    fetched: fetched('', { 'content-type': 'text/html' }),
    facts: { ...facts, titles: [text], jsonLd: [text], inlineScripts: [text] } as PageFacts,
  };
};

const dnsOf = (record: string) => ({
  domain: 'site.example',
  mx: [{ exchange: 'mx.site.example', priority: 10 }],
  spf: [record],
  dmarc: [record],
  dmarcAt: 'site.example',
  organizationalDomain: 'site.example',
  caa: [{ tag: 'issue', value: record }],
  caaAt: 'site.example',
  mtaSts: [record],
  tlsRpt: [record],
  dkim: [{ selector: 'default', record }],
  dkimSelectorsAsked: ['default'],
  dnssec: null,
  errors: [],
});

/** The parsers, by the name the tests use; each takes the hostile text however the site gives it. */
const PARSERS: Record<string, (text: string) => unknown> = {
  sitemap: (text) => parseSitemap(text, `${ORIGIN}/sitemap.xml`),
  'llms.txt': (text) => [parseLlmsTxt(text), llmsTxtProblems(text), markdownLinkTargets(text)],
  'security.txt': (text) => parseSecurityTxt(text, `${ORIGIN}/.well-known/security.txt`, NOW),
  'mail records (SPF, DMARC, CAA, MTA-STS, TLS-RPT, DKIM)': (text) => [
    spfLookups(text),
    spfAll(text),
    parseTags(text),
    mtaStsRecordProblem(text),
    tlsRptRecordProblem(text),
    dkimKey(text),
    dnsEmailChecks(dnsOf(text), `${ORIGIN}/`),
  ],
  'MTA-STS policy file': (text) => [
    parseMtaStsPolicy(text),
    mailHardeningChecks(
      dnsOf('v=STSv1; id=1'),
      {
        url: 'https://mta-sts.site.example/.well-known/mta-sts.txt',
        page: fetched(text, { 'content-type': 'text/plain' }),
      },
      `${ORIGIN}/`,
    ),
  ],
  'CSP and the other browser-defence headers': (text) => {
    const headers = Object.fromEntries(
      [
        'content-security-policy',
        'referrer-policy',
        'x-content-type-options',
        'x-frame-options',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'cross-origin-embedder-policy',
        'permissions-policy',
      ].map((name) => [name, text]),
    );
    const home = { ...pageWith('x'), fetched: fetched('', headers) };
    return [parseCsp(text), browserDefenseChecks(home, [home], ORIGIN)];
  },
  'Set-Cookie': (text) => [parseSetCookie(text), cookieChecks([text, ...text.split('\n')], `${ORIGIN}/`, true)],
  HSTS: (text) => parseHsts(text),
  'Link header': (text) => parseLinkHeader(text),
  'Content-Signal': (text) => contentSignalProblems(text),
  'JSON-LD': (text) => jsonLdNodes(pageWith(text)),
  'agent documents (markdown answer, API catalog, OAuth, MCP card, llms.txt check)': (text) => {
    const site: SiteSnapshot = {
      startUrl: `${ORIGIN}/`,
      origin: ORIGIN,
      local: false,
      pages: [],
      disallowed: [],
      llms: { url: `${ORIGIN}/llms.txt`, status: 200, body: text, contentType: text },
      agentDiscovery: {
        markdown: document(text, 'text/markdown', text),
        apiCatalog: document(text, text),
        oauthServer: document(text, 'application/json'),
        protectedResource: document(text, 'application/json'),
        mcpCard: document(text, 'application/json'),
      },
    };
    return [
      agentReadinessChecks(site, []),
      apiCatalogProblems(site.agentDiscovery?.apiCatalog as DocumentFetch),
      oauthServerProblems(document(text, 'application/json'), ORIGIN),
      protectedResourceProblems(document(text, 'application/json'), ORIGIN),
      mcpCardProblems(document(text, 'application/json')),
    ];
  },
  'agent standards (ARD, A2A, Agent Skills, Web Bot Auth, UCP, ACP, x402; Agentmap)': (text) => [
    // As discovery keeps them: up to DOCUMENT_MAX, and a longer one not validated.
    (['ard', 'a2a', 'skills', 'directory', 'ucp', 'acp'] as const).map((kind) =>
      judgeAgentDocument(kind, text.slice(0, DOCUMENT_MAX), text.length > DOCUMENT_MAX, text),
    ),
    judgePaymentRequired(text, text),
    judgePaymentRequired(undefined, text),
    aiCatalogLocation(`${ORIGIN}/`, { robotsBody: text, linkHeader: text, htmlLinks: [{ rel: text, href: text }] }),
  ],
  'HTML page (contact patterns on visible text, facts)': (text) => parseHtml(text, { textDigest: true }),
  'visible text (contact patterns)': (text) => parseHtml(`<p>${text.replace(/</g, ' ')}</p>`),
  'titles (starter files)': (text) => {
    const site = {
      startUrl: `${ORIGIN}/`,
      origin: ORIGIN,
      local: false,
      pages: [pageWith(text), pageWith(text)],
      disallowed: [],
    };
    return [siteName(site), starterLlmsTxt(site)];
  },
  'script text (marketing detectors)': (text) => [
    [ANALYTICS, AD_PIXELS, CONSENT_MANAGERS, EXPERIMENTATION].map((detectors) => detect(detectors, text)),
    LEGACY_UA.test(text),
    TRACKING_COOKIE.test(text),
  ],
  'bodies (challenge pages, exposed files)': (text) => [
    classifyAgentAnswer(200, { 'content-type': 'text/html' }, text),
    SENSITIVE_FILES.map((file) => file.proof.test(text)),
  ],
  'quotations of site text': (text) => [quote(text), pageText(text)],
  // retire.js's vendored patterns over script URLs (bounded at 2 KB each, at most 500 a run).
  'script URLs (retire.js patterns)': (text) => [librariesInUrl(text), scanScriptUrls(text.split('\n').slice(0, 50))],
};

// The agent standards' schemas compile on their first use, once per thread: here, as the harness
// loads, not within a timed input (an A2A 0.3 card's security schemes compile its branches too).
for (const kind of ['ard', 'a2a', 'skills', 'directory', 'ucp', 'acp'] as const) judgeAgentDocument(kind, '{}', false);
judgeAgentDocument('a2a', '{"protocolVersion":"0.3.0","securitySchemes":{"k":{}}}', false);
judgeAgentDocument('skills', '{"$schema":""}', false);
judgePaymentRequired(undefined, '{"x402Version":1}');
judgePaymentRequired(undefined, '{"x402Version":2}');

export const parserNames = (): string[] => Object.keys(PARSERS);

export interface InputRun {
  ms: number;
  /** What the parser threw, if it did: junk must give a value or a parse failure, never an exception. */
  error?: string;
}

/** Runs one parser over each input in turn, timing each. */
export function runBatch(name: string, inputs: string[]): InputRun[] {
  const parse = PARSERS[name];
  if (!parse) throw new Error(`no parser named ${name}`);
  return inputs.map((input) => {
    const started = performance.now();
    try {
      parse(input);
      return { ms: performance.now() - started };
    } catch (error) {
      return { ms: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
