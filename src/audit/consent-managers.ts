// Consent managers a page loads, and Google Consent Mode defaults, recognised in the pages'
// scripts (URLs and inline text) by substring, never executed: what governs the trackers that
// trackers.ts finds.
import type { CrawledPage } from './crawler.ts';
import { pageScripts } from './trackers.ts';

export interface ConsentManager {
  name: string;
  /** Lowercase substrings of script URLs or inline script text. */
  marks: readonly string[];
}

export const CONSENT_MANAGERS: readonly ConsentManager[] = [
  { name: 'OneTrust', marks: ['onetrust', 'optanon'] },
  { name: 'Cookiebot', marks: ['cookiebot'] },
  { name: 'Usercentrics', marks: ['usercentrics'] },
  { name: 'Didomi', marks: ['didomi'] },
  { name: 'Osano', marks: ['osano.com'] },
  { name: 'TrustArc', marks: ['trustarc', 'truste.com'] },
  { name: 'Termly', marks: ['termly.io'] },
  { name: 'CookieYes', marks: ['cookieyes'] },
  { name: 'iubenda', marks: ['iubenda'] },
  { name: 'Complianz', marks: ['complianz'] },
  { name: 'Borlabs Cookie', marks: ['borlabs'] },
  { name: 'CookieFirst', marks: ['cookiefirst'] },
  { name: 'Cookie Information', marks: ['cookieinformation.com'] },
  { name: 'CookieHub', marks: ['cookiehub'] },
  { name: 'Axeptio', marks: ['axeptio'] },
  { name: 'Klaro', marks: ['klaro'] },
  { name: 'Sourcepoint', marks: ['sourcepoint', 'sp-prod.net'] },
  { name: 'Quantcast Choice', marks: ['quantcast.mgr.consensu.org', 'cmp.quantcast.com'] },
  { name: 'consentmanager', marks: ['consentmanager.net', 'delivery.consentmanager'] },
  { name: 'Civic Cookie Control', marks: ['civiccomputing.com'] },
  { name: 'Ketch', marks: ['ketchcdn.com', 'ketchjs'] },
  { name: 'HubSpot cookie banner', marks: ['js.hs-banner.com'] },
];

/**
 * Google Consent Mode with denied defaults: gtag('consent', 'default', ...). Read as text, with the
 * spaces and quotes people write, by a scan that never goes back (no pattern over the script).
 */
export function consentModeDefault(lower: string): boolean {
  let from = 0;
  for (;;) {
    const at = lower.indexOf('consent', from);
    if (at < 0) return false;
    from = at + 7;
    // Before: gtag( with optional spaces and a quote.
    let i = at - 1;
    if (lower[i] !== "'" && lower[i] !== '"') continue;
    i--;
    while (i >= 0 && lower[i] === ' ') i--;
    if (lower.slice(Math.max(0, i - 4), i + 1) !== 'gtag(') continue;
    // After: a quote, a comma and 'default'.
    let j = from;
    if (lower[j] !== "'" && lower[j] !== '"') continue;
    j++;
    while (j < lower.length && lower[j] === ' ') j++;
    if (lower[j] !== ',') continue;
    j++;
    while (j < lower.length && (lower[j] === ' ' || lower[j] === '\n')) j++;
    if (lower[j] !== "'" && lower[j] !== '"') continue;
    if (lower.startsWith('default', j + 1)) return true;
  }
}

/** The consent managers (and Consent Mode defaults) the pages' scripts show. */
export function findConsentManagers(pages: readonly CrawledPage[]): string[] {
  const found = new Set<string>();
  for (const page of pages) {
    for (const script of pageScripts(page)) {
      const lower = script.text.toLowerCase();
      for (const manager of CONSENT_MANAGERS) if (manager.marks.some((m) => lower.includes(m))) found.add(manager.name);
      if (script.inline && consentModeDefault(lower)) found.add('Google Consent Mode');
    }
  }
  return [...found];
}
