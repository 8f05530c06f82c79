// Structured data: JSON-LD blocks that parse, an Organization or WebSite identity on the home page,
// and the properties that common page types need.
import { type CheckResult, type CheckSpec, fail, pass } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { quote, quoteAll } from '../quote.ts';
import { htmlPages, type SiteSnapshot } from '../site.ts';
import { JSON_LD, ref, SCHEMA_ORG } from '../standards.ts';
import { organizationJsonLd } from '../starters.ts';

export const STRUCTURED_DATA_SPECS = {
  parses: {
    id: 'json-ld-parses',
    label: 'Every JSON-LD block parses',
    category: 'structured_data',
    severity: 'high',
    cite: {
      references: [
        ref(
          'W3C JSON-LD 1.1 §6: Embedding JSON-LD in HTML documents',
          'https://www.w3.org/TR/json-ld11/#embedding-json-ld-in-html-documents',
        ),
      ],
      verify: JSON_LD,
      anchors: ['Lighthouse'],
    },
  },
  identity: {
    id: 'organization-schema',
    label: 'Organization or WebSite identity',
    category: 'structured_data',
    severity: 'medium',
    cite: {
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
  },
  required: {
    id: 'schema-required-properties',
    label: 'Page types carry their required properties',
    category: 'structured_data',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'Google Search Central: Structured data features',
          'https://developers.google.com/search/docs/appearance/structured-data/search-gallery',
        ),
      ],
      verify: JSON_LD,
      anchors: ['Lighthouse'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = STRUCTURED_DATA_SPECS;

// Required properties per type (schema.org types as search engines read them for rich results).
const REQUIRED: Record<string, string[]> = {
  Article: ['headline'],
  NewsArticle: ['headline'],
  BlogPosting: ['headline'],
  Product: ['name', 'offers'],
  FAQPage: ['mainEntity'],
  BreadcrumbList: ['itemListElement'],
  Organization: ['name', 'url'],
  LocalBusiness: ['name', 'address'],
  WebSite: ['name', 'url'],
  Event: ['name', 'startDate', 'location'],
  Recipe: ['name', 'recipeIngredient'],
};

export type JsonLdNode = Record<string, unknown>;

/** Every node of the parsed JSON-LD blocks of a page (top level, arrays and @graph), or the parse errors. */
export function jsonLdNodes(page: CrawledPage): { nodes: JsonLdNode[]; errors: string[] } {
  const nodes: JsonLdNode[] = [];
  const errors: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const node = value as JsonLdNode;
      if (node['@type']) nodes.push(node);
      if (node['@graph']) visit(node['@graph']);
    }
  };
  for (const block of page.facts?.jsonLd ?? []) {
    try {
      visit(JSON.parse(block));
    } catch (error) {
      errors.push((error as Error).message.slice(0, 160));
    }
  }
  return { nodes, errors };
}

export function typesOf(node: JsonLdNode): string[] {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}

export function structuredDataChecks(site: SiteSnapshot): CheckResult[] {
  const pages = htmlPages(site);
  if (pages.length === 0) return [];
  const parsed = pages.map((page) => ({ page, ...jsonLdNodes(page) }));
  const rows: CheckResult[] = [];

  const broken = parsed.filter((p) => p.errors.length > 0);
  rows.push(
    broken.length === 0
      ? pass(S.parses, `${parsed.reduce((n, p) => n + (p.page.facts?.jsonLd.length ?? 0), 0)} JSON-LD block(s) parse`)
      : fail(S.parses, {
          detail: `${broken.length} page(s) have JSON-LD that does not parse; search engines ignore the whole block`,
          title: 'Broken JSON-LD structured data',
          remediation:
            'Fix the JSON syntax of each <script type="application/ld+json"> block (trailing commas, unescaped quotes, comments).',
          agentAction:
            'Validate and fix the JSON-LD blocks on these pages so JSON.parse accepts them; generate them with JSON.stringify rather than by hand.',
          affectedUrls: broken.map((p) => p.page.url),
          evidence: broken.slice(0, 5).map((p) => ({
            type: 'page' as const,
            url: p.page.url,
            summary: p.errors[0] === undefined ? 'parse error' : quote(p.errors[0]),
          })),
        }),
  );

  const home = parsed[0];
  const identity = home?.nodes.find((n) =>
    typesOf(n).some(
      (t) => t === 'Organization' || t === 'WebSite' || t === 'LocalBusiness' || t.endsWith('Organization'),
    ),
  );
  rows.push(
    identity?.name && identity.url
      ? pass(S.identity, `${quoteAll(typesOf(identity), '/')} ${quote(String(identity.name), 80)} on the home page`)
      : fail(S.identity, {
          detail: identity
            ? 'the Organization/WebSite node lacks name or url'
            : 'no Organization or WebSite JSON-LD on the home page',
          title: 'No Organization identity in structured data',
          remediation:
            'Describe who runs the site with Organization JSON-LD: name, url, logo and sameAs links to official profiles.',
          agentAction:
            'Add Organization JSON-LD (name, url, logo, sameAs links to official profiles) to the home page head; the suggestion is built from what the page shows: check each value.',
          affectedUrls: [home?.page.url ?? site.startUrl],
          suggestions: [
            {
              label: 'Organization JSON-LD',
              target: 'the <head> of the home page',
              format: 'json-ld',
              content: organizationJsonLd(site),
            },
          ],
        }),
  );

  const missing: Array<{ url: string; summary: string }> = [];
  for (const { page, nodes } of parsed) {
    for (const node of nodes) {
      for (const type of typesOf(node)) {
        const absent = (REQUIRED[type] ?? []).filter(
          (property) => node[property] === undefined || node[property] === '',
        );
        if (absent.length > 0) missing.push({ url: page.url, summary: `${quote(type)} without ${absent.join(', ')}` });
      }
    }
  }
  rows.push(
    missing.length === 0
      ? pass(S.required, 'structured data types carry their required properties')
      : fail(S.required, {
          detail: `${missing.length} structured data node(s) lack required properties`,
          title: 'Structured data missing required properties',
          remediation:
            'Give each schema.org node the properties its type needs (Article: headline; Product: name and offers; FAQPage: mainEntity; ...).',
          agentAction: `Add the missing properties: ${[...new Set(missing.map((m) => m.summary))].slice(0, 5).join('; ')}.`,
          affectedUrls: missing.map((m) => m.url),
          evidence: missing.slice(0, 5).map((m) => ({ type: 'page' as const, url: m.url, summary: m.summary })),
        }),
  );
  return rows;
}
