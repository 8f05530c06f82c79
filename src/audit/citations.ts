// Every check's standard and a one-line way to verify the fix (issue 13): the references a finding
// cites (RFC section, WHATWG or W3C spec, WCAG success criterion, MDN page, or the vendor document
// that defines the thing checked), the command or address that shows the fix worked, and which
// anchor tools judge the same thing (docs/scoring.md's catalogue is generated from this table).
// `{url}`, `{origin}`, `{host}` and `{domain}` (the mail domain) are filled in per finding.

import { DKIM_SELECTORS } from './net/dns-facts.ts';

export interface Reference {
  title: string;
  url: string;
}

/** The tools the catalogue is measured against. */
export type Anchor = 'Lighthouse' | 'axe' | 'Cloudflare' | 'internet.nl' | 'Observatory';

export interface Citation {
  references: Reference[];
  verify: string;
  anchors: Anchor[];
}

const WCAG = (sc: string, slug: string, name: string): Reference => ({
  title: `WCAG 2.2 SC ${sc} ${name}`,
  url: `https://www.w3.org/WAI/WCAG22/Understanding/${slug}.html`,
});
const RFC = (n: number, section: string, name: string): Reference => ({
  title: `RFC ${n}${section ? ` §${section}` : ''}: ${name}`,
  url: `https://www.rfc-editor.org/rfc/rfc${n}${section ? `#section-${section}` : ''}`,
});
const MDN = (path: string, name: string): Reference => ({
  title: `MDN: ${name}`,
  url: `https://developer.mozilla.org/en-US/docs/${path}`,
});
const ref = (title: string, url: string): Reference => ({ title, url });
// Verify lines (docs/scoring.md, "Verify lines"): each prints what the check judged, so that it shows
// the defect before the fix and passes after it. Every one is proven so on fixture pages by
// test/audit/verify-lines.test.ts. Patterns over markup are grep -E (a DFA in GNU grep: linear, no
// backtracking) in a double-quoted shell word, and accept double-quoted, single-quoted and unquoted
// attribute values in any order, over the page joined into one line (a tag may span lines).
const axe = (rules: string) => `npx @axe-core/cli {url} --rules ${rules}`;
// Lighthouse's JSON holds each audit as "id", "title", "description", then "score" (below 1 fails).
const lighthouse = (audit: string) =>
  `npx lighthouse {url} --only-audits=${audit} --chrome-flags=--headless --quiet --output=json | grep -A3 '"id": "${audit}"'`;
const header = (name: string) => `curl -sSI {url} | grep -i '^${name}:'`;
const dig = (type: string, name: string) => `dig +short ${type} ${name}`;
/** The page's markup on one line, for grep -o over its tags. */
const MARKUP = `curl -sS {url} | tr '\\n\\r' '  '`;
/** An ERE in a double-quoted shell word: `\\"` is a `"` to grep, `'` is itself; no `$name`, no `!`. */
const grepMarkup = (ere: string) => `${MARKUP} | grep -ioE "${ere}"`;
/** An attribute value's opening quote, if any. */
const Q = `[\\"']?`;
/** The rest of a value and its tag once a value matched: a quote, a space or `/`, then up to `>`. */
const REST = `([\\"'[:space:]/][^>]*)?>`;
/** A value's characters, quoted or not. */
const V = `[^\\"' >]*`;
/** A <meta> whose name (or property, as Open Graph writes it) matches `key`. */
const metaTag = (key: string) => `<meta[^>]*[[:space:]](name|property)=${Q}${key}${REST}`;
/** The X-Robots-Tag header and the robots meta tags, kept when they say noindex (or none). */
const NOINDEX = `{ curl -sSI {url} | grep -i "^x-robots-tag:"; ${grepMarkup(metaTag('(robots|googlebot)'))}; } | grep -iwE "noindex|none"`;
/** A link whose address or text holds one of `words` (as the checks read links: href or text). */
const linkTo = (words: string) =>
  `href=${Q}${V}(${words})${V}|<a([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*[^<]*(${words})[^<]*`;
const SET_COOKIE = `curl -sSI {url} | grep -i "^set-cookie:"`;
/** A cookie attribute as its own `;`-separated token, at the end of the line or before the next. */
const cookieFlag = (flag: string) => `;[[:space:]]*${flag}([[:space:];]|$)`;
// Every JSON-LD block of the page, parsed as a search engine does: a line per block that does not
// parse, and per schema.org node (top level and @graph) its type and properties. Node is there
// wherever npx is; the script has no single quote and no backtracking pattern over the page.
const JSON_LD_SCRIPT = String.raw`let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let n=0;for(const p of s.split(/<script/i).slice(1)){const e=p.indexOf(">");if(e<0||!/ld\+json/i.test(p.slice(0,e)))continue;n++;const t=p.slice(e+1).split(/<\/script/i)[0];let v;try{v=JSON.parse(t)}catch(x){console.log("block "+n+": does not parse: "+x.message);continue}const w=o=>{if(Array.isArray(o))o.forEach(w);else if(o&&typeof o==="object"){if(o["@type"])console.log("block "+n+": "+[].concat(o["@type"]).join("/")+": "+Object.keys(o).filter(k=>k[0]!=="@").join(" "));if(o["@graph"])w(o["@graph"])}};w(v)}if(!n)console.log("no JSON-LD block")})`;
const JSON_LD = `curl -sS {url} | node -e '${JSON_LD_SCRIPT}'`;

const ROBOTS = RFC(9309, '', 'Robots Exclusion Protocol');
const SCHEMA_ORG = (type: string) => ref(`schema.org ${type}`, `https://schema.org/${type}`);
const EPRIVACY = ref(
  'ePrivacy Directive 2002/58/EC, Art. 5(3) (consent before storing or reading cookies)',
  'https://eur-lex.europa.eu/eli/dir/2002/58/oj',
);

export const CITATIONS: Record<string, Citation> = {
  // AI readiness: foundation files and AI agents
  'robots-txt-valid': {
    references: [RFC(9309, '2.2', 'The Allow and Disallow lines')],
    verify: 'curl -sSf {origin}/robots.txt',
    anchors: ['Lighthouse', 'Cloudflare'],
  },
  'robots-allows-search': {
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
  'robots-allows-ai-answer-bots': {
    references: [
      ROBOTS,
      ref('OpenAI: Overview of OpenAI crawlers', 'https://platform.openai.com/docs/bots'),
      ref('Anthropic: Does Anthropic crawl data from the web', 'https://support.claude.com/en/articles/8896518'),
    ],
    verify:
      'curl -sSf {origin}/robots.txt | grep -i -A3 -E "^user-agent:[[:space:]]*(OAI-SearchBot|Claude-SearchBot|PerplexityBot|ChatGPT-User|Claude-User|Perplexity-User|\\*)[[:space:]]*$"',
    anchors: ['Cloudflare'],
  },
  'robots-training-crawlers': {
    references: [ROBOTS, ref('Content Signals Policy', 'https://contentsignals.org/')],
    verify: 'curl -sSf {origin}/robots.txt | grep -i -E "content-signal|gptbot|claudebot|google-extended|ccbot"',
    anchors: ['Cloudflare'],
  },
  'ai-access-by-purpose': {
    references: [
      ROBOTS,
      ref('ai.robots.txt: a list of AI agents and robots to block', 'https://github.com/ai-robots-txt/ai.robots.txt'),
    ],
    verify: 'curl -sSf {origin}/robots.txt',
    anchors: ['Cloudflare'],
  },
  'ai-agents-answered': {
    references: [ROBOTS, RFC(9110, '15.5.4', '403 Forbidden')],
    verify:
      'curl -sS -o /dev/null -w "%{http_code}\\n" -A "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot" {url}',
    anchors: [],
  },
  'sitemap-valid': {
    references: [
      ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html'),
      RFC(9309, '2.3.5', 'Sitemaps'),
    ],
    verify: 'curl -sSf {url} | head -c 600',
    anchors: ['Cloudflare'],
  },
  'sitemap-urls-live': {
    references: [ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html')],
    verify: 'curl -sS -o /dev/null -w "%{http_code}\\n" {url}',
    anchors: [],
  },
  'llms-txt': {
    references: [ref('llmstxt.org: The /llms.txt file', 'https://llmstxt.org/')],
    verify: 'curl -sSi {origin}/llms.txt | head -20',
    anchors: ['Lighthouse', 'Cloudflare'],
  },
  // AI readiness: agent readiness of 2026
  'llms-txt-structure': {
    references: [ref('llmstxt.org: Format', 'https://llmstxt.org/#format')],
    verify: 'curl -sSi {origin}/llms.txt | head -20',
    anchors: ['Lighthouse', 'Cloudflare'],
  },
  'markdown-negotiation': {
    references: [RFC(7763, '', 'The text/markdown Media Type'), RFC(9110, '12.5.5', 'Vary')],
    verify: 'curl -sSI -H "Accept: text/markdown" {url} | grep -i -E "^(content-type|vary):"',
    anchors: ['Cloudflare'],
  },
  'link-headers': {
    references: [RFC(8288, '3', 'Link Serialisation in HTTP Headers'), RFC(9727, '3', 'The api-catalog link relation')],
    verify: "curl -sSI {url} | grep -i '^link:'",
    anchors: ['Cloudflare'],
  },
  'content-signals': {
    references: [ref('Content Signals Policy', 'https://contentsignals.org/'), ROBOTS],
    verify: 'curl -sS {origin}/robots.txt | grep -i content-signal',
    anchors: ['Cloudflare'],
  },
  'api-catalog': {
    references: [RFC(9727, '4', 'The /.well-known/api-catalog URI'), RFC(9264, '4.2', 'Set of Links as JSON')],
    verify: 'curl -sSi {origin}/.well-known/api-catalog | head -20',
    anchors: ['Cloudflare'],
  },
  'oauth-discovery': {
    references: [
      RFC(8414, '3', 'Obtaining Authorization Server Metadata'),
      RFC(9728, '3', 'Obtaining Protected Resource Metadata'),
    ],
    verify:
      'curl -sS {origin}/.well-known/oauth-authorization-server; curl -sS {origin}/.well-known/oauth-protected-resource',
    anchors: ['Cloudflare'],
  },
  'mcp-server-card': {
    references: [
      ref('MCP SEP-2127: MCP Server Cards', 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127'),
    ],
    verify: 'curl -sS {url}',
    anchors: ['Cloudflare'],
  },
  'webmcp-tool-schema': {
    references: [ref('W3C Web Machine Learning CG: WebMCP', 'https://webmachinelearning.github.io/webmcp/')],
    verify: grepMarkup('<form[^>]*[[:space:]]toolname[^>]*>|<(input|select|textarea)([[:space:]][^>]*)?>'),
    anchors: ['Lighthouse', 'Cloudflare'],
  },
  'agent-accessibility-tree': {
    references: [
      WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
      ref('W3C Accessible Name and Description Computation 1.2', 'https://www.w3.org/TR/accname-1.2/'),
    ],
    verify: 'npx @axe-core/cli {url} --rules button-name,link-name,label,region',
    anchors: ['Lighthouse'],
  },
  'agent-forms': {
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
  // AI readiness: structured data
  'json-ld-parses': {
    references: [
      ref(
        'W3C JSON-LD 1.1 §6: Embedding JSON-LD in HTML documents',
        'https://www.w3.org/TR/json-ld11/#embedding-json-ld-in-html-documents',
      ),
    ],
    verify: JSON_LD,
    anchors: ['Lighthouse'],
  },
  'organization-schema': {
    references: [
      SCHEMA_ORG('Organization'),
      ref(
        'Google: Organization structured data',
        'https://developers.google.com/search/docs/appearance/structured-data/organization',
      ),
    ],
    verify: JSON_LD,
    anchors: [],
  },
  'schema-required-properties': {
    references: [
      ref(
        'Google Search Central: Structured data features',
        'https://developers.google.com/search/docs/appearance/structured-data/search-gallery',
      ),
    ],
    verify: JSON_LD,
    anchors: ['Lighthouse'],
  },
  // AI readiness: page basics
  'doctype-standards-mode': {
    references: [
      ref('WHATWG HTML §13.1.1 The DOCTYPE', 'https://html.spec.whatwg.org/multipage/syntax.html#the-doctype'),
      MDN('Web/HTML/Guides/Quirks_mode_and_standards_mode', 'Quirks mode and standards mode'),
    ],
    verify: 'curl -sS {url} | head -c 120',
    anchors: ['Lighthouse'],
  },
  'viewport-zoomable': {
    references: [
      WCAG('1.4.4', 'resize-text', 'Resize Text'),
      MDN('Web/HTML/Reference/Elements/meta/name/viewport', '<meta name="viewport">'),
    ],
    verify: grepMarkup(metaTag('viewport')),
    anchors: ['Lighthouse', 'axe'],
  },
  'frame-title': {
    references: [
      WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
      MDN('Web/HTML/Reference/Elements/iframe', '<iframe>'),
    ],
    verify: axe('frame-title'),
    anchors: ['Lighthouse', 'axe'],
  },
  'list-structure': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      ref(
        'WHATWG HTML §4.4.5 The ul element',
        'https://html.spec.whatwg.org/multipage/grouping-content.html#the-ul-element',
      ),
    ],
    verify: axe('list,listitem'),
    anchors: ['Lighthouse', 'axe'],
  },
  'image-alt-meaningful': {
    references: [
      WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
      ref('W3C WAI: An alt Decision Tree', 'https://www.w3.org/WAI/tutorials/images/decision-tree/'),
    ],
    verify: grepMarkup(`<img[^>]*[[:space:]]alt=(\\"[^\\"]*\\"|'[^']*'|[^\\"'[:space:]>]+)`),
    anchors: ['axe'],
  },
  'duplicate-id-references': {
    references: [
      WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
      ref('WHATWG HTML §3.2.6.2 The id attribute', 'https://html.spec.whatwg.org/multipage/dom.html#the-id-attribute'),
    ],
    // axe's duplicate-id-aria only asks for review (reviewOnFail), so an axe line never shows this
    // defect: the line prints every id the page uses more than once.
    verify: `${MARKUP} | grep -ioE "[[:space:]]id=(\\"[^\\"]*\\"|'[^']*'|[^\\"'[:space:]>]+)" | sed -E "s/^[[:space:]]id=[\\"']?//; s/[\\"']$//" | sort | uniq -d`,
    anchors: ['axe'],
  },
  // AI readiness: the ARIA and naming rules axe runs that the served HTML decides (issue 25)
  'aria-required-parent': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      ref('WAI-ARIA 1.2: Required Context Role', 'https://www.w3.org/TR/wai-aria-1.2/#scope'),
    ],
    verify: axe('aria-required-parent'),
    anchors: ['Lighthouse', 'axe'],
  },
  'aria-required-children': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      ref('WAI-ARIA 1.2: Required Owned Elements', 'https://www.w3.org/TR/wai-aria-1.2/#mustContain'),
    ],
    verify: axe('aria-required-children'),
    anchors: ['Lighthouse', 'axe'],
  },
  'svg-img-alt': {
    references: [
      WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
      ref('WAI-ARIA 1.2: img role', 'https://www.w3.org/TR/wai-aria-1.2/#img'),
    ],
    verify: axe('svg-img-alt'),
    anchors: ['Lighthouse', 'axe'],
  },
  'role-img-alt': {
    references: [
      WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
      ref('WAI-ARIA 1.2: img role', 'https://www.w3.org/TR/wai-aria-1.2/#img'),
    ],
    verify: axe('role-img-alt'),
    anchors: ['Lighthouse', 'axe'],
  },
  'landmark-unique': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      ref(
        'W3C WAI: Landmark Regions (labelling landmarks)',
        'https://www.w3.org/WAI/ARIA/apg/practices/landmark-regions/',
      ),
    ],
    verify: axe('landmark-unique'),
    anchors: ['axe'],
  },
  'placeholder-only-label': {
    references: [
      WCAG('3.3.2', 'labels-or-instructions', 'Labels or Instructions'),
      ref(
        'WHATWG HTML §4.10.5.1.19 The placeholder attribute (not a replacement for a label)',
        'https://html.spec.whatwg.org/multipage/input.html#the-placeholder-attribute',
      ),
    ],
    // axe accepts a placeholder as a name, so its label rule passes these: the line shows the labels
    // and the fields that carry a placeholder, side by side.
    verify: grepMarkup(`<label([[:space:]][^>]*)?>|<(input|textarea)[^>]*[[:space:]]placeholder=[^>]*>`),
    anchors: [],
  },
  // AI readiness: pages
  'pages-indexable': {
    references: [
      ref(
        'Google: Robots meta tag and X-Robots-Tag',
        'https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag',
      ),
    ],
    verify: NOINDEX,
    anchors: ['Lighthouse'],
  },
  'pages-answer-2xx': {
    references: [RFC(9110, '15', 'Status Codes')],
    verify: 'curl -sS -o /dev/null -w "%{http_code}\\n" {url}',
    anchors: ['Lighthouse'],
  },
  'home-redirect-chain': {
    references: [RFC(9110, '15.4', 'Redirection 3xx')],
    verify: 'curl -sSIL {origin}/ | grep -i -E "^(HTTP|location)"',
    anchors: ['Lighthouse'],
  },
  'title-present': {
    references: [
      WCAG('2.4.2', 'page-titled', 'Page Titled'),
      ref(
        'WHATWG HTML §4.2.2 The title element',
        'https://html.spec.whatwg.org/multipage/semantics.html#the-title-element',
      ),
    ],
    verify: grepMarkup('<title([[:space:]][^>]*)?>[^<]*</title>'),
    anchors: ['Lighthouse', 'axe'],
  },
  'meta-description': {
    references: [
      ref(
        'WHATWG HTML §4.2.5.1 Standard metadata names: description',
        'https://html.spec.whatwg.org/multipage/semantics.html#meta-description',
      ),
    ],
    verify: grepMarkup(metaTag('description')),
    anchors: ['Lighthouse'],
  },
  'canonical-absolute': {
    references: [RFC(6596, '', 'The Canonical Link Relation')],
    verify: grepMarkup(`<link[^>]*[[:space:]]rel=${Q}canonical${REST}`),
    anchors: ['Lighthouse'],
  },
  'html-lang': {
    references: [
      WCAG('3.1.1', 'language-of-page', 'Language of Page'),
      ref('BCP 47: Tags for Identifying Languages', 'https://www.rfc-editor.org/info/bcp47'),
    ],
    verify: axe('html-has-lang,html-lang-valid'),
    anchors: ['Lighthouse', 'axe'],
  },
  'hreflang-valid': {
    references: [
      ref(
        'Google: Localized versions of your pages',
        'https://developers.google.com/search/docs/specialty/international/localized-versions',
      ),
      ref('BCP 47: Tags for Identifying Languages', 'https://www.rfc-editor.org/info/bcp47'),
    ],
    verify: lighthouse('hreflang'),
    anchors: ['Lighthouse'],
  },
  'content-in-html': {
    references: [
      ref(
        'Google: Understand JavaScript SEO basics',
        'https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics',
      ),
    ],
    verify: "curl -sS {url} | tr -s '\\n\\r\\t ' ' ' | sed -e 's/<[^>]*>/ /g' | tr -s ' ' | head -c 600",
    anchors: ['Lighthouse'],
  },
  'single-h1': {
    references: [
      ref(
        'WHATWG HTML §4.3.6 The h1–h6 elements',
        'https://html.spec.whatwg.org/multipage/sections.html#the-h1,-h2,-h3,-h4,-h5,-and-h6-elements',
      ),
    ],
    verify: `${grepMarkup('<h1([[:space:]][^>]*)?>')} | wc -l`,
    anchors: [],
  },
  'heading-order': {
    references: [WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships')],
    verify: axe('heading-order'),
    anchors: ['Lighthouse', 'axe'],
  },
  'main-landmark': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      ref('WAI-ARIA 1.2: main role', 'https://www.w3.org/TR/wai-aria-1.2/#main'),
    ],
    verify: axe('landmark-one-main'),
    anchors: ['axe'],
  },
  'answerable-content': {
    references: [SCHEMA_ORG('FAQPage')],
    verify: grepMarkup('<h[1-6]([[:space:]][^>]*)?>[^<]*\\?[[:space:]]*<|\\"FAQPage\\"'),
    anchors: [],
  },
  'content-dates': {
    references: [SCHEMA_ORG('datePublished'), SCHEMA_ORG('dateModified')],
    verify: grepMarkup('\\"(datePublished|dateModified|uploadDate)\\"|article:(published|modified)_time'),
    anchors: [],
  },
  'image-alt': {
    references: [WCAG('1.1.1', 'non-text-content', 'Non-text Content')],
    verify: axe('image-alt'),
    anchors: ['Lighthouse', 'axe'],
  },
  'link-name': {
    references: [WCAG('2.4.4', 'link-purpose-in-context', 'Link Purpose (In Context)')],
    verify: `${axe('link-name')}; ${grepMarkup('<a[[:space:]][^>]*>[[:space:]]*(click here|here|read more|more|link|learn more)[[:space:]]*</a>')}`,
    anchors: ['Lighthouse', 'axe'],
  },
  'form-labels': {
    references: [
      WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
      WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
    ],
    verify: axe('label'),
    anchors: ['Lighthouse', 'axe'],
  },
  'button-name': {
    references: [WCAG('4.1.2', 'name-role-value', 'Name, Role, Value')],
    verify: axe('button-name'),
    anchors: ['Lighthouse', 'axe'],
  },
  'crawlable-links': {
    references: [
      ref(
        'Google: Link best practices (crawlable links)',
        'https://developers.google.com/search/docs/crawling-indexing/links-crawlable',
      ),
    ],
    verify: grepMarkup(`[[:space:]]href=${Q}[[:space:]]*javascript:[^\\"'>]*`),
    anchors: ['Lighthouse'],
  },
  'autocomplete-valid': {
    references: [
      WCAG('1.3.5', 'identify-input-purpose', 'Identify Input Purpose'),
      ref(
        'WHATWG HTML §4.10.18.7 Autofill',
        'https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill',
      ),
    ],
    verify: axe('autocomplete-valid'),
    anchors: ['Lighthouse', 'axe'],
  },
  'webmcp-tools': {
    references: [ref('W3C Web Machine Learning CG: WebMCP', 'https://webmachinelearning.github.io/webmcp/')],
    verify: grepMarkup('<form[^>]*[[:space:]]toolname[^>]*>'),
    anchors: ['Lighthouse', 'Cloudflare'],
  },
  'markdown-alternates': {
    references: [
      RFC(7763, '', 'The text/markdown Media Type'),
      ref('llmstxt.org: Markdown versions of pages', 'https://llmstxt.org/'),
    ],
    verify: grepMarkup('<link[^>]*text/markdown[^>]*>'),
    anchors: ['Cloudflare'],
  },
  'time-to-first-byte': {
    references: [ref('web.dev: Time to First Byte (TTFB)', 'https://web.dev/articles/ttfb')],
    verify: 'curl -sS -o /dev/null -w "%{time_starttransfer}s\\n" {url}',
    anchors: ['Lighthouse'],
  },
  'html-weight': {
    references: [
      ref(
        'web.dev: Avoid enormous network payloads',
        'https://developer.chrome.com/docs/lighthouse/performance/total-byte-weight',
      ),
    ],
    verify: 'curl -sS -o /dev/null -w "%{size_download} bytes\\n" {url}',
    anchors: ['Lighthouse'],
  },
  'render-blocking-scripts': {
    references: [
      ref(
        'WHATWG HTML §4.12.1 The script element (async, defer)',
        'https://html.spec.whatwg.org/multipage/scripting.html#attr-script-defer',
      ),
    ],
    verify: lighthouse('render-blocking-insight'),
    anchors: ['Lighthouse'],
  },
  'image-dimensions': {
    references: [
      ref(
        'web.dev: Optimize Cumulative Layout Shift (images without dimensions)',
        'https://web.dev/articles/optimize-cls#images-without-dimensions',
      ),
    ],
    verify: lighthouse('unsized-images'),
    anchors: ['Lighthouse'],
  },
  'served-over-https': {
    references: [RFC(9110, '4.2.2', 'https URI Scheme')],
    verify: 'curl -sSI https://{host}/ | head -1',
    anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
  },
  'no-mixed-content': {
    references: [ref('W3C Mixed Content Level 2', 'https://www.w3.org/TR/mixed-content/')],
    verify: grepMarkup(
      `([[:space:]](src|srcset|poster|data|action|formaction)=|<link[^>]*[[:space:]]href=)${Q}http://${V}`,
    ),
    anchors: ['Lighthouse'],
  },
  // Website security: exposure
  'security-txt': {
    references: [
      RFC(9116, '2.5', 'Field Definitions (Contact, Expires)'),
      RFC(9116, '3', 'Location of the security.txt file (HTTPS)'),
    ],
    verify: 'curl -sSf https://{host}/.well-known/security.txt',
    anchors: ['internet.nl'],
  },
  'version-banners': {
    references: [
      RFC(9110, '10.2.4', 'Server'),
      ref(
        'OWASP WSTG: Fingerprint Web Server',
        'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/01-Information_Gathering/02-Fingerprint_Web_Server',
      ),
    ],
    verify: 'curl -sSI {url} | grep -i -E "^(server|x-powered-by):"',
    anchors: [],
  },
  'exposed-files': {
    references: [
      ref(
        'OWASP WSTG: Review Old Backup and Unreferenced Files',
        'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
      ),
    ],
    verify:
      'for p in .git/HEAD .git/config .env; do curl -sS {origin}/$p | grep -qE "^(ref: refs/|[0-9a-f]{40}|\\[core\\]|[A-Z][A-Z0-9_]*=)" && echo "served: /$p"; done',
    anchors: [],
  },
  'directory-listing': {
    references: [
      ref(
        'OWASP WSTG: Test File Extensions Handling / directory listing',
        'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/',
      ),
    ],
    verify: grepMarkup('<title([[:space:]][^>]*)?>[[:space:]]*index of /[^<]*'),
    anchors: [],
  },
  'outdated-libraries': {
    references: [
      ref(
        'OWASP Top 10 A06: Vulnerable and Outdated Components',
        'https://owasp.org/Top10/A06_2021-Vulnerable_and_Outdated_Components/',
      ),
    ],
    verify: grepMarkup(
      `<script[^>]*[[:space:]]src=${Q}${V}(jquery|angular(js)?|bootstrap|lodash)[/.-]?[0-9]+\\.[0-9]+(\\.[0-9]+)?${V}`,
    ),
    anchors: [],
  },
  // Website security: transport
  'https-available': {
    references: [RFC(9110, '4.2.2', 'https URI Scheme')],
    verify: 'curl -sSI https://{host}/ | head -1',
    anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
  },
  'http-redirects-to-https': {
    references: [RFC(6797, '7.2', 'HTTP Request Type (redirect to HTTPS)')],
    verify: 'curl -sSI http://{host}/ | grep -i -E "^(HTTP|location)"',
    anchors: ['internet.nl', 'Observatory'],
  },
  hsts: {
    references: [RFC(6797, '6.1', 'Strict-Transport-Security Response Header Field')],
    verify: header('strict-transport-security'),
    anchors: ['internet.nl', 'Observatory'],
  },
  'hsts-preload': {
    references: [ref('hstspreload.org: submission requirements', 'https://hstspreload.org/#submission-requirements')],
    verify: `${header('strict-transport-security')}; curl -sSI http://{host}/ | grep -i -E "^(HTTP|location)"`,
    anchors: ['Observatory'],
  },
  'certificate-valid': {
    references: [RFC(9525, '', 'Service Identity in TLS'), RFC(5280, '6', 'Certification Path Validation')],
    verify:
      'openssl s_client -connect {host}:443 -servername {host} -verify_hostname {host} -verify_return_error </dev/null 2>&1 | grep -E "Verify return code|verify error"',
    anchors: ['internet.nl'],
  },
  'certificate-expiry': {
    references: [RFC(5280, '4.1.2.5', 'Validity')],
    verify:
      'openssl s_client -connect {host}:443 -servername {host} </dev/null 2>/dev/null | openssl x509 -noout -enddate',
    anchors: ['internet.nl'],
  },
  'tls-legacy-versions-refused': {
    references: [RFC(8996, '', 'Deprecating TLS 1.0 and TLS 1.1')],
    verify:
      'openssl s_client -connect {host}:443 -servername {host} -tls1_1 -cipher DEFAULT@SECLEVEL=0 </dev/null 2>&1 | grep -E "Protocol|alert"',
    anchors: ['internet.nl'],
  },
  'certificate-key-strength': {
    references: [
      ref(
        'CA/Browser Forum Baseline Requirements §6.1.5: Key sizes',
        'https://cabforum.org/working-groups/server/baseline-requirements/requirements/',
      ),
      ref('NIST SP 800-57 Part 1 Rev. 5: key strengths', 'https://csrc.nist.gov/pubs/sp/800/57/pt1/r5/final'),
    ],
    verify:
      'openssl s_client -connect {host}:443 -servername {host} -cipher DEFAULT@SECLEVEL=0 </dev/null 2>/dev/null | openssl x509 -noout -text | grep "Public-Key"',
    anchors: ['internet.nl'],
  },
  'no-mixed-content-security': {
    references: [ref('W3C Mixed Content Level 2', 'https://www.w3.org/TR/mixed-content/')],
    verify: grepMarkup(
      `([[:space:]](src|srcset|poster|data|action|formaction)=|<link[^>]*[[:space:]]href=)${Q}http://${V}`,
    ),
    anchors: ['Lighthouse'],
  },
  // Website security: browser defenses
  'csp-present': {
    references: [
      ref('W3C Content Security Policy Level 3', 'https://www.w3.org/TR/CSP3/'),
      MDN('Web/HTTP/Guides/CSP', 'Content Security Policy'),
    ],
    verify: header('content-security-policy'),
    anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
  },
  'csp-no-unsafe-inline': {
    references: [
      ref('W3C CSP Level 3 §6.1.1 script-src (unsafe-inline)', 'https://www.w3.org/TR/CSP3/#directive-script-src'),
    ],
    verify: header('content-security-policy'),
    anchors: ['Lighthouse', 'Observatory'],
  },
  'csp-no-unsafe-eval': {
    references: [
      ref('W3C CSP Level 3 §6.1.1 script-src (unsafe-eval)', 'https://www.w3.org/TR/CSP3/#directive-script-src'),
    ],
    verify: header('content-security-policy'),
    anchors: ['Observatory'],
  },
  'clickjacking-protection': {
    references: [
      ref('W3C CSP Level 3: frame-ancestors', 'https://www.w3.org/TR/CSP3/#directive-frame-ancestors'),
      RFC(7034, '', 'HTTP Header Field X-Frame-Options'),
    ],
    verify: 'curl -sSI {url} | grep -i -E "^(x-frame-options|content-security-policy):"',
    anchors: ['internet.nl', 'Observatory'],
  },
  'x-content-type-options': {
    references: [
      ref('WHATWG Fetch §X-Content-Type-Options', 'https://fetch.spec.whatwg.org/#x-content-type-options-header'),
    ],
    verify: header('x-content-type-options'),
    anchors: ['internet.nl', 'Observatory'],
  },
  'referrer-policy': {
    references: [ref('W3C Referrer Policy', 'https://www.w3.org/TR/referrer-policy/')],
    verify: header('referrer-policy'),
    anchors: ['internet.nl', 'Observatory'],
  },
  'subresource-integrity': {
    references: [ref('W3C Subresource Integrity', 'https://www.w3.org/TR/SRI/')],
    verify: `${MARKUP} | grep -ioE "<script[^>]*[[:space:]]src=${Q}(https?:)?//[^>]*>" | grep -iv "integrity=" | grep -ivF //{host}`,
    anchors: ['Observatory'],
  },
  'cors-not-permissive': {
    references: [
      ref('WHATWG Fetch §3.2 CORS protocol (credentials and *)', 'https://fetch.spec.whatwg.org/#http-cors-protocol'),
    ],
    verify: 'curl -sSI -H "Origin: https://cors-probe.siteaudit.invalid" {url} | grep -i "^access-control-allow"',
    anchors: ['Observatory'],
  },
  'cross-origin-opener-policy': {
    references: [
      ref(
        'WHATWG HTML §7.1.3 Cross-origin opener policies',
        'https://html.spec.whatwg.org/multipage/browsers.html#cross-origin-opener-policies',
      ),
      MDN('Web/HTTP/Reference/Headers/Cross-Origin-Opener-Policy', 'Cross-Origin-Opener-Policy'),
    ],
    verify: 'curl -sSI {url} | grep -i "^cross-origin-opener-policy:"',
    anchors: ['Lighthouse'],
  },
  'cross-origin-isolation': {
    references: [
      MDN('Web/HTTP/Reference/Headers/Cross-Origin-Resource-Policy', 'Cross-Origin-Resource-Policy'),
      MDN('Web/HTTP/Reference/Headers/Cross-Origin-Embedder-Policy', 'Cross-Origin-Embedder-Policy'),
    ],
    verify: 'curl -sSI {url} | grep -i -E "^cross-origin-(resource|embedder)-policy:"',
    anchors: ['Observatory'],
  },
  // Website security: DNS and mail
  'mx-records': {
    references: [RFC(5321, '5.1', 'Locating the Target Host'), RFC(7505, '', 'A "Null MX" No Service Resource Record')],
    verify: dig('MX', '{domain}'),
    anchors: ['internet.nl'],
  },
  spf: {
    references: [RFC(7208, '4.6', 'Record Evaluation (all mechanism)')],
    verify: `${dig('TXT', '{domain}')} | grep -i spf1`,
    anchors: ['internet.nl'],
  },
  dmarc: {
    references: [RFC(7489, '6.3', 'General Record Format (p=, sp=)')],
    verify: dig('TXT', '_dmarc.{domain}'),
    anchors: ['internet.nl'],
  },
  caa: {
    references: [RFC(8659, '4', 'Mechanism (CAA record)')],
    verify: dig('CAA', '{domain}'),
    anchors: ['internet.nl'],
  },
  'mta-sts': {
    references: [RFC(8461, '3', 'Policy Discovery (record and policy file)'), RFC(8461, '4.1', 'MX Host Validation')],
    verify: `${dig('TXT', '_mta-sts.{domain}')}; curl -sSi https://mta-sts.{domain}/.well-known/mta-sts.txt`,
    anchors: [],
  },
  'tls-rpt': {
    references: [RFC(8460, '3', 'Reporting Policy')],
    verify: dig('TXT', '_smtp._tls.{domain}'),
    anchors: [],
  },
  dkim: {
    references: [RFC(6376, '3.6.1', 'Textual Representation (key records)'), RFC(8301, '3.2', 'Key Sizes')],
    verify: `for s in ${DKIM_SELECTORS.join(' ')}; do ${dig('TXT', '$s._domainkey.{domain}')} | tr -d '" ' | sed -n 's|.*p=\\([A-Za-z0-9+/=]*\\).*|\\1|p' | base64 -d 2>/dev/null | openssl pkey -pubin -inform DER -noout -text 2>/dev/null | sed -n "s/^.*Public-Key: /$s: /p"; done`,
    anchors: ['internet.nl'],
  },
  'no-mail-domain-locked': {
    references: [
      RFC(7505, '3', 'Null MX for domains that do not accept mail'),
      RFC(7208, '4.6', 'Record Evaluation (all mechanism)'),
    ],
    verify: `${dig('MX', '{domain}')}; ${dig('TXT', '{domain}')} | grep -i spf1`,
    anchors: ['internet.nl'],
  },
  dnssec: {
    references: [RFC(4033, '3', 'Services Provided by DNS Security'), RFC(4035, '5', 'Authenticating DNS Responses')],
    verify: `${dig('DS', '{domain}')}; ${dig('DNSKEY', '{domain}')}`,
    anchors: ['internet.nl'],
  },
  // Website security: cookies
  'cookies-secure': {
    references: [RFC(6265, '4.1.2.5', 'The Secure Attribute')],
    verify: `${SET_COOKIE} | grep -ivE "${cookieFlag('secure')}"`,
    anchors: ['internet.nl', 'Observatory'],
  },
  'session-cookies-httponly': {
    references: [RFC(6265, '4.1.2.6', 'The HttpOnly Attribute')],
    verify: `curl -sSI {url} | grep -iE "^set-cookie:[[:space:]]*[^=;]*(sess|login)" | grep -ivE "^set-cookie:[[:space:]]*[^=;]*csrf|${cookieFlag('httponly')}"`,
    anchors: ['Observatory'],
  },
  'cookies-samesite': {
    references: [
      ref(
        'RFC 6265bis §4.1.2.7: The SameSite Attribute',
        'https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.2.7',
      ),
    ],
    verify: `${SET_COOKIE} | grep -ivE "${cookieFlag('samesite=(lax|strict)')}|samesite=none.*${cookieFlag('secure')}|;[[:space:]]*secure;.*samesite=none"`,
    anchors: ['Observatory'],
  },
  'cookie-prefixes': {
    references: [
      ref(
        'RFC 6265bis §4.1.3: Cookie Name Prefixes',
        'https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.3',
      ),
    ],
    verify: 'curl -sSI {url} | grep -i -E "^set-cookie: *__(host|secure)-"',
    anchors: ['Observatory'],
  },
  // Marketing signal
  'mk-indexable': {
    references: [
      ref(
        'Google: Robots meta tag and X-Robots-Tag',
        'https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag',
      ),
    ],
    verify: NOINDEX,
    anchors: ['Lighthouse'],
  },
  'mk-title-length': {
    references: [
      ref('Google: Influencing your title links', 'https://developers.google.com/search/docs/appearance/title-link'),
    ],
    verify: grepMarkup('<title([[:space:]][^>]*)?>[^<]*</title>'),
    anchors: [],
  },
  'mk-description-length': {
    references: [
      ref(
        'Google: Control your snippets in search results',
        'https://developers.google.com/search/docs/appearance/snippet',
      ),
    ],
    verify: grepMarkup(metaTag('description')),
    anchors: ['Lighthouse'],
  },
  'mk-sitemap': {
    references: [ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html')],
    verify: 'curl -sSf {url} | head -c 600',
    anchors: ['Cloudflare'],
  },
  'mk-site-verification': {
    references: [
      ref('Google Search Console: Verify your site ownership', 'https://support.google.com/webmasters/answer/9008080'),
    ],
    verify: grepMarkup(
      metaTag(
        '(google-site-verification|msvalidate\\.01|yandex-verification|facebook-domain-verification|p:domain_verify)',
      ),
    ),
    anchors: [],
  },
  'mk-business-schema': {
    references: [SCHEMA_ORG('LocalBusiness'), SCHEMA_ORG('Organization')],
    verify: JSON_LD,
    anchors: [],
  },
  'mk-open-graph': {
    references: [ref('The Open Graph protocol: basic metadata', 'https://ogp.me/#metadata')],
    verify: grepMarkup(metaTag(`og:[^\\"'[:space:]>]*`)),
    anchors: [],
  },
  'mk-twitter-card': {
    references: [
      ref('X Developer: Cards markup', 'https://developer.x.com/en/docs/x-for-websites/cards/overview/markup'),
    ],
    verify: grepMarkup(metaTag('twitter:card')),
    anchors: [],
  },
  'mk-contact-paths': {
    references: [RFC(3966, '', 'The tel URI for Telephone Numbers'), RFC(6068, '', "The 'mailto' URI Scheme")],
    verify: grepMarkup(`href=${Q}(tel|mailto):${V}|<address[[:space:]>]`),
    anchors: [],
  },
  'mk-social-proof': {
    references: [SCHEMA_ORG('AggregateRating'), SCHEMA_ORG('Review')],
    verify: grepMarkup(
      'aggregateRating|\\"Review\\"|testimonial|\\breviews?\\b|what (our )?(customers|clients) say|rated [0-9]',
    ),
    anchors: [],
  },
  'mk-legal-links': {
    references: [
      ref('GDPR Art. 13: Information to be provided', 'https://eur-lex.europa.eu/eli/reg/2016/679/oj#art_13'),
    ],
    verify: grepMarkup(
      linkTo('privacy|datenschutz|privacidad|confidentialit|terms|conditions|imprint|impressum|legal|agb|cgv'),
    ),
    anchors: [],
  },
  'mk-social-profiles': {
    references: [SCHEMA_ORG('sameAs')],
    verify: grepMarkup(
      `\\"sameAs\\"|href=${Q}(https?:)?//([a-z0-9-]+\\.)*((linkedin|twitter|x|facebook|instagram|youtube|tiktok|github|pinterest)\\.com|mastodon\\.social|threads\\.net)[/\\"' >]${V}`,
    ),
    anchors: [],
  },
  'mk-https': {
    references: [RFC(9110, '4.2.2', 'https URI Scheme')],
    verify: 'curl -sSI https://{host}/ | head -1',
    anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
  },
  'mk-call-to-action': {
    references: [WCAG('2.4.6', 'headings-and-labels', 'Headings and Labels')],
    verify: `${MARKUP} | grep -ioE "<(a|button)([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*[^<]*" | grep -iE ">[^<>]*\\b(get started|start|sign ?up|register|join|buy|shop|order|book|schedule|request|demo|trial|try|contact|call|subscribe|download|quote|apply|reserve|enquire|inquire)\\b[^<>]*$"`,
    anchors: [],
  },
  'mk-specific-cta-labels': {
    references: [WCAG('2.4.4', 'link-purpose-in-context', 'Link Purpose (In Context)')],
    verify: grepMarkup(
      `>[[:space:]]*(submit|click here|here|learn more|read more|more|go|ok|send)[[:space:]]*<|<input[^>]*[[:space:]]value=${Q}(submit|send|ok|go)[\\"'[:space:]/>]`,
    ),
    anchors: [],
  },
  'mk-short-labelled-forms': {
    references: [WCAG('3.3.2', 'labels-or-instructions', 'Labels or Instructions')],
    // Long forms and http:// actions are this check's too, which axe's label rule does not see: the line
    // prints each form's tag (its action), its fields and its labels.
    verify: grepMarkup(
      '<form([[:space:]][^>]*)?>|<(input|select|textarea)([[:space:]][^>]*)?>|<label([[:space:]][^>]*)?>',
    ),
    anchors: ['axe'],
  },
  'mk-contact-or-booking': {
    references: [WCAG('3.2.6', 'consistent-help', 'Consistent Help')],
    verify: grepMarkup(`${linkTo('contact|book|schedule|appointment|calendly|demo|chat|quote')}|<form[[:space:]>]`),
    anchors: [],
  },
  'mk-specific-h1': {
    references: [WCAG('2.4.6', 'headings-and-labels', 'Headings and Labels')],
    verify: grepMarkup('<h1([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*[^<]*'),
    anchors: [],
  },
  'mk-pricing-visible': {
    references: [SCHEMA_ORG('Offer')],
    verify: grepMarkup(
      `${linkTo('pric|plans|tarif|preise')}|[£€$][[:space:]]?[0-9]|[0-9][[:space:]]?[£€$]|\\bprice\\b|\\"offers\\"`,
    ),
    anchors: [],
  },
  'mk-analytics': {
    references: [ref('Google tag: Set up the Google tag', 'https://developers.google.com/tag-platform/gtagjs/install')],
    verify: grepMarkup(
      `googletagmanager\\.com/(gtm|gtag)${V}|google-analytics\\.com/[a-z.]*js|plausible\\.io/js|usefathom\\.com|matomo\\.js|piwik\\.js|static\\.cloudflareinsights\\.com|cdn\\.segment\\.com|posthog|mixpanel|amplitude\\.com|heapanalytics|mc\\.yandex\\.(ru|com)/metrika|js\\.hs-scripts\\.com|umami|goatcounter|simpleanalyticscdn`,
    ),
    anchors: [],
  },
  'mk-no-legacy-ua': {
    references: [
      ref(
        'Google: Universal Analytics has been replaced by Google Analytics 4',
        'https://support.google.com/analytics/answer/11583528',
      ),
    ],
    verify: `${MARKUP} | grep -oE "UA-[0-9]{4,10}-[0-9]{1,4}|G-[A-Z0-9]{6,12}"`,
    anchors: [],
  },
  'mk-no-duplicate-tags': {
    references: [ref('Google tag: Avoid duplicate tags', 'https://support.google.com/tagmanager/answer/6103657')],
    verify: `${MARKUP} | grep -ioE "googletagmanager\\.com/(gtm|gtag)${V}" | sort | uniq -c`,
    anchors: [],
  },
  'mk-ad-pixels': {
    references: [ref('Meta Pixel: Get started', 'https://developers.facebook.com/docs/meta-pixel/get-started')],
    verify: grepMarkup(
      `fbevents\\.js|fbq\\(${Q}init|snap\\.licdn\\.com|px\\.ads\\.linkedin\\.com|analytics\\.tiktok\\.com|bat\\.bing\\.com|s\\.pinimg\\.com/ct|static\\.ads-twitter\\.com|sc-static\\.net/scevent|redditstatic\\.com/ads|googleadservices\\.com/pagead`,
    ),
    anchors: [],
  },
  'mk-consent-before-tracking': {
    references: [
      EPRIVACY,
      ref('Google: Consent mode overview', 'https://developers.google.com/tag-platform/security/concepts/consent-mode'),
    ],
    verify: grepMarkup(
      `gtag\\([[:space:]]*${Q}consent${Q}[[:space:]]*,[[:space:]]*${Q}default|onetrust|optanon|cookiebot|usercentrics|didomi|osano\\.com|trustarc|truste\\.com|termly\\.io|cookieyes|iubenda|complianz|borlabs|cookiefirst|cookiehub|axeptio|klaro|sourcepoint|consentmanager\\.net|quantcast|civiccomputing\\.com|ketchcdn\\.com|js\\.hs-banner\\.com`,
    ),
    anchors: [],
  },
  'mk-no-tracking-cookies-on-first-response': {
    references: [EPRIVACY],
    verify:
      'curl -sSI {url} | grep -iE "^set-cookie:[[:space:]]*(_ga(_[a-z0-9]+)?|_gid|_gat[a-z0-9_]*|_gcl_au|_fbp|_fbc|_hjid|_hjsession[a-z0-9_]*|ajs_[a-z0-9_]+|_uetsid|_uetvid|_ttp|li_fat_id|_clck|_clsk|__hstc|hubspotutk|_pk_id\\.[a-z0-9.]+|_ym_uid|_pin_unauth|_scid|_rdt_uuid)="',
    anchors: [],
  },
  'mk-viewport': {
    references: [MDN('Web/HTML/Reference/Elements/meta/name/viewport', '<meta name="viewport">')],
    verify: grepMarkup(metaTag('viewport')),
    anchors: ['Lighthouse'],
  },
  'mk-page-weight': {
    references: [
      ref(
        'Lighthouse: Avoid enormous network payloads',
        'https://developer.chrome.com/docs/lighthouse/performance/total-byte-weight',
      ),
    ],
    verify: 'curl -sS -o /dev/null -w "%{size_download} bytes\\n" {url}',
    anchors: ['Lighthouse'],
  },
  'mk-image-dimensions': {
    references: [
      ref(
        'web.dev: Optimize Cumulative Layout Shift (images without dimensions)',
        'https://web.dev/articles/optimize-cls#images-without-dimensions',
      ),
    ],
    verify: lighthouse('unsized-images'),
    anchors: ['Lighthouse'],
  },
  'mk-experimentation-tools': {
    references: [
      ref(
        'web.dev: Best practices for A/B testing and performance',
        'https://web.dev/articles/ab-testing-and-performance',
      ),
    ],
    verify: grepMarkup(
      'static\\.hotjar\\.com|clarity\\.ms/|fullstory\\.com|mouseflow|crazyegg|luckyorange|optimizely\\.com|visualwebsiteoptimizer\\.com|abtasty\\.com|googleoptimize\\.com|qualtrics\\.com',
    ),
    anchors: [],
  },
};

/** The citation of a check, with `{url}`, `{origin}`, `{host}` and `{domain}` filled in for one finding. */
export function citationFor(
  checkId: string,
  at: { url: string; domain?: string },
): { references: Reference[]; verify: string } | undefined {
  const citation = CITATIONS[checkId];
  if (!citation) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(at.url);
  } catch {
    parsed = undefined;
  }
  const host = parsed?.hostname ?? '';
  const domain = at.domain ?? host.replace(/^www\./, '');
  // A page's address is the site's text: `/a;reboot` or `$(id)` in a path (and even in a host name)
  // must not run when an agent runs the line. Shell lines get each value as one quoted word; an
  // "Open ..." line puts it in a link, encoded.
  const word = citation.verify.startsWith('Open ') ? encodeURIComponent : shellWord;
  const verify = citation.verify
    .replaceAll('{url}', word(at.url))
    .replaceAll('{origin}', word(parsed?.origin ?? at.url))
    .replaceAll('{host}', word(host))
    .replaceAll('{domain}', word(domain));
  return { references: citation.references, verify };
}

/**
 * The verify line of an axe rule found at run time (checks/rendered.ts): the page's address as one
 * shell word, as every line of this table has it.
 */
export function axeVerify(url: string, rules: string): string {
  return axe(rules).replace('{url}', shellWord(url));
}

/** One shell word whatever the value holds: single-quoted, with each `'` closed, escaped and reopened. */
export function shellWord(value: string): string {
  return /^[\w.:/@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
