// Lab Core Web Vitals (issue 29) of the pages the renderer loaded under the throttling profile
// (render/vitals.ts): Largest Contentful Paint and Cumulative Layout Shift against web.dev's
// thresholds, Total Blocking Time against Lighthouse's mobile scoring. AI readiness judges every page
// measured (performance), the marketing report the home page (the improve stage). A page that was not
// rendered or not measured gives no row and no finding: it is not a failure.
import { type CheckResult, type CheckSpec, type Evidence, fail, note, pass } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { quote } from '../quote.ts';
import type { LabValue, PageVitals } from '../render/vitals.ts';
import type { Reference } from '../standards.ts';
import { ref } from '../standards.ts';
import type { Suggestion } from '../suggestions.ts';

export type Band = 'good' | 'needs improvement' | 'poor';

interface Metric {
  key: 'lcp' | 'cls' | 'tbt';
  short: string;
  name: string;
  /** Lighthouse's audit of the same metric, for the verify line. */
  audit: string;
  /** Good at or under; poor over. */
  good: number;
  poor: number;
  format: (value: number) => string;
  value: (vitals: PageVitals) => LabValue | undefined;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const METRICS: Record<Metric['key'], Metric> = {
  // web.dev/articles/lcp: good 2.5 s or less, poor over 4 s.
  lcp: {
    key: 'lcp',
    short: 'LCP',
    name: 'Largest Contentful Paint',
    audit: 'largest-contentful-paint',
    good: 2500,
    poor: 4000,
    format: seconds,
    value: (v) => v.lcp,
  },
  // web.dev/articles/cls: good 0.1 or less, poor over 0.25.
  cls: {
    key: 'cls',
    short: 'CLS',
    name: 'Cumulative Layout Shift',
    audit: 'cumulative-layout-shift',
    good: 0.1,
    poor: 0.25,
    format: (value) => value.toFixed(2),
    value: (v) => v.cls,
  },
  // Lighthouse's mobile scoring of TBT: 200 ms or less is good (its p10), over 600 ms poor (its median).
  tbt: {
    key: 'tbt',
    short: 'TBT',
    name: 'Total Blocking Time',
    audit: 'total-blocking-time',
    good: 200,
    poor: 600,
    format: (ms) => `${Math.round(ms)} ms`,
    value: (v) => v.tbt,
  },
};

/**
 * Lighthouse run as the renderer measures: its default mobile throttling (slow 4G, 4x CPU) applied as
 * DevTools throttling rather than simulated, in a 1280x900 window at a device scale of 1. The form
 * factor only picks Lighthouse's score curves (it must match the screen emulation); the values the
 * lines print do not depend on it.
 */
export const LIGHTHOUSE_LAB_FLAGS =
  '--throttling-method=devtools --form-factor=desktop --screenEmulation.mobile=false --screenEmulation.width=1280 --screenEmulation.height=900 --screenEmulation.deviceScaleFactor=1';

/**
 * Lighthouse's lab value of the metric at the audit's profile: Lighthouse's own mobile throttling
 * (slow 4G, 4x CPU), applied as DevTools throttling, in the renderer's 1280x900 window. It prints
 * the audit's `numericValue` (ms for LCP and TBT, unitless for CLS), to hold against the threshold:
 * a lab value moves between runs, so a page near the threshold can land either side of it.
 */
export const labVerify = (audit: string) =>
  `npx lighthouse {url} --only-audits=${audit} ${LIGHTHOUSE_LAB_FLAGS} --chrome-flags=--headless --quiet --output=json | grep -A5 '"id": "${audit}"' | grep '"numericValue"'`;

const THRESHOLDS = ref(
  'web.dev: Defining the Core Web Vitals metrics thresholds',
  'https://web.dev/articles/defining-core-web-vitals-thresholds',
);
const REFERENCES: Record<Metric['key'], Reference[]> = {
  lcp: [
    ref('web.dev: Largest Contentful Paint (LCP)', 'https://web.dev/articles/lcp'),
    ref('web.dev: Optimize Largest Contentful Paint', 'https://web.dev/articles/optimize-lcp'),
    THRESHOLDS,
  ],
  cls: [
    ref('web.dev: Cumulative Layout Shift (CLS)', 'https://web.dev/articles/cls'),
    ref('web.dev: Optimize Cumulative Layout Shift', 'https://web.dev/articles/optimize-cls'),
    THRESHOLDS,
  ],
  tbt: [
    ref('web.dev: Total Blocking Time (TBT)', 'https://web.dev/articles/tbt'),
    ref(
      'Lighthouse: Total Blocking Time',
      'https://developer.chrome.com/docs/lighthouse/performance/lighthouse-total-blocking-time',
    ),
  ],
};

const LABELS: Record<Metric['key'], string> = {
  lcp: 'Largest Contentful Paint within 2.5 s (lab, throttled)',
  cls: 'Cumulative Layout Shift of 0.1 or less (lab)',
  tbt: 'Total Blocking Time of 200 ms or less (lab, throttled)',
};

const spec = (key: Metric['key'], id: string, product: 'ai' | 'marketing'): CheckSpec => ({
  id,
  label: product === 'marketing' ? `Home page: ${LABELS[key]}` : LABELS[key],
  ...(product === 'marketing' ? { category: 'performance_ux', stage: 'improve' } : { category: 'performance' }),
  severity: 'medium',
  cite: { references: REFERENCES[key], verify: labVerify(METRICS[key].audit), anchors: ['Lighthouse'] },
});

/** AI readiness: every page measured. */
export const VITALS_SPECS = {
  lcp: spec('lcp', 'largest-contentful-paint', 'ai'),
  cls: spec('cls', 'cumulative-layout-shift', 'ai'),
  tbt: spec('tbt', 'total-blocking-time', 'ai'),
} satisfies Record<Metric['key'], CheckSpec>;

/** The marketing report: the home page (improve stage). */
export const MARKETING_VITALS_SPECS = {
  lcp: spec('lcp', 'mk-largest-contentful-paint', 'marketing'),
  cls: spec('cls', 'mk-cumulative-layout-shift', 'marketing'),
  tbt: spec('tbt', 'mk-total-blocking-time', 'marketing'),
} satisfies Record<Metric['key'], CheckSpec>;

/** The band of a lab value; undefined when it is a lower bound that does not decide one. */
export function band(metric: Metric, value: LabValue | undefined): Band | undefined {
  if (!value) return undefined;
  if (value.value > metric.poor) return 'poor';
  if (value.atLeast) return undefined;
  return value.value <= metric.good ? 'good' : 'needs improvement';
}

interface Measured {
  page: CrawledPage;
  vitals: PageVitals;
  value: LabValue;
  band: Band;
}

const shown = (metric: Metric, value: LabValue) => `${value.atLeast ? 'at least ' : ''}${metric.format(value.value)}`;

const PROFILE_WORDS = 'lab: a mid-range phone over slow 4G, as Lighthouse throttles it';

/** An element as a site owner finds it: its start tag, and where it is. */
const named = (element: { selector: string; snippet: string } | undefined) =>
  element ? `${quote(element.snippet, 100)} (${element.selector})` : 'an element that is no longer on the page';

/** The attribute value of a URL in HTML. */
const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

function lcpWords(m: Measured) {
  const lcp = m.vitals.lcp;
  const element = lcp?.element;
  const image = lcp?.url ? `, the image ${quote(lcp.url, 120)}` : '';
  return `the largest element, ${named(element)}${image}, painted at ${shown(METRICS.lcp, m.value)}${m.vitals.fcpMs !== undefined ? `; first content at ${seconds(m.vitals.fcpMs)}` : ''}`;
}

function clsWords(m: Measured) {
  const shift = m.vitals.cls.shifts[0];
  if (!shift) return `${m.vitals.cls.count} layout shift(s)`;
  const moved = shift.elements.slice(0, 3).map((e) => named(e));
  return `the largest shift (${shift.score.toFixed(2)}) at ${seconds(shift.atMs)} moved ${moved.join('; ') || 'elements no longer on the page'}`;
}

function tbtWords(m: Measured) {
  const t = m.vitals.tbt;
  return `${t.longTasks} long task(s) on the main thread, the longest ${t.longestMs} ms`;
}

const WORDS: Record<Metric['key'], (m: Measured) => string> = { lcp: lcpWords, cls: clsWords, tbt: tbtWords };

function evidenceOf(metric: Metric, m: Measured): Evidence {
  const elements =
    metric.key === 'lcp'
      ? m.vitals.lcp?.element
        ? [m.vitals.lcp.element]
        : []
      : metric.key === 'cls'
        ? (m.vitals.cls.shifts[0]?.elements ?? [])
        : [];
  const cut = m.vitals.cut
    ? `; throttling was lifted after ${seconds(m.vitals.windowMs)}, before the page settled`
    : '';
  return {
    type: 'page',
    url: m.page.url,
    summary: `${metric.short} ${shown(metric, m.value)} (${m.band}): ${WORDS[metric.key](m)}${cut}`,
    ...(elements.length > 0 ? { elements: elements.slice(0, 5) } : {}),
  };
}

/** What a site owner is asked to do, naming the worst page's elements. */
function advice(metric: Metric, worst: Measured): { title: string; remediation: string; agentAction: string } {
  const value = shown(metric, worst.value);
  const url = worst.page.url;
  if (metric.key === 'lcp') {
    const element = worst.vitals.lcp?.element;
    return {
      title: 'The main content appears late (Largest Contentful Paint)',
      remediation: `The largest thing visitors see when the page opens, ${named(element)}, appears after ${value} on a mid-range phone over a slow mobile connection; 2.5 s or less is good, over 4 s poor. Make it arrive sooner: put it in the page's HTML instead of adding it with a script, give an image fetchpriority="high" (or preload it), compress it and serve it at the size it is shown, and do not lazy-load it.`,
      agentAction: `On ${url}, the LCP element is ${named(element)}, painted at ${value} under throttling. Serve it in the initial HTML with fetchpriority="high" (a <link rel="preload" as="image"> in the <head> when it is a CSS background or added by a script), compress it to its displayed size, and remove render-blocking work before it.`,
    };
  }
  if (metric.key === 'cls') {
    const moved = (worst.vitals.cls.shifts[0]?.elements ?? []).slice(0, 3).map((e) => named(e));
    const which = moved.length > 0 ? moved.join('; ') : 'content';
    return {
      title: 'The layout jumps while the page loads (Cumulative Layout Shift)',
      remediation: `While the page loads, ${which} moves under the reader (a layout shift score of ${value}; 0.1 or less is good, over 0.25 poor). Something above it takes its space only when it arrives: an image or embed without width and height, a banner or cookie bar inserted at the top, or a web font swapping in at another size. Reserve the space before it arrives.`,
      agentAction: `On ${url}, these elements moved after the first paint: ${which}. Find what appears above them late and reserve its space: width and height (or aspect-ratio) on images, videos and iframes, a min-height on slots that scripts fill (banners, ads, embeds), and font-display: optional or a size-adjusted fallback for web fonts.`,
    };
  }
  const t = worst.vitals.tbt;
  return {
    title: 'Scripts keep the page from answering taps while it loads (Total Blocking Time)',
    remediation: `Between the first paint and the moment the page settles, its scripts block the browser for ${value} in all on a mid-range phone (${t.longTasks} long task(s), the longest ${t.longestMs} ms): taps and typing wait that long. 200 ms or less is good, over 600 ms poor. Load less JavaScript at first (defer what the page does not need right away, third-party tags included) and split long work into pieces under 50 ms.`,
    agentAction: `On ${url}, ${t.longTasks} long task(s) block the main thread after the first paint (the longest ${t.longestMs} ms, ${value} of blocking time). Record the load in Chrome DevTools' Performance panel with a 4x CPU slowdown, then defer, split (yield to the main thread within 50 ms) or remove the scripts behind them.`,
  };
}

/** A preload for an image LCP element, ready for the page's <head>. */
function preloadSuggestion(worst: Measured): Suggestion[] {
  const url = worst.vitals.lcp?.url;
  if (!url || !/^https?:/i.test(url)) return [];
  return [
    {
      label: 'Preload the LCP image',
      target: `the <head> of ${worst.page.url}, before stylesheets and scripts`,
      format: 'text',
      content: `<link rel="preload" as="image" href="${attribute(url)}" fetchpriority="high">`,
    },
  ];
}

const ORDER: Band[] = ['poor', 'needs improvement', 'good'];

/** One metric's row over the measured pages; none when no page was measured. */
function metricRow(metric: Metric, row: CheckSpec, pages: readonly CrawledPage[]): CheckResult | undefined {
  const measuredPages = pages.flatMap((page) => {
    const vitals = page.rendered?.vitals;
    return vitals ? [{ page, vitals }] : [];
  });
  if (measuredPages.length === 0) return undefined;
  const judged: Measured[] = [];
  const open: string[] = [];
  for (const { page, vitals } of measuredPages) {
    const value = metric.value(vitals);
    const verdict = band(metric, value);
    if (value && verdict) judged.push({ page, vitals, value, band: verdict });
    else
      open.push(
        value
          ? `${page.url} (${shown(metric, value)} when throttling was lifted, before the page settled)`
          : `${page.url} (nothing contentful painted)`,
      );
  }
  const profile = `${PROFILE_WORDS}; good ≤ ${metric.format(metric.good)}, poor > ${metric.format(metric.poor)}`;
  const notJudged = open.length > 0 ? `; not judged on ${open.join(', ')}` : '';
  if (judged.length === 0) return note(row, `${metric.short} not judged: ${open.join(', ')} (${profile})`);
  // Worst first: the verify line is filled in for the first affected page (outcome.ts).
  judged.sort((a, b) => ORDER.indexOf(a.band) - ORDER.indexOf(b.band) || b.value.value - a.value.value);
  const worst = judged[0] as Measured;
  const affected = judged.filter((m) => m.band !== 'good');
  if (affected.length === 0)
    return pass(
      row,
      `${metric.short} good on ${judged.length} page(s) measured, at most ${shown(metric, worst.value)} (${worst.page.url}; ${profile})${notJudged}`,
    );
  const values = affected
    .slice(0, 5)
    .map((m) => `${shown(metric, m.value)} on ${m.page.url}`)
    .join('; ');
  return fail(row, {
    severity: worst.band === 'poor' ? row.severity : 'low',
    detail: `${metric.short} ${worst.band} on ${affected.length} of ${judged.length} page(s) measured: ${values} (${profile})${notJudged}`,
    ...advice(metric, worst),
    affectedUrls: affected.map((m) => m.page.url),
    evidence: affected.map((m) => evidenceOf(metric, m)),
    // A lab value varies between runs: a measurement, not a reading of the markup.
    confidence: 'medium',
    ...(metric.key === 'lcp' ? { suggestions: preloadSuggestion(worst) } : {}),
  });
}

/** AI readiness: LCP, CLS and TBT over every page measured. */
export function vitalsChecks(pages: readonly CrawledPage[]): CheckResult[] {
  return (['lcp', 'cls', 'tbt'] as const).flatMap((key) => metricRow(METRICS[key], VITALS_SPECS[key], pages) ?? []);
}

/** The marketing report: the home page's LCP, CLS and TBT, when it was measured. */
export function marketingVitalsChecks(home: CrawledPage | undefined): CheckResult[] {
  if (!home) return [];
  return (['lcp', 'cls', 'tbt'] as const).flatMap(
    (key) => metricRow(METRICS[key], MARKETING_VITALS_SPECS[key], [home]) ?? [],
  );
}
