// What the public HTML says about the marketing stack: analytics, tag managers, ad pixels, consent
// managers, experimentation tools. Read from script URLs and inline scripts, never executed.
import type { CrawledPage } from '../crawler.ts';

interface Detector {
  name: string;
  pattern: RegExp;
}

export const ANALYTICS: Detector[] = [
  { name: 'Google Analytics 4', pattern: /\bG-[A-Z0-9]{6,12}\b/ },
  { name: 'Google Tag Manager', pattern: /\bGTM-[A-Z0-9]{4,10}\b/ },
  { name: 'Plausible', pattern: /plausible\.io\/js/ },
  { name: 'Matomo', pattern: /matomo\.js|piwik\.js|_paq\.push/ },
  { name: 'Fathom', pattern: /cdn\.usefathom\.com/ },
  { name: 'PostHog', pattern: /posthog/i },
  { name: 'Segment', pattern: /cdn\.segment\.com|analytics\.load\(/ },
  { name: 'Mixpanel', pattern: /mixpanel/i },
  { name: 'Amplitude', pattern: /amplitude/i },
  { name: 'Adobe Analytics', pattern: /assets\.adobedtm\.com|omniture|s_code\.js/i },
];
export const LEGACY_UA = /\bUA-\d{4,10}-\d{1,4}\b/;

export const AD_PIXELS: Detector[] = [
  // The loader's path is short (en_US/fbevents.js): an unbounded [^"']* rescanned script text from
  // each connect.facebook.net/ (quadratic).
  { name: 'Meta Pixel', pattern: /connect\.facebook\.net\/[^"']{0,100}fbevents|fbq\(\s*['"]init/ },
  { name: 'LinkedIn Insight', pattern: /snap\.licdn\.com|_linkedin_partner_id/ },
  { name: 'Google Ads', pattern: /\bAW-\d{6,12}\b/ },
  { name: 'Microsoft UET', pattern: /bat\.bing\.com/ },
  { name: 'TikTok Pixel', pattern: /analytics\.tiktok\.com|ttq\.load/ },
];

export const CONSENT_MANAGERS: Detector[] = [
  { name: 'OneTrust', pattern: /onetrust|optanon/i },
  { name: 'Cookiebot', pattern: /cookiebot/i },
  { name: 'Usercentrics', pattern: /usercentrics/i },
  { name: 'Didomi', pattern: /didomi/i },
  { name: 'Osano', pattern: /osano/i },
  { name: 'TrustArc', pattern: /trustarc|truste\.com/i },
  { name: 'Termly', pattern: /termly/i },
  { name: 'CookieYes', pattern: /cookieyes/i },
  { name: 'iubenda', pattern: /iubenda/i },
  { name: 'Google Consent Mode', pattern: /gtag\(\s*['"]consent['"]\s*,\s*['"]default['"]/ },
];

export const EXPERIMENTATION: Detector[] = [
  { name: 'Optimizely', pattern: /optimizely/i },
  { name: 'VWO', pattern: /visualwebsiteoptimizer|vwo_/i },
  { name: 'Hotjar', pattern: /hotjar/i },
  { name: 'Microsoft Clarity', pattern: /clarity\.ms/ },
  { name: 'FullStory', pattern: /fullstory/i },
  { name: 'Qualtrics', pattern: /qualtrics/i },
];

export const TRACKING_COOKIE =
  /^(_ga|_gid|_gcl_au|_fbp|_fbc|_hjid|_hjSession\w*|ajs_\w+|_uetsid|_uetvid|_ttp|li_fat_id)$/;

/** Everything script-like a page shows: script URLs and the first part of each inline script. */
export function scriptText(page: CrawledPage): string {
  const facts = page.facts;
  if (!facts) return '';
  return [...facts.scripts.map((s) => s.src ?? ''), ...facts.inlineScripts, ...facts.iframes].join('\n');
}

export function detect(detectors: Detector[], text: string): string[] {
  return detectors.filter((d) => d.pattern.test(text)).map((d) => d.name);
}
