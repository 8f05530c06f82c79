// The ai_readiness checks over the crawled pages' HTML and headers (audit-checks.md), by category:
// discoverability, metadata, content structure, answerability, accessibility, agent operability,
// performance and security. One table, so the catalogue lists them without running them.
import type { CheckSpec } from '../checks.ts';
import {
  grepMarkup,
  HTTPS_CITE,
  IMAGE_DIMENSIONS_CITE,
  INDEXABLE_CITE,
  lighthouse,
  MIXED_CONTENT_CITE,
  metaTag,
  Q,
  REST,
  RFC,
  ref,
  SCHEMA_ORG,
  WCAG,
} from '../standards.ts';
import { axeOf } from './axe-lines.ts';

export const PAGE_SPECS = {
  indexable: {
    id: 'pages-indexable',
    label: 'Pages are indexable (no noindex)',
    category: 'discoverability',
    severity: 'high',
    cite: INDEXABLE_CITE,
  },
  status: {
    id: 'pages-answer-2xx',
    label: 'Pages answer 2xx',
    category: 'discoverability',
    severity: 'medium',
    cite: {
      references: [RFC(9110, '15', 'Status Codes')],
      verify: 'curl -sS -o /dev/null -w "%{http_code}\\n" {url}',
      anchors: ['Lighthouse'],
    },
  },
  redirects: {
    id: 'home-redirect-chain',
    label: 'Short redirect chain to the home page',
    category: 'discoverability',
    severity: 'low',
    cite: {
      references: [RFC(9110, '15.4', 'Redirection 3xx')],
      verify: 'curl -sSIL {origin}/ | grep -i -E "^(HTTP|location)"',
      anchors: ['Lighthouse'],
    },
  },
  title: {
    id: 'title-present',
    label: 'One non-empty title per page',
    category: 'metadata',
    severity: 'medium',
    cite: {
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
  },
  description: {
    id: 'meta-description',
    label: 'Meta description on every page',
    category: 'metadata',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'WHATWG HTML §4.2.5.1 Standard metadata names: description',
          'https://html.spec.whatwg.org/multipage/semantics.html#meta-description',
        ),
      ],
      verify: grepMarkup(metaTag('description')),
      anchors: ['Lighthouse'],
    },
  },
  canonical: {
    id: 'canonical-absolute',
    label: 'Absolute canonical URL',
    category: 'metadata',
    severity: 'low',
    cite: {
      references: [RFC(6596, '', 'The Canonical Link Relation')],
      verify: grepMarkup(`<link[^>]*[[:space:]]rel=${Q}canonical${REST}`),
      anchors: ['Lighthouse'],
    },
  },
  lang: {
    id: 'html-lang',
    label: 'Page language declared',
    category: 'metadata',
    severity: 'medium',
    cite: {
      references: [
        WCAG('3.1.1', 'language-of-page', 'Language of Page'),
        ref('BCP 47: Tags for Identifying Languages', 'https://www.rfc-editor.org/info/bcp47'),
      ],
      verify: axeOf('html-lang'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  hreflang: {
    id: 'hreflang-valid',
    label: 'Valid hreflang alternates',
    category: 'metadata',
    severity: 'low',
    cite: {
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
  },
  text: {
    id: 'content-in-html',
    label: 'Content is in the served HTML',
    category: 'content_structure',
    severity: 'high',
    cite: {
      references: [
        ref(
          'Google: Understand JavaScript SEO basics',
          'https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics',
        ),
      ],
      verify: "curl -sS {url} | tr -s '\\n\\r\\t ' ' ' | sed -e 's/<[^>]*>/ /g' | tr -s ' ' | head -c 600",
      anchors: ['Lighthouse'],
    },
  },
  h1: {
    id: 'single-h1',
    label: 'Exactly one H1 per page',
    category: 'content_structure',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'WHATWG HTML §4.3.6 The h1–h6 elements',
          'https://html.spec.whatwg.org/multipage/sections.html#the-h1,-h2,-h3,-h4,-h5,-and-h6-elements',
        ),
      ],
      verify: `${grepMarkup('<h1([[:space:]][^>]*)?>')} | wc -l`,
      anchors: [],
    },
  },
  headingOrder: {
    id: 'heading-order',
    label: 'Headings do not skip levels',
    category: 'content_structure',
    severity: 'low',
    cite: {
      references: [WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships')],
      verify: axeOf('heading-order'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  main: {
    id: 'main-landmark',
    label: 'A <main> landmark',
    category: 'content_structure',
    severity: 'low',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        ref('WAI-ARIA 1.2: main role', 'https://www.w3.org/TR/wai-aria-1.2/#main'),
      ],
      verify: axeOf('main-landmark'),
      anchors: ['axe'],
    },
  },
  questions: {
    id: 'answerable-content',
    label: 'Question-and-answer content',
    category: 'answerability',
    severity: 'info',
    cite: {
      references: [SCHEMA_ORG('FAQPage')],
      verify: grepMarkup('<h[1-6]([[:space:]][^>]*)?>[^<]*\\?[[:space:]]*<|\\"FAQPage\\"'),
      anchors: [],
    },
  },
  dates: {
    id: 'content-dates',
    label: 'Visible or structured dates',
    category: 'answerability',
    severity: 'low',
    cite: {
      references: [SCHEMA_ORG('datePublished'), SCHEMA_ORG('dateModified')],
      verify: grepMarkup('\\"(datePublished|dateModified|uploadDate)\\"|article:(published|modified)_time'),
      anchors: [],
    },
  },
  imageAlt: {
    id: 'image-alt',
    label: 'Images have alt text',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [WCAG('1.1.1', 'non-text-content', 'Non-text Content')],
      verify: axeOf('image-alt'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  linkName: {
    id: 'link-name',
    label: 'Links have discernible text',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [WCAG('2.4.4', 'link-purpose-in-context', 'Link Purpose (In Context)')],
      verify: `${axeOf('link-name')}; ${grepMarkup('<a[[:space:]][^>]*>[[:space:]]*(click here|here|read more|more|link|learn more)[[:space:]]*</a>')}`,
      anchors: ['Lighthouse', 'axe'],
    },
  },
  formLabels: {
    id: 'form-labels',
    label: 'Form fields have labels',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
      ],
      verify: axeOf('form-labels'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  buttonName: {
    id: 'button-name',
    label: 'Buttons have discernible text',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [WCAG('4.1.2', 'name-role-value', 'Name, Role, Value')],
      verify: axeOf('button-name'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  realHrefs: {
    id: 'crawlable-links',
    label: 'Links are real hrefs, not javascript:',
    category: 'agent_operability',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'Google: Link best practices (crawlable links)',
          'https://developers.google.com/search/docs/crawling-indexing/links-crawlable',
        ),
      ],
      verify: grepMarkup(`[[:space:]]href=${Q}[[:space:]]*javascript:[^\\"'>]*`),
      anchors: ['Lighthouse'],
    },
  },
  autocomplete: {
    id: 'autocomplete-valid',
    label: 'Valid autocomplete tokens',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        WCAG('1.3.5', 'identify-input-purpose', 'Identify Input Purpose'),
        ref(
          'WHATWG HTML §4.10.18.7 Autofill',
          'https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill',
        ),
      ],
      verify: axeOf('autocomplete-valid'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  webmcp: {
    id: 'webmcp-tools',
    label: 'WebMCP tool forms (form[toolname])',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [ref('W3C Web Machine Learning CG: WebMCP', 'https://webmachinelearning.github.io/webmcp/')],
      verify: grepMarkup('<form[^>]*[[:space:]]toolname[^>]*>'),
      anchors: ['Lighthouse', 'Cloudflare'],
    },
  },
  markdown: {
    id: 'markdown-alternates',
    label: 'Markdown alternates of pages',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        RFC(7763, '', 'The text/markdown Media Type'),
        ref('llmstxt.org: Markdown versions of pages', 'https://llmstxt.org/'),
      ],
      verify: grepMarkup('<link[^>]*text/markdown[^>]*>'),
      anchors: ['Cloudflare'],
    },
  },
  ttfb: {
    id: 'time-to-first-byte',
    label: 'Fast first byte',
    category: 'performance',
    severity: 'medium',
    cite: {
      references: [ref('web.dev: Time to First Byte (TTFB)', 'https://web.dev/articles/ttfb')],
      verify: 'curl -sS -o /dev/null -w "%{time_starttransfer}s\\n" {url}',
      anchors: ['Lighthouse'],
    },
  },
  weight: {
    id: 'html-weight',
    label: 'HTML under 500 KB',
    category: 'performance',
    severity: 'low',
    cite: {
      references: [
        ref(
          'web.dev: Avoid enormous network payloads',
          'https://developer.chrome.com/docs/lighthouse/performance/total-byte-weight',
        ),
      ],
      verify: 'curl -sS -o /dev/null -w "%{size_download} bytes\\n" {url}',
      anchors: ['Lighthouse'],
    },
  },
  blocking: {
    id: 'render-blocking-scripts',
    label: 'No render-blocking scripts in <head>',
    category: 'performance',
    severity: 'low',
    cite: {
      references: [
        ref(
          'WHATWG HTML §4.12.1 The script element (async, defer)',
          'https://html.spec.whatwg.org/multipage/scripting.html#attr-script-defer',
        ),
      ],
      verify: lighthouse('render-blocking-insight'),
      anchors: ['Lighthouse'],
    },
  },
  dimensions: {
    id: 'image-dimensions',
    label: 'Images declare width and height',
    category: 'performance',
    severity: 'low',
    cite: IMAGE_DIMENSIONS_CITE,
  },
  https: {
    id: 'served-over-https',
    label: 'Served over HTTPS',
    category: 'security',
    severity: 'high',
    cite: HTTPS_CITE,
  },
  mixed: {
    id: 'no-mixed-content',
    label: 'No mixed content',
    category: 'security',
    severity: 'medium',
    cite: MIXED_CONTENT_CITE,
  },
} satisfies Record<string, CheckSpec>;
