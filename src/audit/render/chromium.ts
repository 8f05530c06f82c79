// Finding and starting the system's Chromium for rendering (no browser download): the path in
// SITEAUDIT_CHROMIUM, else the usual install locations of Debian, Ubuntu, Fedora, Homebrew and macOS.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/homebrew/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** The Chromium to use, or undefined when none is installed. */
export function findChromium(configured = process.env.SITEAUDIT_CHROMIUM): string | undefined {
  if (configured) return existsSync(configured) ? configured : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * Headless, no sandbox (the renderer runs inside the service's own process boundary), no GPU, no
 * background traffic of its own (updates, sync, safe browsing), WebMCP on, and a V8 heap ceiling per renderer.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  // document.modelContext, so the tools a page registers by script can be read (webmcp-tools.ts).
  '--enable-features=WebMCP',
];

/**
 * The renderer's Chromium opens no connection of its own (issue 23). Every request a page makes is
 * intercepted and answered by the audit's fetcher, but some never reach interception: speculation
 * rules' prefetch and prerender, preconnect and DNS prefetch hints, the preconnect to a page being
 * navigated to, shared workers' requests, Chromium's own update and account checks. With every
 * name (IP literals included) resolving to nothing they fail before a DNS query or a connection;
 * WebRTC's UDP to a STUN or TURN address is not resolved, so it is refused by policy.
 */
export const NO_NETWORK_FLAGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

let driver: Promise<typeof import('playwright-core')> | undefined;

/**
 * The browser driver, loaded once. Loading it compiles and runs a large bundle synchronously (the
 * first run's longest event-loop stall was 0.45 to 0.53 s on a quiet machine, 1.5 s and more on a
 * loaded one), during which the process answers nothing and renews no lease: a service that renders
 * loads it as it starts (`preloadChromiumDriver`), before it takes work, rather than in the middle of
 * its first run. A service that never renders never loads it.
 */
function loadDriver(): Promise<typeof import('playwright-core')> {
  driver ??= import('playwright-core');
  return driver;
}

/** Loads the driver now, while nothing waits on this process (see loadDriver). */
export async function preloadChromiumDriver(): Promise<void> {
  await loadDriver();
}

/** `extraArgs` come last (tests: a net log, a proxy that counts what reaches it). */
export async function launchChromium(
  executablePath: string,
  heapMb: number,
  extraArgs: string[] = [],
): Promise<Browser> {
  const { chromium } = await loadDriver();
  return await chromium.launch({
    executablePath,
    args: [...CHROMIUM_FLAGS, ...NO_NETWORK_FLAGS, `--js-flags=--max-old-space-size=${heapMb}`, ...extraArgs],
  });
}
