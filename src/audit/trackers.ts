// The tracking tools a page loads, recognised by the script that loads them (its URL) and by their
// ids and calls in inline script text, never executed (issue 25: pages on Universal Analytics were
// told "tracking ()", naming nothing). Each hit keeps the <script> (or frame) element as evidence.
// Site text is hostile: matching is by substring, and the id patterns are bounded and anchored.
import type { CrawledPage } from './crawler.ts';
import type { ElementRef } from './html.ts';

export type TrackerKind =
  | 'analytics'
  | 'tag_manager'
  | 'advertising'
  | 'session_recording'
  | 'experimentation'
  | 'marketing_automation';

export interface Tracker {
  name: string;
  kind: TrackerKind;
  /** Cookieless by design (no cookie, no cross-site id): nothing for a consent banner to gate. */
  cookieless?: true;
  /** Lowercase substrings of a script's (or frame's) URL that load it. */
  src: readonly string[];
  /** Lowercase substrings of inline script text that install it. */
  inline: readonly string[];
  /** Its ids (global, bounded; the first group when there is one): found in a URL or inline script, they name the tracker on their own. */
  ids?: RegExp;
  /** Ids count only in a script that also contains one of these (lowercase): G-... is a short pattern. */
  idContext?: readonly string[];
}

const GOOGLE_TAG = ['googletagmanager.com', 'gtag(', 'google-analytics.com'];

export const TRACKERS: readonly Tracker[] = [
  // Google
  {
    name: 'Universal Analytics',
    kind: 'analytics',
    src: ['google-analytics.com/analytics.js', 'google-analytics.com/ga.js', 'stats.g.doubleclick.net/dc.js'],
    inline: ['google-analytics.com/analytics.js', 'google-analytics.com/ga.js', '_gaq.push', "ga('create'"],
    ids: /\bUA-\d{4,10}-\d{1,4}\b/g,
  },
  {
    name: 'Google Analytics 4',
    kind: 'analytics',
    src: [],
    inline: [],
    ids: /\bG-[A-Z0-9]{6,12}\b/g,
    idContext: GOOGLE_TAG,
  },
  {
    name: 'Google Tag Manager',
    kind: 'tag_manager',
    src: ['googletagmanager.com/gtm.js', 'googletagmanager.com/ns.html'],
    inline: ['googletagmanager.com/gtm.js'],
    ids: /\bGTM-[A-Z0-9]{4,10}\b/g,
  },
  {
    name: 'Google Ads',
    kind: 'advertising',
    src: ['googleadservices.com/pagead/conversion'],
    inline: ['googleadservices.com/pagead/conversion'],
    ids: /\bAW-\d{6,12}\b/g,
  },
  // Advertising pixels
  {
    name: 'Meta Pixel',
    kind: 'advertising',
    src: ['/fbevents.js'],
    inline: ['/fbevents.js', "fbq('init'", 'fbq("init"'],
    ids: /fbq\(\s{0,3}['"]init['"]\s{0,3},\s{0,3}['"](\d{6,20})['"]/g,
  },
  {
    name: 'LinkedIn Insight',
    kind: 'advertising',
    src: ['snap.licdn.com/li.lms-analytics', 'px.ads.linkedin.com'],
    inline: ['_linkedin_partner_id', 'snap.licdn.com/li.lms-analytics'],
    ids: /_linkedin_partner_id\s{0,3}=\s{0,3}["'](\d{3,12})["']/g,
  },
  {
    name: 'TikTok Pixel',
    kind: 'advertising',
    src: ['analytics.tiktok.com'],
    inline: ['analytics.tiktok.com', 'ttq.load('],
    ids: /ttq\.load\(\s{0,3}['"]([A-Z0-9]{10,30})['"]/g,
  },
  { name: 'Microsoft UET', kind: 'advertising', src: ['bat.bing.com'], inline: ['bat.bing.com'] },
  { name: 'Pinterest Tag', kind: 'advertising', src: ['s.pinimg.com/ct/'], inline: ['s.pinimg.com/ct/'] },
  { name: 'X Pixel', kind: 'advertising', src: ['static.ads-twitter.com'], inline: ['static.ads-twitter.com'] },
  { name: 'Snap Pixel', kind: 'advertising', src: ['sc-static.net/scevent'], inline: ['sc-static.net/scevent'] },
  { name: 'Reddit Pixel', kind: 'advertising', src: ['redditstatic.com/ads/'], inline: ['redditstatic.com/ads/'] },
  // Analytics
  {
    name: 'Matomo',
    kind: 'analytics',
    src: ['matomo.js', 'piwik.js', 'matomo.cloud'],
    inline: ['_paq.push', 'matomo.js', 'piwik.js'],
  },
  {
    name: 'Plausible',
    kind: 'analytics',
    cookieless: true,
    src: ['plausible.io/js', '/js/plausible.'],
    inline: ['plausible.io/js'],
  },
  { name: 'Fathom', kind: 'analytics', cookieless: true, src: ['usefathom.com'], inline: ['cdn.usefathom.com'] },
  {
    name: 'Simple Analytics',
    kind: 'analytics',
    cookieless: true,
    src: ['simpleanalyticscdn.com'],
    inline: ['simpleanalyticscdn.com'],
  },
  { name: 'Umami', kind: 'analytics', cookieless: true, src: ['umami.is/', '/umami.js'], inline: ['umami.is/'] },
  { name: 'GoatCounter', kind: 'analytics', cookieless: true, src: ['gc.zgo.at/', 'goatcounter.com'], inline: [] },
  {
    name: 'Cloudflare Web Analytics',
    kind: 'analytics',
    cookieless: true,
    src: ['static.cloudflareinsights.com/beacon'],
    inline: [],
  },
  {
    name: 'Segment',
    kind: 'analytics',
    src: ['cdn.segment.com'],
    inline: ['cdn.segment.com', 'analytics.load('],
    ids: /analytics\.load\(\s{0,3}["']([A-Za-z0-9]{10,40})["']/g,
  },
  { name: 'PostHog', kind: 'analytics', src: ['posthog.com', 'posthog-js'], inline: ['posthog.init('] },
  { name: 'Mixpanel', kind: 'analytics', src: ['cdn.mxpnl.com', 'mixpanel'], inline: ['mixpanel.init('] },
  {
    name: 'Amplitude',
    kind: 'analytics',
    src: ['cdn.amplitude.com', 'amplitude.com/libs'],
    inline: ['amplitude.getinstance(', 'amplitude.init('],
  },
  { name: 'Heap', kind: 'analytics', src: ['cdn.heapanalytics.com'], inline: ['heap.load('] },
  {
    name: 'Adobe Analytics',
    kind: 'analytics',
    src: ['assets.adobedtm.com', 's_code.js', 'omniture'],
    inline: ['assets.adobedtm.com', 's_gi('],
  },
  {
    name: 'Yandex Metrica',
    kind: 'analytics',
    src: ['mc.yandex.ru/metrika', 'mc.yandex.com/metrika'],
    inline: ['mc.yandex.ru/metrika', 'mc.yandex.com/metrika'],
  },
  {
    name: 'Baidu Tongji',
    kind: 'analytics',
    src: ['hm.baidu.com/hm.js'],
    inline: ['hm.baidu.com/hm.js'],
    ids: /hm\.baidu\.com\/hm\.js\?([a-f0-9]{32})/g,
  },
  {
    name: 'HubSpot',
    kind: 'marketing_automation',
    src: ['js.hs-scripts.com', 'js.hs-analytics.net', 'js.hsadspixel.net'],
    inline: ['js.hs-scripts.com', 'js.hs-analytics.net', '_hsq.push'],
    ids: /js\.hs-scripts\.com\/(\d{3,12})\.js/g,
  },
  // Heatmaps and session recording
  {
    name: 'Hotjar',
    kind: 'session_recording',
    src: ['static.hotjar.com'],
    inline: ['static.hotjar.com', '_hjsettings'],
    ids: /hjid\s{0,3}:\s{0,3}(\d{4,12})/g,
  },
  {
    name: 'Microsoft Clarity',
    kind: 'session_recording',
    src: ['clarity.ms/'],
    inline: ['clarity.ms/'],
    ids: /clarity\.ms\/tag\/([a-z0-9]{6,16})/g,
  },
  {
    name: 'FullStory',
    kind: 'session_recording',
    src: ['fullstory.com/s/fs.js'],
    inline: ['_fs_org', 'fullstory.com'],
  },
  { name: 'Mouseflow', kind: 'session_recording', src: ['cdn.mouseflow.com'], inline: ['cdn.mouseflow.com'] },
  { name: 'Crazy Egg', kind: 'session_recording', src: ['script.crazyegg.com'], inline: ['script.crazyegg.com'] },
  { name: 'Lucky Orange', kind: 'session_recording', src: ['luckyorange.'], inline: ['luckyorange.'] },
  // Experimentation and surveys
  { name: 'Optimizely', kind: 'experimentation', src: ['optimizely.com'], inline: ['optimizely.com'] },
  {
    name: 'VWO',
    kind: 'experimentation',
    src: ['visualwebsiteoptimizer.com'],
    inline: ['visualwebsiteoptimizer.com', '_vwo_code'],
  },
  { name: 'AB Tasty', kind: 'experimentation', src: ['abtasty.com'], inline: ['abtasty.com'] },
  { name: 'Google Optimize', kind: 'experimentation', src: ['googleoptimize.com'], inline: ['googleoptimize.com'] },
  { name: 'Qualtrics', kind: 'experimentation', src: ['qualtrics.com'], inline: ['qualtrics.com'] },
];

/** One tracker on one page: the ids it carries and the element that loads or installs it. */
export interface TrackerHit {
  tracker: Tracker;
  page: string;
  ids: string[];
  /** The <script> (or frame) element; absent past the page's element lists. */
  element?: ElementRef;
  /** For an inline script, the text around what installs the tracker (bounded, whitespace collapsed). */
  excerpt?: string;
}

const IDS_MAX = 5;

const EXCERPT_BEFORE = 30;
const EXCERPT_AFTER = 60;

function idsIn(tracker: Tracker, text: string, lower: string): { ids: string[]; at: number } {
  if (!tracker.ids) return { ids: [], at: -1 };
  if (tracker.idContext && !tracker.idContext.some((c) => lower.includes(c))) return { ids: [], at: -1 };
  const ids = new Set<string>();
  let at = -1;
  for (const match of text.matchAll(tracker.ids)) {
    if (at < 0) at = match.index;
    ids.add(match[1] ?? match[0]);
    if (ids.size >= IDS_MAX) break;
  }
  return { ids: [...ids], at };
}

/** Whether one script (its URL or its inline text) installs the tracker, with which ids, and where. */
function scriptHit(
  tracker: Tracker,
  text: string,
  lower: string,
  inline: boolean,
): { ids: string[]; at: number } | undefined {
  const found = idsIn(tracker, text, lower);
  let at = found.at;
  for (const mark of inline ? tracker.inline : tracker.src) {
    if (at >= 0) break;
    at = lower.indexOf(mark);
  }
  return at >= 0 ? { ids: found.ids, at } : undefined;
}

const WORD_CHAR = /[\w$]/;

/**
 * Where the excerpt before a match starts: at the start of the statement the match is in (after a
 * `;`, brace or line break), else after a space, else at the match: never inside a token, as
 * `…js','ga');ga('create',` began inside `analytics.js`.
 */
function excerptStart(text: string, at: number): number {
  const from = Math.max(0, at - EXCERPT_BEFORE);
  if (from === 0) return 0;
  let space = -1;
  for (let i = at - 1; i >= from; i--) {
    const c = text[i] as string;
    if (c === ';' || c === '{' || c === '}' || c === '\n' || c === '\r') return i + 1;
    if (space < 0 && (c === ' ' || c === '\t')) space = i + 1;
  }
  return space >= 0 ? space : at;
}

/** The text around a match, from the start of its statement and ending between words (never mid-identifier). */
function excerptAt(text: string, at: number): string {
  const start = excerptStart(text, at);
  let end = Math.min(text.length, at + EXCERPT_AFTER);
  if (end < text.length) while (end > at + 1 && WORD_CHAR.test(text[end] as string)) end--;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/** The scripts and frames of a page, as text with the element each came from. */
export function pageScripts(page: CrawledPage): Array<{ text: string; inline: boolean; element?: ElementRef }> {
  const facts = page.facts;
  if (!facts) return [];
  const out: Array<{ text: string; inline: boolean; element?: ElementRef }> = [];
  // facts.scripts lists inline scripts in the order facts.inlineScripts holds their text.
  let inlineIndex = 0;
  for (const script of facts.scripts) {
    if (script.src !== null) out.push({ text: script.src, inline: false, element: script.element });
    else {
      const text = facts.inlineScripts[inlineIndex++];
      if (text !== undefined) out.push({ text, inline: true, element: script.element });
    }
  }
  for (; inlineIndex < facts.inlineScripts.length; inlineIndex++)
    out.push({ text: facts.inlineScripts[inlineIndex] as string, inline: true });
  for (const frame of facts.frames) if (frame.src) out.push({ text: frame.src, inline: false, element: frame.element });
  return out;
}

/** Every tracker each page loads: one hit per tracker and page, with its first element and its ids. */
export function findTrackers(pages: readonly CrawledPage[]): TrackerHit[] {
  const hits: TrackerHit[] = [];
  for (const page of pages) {
    const own = new Map<Tracker, TrackerHit>();
    for (const script of pageScripts(page)) {
      const lower = script.text.toLowerCase();
      for (const tracker of TRACKERS) {
        const found = scriptHit(tracker, script.text, lower, script.inline);
        if (!found) continue;
        const { ids } = found;
        const hit = own.get(tracker);
        if (!hit) {
          own.set(tracker, {
            tracker,
            page: page.url,
            ids,
            ...(script.element ? { element: script.element } : {}),
            ...(script.inline ? { excerpt: excerptAt(script.text, found.at) } : {}),
          });
        } else {
          for (const id of ids) if (!hit.ids.includes(id) && hit.ids.length < IDS_MAX) hit.ids.push(id);
          if (!hit.element && script.element) hit.element = script.element;
        }
      }
    }
    hits.push(...own.values());
  }
  return hits;
}

/** Tracker names in catalogue order, each once. */
export function trackerNames(hits: readonly TrackerHit[]): string[] {
  const present = new Set(hits.map((h) => h.tracker));
  return TRACKERS.filter((t) => present.has(t)).map((t) => t.name);
}

/** A tracker named with its ids: "Google Analytics 4 (G-ABC1234567)". */
export function trackerLabel(hit: TrackerHit): string {
  return hit.ids.length > 0 ? `${hit.tracker.name} (${hit.ids.join(', ')})` : hit.tracker.name;
}

/** The first hit of each tracker across pages (the page where it was first seen). */
export function firstHits(hits: readonly TrackerHit[]): TrackerHit[] {
  const seen = new Map<Tracker, TrackerHit>();
  for (const hit of hits) if (!seen.has(hit.tracker)) seen.set(hit.tracker, hit);
  return TRACKERS.flatMap((t) => {
    const hit = seen.get(t);
    return hit ? [hit] : [];
  });
}
