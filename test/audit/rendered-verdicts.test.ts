// Rendered pages judged as the browser shows them (issue 25), in Debian's Chromium: what CSS hides
// is marked `hidden` before the DOM is read, so a hidden second H1 or a carousel's hidden dot button
// is not judged; on the rules axe shares with a static check, axe's verdict on a rendered page is
// the verdict (a Bootstrap `<ul role="tablist"><li>` fails list-structure); axe findings speak in
// our words; the report names the pages judged as served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { AXE_WORDS } from '../../src/audit/render/axe-words.ts';
import {
  createChromiumRenderer,
  type RenderedPage,
  type Renderer,
  subresourcesFrom,
} from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite, startLinkedSite } from '../support/fixture-site.ts';

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** A state government page's two titles (one for wide screens, hidden) and a carousel's disabled dots. */
const HIDDEN_BY_CSS = html(
  `<title>Assistance programs</title>${VIEWPORT}<style>.wide-page-title{display:none}.owl-dots.disabled{display:none}</style>`,
  `<main><h1 class="page-title">Assistance programs</h1><h1 class="wide-page-title page-title">Assistance programs</h1>
   <p>Food, housing and energy assistance for families in the state.</p>
   <div class="owl-carousel"><div class="owl-dots disabled"><button class="owl-dot"><span></span></button></div></div></main>`,
);

/** Bootstrap's nav-tabs as many themes ship them: a tablist <ul> whose <li> elements have no role. */
const NAV_TABS = html(
  `<title>Plans</title>${VIEWPORT}`,
  `<main><h1>Plans</h1><ul class="nav nav-tabs" role="tablist">
     <li class="nav-item"><button class="nav-link active" role="tab" aria-selected="true">Monthly</button></li>
     <li class="nav-item"><button class="nav-link" role="tab" aria-selected="false">Yearly</button></li>
   </ul><p>Choose how you pay.</p><img src="/logo.png" aria-label="Acme logo" width="40" height="40"></main>`,
);

/** Small links packed together (target-size) and pale text (color-contrast): axe-only rules. */
const AXE_ONLY = html(
  `<title>Links</title>${VIEWPORT}`,
  `<main><h1>Links</h1><p style="color:#c8c8c8;background:#ffffff">${'Pale grey text on white is hard to read. '.repeat(4)}</p>
   <div><a href="/a" style="display:inline-block;width:10px;height:10px;font-size:6px">a</a><a href="/b" style="display:inline-block;width:10px;height:10px;font-size:6px">b</a></div></main>`,
);

describe.skipIf(!hasChromium)('what the browser does not render, marked before the DOM is read', () => {
  let renderer: Renderer;
  let page: RenderedPage;

  beforeAll(async () => {
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 2000 });
    const session = await renderer.session(subresourcesFrom(fetcher));
    page = await session.render({
      url: 'https://shapes.test/',
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: html(
        `<title>Shapes</title><style>.gone{display:none}.ghost{visibility:hidden}.shown{visibility:visible}[hidden].forced{display:block}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}</style>`,
        `<main>
           <h1 id="shown">Shown</h1><h1 id="gone" class="gone">Gone<span id="inside">inside</span></h1>
           <h2 id="ghost" class="ghost">Ghost</h2>
           <div id="partly" class="ghost"><span id="ghost-child">hidden</span><a id="visible-child" class="shown" href="/x">Visible</a></div>
           <h2 id="sr" class="sr-only">For screen readers</h2>
           <p id="forced" class="forced" hidden>Shown by CSS despite hidden</p>
           <details><summary id="summary">More</summary><p id="folded">Folded away</p></details>
           <a id="icon" href="/home"><svg role="img"><title id="svg-title">Home</title><path d="M0 0h1v1z"/></svg></a>
           <ul style="display:contents" id="contents"><li id="item">Item</li></ul>
           <script id="script">document.getElementById('shown').dataset.ran = 'yes';</script>
         </main>`,
      ),
    });
    await session.close();
    await fetcher.close();
  });
  afterAll(async () => {
    await renderer?.close();
  });

  /** The start tag of the element with this id in the DOM read for the checks. */
  const tagOf = (id: string) => {
    const at = page.html?.indexOf(`id="${id}"`) ?? -1;
    const start = page.html?.lastIndexOf('<', at) ?? -1;
    return page.html?.slice(start, page.html.indexOf('>', at) + 1) ?? '';
  };

  it('marks display:none and visibility:hidden subtrees at their root only', () => {
    expect(page.error).toBeUndefined();
    expect(tagOf('gone')).toMatch(/ hidden=""/);
    expect(tagOf('inside')).not.toMatch(/hidden/);
    expect(tagOf('ghost')).toMatch(/ hidden=""/);
    expect(tagOf('folded')).toMatch(/ hidden=""/);
    expect(page.visibility).toMatchObject({ hidden: 4, shown: 1 });
  });

  it('leaves what is rendered, or in the accessibility tree, as it is', () => {
    expect(tagOf('shown')).toBe('<h1 id="shown" data-ran="yes">');
    // A visibility:hidden parent with a visible child stays; its hidden child alone is marked.
    expect(tagOf('partly')).not.toMatch(/hidden=/);
    expect(tagOf('ghost-child')).toMatch(/ hidden=""/);
    expect(tagOf('visible-child')).not.toMatch(/hidden=/);
    for (const id of ['sr', 'summary', 'svg-title', 'contents', 'item', 'script'])
      expect(tagOf(id), id).not.toMatch(/hidden=/);
    // A `hidden` attribute that CSS overrides is removed: the element is shown.
    expect(tagOf('forced')).toBe('<p id="forced" class="forced">');
  });

  // The audit's scripts run in an isolated world (render/isolated-world.ts): in the page's own world a
  // page could make hidden elements look shown, stop the marking, or answer for axe with a fake.
  it('is not fooled by a page that redefines the browser functions the marking and axe call', async () => {
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 2000 });
    const session = await renderer.session(subresourcesFrom(fetcher));
    try {
      const hostile = await session.render({
        url: 'https://hostile.test/',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html(
          '<title>Hostile</title><style>.wide{display:none}</style>',
          `<main><h1>Shown</h1><h1 id="wide" class="wide">Hidden</h1><img src="/x.png"></main>
           <script>
             window.getComputedStyle = () => ({ display: 'block', visibility: 'visible', contentVisibility: 'visible' });
             Element.prototype.setAttribute = function () {};
             Object.defineProperty(window, 'axe', {
               get: () => ({ run: async () => ({ violations: [] }) }),
               set: () => {},
               configurable: false,
             });
           </script>`,
        ),
      });
      expect(hostile.error).toBeUndefined();
      expect(hostile.axeError).toBeUndefined();
      expect(hostile.html).toMatch(/<h1 id="wide" class="wide" hidden="">/);
      expect(hostile.visibility).toMatchObject({ hidden: 1 });
      expect(hostile.axe.map((v) => v.id)).toContain('image-alt');
    } finally {
      await session.close();
      await fetcher.close();
    }
  });
});

/** An icon button with no name on a rendered home page: the naming check and the agent view see one defect. */
const UNNAMED_BUTTON = html(
  `<title>Cart</title>${VIEWPORT}`,
  `<main><h1>Cart</h1><p>Your basket is empty.</p><button class="icon-cart"></button></main>`,
);

/**
 * A custom listbox with no name, beside two forms whose fields are labelled (a form has a role in the
 * accessibility tree only when it has a name): axe's aria-input-field-name and the agent view's
 * "unnamed: listbox" are one defect.
 */
const UNNAMED_LISTBOX = html(
  `<title>Sizes</title>${VIEWPORT}`,
  `<main><h1>Pick a size</h1><p>Shirts in every size, sent the next day.</p>
   <div role="listbox" tabindex="0"><div role="option" aria-selected="true">Small</div><div role="option" aria-selected="false">Large</div></div>
   <form action="/search"><label>Search <input type="search" name="q"></label><button>Search</button></form>
   <form action="/news"><label>Email <input type="email" name="email" autocomplete="email"></label><button>Subscribe</button></form></main>`,
);

describe.skipIf(!hasChromium)('rendered pages judged as the browser shows them', () => {
  let site: FixtureSite;
  let renderer: Renderer;
  const outcomes = new Map<string, { served: AuditOutcome<unknown>; rendered: AuditOutcome<unknown> }>();
  const row = (outcome: AuditOutcome<unknown> | undefined, id: string) => outcome?.checks.find((c) => c.id === id);

  beforeAll(async () => {
    site = await startFixtureSite({
      '/hidden-by-css': { body: HIDDEN_BY_CSS },
      '/nav-tabs': { body: NAV_TABS },
      '/axe-only': { body: AXE_ONLY },
      '/unnamed-button': { body: UNNAMED_BUTTON },
      '/unnamed-listbox': { body: UNNAMED_LISTBOX },
    });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    for (const path of ['/hidden-by-css', '/nav-tabs', '/axe-only', '/unnamed-button', '/unnamed-listbox']) {
      const target = { url: `${site.origin}${path}`, local: true };
      outcomes.set(path, {
        served: await runAudit('ai_readiness', target, { pageBudget: 1 }),
        rendered: await runAudit('ai_readiness', target, { pageBudget: 1, render: { renderer, mode: 'always' } }),
      });
    }
  }, 60_000);
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it('does not count an H1 or a button that CSS hides', () => {
    const { served, rendered } = outcomes.get('/hidden-by-css') ?? {};
    expect(row(served, 'single-h1')?.status).toBe('fail');
    expect(row(rendered, 'single-h1')?.status).toBe('pass');
    expect(row(rendered, 'button-name')?.status).toBe('pass');
    expect(rendered?.findings.some((f) => f.checkId.startsWith('axe-'))).toBe(false);
  });

  it('takes axe’s verdict on the rules it shares with a static check', () => {
    const { rendered } = outcomes.get('/nav-tabs') ?? {};
    const lists = rendered?.findings.find((f) => f.checkId === 'list-structure');
    expect(lists?.affectedUrls).toEqual([`${site.origin}/nav-tabs`]);
    expect(lists?.evidence[0]?.elements?.[0]).toEqual({
      selector: 'li:nth-child(1)',
      snippet: '<li class="nav-item">',
    });
    expect(lists?.evidence[0]?.summary).toContain('“<li class="nav-item">” (axe listitem)');
    // An image named by aria-label has alternative text for axe (and Lighthouse), alt or not.
    expect(row(rendered, 'image-alt')?.status).toBe('pass');
    // axe's own row for the rule would count the defect twice.
    expect(rendered?.findings.some((f) => f.checkId === 'axe-listitem')).toBe(false);
    // The tablist owns list items, not tabs: axe's aria-required-children decides that check too.
    const children = rendered?.findings.find((f) => f.checkId === 'aria-required-children');
    expect(children?.evidence[0]?.summary).toContain('(axe aria-required-children)');
    expect(rendered?.findings.map((f) => f.checkId)).not.toContain('axe-aria-required-children');
  });

  it('gives the agent view’s unnamed button as the same defect as button-name: one finding', () => {
    const { rendered } = outcomes.get('/unnamed-button') ?? {};
    expect(row(rendered, 'agent-accessibility-tree')?.status).toBe('fail');
    expect(row(rendered, 'button-name')?.status).toBe('fail');
    const buttons = rendered?.findings.find((f) => f.checkId === 'button-name');
    expect(buttons?.alsoChecks).toEqual(['agent-accessibility-tree']);
    expect(rendered?.findings.some((f) => f.checkId === 'agent-accessibility-tree')).toBe(false);
  });

  // The agent view reads the accessibility tree, which has no selector or markup to match axe's
  // element with: the role it counts the control by is what both findings share.
  it('gives axe’s unnamed listbox and the agent view’s as one defect: one finding', () => {
    const { rendered } = outcomes.get('/unnamed-listbox') ?? {};
    expect(row(rendered, 'agent-accessibility-tree')?.status).toBe('fail');
    expect(row(rendered, 'agent-accessibility-tree')?.detail).toContain('(unnamed: listbox)');
    const listbox = rendered?.findings.find((f) => f.checkId === 'axe-aria-input-field-name');
    expect(listbox?.alsoChecks).toEqual(['agent-accessibility-tree']);
    expect(listbox?.detail).toMatch(
      /\. Also reported as: Agents see controls they cannot name on the rendered home page\.$/,
    );
    expect(rendered?.findings.some((f) => f.checkId === 'agent-accessibility-tree')).toBe(false);
    // axe's list of the ways it looked for a name, in our words.
    expect(listbox?.evidence[0]?.summary).toBe(
      '1 element(s); on the first, no aria-label, aria-labelledby or title names it',
    );
  });

  it('counts the forms of the page, not only those the accessibility tree names', () => {
    const { rendered } = outcomes.get('/unnamed-listbox') ?? {};
    const detail = row(rendered, 'agent-accessibility-tree')?.detail;
    expect(detail).toContain('2 form(s) on the page');
    expect(detail).not.toContain('in the tree');
  });

  it('writes axe findings in our words, never cut mid-word', () => {
    const { rendered } = outcomes.get('/axe-only') ?? {};
    const target = rendered?.findings.find((f) => f.checkId === 'axe-target-size');
    expect(target?.title).toBe(AXE_WORDS['target-size']?.title);
    expect(target?.remediation).toBe(AXE_WORDS['target-size']?.remediation);
    const contrast = rendered?.findings.find((f) => f.checkId === 'axe-color-contrast');
    expect(contrast?.title).toBe('Text with too little contrast');
    expect(contrast?.evidence[0]?.summary).toMatch(
      /^1 element\(s\); axe found on the first: “Element has insufficient/,
    );
    // axe's messages kept whole, with the values it measured: not "…instead of at…".
    expect(target?.evidence[0]?.summary).toMatch(/should be at least 24px by 24px\); Target has insufficient space/);
    expect(target?.evidence[0]?.summary).toMatch(/instead of at least 24px\.”$/);
    for (const finding of rendered?.findings.filter((f) => f.checkId.startsWith('axe-')) ?? []) {
      expect(finding.remediation).not.toMatch(/See https?:/);
      for (const evidence of finding.evidence) expect(evidence.summary).toMatch(/(”|\))$/);
    }
  });
});

describe.skipIf(!hasChromium)('the pages rendered and the pages judged as served', () => {
  let site: FixtureSite;
  let renderer: Renderer;

  beforeAll(async () => {
    site = await startLinkedSite(
      Array.from({ length: 12 }, (_, i) => `/p${i + 1}`),
      VIEWPORT,
    );
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it('lists the pages past the render limit and says so in the summary', async () => {
    const outcome = await runAudit(
      'ai_readiness',
      { url: `${site.origin}/`, local: true },
      { pageBudget: 13, render: { renderer, mode: 'always' } },
    );
    expect(outcome.pagesCrawled).toBe(13);
    expect(outcome.rendering?.pages).toHaveLength(10);
    const rendered = new Set(outcome.rendering?.pages.map((p) => p.url));
    expect(outcome.rendering?.judgedAsServed).toHaveLength(3);
    for (const url of outcome.rendering?.judgedAsServed ?? []) expect(rendered.has(url)).toBe(false);
    expect(outcome.execSummary).toMatch(
      / Rendered in Chromium: 10 of 13 page\(s\); 3 other page\(s\) judged on their served HTML only, without CSS or scripts \(always renders up to 10 pages a run\)\.$/,
    );
  }, 60_000);
});
