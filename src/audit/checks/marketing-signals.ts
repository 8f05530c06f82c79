// What the public HTML says about the marketing stack, as text: the tracker catalogue
// (../trackers.ts) grouped the way the marketing checks ask about it (analytics, ad pixels,
// consent managers, experimentation), and the cookie names trackers set. The checks read pages
// through ../trackers.ts, which keeps each script's element; this text view serves callers that
// hold only script text (the parser fuzz tests).

import { consentModeDefault, CONSENT_MANAGERS as MANAGERS } from '../consent-managers.ts';
import type { CrawledPage } from '../crawler.ts';
import { TRACKERS, type TrackerKind } from '../trackers.ts';

export interface Detector {
  name: string;
  /** Whether script text (URLs and inline scripts) shows it. */
  test: (text: string) => boolean;
}

function trackerDetectors(kinds: readonly TrackerKind[]): Detector[] {
  return TRACKERS.filter((t) => kinds.includes(t.kind)).map((tracker) => ({
    name: tracker.name,
    test: (text: string) => {
      const lower = text.toLowerCase();
      if ([...tracker.src, ...tracker.inline].some((s) => lower.includes(s))) return true;
      if (!tracker.ids || (tracker.idContext && !tracker.idContext.some((c) => lower.includes(c)))) return false;
      tracker.ids.lastIndex = 0;
      return tracker.ids.test(text);
    },
  }));
}

/** Analytics, tag managers and marketing automation (which measures visits too). */
export const ANALYTICS: Detector[] = trackerDetectors(['analytics', 'tag_manager', 'marketing_automation']);
export const AD_PIXELS: Detector[] = trackerDetectors(['advertising']);
export const EXPERIMENTATION: Detector[] = trackerDetectors(['session_recording', 'experimentation']);
export const CONSENT_MANAGERS: Detector[] = [
  ...MANAGERS.map((m) => ({
    name: m.name,
    test: (text: string) => m.marks.some((s) => text.toLowerCase().includes(s)),
  })),
  { name: 'Google Consent Mode', test: (text: string) => consentModeDefault(text.toLowerCase()) },
];
export const LEGACY_UA = /\bUA-\d{4,10}-\d{1,4}\b/;

/** Cookies analytics and ad tags set (GA4 adds `_ga_<id>`; Clarity, HubSpot, Matomo, Yandex their own). */
/** Tracking cookie names, as patterns that read the same in JavaScript and in grep -E (the verify line). */
export const TRACKING_COOKIE_PATTERNS: readonly string[] = [
  '_ga',
  '_ga_[A-Za-z0-9_]+',
  '_gid',
  '_gat[A-Za-z0-9_]*',
  '_gcl_au',
  '_fbp',
  '_fbc',
  '_hjid',
  '_hjSession[A-Za-z0-9_]*',
  'ajs_[A-Za-z0-9_]+',
  '_uetsid',
  '_uetvid',
  '_ttp',
  'li_fat_id',
  '_clck',
  '_clsk',
  '__hstc',
  'hubspotutk',
  '_pk_id[.][A-Za-z0-9_.]+',
  '_ym_uid',
  '_pin_unauth',
  '_scid',
  '_rdt_uuid',
];
// The same names as one literal (the ReDoS gate reviews literals; test/audit/tracking-verify-lines.test.ts
// holds it equal to the list).
export const TRACKING_COOKIE =
  /^(_ga|_ga_[A-Za-z0-9_]+|_gid|_gat[A-Za-z0-9_]*|_gcl_au|_fbp|_fbc|_hjid|_hjSession[A-Za-z0-9_]*|ajs_[A-Za-z0-9_]+|_uetsid|_uetvid|_ttp|li_fat_id|_clck|_clsk|__hstc|hubspotutk|_pk_id[.][A-Za-z0-9_.]+|_ym_uid|_pin_unauth|_scid|_rdt_uuid)$/;

/** The trackers that measure visits (mk-analytics). */
export const MEASURING: readonly TrackerKind[] = ['analytics', 'tag_manager', 'marketing_automation'];

/** Everything script-like a page shows: script URLs, inline scripts and frame URLs. */
export function scriptText(page: CrawledPage): string {
  const facts = page.facts;
  if (!facts) return '';
  return [...facts.scripts.map((s) => s.src ?? ''), ...facts.inlineScripts, ...facts.iframes].join('\n');
}

export function detect(detectors: readonly Detector[], text: string): string[] {
  return detectors.filter((d) => d.test(text)).map((d) => d.name);
}
