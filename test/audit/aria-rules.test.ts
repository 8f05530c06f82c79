// The ARIA and naming rules axe runs, judged on served HTML (issue 25): each shape below is judged
// by our static rules and by axe-core itself in Chromium, and the two must agree rule by rule; the
// vendored role tables must equal the installed axe-core's; placeholder-only fields are their own,
// milder finding; and what a hidden subtree holds is left out as axe leaves it out.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AXE_CORE_VERSION,
  GLOBAL_ARIA_ATTRS,
  LANDMARK_ROLES,
  REQUIRED_CONTEXT,
  REQUIRED_OWNED,
  VALID_ROLES,
} from '../../src/audit/aria-roles.ts';
import { type PageFacts, parseHtml } from '../../src/audit/html.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { openBounded } from '../support/time-bound.ts';

const require = createRequire(import.meta.url);

/** Our check for each axe rule of this suite. */
const CHECK_OF_RULE: Record<string, string> = {
  list: 'list-structure',
  listitem: 'list-structure',
  'aria-required-parent': 'aria-required-parent',
  'aria-required-children': 'aria-required-children',
  'svg-img-alt': 'svg-img-alt',
  'role-img-alt': 'role-img-alt',
  'landmark-unique': 'landmark-unique',
};
const RULES = Object.keys(CHECK_OF_RULE);

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Shapes</title></head><body><main><h1>Shapes</h1>${body}</main></body></html>`;

/** [shape, markup, the checks it fails] */
const SHAPES: Array<[string, string, string[]]> = [
  [
    'Bootstrap 4 tabs: <li> between the tablist and its tabs',
    '<ul class="nav nav-tabs" role="tablist"><li class="nav-item"><a class="nav-link" role="tab" href="#a">A</a></li><li class="nav-item"><a class="nav-link" role="tab" href="#b">B</a></li></ul>',
    ['list-structure', 'aria-required-children', 'aria-required-parent'],
  ],
  [
    'Bootstrap 5 tabs: <li role="presentation"> in between',
    '<ul class="nav nav-tabs" role="tablist"><li class="nav-item" role="presentation"><button class="nav-link" role="tab" type="button">A</button></li></ul>',
    [],
  ],
  ['a tab with no tablist', '<div role="tab">Alone</div>', ['aria-required-parent']],
  ['options in a listbox', '<div role="listbox" aria-label="Size"><div role="option">S</div></div>', []],
  ['an option with no listbox', '<div role="option">S</div>', ['aria-required-parent']],
  [
    'menu items in a group in a menu',
    '<div role="menu"><div role="group"><div role="menuitem">Open</div></div></div>',
    [],
  ],
  [
    'a WordPress menu of role menu holding plain list items',
    '<ul role="menu"><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul>',
    ['aria-required-children', 'list-structure'],
  ],
  ['an empty list of role list (axe leaves it for review)', '<div role="list"></div>', []],
  ['a list of role list holding text', '<div role="list"><div>Styled item</div></div>', ['aria-required-children']],
  [
    'a nested tree through groups',
    '<div role="tree" aria-label="Files"><div role="treeitem">src<div role="group"><div role="treeitem">a.ts</div></div></div></div>',
    [],
  ],
  ['a table of role grid', '<table role="grid"><tr><td>1</td></tr></table>', []],
  [
    'aria-owns gives the tablist its tab',
    '<div role="tablist" aria-owns="t1"></div><div role="tab" id="t1">One</div>',
    [],
  ],
  ['an ordered list of tabs', '<ol><li role="tab">One</li></ol>', ['list-structure', 'aria-required-parent']],
  ['text directly in a list', '<ul><li>One</li>stray words</ul>', ['list-structure']],
  ['a presentational list', '<ul role="none"><li>One</li></ul>', []],
  ['list items in a hidden subtree', '<div hidden><li>One</li></div><div aria-hidden="true"><li>Two</li></div>', []],
  ['an svg image with no name', '<svg role="img" viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>', ['svg-img-alt']],
  ['an svg image with an alt attribute', '<svg role="img" alt="Logo"><path d=""/></svg>', ['svg-img-alt']],
  ['an svg image with a <title>', '<svg role="img"><title>Logo</title><path d=""/></svg>', []],
  [
    'an svg image named by aria-labelledby',
    '<p id="cap">Sales by month</p><svg role="img" aria-labelledby="cap"><path d=""/></svg>',
    [],
  ],
  ['a span of role img with no name', '<span class="stars" role="img"></span>', ['role-img-alt']],
  ['a span of role img with a title', '<span class="flag" role="img" title="Germany"></span>', []],
  ['a role img in an aria-hidden subtree', '<div aria-hidden="true"><span role="img"></span></div>', []],
  ['two unnamed navs', '<nav><a href="/a">A</a></nav><nav><a href="/b">B</a></nav>', ['landmark-unique']],
  [
    'two navs with one name, in any case',
    '<nav aria-label="Primary Menu"><a href="/a">A</a></nav><nav role="navigation" aria-label="primary menu"><a href="/b">B</a></nav>',
    ['landmark-unique'],
  ],
  [
    'two navs with their own names',
    '<nav aria-label="Main"><a href="/a">A</a></nav><nav aria-label="Footer"><a href="/b">B</a></nav>',
    [],
  ],
  [
    'two search forms',
    '<form role="search"><input aria-label="q"></form><form role="search"><input aria-label="r"></form>',
    ['landmark-unique'],
  ],
  [
    'headers inside articles are no banners',
    '<article><header>One</header></article><article><header>Two</header></article>',
    [],
  ],
];

/** The checks our static rules fail on a page (the ARIA facts of parseHtml). */
function staticVerdicts(markup: string): string[] {
  const facts = parseHtml(markup);
  const failed = new Set<string>();
  if (facts.listOffences.length > 0) failed.add('list-structure');
  if (facts.aria.requiredParent.length > 0) failed.add('aria-required-parent');
  if (facts.aria.requiredChildren.length > 0) failed.add('aria-required-children');
  if (facts.aria.svgImgAlt.length > 0) failed.add('svg-img-alt');
  if (facts.aria.roleImgAlt.length > 0) failed.add('role-img-alt');
  if (facts.aria.landmarkUnique.length > 0) failed.add('landmark-unique');
  return [...failed].sort();
}

describe('the static ARIA rules', () => {
  it.each(SHAPES)('%s', (_shape, body, fails) => {
    expect(staticVerdicts(page(body))).toEqual([...fails].sort());
  });

  it('vendors axe-core’s role tables unchanged, for the axe-core installed', () => {
    const axe = require('axe-core') as {
      version: string;
      utils: {
        getStandards(): {
          ariaRoles: Record<string, { type: string; requiredContext?: string[]; requiredOwned?: string[] }>;
          ariaAttrs: Record<string, { global?: boolean }>;
        };
      };
    };
    expect(AXE_CORE_VERSION).toBe(axe.version);
    const { ariaRoles, ariaAttrs } = axe.utils.getStandards();
    const roles = Object.entries(ariaRoles);
    expect([...VALID_ROLES].sort()).toEqual(
      roles
        .filter(([role, def]) => def.type !== 'abstract' && !role.startsWith('doc-'))
        .map(([role]) => role)
        .sort(),
    );
    expect(REQUIRED_CONTEXT).toEqual(
      Object.fromEntries(roles.filter(([, def]) => def.requiredContext).map(([r, def]) => [r, def.requiredContext])),
    );
    expect(REQUIRED_OWNED).toEqual(
      Object.fromEntries(roles.filter(([, def]) => def.requiredOwned).map(([r, def]) => [r, def.requiredOwned])),
    );
    expect([...LANDMARK_ROLES].sort()).toEqual(
      roles
        .filter(([role, def]) => def.type === 'landmark' && !role.startsWith('doc-'))
        .map(([role]) => role)
        .sort(),
    );
    expect([...GLOBAL_ARIA_ATTRS].sort()).toEqual(
      Object.entries(ariaAttrs)
        .filter(([, def]) => def.global)
        .map(([name]) => name)
        .sort(),
    );
  });

  it('names the offending elements and says what each lacks', () => {
    const facts = parseHtml(page(SHAPES[0]?.[1] ?? ''));
    expect(facts.aria.requiredChildren).toEqual([
      {
        what: 'role tablist owns <li> of role listitem, where only tab may be',
        element: { selector: 'body > main > ul.nav.nav-tabs', snippet: '<ul class="nav nav-tabs" role="tablist">' },
      },
    ]);
    expect(facts.aria.requiredParent.map((o) => o.what)).toEqual([
      '<a> of role tab is not inside tablist (its nearest role is listitem)',
      '<a> of role tab is not inside tablist (its nearest role is listitem)',
    ]);
    expect(facts.listOffences.map((o) => o.what)).toEqual([
      '<li> inside a <ul> of role “tablist”, which is no list',
      '<li> inside a <ul> of role “tablist”, which is no list',
    ]);
    const landmarks = parseHtml(page(SHAPES[24]?.[1] ?? '')).aria.landmarkUnique;
    expect(landmarks.map((o) => o.what)).toEqual(['2 navigation landmarks named “Primary Menu”']);
  });
});

describe.skipIf(!hasChromium)('the static ARIA rules agree with axe-core in Chromium', () => {
  let browser: Browser;
  let tab: Page;
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.route('**/*', (route) => route.abort());
    tab = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The checks axe's violations of this suite's rules stand for. */
  async function axeVerdicts(markup: string): Promise<string[]> {
    await tab.setContent(markup, { waitUntil: 'domcontentloaded' });
    await tab.evaluate(axeSource);
    const ids = (await tab.evaluate(async (rules) => {
      const axe = (globalThis as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
      const result = (await axe.run((globalThis as unknown as { document: unknown }).document, {
        runOnly: { type: 'rule', values: rules },
        resultTypes: ['violations'],
      })) as { violations: Array<{ id: string }> };
      return result.violations.map((v) => v.id);
    }, RULES)) as string[];
    return [...new Set(ids.map((id) => CHECK_OF_RULE[id] as string))].sort();
  }

  it.each(SHAPES)('%s', async (_shape, body) => {
    const markup = page(body);
    expect(staticVerdicts(markup)).toEqual(await axeVerdicts(markup));
  });
});

const PARAGRAPH = 'Offers every week on garden tools, seeds and compost, delivered to your door.';
/** A closed mobile menu (hidden), a tracker kept out of sight (display:none), a decorative wave (aria-hidden). */
const HIDDEN_PAGE = html(
  '<title>Menus</title>',
  '<main><h1>Visible title</h1>' +
    '<div class="mobile-menu" hidden><h1>Menu</h1><button class="close"></button><a href="/offers"></a><img src="/x.png"><input name="q"></div>' +
    '<div style="display: none"><iframe src="/tracker"></iframe><ul role="tablist"><li>x</li></ul></div>' +
    '<div aria-hidden="true" class="wave"><img src="/wave.svg" width="10" height="10"><span role="img"></span></div>' +
    `<p>${PARAGRAPH}</p></main>`,
);

describe('fields named only by their placeholder, and hidden subtrees, through the engine', () => {
  let site: FixtureSite;
  let placeholder: AuditOutcome<unknown>;
  let hidden: AuditOutcome<unknown>;
  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);

  beforeAll(async () => {
    site = await startFixtureSite({
      '/search': {
        body: html(
          '<title>Shop</title>',
          '<main><h1>Shop</h1><form role="search" action="/s"><input type="text" placeholder="search term" name="s"><button>Search</button></form>' +
            '<form action="/n"><input type="email" name="email" placeholder="Email" aria-label="Email address"><button>Join</button></form></main>',
        ),
      },
      '/hidden': { body: HIDDEN_PAGE },
    });
    [placeholder, hidden] = await Promise.all([
      runAudit('ai_readiness', { url: `${site.origin}/search`, local: true }, { pageBudget: 1 }),
      runAudit('ai_readiness', { url: `${site.origin}/hidden`, local: true }, { pageBudget: 1 }),
    ]);
  });
  afterAll(async () => {
    await site?.close();
  });

  it('gives a field named only by its placeholder its own low finding, not an unlabelled field', () => {
    expect(row(placeholder, 'form-labels')?.status).toBe('pass');
    const check = row(placeholder, 'placeholder-only-label');
    expect(check?.status).toBe('fail');
    expect(check?.severity).toBe('low');
    expect(check?.finding?.title).toBe('Fields whose only label disappears when typing');
    expect(check?.finding?.evidence[0]?.summary).toContain('text field “s” is named only by its placeholder');
    expect(check?.finding?.evidence[0]?.elements?.map((e) => e.snippet)).toEqual([
      '<input type="text" placeholder="search term" name="s">',
    ]);
  });

  it('leaves what a hidden, display:none or aria-hidden subtree holds out of the checks, and still follows its links', () => {
    for (const id of [
      'single-h1',
      'button-name',
      'link-name',
      'image-alt',
      'form-labels',
      'frame-title',
      'list-structure',
      'aria-required-children',
      'role-img-alt',
      'image-dimensions',
    ])
      expect(row(hidden, id)?.status, `${id}: ${row(hidden, id)?.detail}`).toBe('pass');
    const facts = parseHtml(HIDDEN_PAGE);
    expect(facts.anchors.map((a) => [a.href, a.hidden])).toEqual([['/offers', true]]);
    expect(facts.headings).toEqual([{ level: 1, text: 'Visible title' }]);
    // Only the text shown counts: the hidden menu's heading is no text of the page.
    expect(facts.textLength).toBe('Visible title'.length + PARAGRAPH.length);
  });
});

describe('the ARIA rules on hostile pages: linear, and bounded', () => {
  const bounded = openBounded(new URL('../../src/audit/html.ts', import.meta.url), 10_000);
  afterAll(() => bounded.close());
  const parse = (markup: string) => bounded.call<PageFacts>('parseHtml', [markup]);
  const many = (count: number, text: string) => text.repeat(count);

  it('reads 50,000 tabs in list items of one tablist: 500 offences kept per rule', async () => {
    const facts = await parse(
      page(`<ul role="tablist">${many(50_000, '<li><a role="tab" href="#t">T</a></li>')}</ul>`),
    );
    expect(facts.listOffences).toHaveLength(500);
    expect(facts.aria.requiredParent).toHaveLength(500);
    expect(facts.aria.requiredChildren).toHaveLength(1);
  });

  it('reads options under 20,000 nested groups, and lists nested 20,000 deep', async () => {
    const groups = await parse(
      page(
        `<div role="listbox" aria-label="x">${many(20_000, '<div role="group">')}${many(1000, '<div role="option">o</div>')}</div>`,
      ),
    );
    expect(groups.aria.requiredParent).toEqual([]);
    const lists = await parse(page(`${many(20_000, '<div role="list"><div>')}text`));
    expect(lists.aria.requiredChildren.length).toBeGreaterThan(0);
  });

  it('reads 100,000 unnamed navs as one offence', async () => {
    const facts = await parse(page(many(100_000, '<nav></nav>')));
    expect(facts.aria.landmarkUnique.map((o) => o.what)).toEqual(['100000 navigation landmarks without a name']);
  });
});
