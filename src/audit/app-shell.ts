// An app shell: a page whose served HTML has little text and loads the application a browser runs
// to fill it (issue 25: recognised by what the page is, wherever its scripts come from). A docsify
// site serves `<div id="app"></div>` and its framework from a CDN; a Vue or React build serves the
// same mount point with its own bundle. Only a browser can tell what such a page shows.
import type { CrawledPage } from './crawler.ts';
import type { PageFacts, PageScript } from './html.ts';

/** Below this many characters of visible text a page says almost nothing without its scripts. */
export const THIN_TEXT = 200;

/**
 * Hosts of tags that measure or advertise and never render content: a page that loads only these
 * has nothing for a browser to add, mount point or not.
 */
const TAG_HOSTS = [
  'googletagmanager.com',
  'google-analytics.com',
  'googleadservices.com',
  'googlesyndication.com',
  'doubleclick.net',
  'connect.facebook.net',
  'static.cloudflareinsights.com',
  'plausible.io',
  'cdn.usefathom.com',
  'cdn.segment.com',
  'snap.licdn.com',
  'bat.bing.com',
  'analytics.tiktok.com',
  'static.hotjar.com',
  'clarity.ms',
  'cdn.cookielaw.org',
  'consent.cookiebot.com',
];

function origin(src: string, base: string): URL | undefined {
  try {
    return new URL(src, base);
  } catch {
    return undefined;
  }
}

const isTag = (url: URL) => TAG_HOSTS.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));

/**
 * The scripts that can build a thin page's content: a module, a script of the page's own origin,
 * or, where the body has a mount point (`<div id="app">`, `<app-root>`), a script from any origin
 * that is not a measurement tag.
 */
export function shellScripts(facts: PageFacts, base: string): number {
  if (facts.textLength >= THIN_TEXT) return 0;
  const own = origin(base, base)?.origin;
  const mounted = Boolean(facts.appMount);
  const builds = (script: PageScript) => {
    if (script.module) return true;
    if (!script.src) return false;
    const url = origin(script.src, base);
    if (!url) return false;
    return url.origin === own || (mounted && !isTag(url));
  };
  return facts.scripts.filter(builds).length;
}

/**
 * The scripts of an app shell still to be run by a browser, or 0 when the page is no app shell. A
 * rendered page is what the browser showed: nothing is left for a browser to confirm.
 */
export function appShellScripts(page: CrawledPage | undefined): number {
  const facts = page?.facts;
  if (!facts || page.rendered) return 0;
  return shellScripts(facts, page.fetched?.url ?? page.url);
}

/**
 * A rendered page whose application left its mount point empty: thin, with an empty mount point and
 * the scripts that should have filled it (they may not have loaded). Only a browser that ran them could
 * say what the page shows, so the page's text is not judged.
 */
export function emptyAfterRendering(page: CrawledPage | undefined): boolean {
  const facts = page?.facts;
  if (!facts || !page.rendered || !facts.appMountEmpty) return false;
  return shellScripts(facts, page.fetched?.url ?? page.url) > 0;
}
