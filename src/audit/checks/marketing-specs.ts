// The marketing_signal checks (audit-checks.md), by funnel stage: find, trust, act, measure, improve.
import type { CheckSpec } from '../checks.ts';
import {
  grepMarkup,
  HTTPS_CITE,
  INDEXABLE_CITE,
  JSON_LD,
  linkTo,
  metaTag,
  Q,
  RFC,
  ref,
  SCHEMA_ORG,
  V,
  WCAG,
} from '../standards.ts';
import { MEASURE_SPECS } from './marketing-measure-specs.ts';
import {
  CALL_TO_ACTION_LINE,
  CONTACT_OR_BOOKING_LINE,
  CONTACT_PATHS_LINE,
  PRICING_LINE,
  SOCIAL_PROOF_LINE,
} from './marketing-word-lines.ts';
import type { SiteKind } from './site-kind.ts';

/** The find, trust and act stages. */
const FUNNEL_SPECS = {
  indexable: {
    id: 'mk-indexable',
    label: 'The home page can be indexed',
    category: 'findability',
    stage: 'find',
    severity: 'high',
    cite: INDEXABLE_CITE,
  },
  title: {
    id: 'mk-title-length',
    label: 'Home title of 30 to 60 characters',
    category: 'findability',
    stage: 'find',
    severity: 'medium',
    cite: {
      references: [
        ref('Google: Influencing your title links', 'https://developers.google.com/search/docs/appearance/title-link'),
      ],
      verify: grepMarkup('<title([[:space:]][^>]*)?>[^<]*</title>'),
      anchors: [],
    },
  },
  description: {
    id: 'mk-description-length',
    label: 'Home description of 70 to 160 characters',
    category: 'findability',
    stage: 'find',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'Google: Control your snippets in search results',
          'https://developers.google.com/search/docs/appearance/snippet',
        ),
      ],
      verify: grepMarkup(metaTag('description')),
      anchors: ['Lighthouse'],
    },
  },
  sitemap: {
    id: 'mk-sitemap',
    label: 'A sitemap for search engines',
    category: 'findability',
    stage: 'find',
    severity: 'low',
    cite: {
      references: [ref('sitemaps.org: Sitemaps XML format', 'https://www.sitemaps.org/protocol.html')],
      verify: 'curl -sSf {url} | gzip -dcf | head -c 600',
      anchors: ['Cloudflare'],
    },
  },
  verification: {
    id: 'mk-site-verification',
    label: 'Search console verification tags',
    category: 'findability',
    stage: 'find',
    severity: 'info',
    cite: {
      references: [
        ref(
          'Google Search Console: Verify your site ownership',
          'https://support.google.com/webmasters/answer/9008080',
        ),
      ],
      verify: grepMarkup(
        metaTag(
          '(google-site-verification|msvalidate\\.01|yandex-verification|facebook-domain-verification|p:domain_verify)',
        ),
      ),
      anchors: [],
    },
  },
  business: {
    id: 'mk-business-schema',
    label: 'Organization or LocalBusiness structured data',
    category: 'schema_metadata',
    stage: 'find',
    severity: 'medium',
    cite: {
      references: [SCHEMA_ORG('LocalBusiness'), SCHEMA_ORG('Organization')],
      verify: JSON_LD,
      anchors: [],
    },
  },
  openGraph: {
    id: 'mk-open-graph',
    label: 'Open Graph title, type, image and url',
    category: 'social_preview',
    stage: 'find',
    severity: 'medium',
    cite: {
      references: [ref('The Open Graph protocol: basic metadata', 'https://ogp.me/#metadata')],
      verify: grepMarkup(metaTag(`og:[^\\"'[:space:]>]*`)),
      anchors: [],
    },
  },
  twitterCard: {
    id: 'mk-twitter-card',
    label: 'A valid twitter:card',
    category: 'social_preview',
    stage: 'find',
    severity: 'low',
    cite: {
      references: [
        ref('X Developer: Cards markup', 'https://developer.x.com/en/docs/x-for-websites/cards/overview/markup'),
      ],
      verify: grepMarkup(metaTag('twitter:card')),
      anchors: [],
    },
  },
  contact: {
    id: 'mk-contact-paths',
    label: 'Phone, email or address is visible',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'high',
    cite: {
      references: [RFC(3966, '', 'The tel URI for Telephone Numbers'), RFC(6068, '', "The 'mailto' URI Scheme")],
      verify: CONTACT_PATHS_LINE,
      anchors: [],
    },
  },
  proof: {
    id: 'mk-social-proof',
    label: 'Reviews, testimonials or ratings',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'medium',
    cite: {
      references: [SCHEMA_ORG('AggregateRating'), SCHEMA_ORG('Review')],
      verify: SOCIAL_PROOF_LINE,
      anchors: [],
    },
  },
  legal: {
    id: 'mk-legal-links',
    label: 'Privacy and terms pages linked',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'medium',
    cite: {
      references: [
        ref('GDPR Art. 13: Information to be provided', 'https://eur-lex.europa.eu/eli/reg/2016/679/oj#art_13'),
      ],
      verify: grepMarkup(
        linkTo('privacy|datenschutz|privacidad|confidentialit|terms|conditions|imprint|impressum|legal|agb|cgv'),
      ),
      anchors: [],
    },
  },
  profiles: {
    id: 'mk-social-profiles',
    label: 'Official social profiles linked',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'low',
    cite: {
      references: [SCHEMA_ORG('sameAs')],
      verify: grepMarkup(
        `\\"sameAs\\"|href=${Q}(https?:)?//([a-z0-9-]+\\.)*((linkedin|twitter|x|facebook|instagram|youtube|tiktok|github|pinterest)\\.com|mastodon\\.social|threads\\.net)[/\\"' >]${V}`,
      ),
      anchors: [],
    },
  },
  https: {
    id: 'mk-https',
    label: 'Served over HTTPS',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'high',
    cite: HTTPS_CITE,
  },
  cta: {
    id: 'mk-call-to-action',
    label: 'A clear call to action on the home page',
    category: 'conversion_path',
    stage: 'act',
    severity: 'high',
    cite: {
      references: [WCAG('2.4.6', 'headings-and-labels', 'Headings and Labels')],
      verify: CALL_TO_ACTION_LINE,
      anchors: [],
    },
  },
  ctaLabels: {
    id: 'mk-specific-cta-labels',
    label: 'Calls to action say what happens',
    category: 'conversion_path',
    stage: 'act',
    severity: 'low',
    cite: {
      references: [WCAG('2.4.4', 'link-purpose-in-context', 'Link Purpose (In Context)')],
      verify: grepMarkup(
        `>[[:space:]]*(submit|click here|here|learn more|read more|more|go|ok|send)[[:space:]]*<|<input[^>]*[[:space:]]value=${Q}(submit|send|ok|go)[\\"'[:space:]/>]`,
      ),
      anchors: [],
    },
  },
  forms: {
    id: 'mk-short-labelled-forms',
    label: 'Short, labelled forms that post safely',
    category: 'conversion_path',
    stage: 'act',
    severity: 'medium',
    cite: {
      references: [WCAG('3.3.2', 'labels-or-instructions', 'Labels or Instructions')],
      // Long forms and http:// actions are this check's too, which axe's label rule does not see: the line
      // prints each form's tag (its action), its fields and its labels.
      verify: grepMarkup(
        '<form([[:space:]][^>]*)?>|<(input|select|textarea)([[:space:]][^>]*)?>|<label([[:space:]][^>]*)?>',
      ),
      anchors: ['axe'],
    },
  },
  contactPath: {
    id: 'mk-contact-or-booking',
    label: 'A contact, booking or chat path',
    category: 'conversion_path',
    stage: 'act',
    severity: 'medium',
    cite: {
      references: [WCAG('3.2.6', 'consistent-help', 'Consistent Help')],
      verify: CONTACT_OR_BOOKING_LINE,
      anchors: [],
    },
  },
  h1: {
    id: 'mk-specific-h1',
    label: 'A specific H1 that states the offer',
    category: 'offer_clarity',
    stage: 'act',
    severity: 'medium',
    cite: {
      references: [WCAG('2.4.6', 'headings-and-labels', 'Headings and Labels')],
      verify: grepMarkup('<h1([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*[^<]*'),
      anchors: [],
    },
  },
  pricing: {
    id: 'mk-pricing-visible',
    label: 'Pricing is visible or linked',
    category: 'offer_clarity',
    stage: 'act',
    severity: 'low',
    cite: {
      references: [SCHEMA_ORG('Offer')],
      verify: PRICING_LINE,
      anchors: [],
    },
  },
} satisfies Record<string, CheckSpec>;

export const MARKETING_SPECS = { ...FUNNEL_SPECS, ...MEASURE_SPECS };

/**
 * Questions only some kinds of site should be asked (issue 25), with what each asks for: a blog,
 * documentation or a portal has no prices, no sales call to action and no offer in its H1, and
 * "how to reach the business" is a business's question. Checks not listed are asked of every site.
 */
export const ASKED_OF: Partial<Record<string, { kinds: readonly SiteKind[]; what: string }>> = {
  [MARKETING_SPECS.business.id]: { kinds: ['business', 'shop', 'portal'], what: 'business structured data' },
  [MARKETING_SPECS.contact.id]: { kinds: ['business', 'shop'], what: 'contact details' },
  [MARKETING_SPECS.proof.id]: { kinds: ['business', 'shop'], what: 'social proof' },
  [MARKETING_SPECS.cta.id]: { kinds: ['business', 'shop'], what: 'a call to action' },
  [MARKETING_SPECS.contactPath.id]: { kinds: ['business', 'shop'], what: 'a contact path' },
  [MARKETING_SPECS.h1.id]: { kinds: ['business', 'shop'], what: 'an offer in the H1' },
  [MARKETING_SPECS.pricing.id]: { kinds: ['business', 'shop'], what: 'pricing' },
};
