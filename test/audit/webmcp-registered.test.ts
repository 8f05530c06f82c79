// WebMCP tools registered by script (issue 29), read by the renderer in Debian's Chromium
// (render/webmcp-tools.ts) and judged by webmcp-registered-tools: registrations the browser refused,
// schemas an agent cannot use, a page over Lighthouse's 40 tools; a site that registers none gets no
// row; the bounds hold against a page that registers thousands of tools and a huge schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingOffences, schemaOffences, WEBMCP_REGISTERED_SPEC } from '../../src/audit/checks/webmcp-registered.ts';
import { runAudit } from '../../src/audit/index.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { type RegisteredTool, SCHEMA_MAX, TOOLS_KEPT } from '../../src/audit/render/webmcp-tools.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const TEXT = `<p>${'Garden tools forged by hand and shipped to small farms. '.repeat(6)}</p>`;
const withScript = (title: string, script: string, extra = '') =>
  html(
    `<title>${title}</title>`,
    `<main><h1>${title}</h1>${TEXT}${extra}<a href="/good">Good</a> <a href="/bad">Bad</a> <a href="/plain">Plain</a></main><script>${script}</script>`,
  );
const tool = (name: string, schema: string, description = 'Adds a product to the cart') =>
  `document.modelContext.registerTool({ name: ${JSON.stringify(name)}, description: ${JSON.stringify(description)}, inputSchema: ${schema}, execute: async () => ({ content: [] }) });`;
const GOOD_SCHEMA =
  '{ type: "object", properties: { sku: { type: "string", description: "The product code" }, qty: { type: ["integer", "null"], title: "Quantity" } }, required: ["sku"] }';

const GOOD = withScript(
  'Good',
  tool('add_to_cart', GOOD_SCHEMA) + tool('no_params', 'undefined', 'Opens the cart'),
  '<form toolname="search" tooldescription="Search the shop" action="/s"><input name="q" aria-label="Search"></form>',
);
const BAD = withScript(
  'Bad',
  [
    // Refused: a space in the name; a name taken; an empty description (caught by the page).
    tool('add to cart', GOOD_SCHEMA),
    tool('dup', GOOD_SCHEMA),
    tool('dup', GOOD_SCHEMA),
    `document.modelContext.registerTool({ name: 'quiet', description: '', execute: async () => 1 }).catch(() => {});`,
    tool('flat', '{ type: "string" }'),
    tool('undescribed', '{ type: "object", properties: { size: { type: "string" } } }'),
    tool('bad_type', '{ type: "object", properties: { size: { type: "text", description: "A size" } } }'),
    tool('wrong_required', '{ type: "object", properties: {}, required: ["sku"] }'),
  ].join(''),
  '<form toolname="search" tooldescription="Search the shop" action="/s"><input name="q" aria-label="Search"></form><iframe srcdoc="<script>document.modelContext.registerTool({name:\'in frame\',description:\'x\',execute:async()=>1})</script>"></iframe>',
);
const PLAIN = withScript('Plain', 'document.body.dataset.ready = "yes";');
// Thousands of tools, and a schema far over the bound: counted, cut to size in the page.
const FLOOD = withScript(
  'Flood',
  `for (let i = 0; i < 3000; i++) document.modelContext.registerTool({ name: 't' + i, description: 'Tool ' + i, inputSchema: ${GOOD_SCHEMA}, execute: async () => 1 });`,
);
const HUGE = withScript(
  'Huge',
  tool(
    'huge',
    '{ type: "object", properties: Object.fromEntries(Array.from({ length: 4000 }, (_, i) => ["p" + i, { type: "string", description: "A parameter of the tool, described at some length " + i }])) }',
  ),
);

describe('the rules a registered tool is judged by', () => {
  const tool = (inputSchema: unknown, name = 't'): RegisteredTool => ({
    name,
    description: 'A tool',
    descriptionLength: 6,
    declarative: false,
    ...(inputSchema === undefined ? {} : { inputSchema, schemaLength: JSON.stringify(inputSchema).length }),
  });

  it('passes an object schema with typed, described parameters, and a tool with none', () => {
    expect(schemaOffences(tool(undefined))).toEqual([]);
    expect(
      schemaOffences(
        tool({
          type: 'object',
          properties: {
            a: { type: 'string', description: 'A' },
            b: { type: ['integer', 'null'], title: 'B' },
            c: { description: 'any' },
          },
          required: ['a'],
        }),
      ),
    ).toEqual([]);
  });

  it('names each defect the verify line names', () => {
    expect(schemaOffences(tool({ type: 'string' }))).toEqual([
      '“t”: inputSchema is not type "object" (MCP tools take an object of parameters)',
    ]);
    expect(schemaOffences(tool([1, 2]))[0]).toContain('not type "object"');
    expect(schemaOffences(tool({ type: 'object', properties: [] }))).toEqual(['“t”: "properties" is not an object']);
    expect(
      schemaOffences(
        tool({
          type: 'object',
          properties: { a: { type: 'text', description: 'A' }, b: { type: 'string' }, c: 5 },
          required: ['a', 'z'],
        }),
      ),
    ).toEqual([
      '“t”: parameter “a” is not a valid schema',
      '“t”: parameter “b” has no description',
      '“t”: parameter “c” is not a valid schema',
      '“t”: "required" names an undefined parameter',
    ]);
    expect(schemaOffences({ ...tool(undefined), schemaLength: SCHEMA_MAX + 1 })[0]).toContain(`over ${SCHEMA_MAX}`);
  });

  it('puts refusals first and counts a page over 40 tools; declarative tools are the form check’s', () => {
    const offences = readingOffences({
      available: true,
      toolCount: 41,
      tools: [tool({ type: 'string' }, 'flat'), { ...tool({ type: 'string' }, 'form'), declarative: true }],
      refused: [{ name: 'a b', reason: 'InvalidStateError: Invalid tool name' }],
    }).map((o) => o.what);
    expect(offences).toEqual([
      'registerTool(“a b”) refused (InvalidStateError: Invalid tool name)',
      '41 tools on the page, over 40',
      '“flat”: inputSchema is not type "object" (MCP tools take an object of parameters)',
    ]);
  });
});

describe.skipIf(!hasChromium)('WebMCP tools registered by script', () => {
  let site: FixtureSite;
  let plainSite: FixtureSite;
  let renderer: Renderer;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: GOOD },
      '/good': { body: GOOD },
      '/bad': { body: BAD },
      '/plain': { body: PLAIN },
      '/flood': { body: FLOOD },
    });
    plainSite = await startFixtureSite({ '/': { body: PLAIN } });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
    await plainSite?.close();
  });

  const render = async (path: string, body: string) => {
    const session = await renderer.session(() => Promise.reject(new Error('nothing else is fetched')));
    try {
      return await session.render(
        { url: `${site.origin}${path}`, status: 200, headers: { 'content-type': 'text/html' }, body },
        { webmcp: true },
      );
    } finally {
      await session.close();
    }
  };

  it('reads the tools a page registers and those the browser refused, the main frame’s only', async () => {
    const good = await render('/good', GOOD);
    expect(good.webmcp?.available).toBe(true);
    expect(good.webmcp?.refused).toEqual([]);
    expect(good.webmcp?.tools.map((t) => [t.name, t.declarative]).sort()).toEqual([
      ['add_to_cart', false],
      ['no_params', false],
      ['search', true],
    ]);
    const add = good.webmcp?.tools.find((t) => t.name === 'add_to_cart');
    expect(add?.inputSchema).toMatchObject({ type: 'object', required: ['sku'] });
    expect(good.webmcp?.tools.find((t) => t.name === 'no_params')?.schemaLength).toBeUndefined();

    const bad = await render('/bad', BAD);
    expect(bad.webmcp?.refused.map((r) => r.name).sort()).toEqual(['add to cart', 'dup', 'quiet']);
    for (const refusal of bad.webmcp?.refused ?? []) expect(refusal.reason).toMatch(/^InvalidStateError: /);
    // The iframe's tool is its own frame's, not the page's.
    expect(bad.webmcp?.tools.map((t) => t.name)).not.toContain('in frame');
  }, 60_000);

  it('counts thousands of tools and keeps the first few, and a schema over the bound by its length', async () => {
    const flood = await render('/flood', FLOOD);
    expect(flood.webmcp?.toolCount).toBe(3000);
    expect(flood.webmcp?.tools).toHaveLength(TOOLS_KEPT);
    const huge = await render('/huge', HUGE);
    const read = huge.webmcp?.tools.find((t) => t.name === 'huge');
    expect(read?.inputSchema).toBeUndefined();
    expect(read?.schemaLength).toBeGreaterThan(SCHEMA_MAX);
  }, 60_000);

  it('fails the pages whose tools agents cannot use, naming each, and passes the good one', async () => {
    const outcome = await runAudit(
      'ai_readiness',
      { url: `${site.origin}/`, local: true },
      { pageBudget: 4, render: { renderer, mode: 'always' } },
    );
    const row = outcome.checks.find((r) => r.id === WEBMCP_REGISTERED_SPEC.id);
    expect(row?.status).toBe('fail');
    expect(row?.finding?.affectedUrls).toEqual([`${site.origin}/bad`]);
    // What a terminal shows names the tools, not only that some fail.
    expect(row?.detail).toMatch(
      /^1 of \d page\(s\): WebMCP tools agents cannot use; http:\/\/[^ ]+\/bad: registerTool\(“add to cart”\) refused/,
    );
    // The page's evidence names its first offences, refusals first, and counts the rest.
    const said = row?.finding?.evidence.map((e) => e.summary).join('\n') ?? '';
    expect(said).toMatch(/registerTool\(“add to cart”\) refused \(InvalidStateError: [^)]+\)/);
    expect(said).toMatch(/registerTool\(“dup”\) refused \(InvalidStateError: [^)]+\)/);
    expect(said).toMatch(/registerTool\(“quiet”\) refused/);
    expect(said).toContain('and 4 more');
    expect(said).not.toContain('add_to_cart');
    expect(said).not.toContain('in frame');
    const finding = outcome.findings.find((f) => f.checkId === WEBMCP_REGISTERED_SPEC.id);
    expect(finding?.verify).toContain(`npx lighthouse ${site.origin}/bad --only-audits=webmcp-registered-tools`);
  }, 120_000);

  it('gives no row for a site whose rendered pages register no tool, and none when nothing is rendered', async () => {
    const rendered = await runAudit(
      'ai_readiness',
      { url: `${plainSite.origin}/`, local: true },
      { pageBudget: 1, render: { renderer, mode: 'always' } },
    );
    expect(rendered.rendering?.pages).toHaveLength(1);
    expect(rendered.checks.some((r) => r.id === WEBMCP_REGISTERED_SPEC.id)).toBe(false);
    const served = await runAudit(
      'ai_readiness',
      { url: `${site.origin}/`, local: true },
      { pageBudget: 4, render: { renderer, mode: 'never' } },
    );
    expect(served.checks.some((r) => r.id === WEBMCP_REGISTERED_SPEC.id)).toBe(false);
  }, 60_000);
});
