// `npx @axe-core/cli URL --rules a,b` offline, for the verify-line test: the package is not installed
// and npx cannot fetch it here, so the same thing is done by hand: the page loaded in the system's
// Chromium (playwright-core, as test/support/browser.ts), the installed axe-core injected as
// src/audit/render/axe.ts does, only the named rules run, and the result printed the way
// @axe-core/cli prints it ("N Accessibility issues detected." or "0 violations found!", exit 0).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../../src/audit/render/chromium.ts';

const args = process.argv.slice(2);
const url = args.find((a) => !a.startsWith('-') && args[args.indexOf(a) - 1] !== '--rules');
const rulesAt = args.indexOf('--rules');
const rules = rulesAt >= 0 ? (args[rulesAt + 1] ?? '').split(',').filter(Boolean) : [];
if (!url) {
  process.stderr.write('usage: npx @axe-core/cli URL [--rules a,b]\n');
  process.exit(2);
}

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const version = (JSON.parse(readFileSync(require.resolve('axe-core/package.json'), 'utf8')) as { version: string })
  .version;

interface Violation {
  id: string;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[] }>;
}

const browser = await chromium.launch({
  executablePath: process.env.VERIFY_CHROMIUM ?? '/usr/bin/chromium',
  args: CHROMIUM_FLAGS,
});
try {
  const page = await browser.newPage();
  process.stdout.write(`Running axe-core ${version} in chrome-headless\n`);
  process.stdout.write(`Testing ${url} ... please wait, this may take a minute.\n`);
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await page.evaluate(source);
  const violations = await page.evaluate(async (only) => {
    const axe = (globalThis as unknown as { axe: { run: (...a: unknown[]) => Promise<{ violations: unknown[] }> } })
      .axe;
    const options = only.length > 0 ? { runOnly: { type: 'rule', values: only } } : {};
    return (await axe.run((globalThis as unknown as { document: unknown }).document, options)).violations;
  }, rules);
  const list = violations as Violation[];
  if (list.length === 0) {
    process.stdout.write('\n  0 violations found!\n');
  } else {
    for (const v of list) {
      process.stdout.write(`\n  Violation of "${v.id}" with ${v.nodes.length} occurrences!\n`);
      process.stdout.write(`    ${v.help}. Correct invalid elements at:\n`);
      for (const node of v.nodes) process.stdout.write(`     - ${node.target.map(String).join(' ')}\n`);
      process.stdout.write(`    For details, see: ${v.helpUrl}\n`);
    }
    process.stdout.write(`\n${list.length} Accessibility issues detected.\n`);
  }
} finally {
  await browser.close();
}
