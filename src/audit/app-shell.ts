// An app shell: a page whose served HTML has little text and loads the application a browser runs
// to fill it (issue 25: recognised by what the page is, wherever its scripts come from). A docsify
// site serves `<div id="app"></div>` and its framework from a CDN; a Vue or React build serves the
// same mount point with its own bundle. Only a browser can tell what such a page shows, and only when
// the framework loads: a shell still empty in the browser could not be rendered (its score is unverified).
import type { CrawledPage } from './crawler.ts';
import { bound, type PageFacts, type PageScript } from './html.ts';
import type { ScriptFailure } from './render/renderer.ts';

/** Below this many characters of visible text a page says almost nothing without its scripts. */
export const THIN_TEXT = 200;
/**
 * Without a mount point, only a page that says next to nothing ("Loading…") waits for its scripts:
 * a short page with words of its own (a heading and a sentence) is a thin page, not an app shell,
 * whatever its scripts add (review of issue 25: 140 characters and a script that appends an image
 * were judged an app shell, unverified, "content only appears after JavaScript runs").
 */
export const BARE_TEXT = 50;

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
  if (!mounted && facts.textLength >= BARE_TEXT) return 0;
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

/** What a browser made of an app shell whose scripts did not build its content (render-site.ts sets it). */
export interface UnbuiltShell {
  /** Characters of text and scripts that build it in the served HTML. */
  servedText: number;
  shellScripts: number;
  /** The scripts that could build the page and did not load (measurement tags left out). */
  failedScripts: ScriptFailure[];
}

/** The failed scripts that could have built a page: a tag that did not load builds nothing. */
export function builders(failed: readonly ScriptFailure[], base: string): ScriptFailure[] {
  return failed.filter((script) => {
    const url = origin(script.url, base);
    return url !== undefined && !isTag(url);
  });
}

/**
 * A page served as an app shell that is still one in the browser, or undefined when its scripts built
 * it (or it was no app shell). Still one: little text after rendering, and its scripts built nothing:
 * the mount point is empty, no text was added to what was served ("Loading..." stays "Loading..."),
 * or a script that could build it did not load (a framework from a CDN the audit cannot reach).
 */
export function stillAShell(
  served: PageFacts,
  rendered: PageFacts,
  base: string,
  failed: readonly ScriptFailure[],
): UnbuiltShell | undefined {
  const scripts = shellScripts(served, base);
  if (scripts === 0 || rendered.textLength >= THIN_TEXT) return undefined;
  const failedScripts = builders(failed, base);
  const builtNothing =
    rendered.appMountEmpty === true || rendered.textLength <= served.textLength || failedScripts.length > 0;
  return builtNothing ? { servedText: served.textLength, shellScripts: scripts, failedScripts } : undefined;
}

/**
 * A rendered page that is still an app shell: its framework did not load or run, so only a browser
 * that ran it could say what the page shows. Its content is not judged, and the score is unverified.
 */
export const unbuiltAfterRendering = (page: CrawledPage | undefined): UnbuiltShell | undefined =>
  page?.rendered?.unbuilt;

/** The scripts that did not load, for a sentence: `URL (HTTP 404), URL (its host did not resolve)`. */
export function failedScriptsText(failed: readonly ScriptFailure[], max = 3): string {
  const named = failed.slice(0, max).map((script) => `${bound(script.url, 200)} (${script.reason})`);
  const more = failed.length > max ? ` and ${failed.length - max} more` : '';
  return `${named.join(', ')}${more}`;
}

/** Why an unbuilt shell stayed one, in a few words: the scripts that did not load, or none failed. */
export const whyUnbuilt = (unbuilt: UnbuiltShell): string =>
  unbuilt.failedScripts.length > 0
    ? `its scripts did not load: ${failedScriptsText(unbuilt.failedScripts)}`
    : 'its scripts ran but added no content';

/** Why a rendered home page leaves the score unverified, for the summary; undefined when it was built. */
export function notBuiltReason(page: CrawledPage | undefined): string | undefined {
  const unbuilt = unbuiltAfterRendering(page);
  if (!unbuilt) return undefined;
  const failed = unbuilt.failedScripts.length;
  return `the home page loaded in Chromium but its scripts did not build its content (${failed > 0 ? `${failed} script(s) did not load` : 'they ran but added none'})`;
}

/**
 * Answers of a start page behind a login, a preview wall or a firewall: the project's access
 * settings (issue 29) may get an audit through.
 */
export const GUARDED_STATUSES: ReadonlySet<number> = new Set([401, 403, 407]);

/**
 * Why nothing of the home page could be read, for the summary; undefined when it answered with
 * HTML. A guarded start page (GUARDED_STATUSES) needs the project's access settings, and saying
 * "an app shell" there would be wrong.
 */
export function unreadHomeReason(page: CrawledPage | undefined): string | undefined {
  const status = page?.fetched?.status;
  if (status === undefined || (status < 300 && page?.isHtml)) return undefined;
  if (GUARDED_STATUSES.has(status))
    return `the home page answered ${status} (a login, a preview wall or a firewall) and nothing of the site could be read; a site behind a login is audited with the project's access settings (siteaudit project access)`;
  if (status >= 300) return `the home page answered ${status} and nothing of the site could be read`;
  return 'the home page is not HTML and nothing of the site could be read';
}
