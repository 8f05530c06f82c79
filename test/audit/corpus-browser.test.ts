// The corpus truth checked against a browser (issue 10): Chromium parses each corpus page with
// scripting on and no network, and what its DOM and accessibility tree say must agree with
// truth.json for every concern a browser can decide on its own; the evidence selectors the
// engine gives must find their elements in Chromium's DOM.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ElementRef, parseHtml } from '../../src/audit/html.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';

const CORPUS = new URL('../fixtures/corpus/', import.meta.url);
const truth = JSON.parse(readFileSync(new URL('truth.json', CORPUS), 'utf8')) as {
  pages: Record<string, { fails: string[] }>;
};
const pageNames = Object.keys(truth.pages);

/**
 * Concerns a browser decides from its DOM; form labels, mixed content and meaningful alt text are
 * judged by rule, not by Chromium.
 */
const DOM_CONCERNS: Record<string, string> = {
  'title-present': `(() => { const t = [...document.querySelectorAll('title')].filter((e) => !e.closest('svg')); return t.length !== 1 || t[0].textContent.trim() === ''; })()`,
  'meta-description': `!document.head.querySelector('meta[name="description" i][content]')`,
  'html-lang': `!document.documentElement.lang`,
  'single-h1': `[...document.querySelectorAll('h1')].filter((h) => h.checkVisibility()).length !== 1`,
  'heading-order': `(() => { let p = 0; for (const h of document.querySelectorAll('h1,h2,h3,h4,h5,h6')) { const l = Number(h.tagName[1]); if (p > 0 && l > p + 1) return true; p = l; } return false; })()`,
  'main-landmark': `!document.querySelector('main, [role="main"]')`,
  'image-alt': `!!document.querySelector('img:not([alt])')`,
  'image-dimensions': `[...document.images].some((i) => !i.hasAttribute('width') || !i.hasAttribute('height'))`,
  'crawlable-links': `[...document.links].some((a) => /^\\s*javascript:/i.test(a.getAttribute('href')))`,
  'render-blocking-scripts': `!!document.head.querySelector('script[src]:not([async]):not([defer]):not([type="module"])')`,
  'doctype-standards-mode': `!document.doctype || document.doctype.name.toLowerCase() !== 'html' || document.doctype.publicId !== '' || document.doctype.systemId !== '' || document.compatMode !== 'CSS1Compat'`,
  'viewport-zoomable': `(() => { const m = document.head.querySelector('meta[name="viewport" i]'); if (!m) return true; const c = m.content.toLowerCase(); const max = /maximum-scale\\s*=\\s*([\\d.]+)/.exec(c); return !/(^|[,;\\s])(width|initial-scale)\\s*=/.test(c) || /user-scalable\\s*=\\s*(no|0)/.test(c) || (max !== null && Number(max[1]) < 2); })()`,
  'frame-title': `[...document.querySelectorAll('iframe, frame')].some((f) => !(f.getAttribute('title') || '').trim() && !(f.getAttribute('aria-label') || '').trim() && !f.getAttribute('aria-labelledby'))`,
  'list-structure': `[...document.querySelectorAll('ul:not([role]), ol:not([role])')].some((l) => [...l.children].some((c) => !['LI', 'SCRIPT', 'TEMPLATE'].includes(c.tagName))) || [...document.querySelectorAll('li:not([role])')].some((li) => !li.parentElement.matches('ul:not([role]), ol:not([role]), menu:not([role]), [role="list"], [role="presentation"], [role="none"]'))`,
  'duplicate-id-references': `(() => { const refs = new Set([...document.querySelectorAll('label[for]')].map((l) => l.htmlFor)); for (const e of document.querySelectorAll('[aria-labelledby], [aria-describedby]')) for (const id of \`\${e.getAttribute('aria-labelledby') ?? ''} \${e.getAttribute('aria-describedby') ?? ''}\`.split(/\\s+/)) if (id) refs.add(id); return [...refs].some((id) => document.querySelectorAll('#' + CSS.escape(id)).length > 1); })()`,
};

let browser: Browser;
let page: Page;

async function load(name: string): Promise<void> {
  await page.setContent(readFileSync(new URL(name, CORPUS), 'utf8'), { waitUntil: 'domcontentloaded' });
}

/** Roles with an empty accessible name in Chromium's own accessibility tree. */
async function unnamed(roles: readonly string[]): Promise<number> {
  const session = await page.context().newCDPSession(page);
  const { nodes } = (await session.send('Accessibility.getFullAXTree')) as {
    nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string } }>;
  };
  await session.detach();
  return nodes.filter((n) => !n.ignored && roles.includes(n.role?.value ?? '') && !n.name?.value?.trim()).length;
}

describe.skipIf(!hasChromium)('the corpus truth, as Chromium sees the pages', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    const context = await browser.newContext();
    // No network: subresources are refused at once, the inline scripts still run.
    await context.route('**/*', (route) => route.abort());
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(pageNames)('%s', async (name) => {
    await load(name);
    const fails = truth.pages[name]?.fails ?? [];
    for (const [concern, expression] of Object.entries(DOM_CONCERNS)) {
      expect(await page.evaluate(expression), `${name}: ${concern}`).toBe(fails.includes(concern));
    }
    expect((await unnamed(['link'])) > 0, `${name}: link-name`).toBe(fails.includes('link-name'));
    expect((await unnamed(['button'])) > 0, `${name}: button-name`).toBe(fails.includes('button-name'));

    const facts = parseHtml(readFileSync(new URL(name, CORPUS), 'utf8'));
    const refs: Array<[string, ElementRef]> = [
      ...facts.images.map((i): [string, ElementRef] => ['img', i.element]),
      ...facts.anchors.map((a): [string, ElementRef] => ['a', a.element]),
      ...facts.buttons.map((b): [string, ElementRef] => [
        b.element.snippet.toLowerCase().startsWith('<input') ? 'input' : 'button',
        b.element,
      ]),
      ...facts.fields.map((f): [string, ElementRef] => [f.element.snippet.slice(1).split(/[\s>]/)[0] ?? '', f.element]),
    ];
    for (const [tag, { selector }] of refs) {
      const matches = (await page.evaluate(
        `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.tagName.toLowerCase())`,
      )) as string[];
      expect(matches.length, `${name}: ${selector}`).toBeGreaterThan(0);
      expect(new Set(matches), `${name}: ${selector}`).toEqual(new Set([tag.toLowerCase()]));
      // A path that reaches the body or an id names one element (unless the page repeats that id,
      // which duplicate-id-references reports).
      const id = /^\w+#([\w-]+)/.exec(selector)?.[1];
      const repeated =
        id !== undefined && (await page.evaluate(`document.querySelectorAll('[id="${id}"]').length`)) !== 1;
      if (/^(body|html|\w+#)/.test(selector) && !repeated) expect(matches, `${name}: ${selector}`).toHaveLength(1);
    }
  });
});
