// marketing_signal, measure and improve stages: which trackers the pages load (named, with the
// script element that loads each), whether consent governs them, and the page basics that cost
// visitors (viewport, weight, layout shifts).
import { type CheckResult, type Evidence, info, pageEvidence } from '../checks.ts';
import { findConsentManagers } from '../consent-managers.ts';
import { quote, quoteAll } from '../quote.ts';
import { findTrackers, firstHits, pageScripts, type TrackerHit, trackerLabel, trackerNames } from '../trackers.ts';
import { judged, type MarketingContext, readEvidence, result } from './marketing-context.ts';
import { MEASURING, TRACKING_COOKIE } from './marketing-signals.ts';
import { MARKETING_SPECS as S } from './marketing-specs.ts';

const GOOGLE_IDS = /\b(?:G-[A-Z0-9]{6,12}|GTM-[A-Z0-9]{4,10}|UA-\d{4,10}-\d{1,4}|AW-\d{6,12})\b/g;
const GOOGLE_LOADERS = /googletagmanager\.com\/(?:gtm|gtag)/g;
const TRACKER_EVIDENCE_MAX = 10;

const named = (hits: readonly TrackerHit[]) =>
  trackerNames(hits).map((name) =>
    hits.find((h) => h.tracker.name === name)?.tracker.cookieless ? `${name} (cookieless)` : name,
  );

const hitSummary = (hit: TrackerHit, why: string) =>
  `${trackerLabel(hit)} ${why}: ${hit.excerpt !== undefined ? `an inline script, ${quote(hit.excerpt)}` : (hit.element?.snippet ?? 'a script')}`;

/**
 * One evidence item per tracker (where it was first seen and the element that loads it); past the
 * evidence a finding keeps, the last item names the rest with their elements.
 */
function trackerEvidence(hits: readonly TrackerHit[], why: string): Evidence[] {
  const first = firstHits(hits);
  const single = first.length > TRACKER_EVIDENCE_MAX ? first.slice(0, TRACKER_EVIDENCE_MAX - 1) : first;
  const items: Evidence[] = single.map((hit) => ({
    type: 'page' as const,
    url: hit.page,
    summary: hitSummary(hit, why),
    ...(hit.element ? { elements: [hit.element] } : {}),
  }));
  const rest = first.slice(single.length);
  if (rest.length > 0)
    items.push(
      pageEvidence(
        rest[0]?.page ?? '',
        `also ${why}`,
        rest.map((hit) => ({ what: trackerLabel(hit), ...(hit.element ? { element: hit.element } : {}) })),
      ),
    );
  return items;
}

export function measureStage(ctx: MarketingContext): CheckResult[] {
  const { url, pages, home } = ctx;
  const rows: CheckResult[] = [];
  const hits = findTrackers(pages);
  const measuring = hits.filter((h) => MEASURING.includes(h.tracker.kind));
  const external = pages.flatMap((p) =>
    pageScripts(p)
      .filter((s) => !s.inline)
      .map((s) => ({ ...s, page: p.url })),
  );
  rows.push(
    result(S.analytics, measuring.length > 0, `analytics: ${named(measuring).join(', ')}`, {
      detail: 'no analytics or tag manager found in the served HTML',
      title: 'No analytics: marketing results cannot be measured',
      remediation:
        'Install an analytics tool (GA4 through Google Tag Manager, or a privacy-friendly one such as Plausible) on every page.',
      agentAction:
        'Add the Google Tag Manager snippet (or GA4 gtag.js with the G- measurement id) to the layout head of every page.',
      affectedUrls: [url],
      evidence: [
        readEvidence(
          url,
          `${external.length} script URL(s) and the inline scripts of ${pages.length} page(s) read, none of a known analytics tool or tag manager; the scripts loaded`,
          external.slice(0, 5).map((s) => ({ what: quote(s.text), ...(s.element ? { element: s.element } : {}) })),
          `the inline scripts of ${pages.length} page(s) read (no script loaded from a URL), none of a known analytics tool or tag manager`,
        ),
      ],
    }),
  );
  const ua = hits.filter((h) => h.tracker.name === 'Universal Analytics');
  const current = hits.some((h) => h.tracker.name === 'Google Analytics 4' || h.tracker.name === 'Google Tag Manager');
  rows.push(
    result(S.legacyUa, ua.length === 0 || current, 'not on Universal Analytics alone', {
      detail: `only Universal Analytics (${[...new Set(ua.flatMap((h) => h.ids))].join(', ') || 'analytics.js'}), which stopped collecting data in 2023`,
      title: 'Analytics stopped: Universal Analytics only',
      remediation: 'Move to GA4 (a G- measurement id); UA properties no longer record visits.',
      agentAction:
        'Replace the UA- tag with a GA4 gtag.js snippet using a G- measurement id (or deploy GA4 through GTM).',
      affectedUrls: [...new Set(ua.map((h) => h.page))],
      evidence: trackerEvidence(ua, 'loaded by'),
    }),
  );
  const duplicated = pages.flatMap((page) => {
    const scripts = pageScripts(page);
    const text = scripts.map((s) => s.text).join('\n');
    const ids = new Set(text.match(GOOGLE_IDS) ?? []);
    const loaders = scripts.filter((s) => (s.text.match(GOOGLE_LOADERS) ?? []).length > 0);
    const count = (text.match(GOOGLE_LOADERS) ?? []).length;
    return count > ids.size && count > 1 ? [{ page, loaders }] : [];
  });
  rows.push(
    result(S.duplicates, duplicated.length === 0, 'each tag loads once', {
      detail: `${duplicated.length} page(s) load the same Google tag more than once`,
      title: 'Tags load twice and double-count',
      remediation: 'Load each analytics tag once per page (usually through GTM only).',
      agentAction: 'Remove the duplicate gtag.js/GTM snippets so each container or measurement id loads once.',
      affectedUrls: duplicated.map((d) => d.page.url),
      evidence: duplicated.map(({ page, loaders }) =>
        pageEvidence(
          page.url,
          'Google tag loaders',
          loaders.map((s) => ({
            what: s.inline ? 'an inline loader' : quote(s.text),
            ...(s.element ? { element: s.element } : {}),
          })),
        ),
      ),
    }),
  );
  const pixels = hits.filter((h) => h.tracker.kind === 'advertising');
  rows.push(
    info(S.pixels, {
      finding: false,
      detail: pixels.length > 0 ? `ad pixels: ${trackerNames(pixels).join(', ')}` : 'no ad pixels',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  );
  rows.push(consentRow(ctx, hits));
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
      evidence: [judged(url, `Set-Cookie headers of the home page's first response: ${quoteAll(early)}`)],
    }),
  );
  return rows;
}

function consentRow(ctx: MarketingContext, hits: readonly TrackerHit[]): CheckResult {
  const tracking = hits.filter((h) => !h.tracker.cookieless);
  const cookieless = trackerNames(hits.filter((h) => h.tracker.cookieless));
  const consent = findConsentManagers(ctx.pages);
  const names = trackerNames(tracking);
  const okDetail =
    tracking.length === 0
      ? cookieless.length > 0
        ? `only cookieless analytics (${cookieless.join(', ')}): nothing for consent to gate`
        : 'no tracking to govern'
      : `consent: ${consent.join(', ')}`;
  const aside =
    cookieless.length > 0
      ? `; ${cookieless.join(', ')} ${cookieless.length > 1 ? 'are' : 'is'} cookieless and need${cookieless.length > 1 ? '' : 's'} none`
      : '';
  return result(S.consent, tracking.length === 0 || consent.length > 0, okDetail, {
    detail: `tracking with no consent manager or Consent Mode default: ${names.join(', ')}${aside}`,
    title: 'Tracking runs without a consent manager',
    remediation:
      'Load analytics and pixels through a consent manager (or Google Consent Mode with denied defaults) where privacy law requires consent.',
    agentAction:
      "Install a consent management platform and gate the tags on it; with GTM, set gtag('consent','default',{analytics_storage:'denied',ad_storage:'denied'}) before the tags.",
    affectedUrls: [...new Set(tracking.map((h) => h.page))],
    evidence: trackerEvidence(tracking, 'loads with no consent manager'),
  });
}

export function improveStage(ctx: MarketingContext): CheckResult[] {
  const { facts, url, home, pages } = ctx;
  const bytes = home.fetched?.bytes ?? 0;
  const unsized = facts.images.filter((i) => !i.hasDimensions);
  const experiments = trackerNames(
    findTrackers(pages).filter((h) => h.tracker.kind === 'session_recording' || h.tracker.kind === 'experimentation'),
  );
  return [
    result(S.viewport, facts.hasViewport, 'viewport meta tag present', {
      detail: 'no viewport meta tag: phones render the desktop layout',
      title: 'Not mobile friendly',
      remediation: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> and a responsive layout.',
      agentAction:
        'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the head of the layout.',
      affectedUrls: [url],
      evidence: [judged(url, 'no <meta name="viewport"> on the home page')],
    }),
    result(S.weight, bytes <= 500 * 1024, `home HTML ${Math.round(bytes / 1024)} KB`, {
      detail: `home HTML is ${Math.round(bytes / 1024)} KB`,
      title: 'A heavy home page',
      remediation: 'Keep the HTML under 500 KB: move inline data and styles to cached files.',
      agentAction: 'Reduce inline JSON, SVG and CSS in the home page HTML.',
      affectedUrls: [url],
      evidence: [
        judged(
          url,
          `the home page's HTML is ${bytes} bytes, with ${facts.inlineScripts.length} inline script(s) and ${facts.jsonLd.length} JSON-LD block(s)`,
        ),
      ],
    }),
    result(S.images, unsized.length === 0, 'images declare width and height', {
      detail: 'images without width and height shift the layout while loading',
      title: 'Layout shifts from images',
      remediation: 'Give images width and height (or aspect-ratio) so the page does not jump while loading.',
      agentAction: 'Add width and height attributes to the <img> elements of the home page.',
      affectedUrls: [url],
      evidence: [
        pageEvidence(
          url,
          'images without width and height',
          unsized.map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element })),
        ),
      ],
    }),
    info(S.experiments, {
      finding: false,
      detail:
        experiments.length > 0 ? `tools: ${experiments.join(', ')}` : 'no experimentation, heatmap or survey tools',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  ];
}
