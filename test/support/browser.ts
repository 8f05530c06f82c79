// Headless Chromium from Debian, driven by playwright-core (no browser download).
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../src/audit/render/chromium.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  process.stderr.write(`\n${CHROMIUM} is not installed (apt-get install chromium): the browser tests are skipped.\n\n`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}
