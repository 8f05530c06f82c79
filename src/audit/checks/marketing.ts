// marketing_signal checks, by funnel stage (audit-checks.md): find, trust, act, measure, improve.
// Judged from what the public HTML, headers and cookies show (sourceCoverage public_only).
import { type CheckResult, type CheckSpec, type Evidence, fail, info, pageEvidence, pass } from '../checks.ts';
import { metaContent } from '../html.ts';
import { quote, quoteAll } from '../quote.ts';
import { homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { organizationJsonLd } from '../starters.ts';
import {
  AD_PIXELS,
  ANALYTICS,
  CONSENT_MANAGERS,
  detect,
  EXPERIMENTATION,
  LEGACY_UA,
  scriptText,
  TRACKING_COOKIE,
} from './marketing-signals.ts';
import { robotsDirectives } from './pages.ts';
import { jsonLdNodes, typesOf } from './structured-data.ts';

export const MARKETING_SPECS = {
  indexable: {
    id: 'mk-indexable',
    label: 'The home page can be indexed',
    category: 'findability',
    stage: 'find',
    severity: 'high',
  },
  title: {
    id: 'mk-title-length',
    label: 'Home title of 30 to 60 characters',
    category: 'findability',
    stage: 'find',
    severity: 'medium',
  },
  description: {
    id: 'mk-description-length',
    label: 'Home description of 70 to 160 characters',
    category: 'findability',
    stage: 'find',
    severity: 'medium',
  },
  sitemap: {
    id: 'mk-sitemap',
    label: 'A sitemap for search engines',
    category: 'findability',
    stage: 'find',
    severity: 'low',
  },
  verification: {
    id: 'mk-site-verification',
    label: 'Search console verification tags',
    category: 'findability',
    stage: 'find',
    severity: 'info',
  },
  business: {
    id: 'mk-business-schema',
    label: 'Organization or LocalBusiness structured data',
    category: 'schema_metadata',
    stage: 'find',
    severity: 'medium',
  },
  openGraph: {
    id: 'mk-open-graph',
    label: 'Open Graph title, type, image and url',
    category: 'social_preview',
    stage: 'find',
    severity: 'medium',
  },
  twitterCard: {
    id: 'mk-twitter-card',
    label: 'A valid twitter:card',
    category: 'social_preview',
    stage: 'find',
    severity: 'low',
  },
  contact: {
    id: 'mk-contact-paths',
    label: 'Phone, email or address is visible',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'high',
  },
  proof: {
    id: 'mk-social-proof',
    label: 'Reviews, testimonials or ratings',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'medium',
  },
  legal: {
    id: 'mk-legal-links',
    label: 'Privacy and terms pages linked',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'medium',
  },
  profiles: {
    id: 'mk-social-profiles',
    label: 'Official social profiles linked',
    category: 'trust_proof',
    stage: 'trust',
    severity: 'low',
  },
  https: { id: 'mk-https', label: 'Served over HTTPS', category: 'trust_proof', stage: 'trust', severity: 'high' },
  cta: {
    id: 'mk-call-to-action',
    label: 'A clear call to action on the home page',
    category: 'conversion_path',
    stage: 'act',
    severity: 'high',
  },
  ctaLabels: {
    id: 'mk-specific-cta-labels',
    label: 'Calls to action say what happens',
    category: 'conversion_path',
    stage: 'act',
    severity: 'low',
  },
  forms: {
    id: 'mk-short-labelled-forms',
    label: 'Short, labelled forms that post safely',
    category: 'conversion_path',
    stage: 'act',
    severity: 'medium',
  },
  contactPath: {
    id: 'mk-contact-or-booking',
    label: 'A contact, booking or chat path',
    category: 'conversion_path',
    stage: 'act',
    severity: 'medium',
  },
  h1: {
    id: 'mk-specific-h1',
    label: 'A specific H1 that states the offer',
    category: 'offer_clarity',
    stage: 'act',
    severity: 'medium',
  },
  pricing: {
    id: 'mk-pricing-visible',
    label: 'Pricing is visible or linked',
    category: 'offer_clarity',
    stage: 'act',
    severity: 'low',
  },
  analytics: {
    id: 'mk-analytics',
    label: 'Analytics are installed',
    category: 'measurement',
    stage: 'measure',
    severity: 'high',
  },
  legacyUa: {
    id: 'mk-no-legacy-ua',
    label: 'No Universal Analytics (UA-) only',
    category: 'measurement',
    stage: 'measure',
    severity: 'medium',
  },
  duplicates: {
    id: 'mk-no-duplicate-tags',
    label: 'Each tag loads once',
    category: 'measurement',
    stage: 'measure',
    severity: 'low',
  },
  pixels: {
    id: 'mk-ad-pixels',
    label: 'Advertising pixels',
    category: 'measurement',
    stage: 'measure',
    severity: 'info',
  },
  consent: {
    id: 'mk-consent-before-tracking',
    label: 'A consent manager governs tracking',
    category: 'consent_privacy_signal',
    stage: 'measure',
    severity: 'high',
  },
  cookies: {
    id: 'mk-no-tracking-cookies-on-first-response',
    label: 'No tracking cookies before consent',
    category: 'consent_privacy_signal',
    stage: 'measure',
    severity: 'medium',
  },
  viewport: {
    id: 'mk-viewport',
    label: 'A mobile viewport',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'medium',
  },
  weight: {
    id: 'mk-page-weight',
    label: 'Home HTML under 500 KB',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'low',
  },
  images: {
    id: 'mk-image-dimensions',
    label: 'Images declare their size',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'low',
  },
  experiments: {
    id: 'mk-experimentation-tools',
    label: 'Experimentation, heatmap or survey tools',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'info',
  },
} satisfies Record<string, CheckSpec>;

const S = MARKETING_SPECS;
const CTA_WORDS =
  /\b(get started|start|sign ?up|register|join|buy|shop|order|book|schedule|request|demo|trial|try|contact|call|subscribe|download|quote|apply|reserve|enquire|inquire)\b/i;
const GENERIC_CTA = /^(submit|click here|here|learn more|read more|more|go|ok|send)$/i;
const SOCIAL_HOSTS =
  /(^|\.)(linkedin\.com|twitter\.com|x\.com|facebook\.com|instagram\.com|youtube\.com|tiktok\.com|github\.com|mastodon\.social|threads\.net|pinterest\.com)$/i;
const TWITTER_CARDS = new Set(['summary', 'summary_large_image', 'app', 'player']);

const hostOf = (href: string, base: string) => {
  try {
    return new URL(href, base).hostname;
  } catch {
    return '';
  }
};

function result(
  spec: CheckSpec,
  ok: boolean,
  okDetail: string,
  problem: {
    detail: string;
    title: string;
    remediation: string;
    agentAction: string;
    affectedUrls: string[];
    evidence?: Evidence[];
  },
): CheckResult {
  return ok ? pass(spec, okDetail) : fail(spec, problem);
}

export function marketingChecks(site: SiteSnapshot, appShell: boolean): CheckResult[] {
  const home = homePage(site);
  const pages = htmlPages(site);
  const facts = home?.facts;
  if (!home || !facts) return [];
  const url = home.url;
  const allAnchors = pages.flatMap((p) => (p.facts?.anchors ?? []).map((a) => ({ ...a, page: p.url })));
  const allText = pages
    .map((p) => `${p.facts?.textSample ?? ''} ${(p.facts?.headings ?? []).map((h) => h.text).join(' ')}`)
    .join(' ');
  const nodes = pages.flatMap((p) => jsonLdNodes(p).nodes);
  const rows: CheckResult[] = [];
  // Content-based checks cannot be judged from an app shell: a browser would have to render it.
  const content = (row: CheckResult): CheckResult =>
    appShell && row.status === 'fail' ? { ...row, status: 'unverified' } : row;

  // find
  const robots = robotsDirectives(home);
  rows.push(
    result(S.indexable, !/\b(noindex|none)\b/i.test(robots), 'no noindex on the home page', {
      detail: 'the home page carries noindex',
      title: 'The home page is hidden from search',
      remediation: 'Remove noindex from the home page so people can find the business in search.',
      agentAction: 'Remove <meta name="robots" content="noindex"> (or the X-Robots-Tag header) from the home page.',
      affectedUrls: [url],
    }),
  );
  const title = facts.titles[0] ?? '';
  rows.push(
    content(
      result(S.title, title.length >= 30 && title.length <= 60, `title of ${title.length} characters`, {
        detail: title ? `the home title has ${title.length} characters` : 'the home page has no title',
        title: 'The home page title is missing, too short or too long for search results',
        remediation: 'Write a 30 to 60 character title with the offer and the brand ("Forged garden tools — Acme").',
        agentAction: 'Set the home page <title> to 30 to 60 characters naming what the business offers and its name.',
        affectedUrls: [url],
      }),
    ),
  );
  const description = metaContent(facts, 'description') ?? '';
  rows.push(
    content(
      result(
        S.description,
        description.length >= 70 && description.length <= 160,
        `description of ${description.length} characters`,
        {
          detail: description
            ? `the home description has ${description.length} characters`
            : 'no meta description on the home page',
          title: 'The search snippet is left to chance',
          remediation:
            'Write a 70 to 160 character meta description that sells the click: the offer, for whom, the next step.',
          agentAction: 'Add <meta name="description" content="..."> (70 to 160 characters) to the home page head.',
          affectedUrls: [url],
        },
      ),
    ),
  );
  if (!site.local) {
    rows.push(
      result(
        S.sitemap,
        site.sitemap?.status === 200 && site.sitemap.parsed?.kind !== 'invalid',
        `sitemap at ${site.sitemap?.url}`,
        {
          detail: `no valid sitemap at ${site.sitemap?.url}`,
          title: 'No sitemap for search engines',
          remediation: 'Publish sitemap.xml and submit it in Google Search Console and Bing Webmaster Tools.',
          agentAction: 'Generate /sitemap.xml listing the public pages and reference it in robots.txt.',
          affectedUrls: [site.sitemap?.url ?? url],
        },
      ),
    );
  }
  const verification = facts.metas
    .filter((m) =>
      /^(google-site-verification|msvalidate\.01|yandex-verification|facebook-domain-verification|p:domain_verify)$/.test(
        m.name,
      ),
    )
    .map((m) => m.name);
  rows.push(
    info(S.verification, {
      finding: false,
      detail:
        verification.length > 0
          ? `verification tags: ${verification.join(', ')}`
          : 'no verification meta tags (DNS verification may be used instead)',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );
  const business = nodes.find((n) =>
    typesOf(n).some(
      (t) => t === 'Organization' || t === 'LocalBusiness' || t.endsWith('Business') || t.endsWith('Organization'),
    ),
  );
  const isLocal = business && typesOf(business).some((t) => t === 'LocalBusiness' || t.endsWith('Business'));
  const businessOk =
    business?.name !== undefined && (!isLocal || (business.address !== undefined && business.telephone !== undefined));
  rows.push(
    content(
      result(
        S.business,
        businessOk === true,
        `${quoteAll(typesOf(business ?? {}), '/')} with name${isLocal ? ', address and telephone' : ''}`,
        {
          detail: !business
            ? 'no Organization or LocalBusiness structured data'
            : 'the LocalBusiness lacks address or telephone',
          title: 'Search engines cannot read who the business is',
          remediation: 'Describe the business with Organization (or LocalBusiness with address and telephone) JSON-LD.',
          agentAction:
            'Add Organization or LocalBusiness JSON-LD with name, url, logo, address, telephone and sameAs to the home page (a starter built from the page is suggested).',
          affectedUrls: [url],
          ...(business
            ? {}
            : {
                suggestions: [
                  {
                    label: 'Organization JSON-LD',
                    target: 'the <head> of the home page',
                    format: 'json-ld' as const,
                    content: organizationJsonLd(site),
                  },
                ],
              }),
        },
      ),
    ),
  );
  const og = ['og:title', 'og:type', 'og:image', 'og:url'].filter((name) => !metaContent(facts, name));
  rows.push(
    result(S.openGraph, og.length === 0, 'Open Graph title, type, image and url', {
      detail: `missing ${og.join(', ')}`,
      title: 'Shared links show no proper preview',
      remediation:
        'Add og:title, og:type, og:image (1200×630) and og:url so shared links look like an ad, not a bare URL.',
      agentAction: `Add <meta property="${og[0]}" content="..."> and the other missing Open Graph tags (${og.join(', ')}) to the head.`,
      affectedUrls: [url],
    }),
  );
  const card = metaContent(facts, 'twitter:card');
  rows.push(
    result(S.twitterCard, card !== undefined && TWITTER_CARDS.has(card), `twitter:card ${quote(card)}`, {
      detail: card ? `twitter:card ${quote(card)} is not a valid card type` : 'no twitter:card',
      title: 'No valid twitter:card for previews on X',
      remediation: 'Add <meta name="twitter:card" content="summary_large_image">.',
      agentAction: 'Add <meta name="twitter:card" content="summary_large_image"> to the head.',
      affectedUrls: [url],
    }),
  );

  // trust
  const contactLinks = allAnchors.filter((a) => /^(tel|mailto):/i.test(a.href));
  const hasAddress =
    nodes.some((n) => n.address !== undefined) || /<address/i.test(home.fetched?.body.slice(0, 500_000) ?? '');
  // A number or address written out counts as much as a link (issue 10: a site whose every page
  // linked a contact page showing its phone number was told visitors cannot reach it).
  const writtenOn = pages.filter((p) => (p.facts?.visibleContacts ?? 0) > 0).map((p) => p.url);
  rows.push(
    content(
      result(
        S.contact,
        contactLinks.length > 0 || hasAddress || writtenOn.length > 0,
        `${contactLinks.length} phone or email link(s)${hasAddress ? ', an address' : ''}${writtenOn.length > 0 ? `, a phone number or email written on ${writtenOn.length} page(s)` : ''}`,
        {
          detail: `no tel: or mailto: link, no address, and no phone number or email in the text of the ${pages.length} page(s) read`,
          title: 'Visitors cannot see how to reach the business',
          remediation:
            'Show a phone number (tel: link), an email (mailto:) or a street address on every page, typically in the footer.',
          agentAction:
            'Add the phone as <a href="tel:+...">, the email as <a href="mailto:...">, and the address in an <address> element to the footer.',
          affectedUrls: [url],
        },
      ),
    ),
  );
  const proof =
    nodes.some(
      (n) =>
        typesOf(n).some((t) => t === 'AggregateRating' || t === 'Review') ||
        n.aggregateRating !== undefined ||
        n.review !== undefined,
    ) || /testimonial|reviews?\b|what (our )?(customers|clients) say|rated \d/i.test(allText);
  rows.push(
    content(
      result(S.proof, proof, 'reviews, testimonials or ratings found', {
        detail: 'no reviews, testimonials or AggregateRating',
        title: 'No social proof',
        remediation:
          'Show testimonials, review scores or client logos near the calls to action; mark ratings up with AggregateRating.',
        agentAction:
          'Add a testimonials section with real quotes, and AggregateRating JSON-LD if there are review scores.',
        affectedUrls: [url],
      }),
    ),
  );
  const legal = (pattern: RegExp) => allAnchors.some((a) => pattern.test(a.href) || pattern.test(a.text));
  const privacy = legal(/privacy|datenschutz|privacidad|confidentialit/i);
  const terms = legal(/terms|conditions|imprint|impressum|legal|agb|cgv/i);
  rows.push(
    content(
      result(S.legal, privacy && terms, 'privacy and terms pages are linked', {
        detail: `missing: ${[privacy ? '' : 'privacy policy', terms ? '' : 'terms or imprint'].filter(Boolean).join(', ')}`,
        title: 'Privacy or terms pages are not linked',
        remediation: 'Link the privacy policy and the terms (or imprint) from every page footer.',
        agentAction: 'Add footer links to /privacy and /terms (create the pages if they do not exist).',
        affectedUrls: [url],
      }),
    ),
  );
  const sameAs = nodes.some((n) => n.sameAs !== undefined);
  const profiles = allAnchors.filter((a) => SOCIAL_HOSTS.test(hostOf(a.href, a.page)));
  rows.push(
    content(
      result(
        S.profiles,
        profiles.length > 0 || sameAs,
        `${profiles.length} social profile link(s)${sameAs ? ', sameAs in structured data' : ''}`,
        {
          detail: 'no links to official social profiles',
          title: 'No official social profiles linked',
          remediation:
            'Link the official profiles (LinkedIn, Instagram, ...) and list them as sameAs in Organization JSON-LD.',
          agentAction:
            'Add footer links to the official social profiles and a sameAs array to the Organization JSON-LD.',
          affectedUrls: [url],
        },
      ),
    ),
  );
  if (!site.local) {
    rows.push(
      result(S.https, (home.fetched?.url ?? url).startsWith('https:'), 'served over HTTPS', {
        detail: 'the home page is served over plain HTTP',
        title: 'Browsers mark the site "Not secure"',
        remediation: 'Serve the site over HTTPS; browsers warn visitors away from plain HTTP forms.',
        agentAction: 'Enable TLS for the host and redirect http:// to https://.',
        affectedUrls: [url],
      }),
    );
  }

  // act
  const ctaElements = [
    ...facts.buttons.map((b) => ({ text: b.name, element: b.element })),
    ...facts.anchors.map((a) => ({ text: a.text, element: a.element })),
  ].filter(({ text }) => text.length > 0 && text.length <= 40);
  const homeCtas = ctaElements.map(({ text }) => text);
  const clear = homeCtas.filter((t) => CTA_WORDS.test(t));
  rows.push(
    content(
      result(S.cta, clear.length > 0, `calls to action: ${quoteAll([...new Set(clear)].slice(0, 5))}`, {
        detail: 'no button or link on the home page says what to do next',
        title: 'No clear call to action',
        remediation:
          'Put one primary call to action in the header and the first section ("Book a demo", "Get a quote").',
        agentAction:
          'Add a prominent button in the hero section linking to the main conversion page, labelled with the action (e.g. "Book a demo").',
        affectedUrls: [url],
      }),
    ),
  );
  const generic = [...new Set(homeCtas.filter((t) => GENERIC_CTA.test(t)))];
  rows.push(
    result(S.ctaLabels, generic.length === 0, 'no generic labels', {
      detail: `generic labels: ${quoteAll(generic)}`,
      title: 'Buttons with generic labels',
      remediation: 'Label buttons with the outcome ("Send my quote request"), not "Submit" or "Click here".',
      agentAction: `Rename these buttons/links to say what happens: ${quoteAll(generic)}.`,
      affectedUrls: [url],
      evidence: [
        pageEvidence(
          url,
          'generic labels',
          ctaElements
            .filter(({ text }) => GENERIC_CTA.test(text))
            .map(({ text, element }) => ({ what: quote(text), element })),
        ),
      ],
    }),
  );
  const forms = pages.flatMap((p) => (p.facts?.forms ?? []).map((f) => ({ ...f, page: p.url })));
  const httpsSite = (home.fetched?.url ?? url).startsWith('https:');
  const badForms = forms.filter(
    (f) =>
      f.fields.length > 7 || f.fields.some((field) => !field.labelled) || (httpsSite && f.action.startsWith('http:')),
  );
  rows.push(
    result(
      S.forms,
      badForms.length === 0,
      forms.length > 0 ? `${forms.length} form(s), short and labelled` : 'no forms',
      {
        detail: `${badForms.length} form(s) are long (over 7 fields), unlabelled, or post over http`,
        title: 'Forms that lose leads',
        remediation: 'Keep lead forms to the few fields you need, label every field, and post over HTTPS.',
        agentAction: 'Cut these forms to at most 7 fields, add <label> elements, and make the action an https:// URL.',
        affectedUrls: [...new Set(badForms.map((f) => f.page))],
        evidence: [...new Set(badForms.map((f) => f.page))].map((page) =>
          pageEvidence(
            page,
            'forms that lose leads',
            badForms
              .filter((f) => f.page === page)
              .flatMap((f) => [
                ...(f.fields.length > 7 ? [{ what: `a form of ${f.fields.length} fields` }] : []),
                ...(httpsSite && f.action.startsWith('http:')
                  ? [{ what: `a form posting to ${quote(f.action)}` }]
                  : []),
                ...f.fields
                  .filter((field) => !field.labelled)
                  .map((field) => ({
                    what: `unlabelled ${field.type} field ${quote(field.name)}`,
                    element: field.element,
                  })),
              ]),
          ),
        ),
      },
    ),
  );
  const contactPath =
    forms.length > 0 ||
    allAnchors.some((a) => /contact|book|schedule|appointment|calendly|demo|chat|quote/i.test(`${a.href} ${a.text}`));
  rows.push(
    content(
      result(S.contactPath, contactPath, 'a contact, booking or chat path exists', {
        detail: 'no contact page, booking link, chat or form',
        title: 'No path to get in touch',
        remediation: 'Offer one clear path to a conversation: a contact form, a booking link or chat.',
        agentAction: 'Add a /contact page with a short form, and link it from the header as "Contact us".',
        affectedUrls: [url],
      }),
    ),
  );
  const h1 = facts.headings.find((h) => h.level === 1)?.text ?? '';
  rows.push(
    content(
      result(
        S.h1,
        h1.split(/\s+/).filter(Boolean).length >= 3 && !/^(home|welcome|homepage)$/i.test(h1),
        `H1: ${quote(h1)}`,
        {
          detail: h1 ? `the H1 ${quote(h1)} does not state an offer` : 'no H1 on the home page',
          title: 'The headline does not say what is offered',
          remediation:
            'Make the H1 a specific promise: what you offer, for whom ("Forged garden tools for small farms").',
          agentAction: 'Rewrite the home page <h1> to name the offer and the audience in 3 to 10 words.',
          affectedUrls: [url],
        },
      ),
    ),
  );
  const pricing =
    allAnchors.some((a) => /pricing|prices|plans|tarif|preise/i.test(`${a.href} ${a.text}`)) ||
    /[$€£]\s?\d|\d\s?[$€£]|\bprice\b/i.test(allText) ||
    nodes.some((n) => n.offers !== undefined || n.price !== undefined);
  rows.push(
    content(
      result(S.pricing, pricing, 'prices or a pricing page are visible', {
        detail: 'no prices and no pricing page link',
        title: 'Pricing is hidden',
        remediation:
          'Show prices or "from" prices, or link a pricing page; visitors who cannot gauge cost often leave.',
        agentAction: 'Add a /pricing page (or prices on the offer pages) and link it from the main navigation.',
        affectedUrls: [url],
      }),
    ),
  );

  // measure
  const perPage = pages.map((p) => ({ page: p, text: scriptText(p) }));
  const everything = perPage.map((p) => p.text).join('\n');
  const analytics = detect(ANALYTICS, everything);
  const legacy = LEGACY_UA.test(everything);
  rows.push(
    result(
      S.analytics,
      analytics.length > 0 || legacy,
      `analytics: ${[...analytics, ...(legacy ? ['Universal Analytics'] : [])].join(', ')}`,
      {
        detail: 'no analytics or tag manager found in the served HTML',
        title: 'No analytics: marketing results cannot be measured',
        remediation:
          'Install an analytics tool (GA4 through Google Tag Manager, or a privacy-friendly one such as Plausible) on every page.',
        agentAction:
          'Add the Google Tag Manager snippet (or GA4 gtag.js with the G- measurement id) to the layout head of every page.',
        affectedUrls: [url],
      },
    ),
  );
  rows.push(
    result(
      S.legacyUa,
      !(legacy && !analytics.some((a) => a.startsWith('Google'))),
      'not on Universal Analytics alone',
      {
        detail: 'only a UA- Universal Analytics property, which stopped collecting data in 2023',
        title: 'Analytics stopped: Universal Analytics only',
        remediation: 'Move to GA4 (a G- measurement id); UA properties no longer record visits.',
        agentAction:
          'Replace the UA- tag with a GA4 gtag.js snippet using a G- measurement id (or deploy GA4 through GTM).',
        affectedUrls: [url],
      },
    ),
  );
  const duplicated = perPage.filter(({ text }) => {
    const ids = text.match(/\b(G-[A-Z0-9]{6,12}|GTM-[A-Z0-9]{4,10}|UA-\d{4,10}-\d{1,4})\b/g) ?? [];
    const loaders = (text.match(/googletagmanager\.com\/(gtm|gtag)/g) ?? []).length;
    return loaders > new Set(ids).size && loaders > 1;
  });
  rows.push(
    result(S.duplicates, duplicated.length === 0, 'each tag loads once', {
      detail: `${duplicated.length} page(s) load the same Google tag more than once`,
      title: 'Tags load twice and double-count',
      remediation: 'Load each analytics tag once per page (usually through GTM only).',
      agentAction: 'Remove the duplicate gtag.js/GTM snippets so each container or measurement id loads once.',
      affectedUrls: duplicated.map((d) => d.page.url),
    }),
  );
  const pixels = detect(AD_PIXELS, everything);
  rows.push(
    info(S.pixels, {
      finding: false,
      detail: pixels.length > 0 ? `ad pixels: ${pixels.join(', ')}` : 'no ad pixels',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );
  const consent = detect(CONSENT_MANAGERS, everything);
  const tracking = analytics.length > 0 || pixels.length > 0 || legacy;
  rows.push(
    result(
      S.consent,
      !tracking || consent.length > 0,
      tracking ? `consent: ${consent.join(', ')}` : 'no tracking to govern',
      {
        detail: `tracking (${[...analytics, ...pixels].join(', ')}) with no consent manager or Consent Mode default`,
        title: 'Tracking runs without a consent manager',
        remediation:
          'Load analytics and pixels through a consent manager (or Google Consent Mode with denied defaults) where privacy law requires consent.',
        agentAction:
          "Install a consent management platform and gate the tags on it; with GTM, set gtag('consent','default',{analytics_storage:'denied',ad_storage:'denied'}) before the tags.",
        affectedUrls: [url],
      },
    ),
  );
  const early = (home.fetched?.setCookies ?? [])
    .map((c) => c.split('=')[0]?.trim() ?? '')
    .filter((name) => TRACKING_COOKIE.test(name));
  rows.push(
    result(S.cookies, early.length === 0, 'the first response sets no tracking cookies', {
      detail: `the first response sets tracking cookies: ${quoteAll(early)}`,
      title: 'Tracking cookies are set before any consent',
      remediation: 'Set tracking cookies only after consent; the server’s first response should carry none.',
      agentAction: `Stop setting ${quoteAll(early)} on the server response; let the tags set them after consent.`,
      affectedUrls: [url],
    }),
  );

  // improve
  rows.push(
    result(S.viewport, facts.hasViewport, 'viewport meta tag present', {
      detail: 'no viewport meta tag: phones render the desktop layout',
      title: 'Not mobile friendly',
      remediation: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> and a responsive layout.',
      agentAction:
        'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the head of the layout.',
      affectedUrls: [url],
    }),
    result(
      S.weight,
      (home.fetched?.bytes ?? 0) <= 500 * 1024,
      `home HTML ${Math.round((home.fetched?.bytes ?? 0) / 1024)} KB`,
      {
        detail: `home HTML is ${Math.round((home.fetched?.bytes ?? 0) / 1024)} KB`,
        title: 'A heavy home page',
        remediation: 'Keep the HTML under 500 KB: move inline data and styles to cached files.',
        agentAction: 'Reduce inline JSON, SVG and CSS in the home page HTML.',
        affectedUrls: [url],
      },
    ),
    result(S.images, !facts.images.some((i) => !i.hasDimensions), 'images declare width and height', {
      detail: 'images without width and height shift the layout while loading',
      title: 'Layout shifts from images',
      remediation: 'Give images width and height (or aspect-ratio) so the page does not jump while loading.',
      agentAction: 'Add width and height attributes to the <img> elements of the home page.',
      affectedUrls: [url],
      evidence: [
        pageEvidence(
          url,
          'images without width and height',
          facts.images
            .filter((i) => !i.hasDimensions)
            .map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element })),
        ),
      ],
    }),
  );
  const experiments = detect(EXPERIMENTATION, everything);
  rows.push(
    info(S.experiments, {
      finding: false,
      detail:
        experiments.length > 0 ? `tools: ${experiments.join(', ')}` : 'no experimentation, heatmap or survey tools',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );
  return rows;
}
