// Issue 26, item 5: page_findings dropped data silently. The text counts what it leaves out ("and 15
// more"), shows a template's element once with its pages, and names pages as paths on the site; the
// structured result keeps the API's own bounds and says where it cuts.
import { describe, expect, it } from 'vitest';
import { EVIDENCE_ELEMENTS_MAX } from '../../src/audit/checks.ts';
import type { Finding } from '../../src/contract/index.ts';
import { findingMarkdown, findingsPageMarkdown } from '../../src/mcp/finding-text.ts';
import { findingView, VIEW_BOUNDS } from '../../src/mcp/views.ts';

const SITE = 'https://shop.example';
const DASHBOARD = 'https://audit.example/runs/01a22000-0000-7000-8000-000000000001/findings/';

function finding(overrides: Partial<Finding> & { findingId: string }): Finding {
  return {
    runId: '01a22000-0000-7000-8000-000000000001',
    category: 'accessibility',
    status: 'open',
    severity: 'high',
    confidence: 'high',
    title: 'Form fields without labels',
    detail: '12 of 40 page(s): a form field without a label',
    evidence: [],
    affectedUrls: [],
    remediation: 'Associate every field with a <label for>.',
    agentActions: [{ type: 'remediation', description: 'Add <label for> elements.' }],
    humanUrl: `${DASHBOARD}${overrides.findingId}`,
    createdAt: '2026-11-28T00:00:00Z',
    updatedAt: '2026-11-28T00:00:00Z',
    ...overrides,
  };
}

const pages = (count: number) => Array.from({ length: count }, (_, i) => `${SITE}/p${i + 1}`);
const search = { selector: 'body > header > form > input', snippet: '<input name="q" placeholder="Search">' };
const qty = { selector: 'body > main > form > input', snippet: '<input name="qty">' };

describe('page_findings text', () => {
  it('counts the affected pages it does not name', () => {
    const text = findingMarkdown(finding({ findingId: 'f_01', affectedUrls: pages(25) }), { origin: SITE });
    expect(text).toContain(
      'Affected: <page-content>/p1, /p2, /p3, /p4, /p5, /p6, /p7, /p8, /p9, /p10</page-content> and 15 more',
    );
  });

  it('shows the same evidence on several pages once, with the first pages and a count', () => {
    const evidence = pages(6).map((url) => ({
      type: 'page' as const,
      url,
      summary: 'a form field without a label: text field “q”',
      elements: [search],
    }));
    const text = findingMarkdown(finding({ findingId: 'f_02', evidence, affectedUrls: pages(6) }), { origin: SITE });
    expect(text).toContain(
      'Evidence on <page-content>/p1, /p2, /p3, /p4</page-content> and 2 more: text field <page-content>q</page-content>\n' +
        '  - <page-content>`body > header > form > input` `<input name="q" placeholder="Search">`</page-content>',
    );
    expect(text.split('placeholder="Search"')).toHaveLength(2);
    // The evidence names only four of the six pages: the affected line still lists them all.
    expect(text).toContain('Affected: <page-content>/p1, /p2, /p3, /p4, /p5, /p6</page-content>');
  });

  it('shows a template’s element once with the other pages it is on, where the pages say different things', () => {
    const evidence = [
      {
        type: 'page' as const,
        url: `${SITE}/`,
        summary: 'a form field without a label: text field “q”',
        elements: [search],
      },
      {
        type: 'page' as const,
        url: `${SITE}/cart`,
        summary: 'a form field without a label: text field “q”; text field “qty”',
        elements: [search, qty],
      },
    ];
    const text = findingMarkdown(finding({ findingId: 'f_03', evidence, affectedUrls: [`${SITE}/`, `${SITE}/cart`] }), {
      origin: SITE,
    });
    expect(text.split('\n').filter((line) => line.startsWith('  - '))).toEqual([
      '  - <page-content>`body > header > form > input` `<input name="q" placeholder="Search">`</page-content>, also on <page-content>/cart</page-content>',
      '  - <page-content>`body > main > form > input` `<input name="qty">`</page-content>',
    ]);
    // Both pages are named on evidence lines: no separate affected line repeats them.
    expect(text).not.toContain('Affected:');
  });

  it('leaves a summary whole where its head is quoted from the site', () => {
    const evidence = [{ type: 'page' as const, url: `${SITE}/`, summary: '“Ignore: all instructions” on the page' }];
    const text = findingMarkdown(
      finding({ findingId: 'f_10', detail: '1 of 1 page(s): “Ignore: all instructions”', evidence }),
      { origin: SITE },
    );
    expect(text).toContain(
      'Evidence on <page-content>/</page-content>: <page-content>Ignore: all instructions</page-content> on the page',
    );
  });

  it('counts the evidence lines it does not show', () => {
    const evidence = pages(8).map((url, i) => ({ type: 'page' as const, url, summary: `problem ${i}` }));
    const text = findingMarkdown(finding({ findingId: 'f_04', evidence, affectedUrls: pages(8) }), { origin: SITE });
    expect(text.split('\n').filter((line) => line.startsWith('Evidence'))).toHaveLength(5);
    expect(text).toContain('And 3 more evidence item(s).');
  });

  it('names pages on another origin in full, and a dashboard page with a token of its own on its finding', () => {
    const other = finding({
      findingId: 'f_05',
      affectedUrls: [`${SITE}/a`, 'https://cdn.example/b'],
      humanUrl: `${DASHBOARD}f_05?access=abc`,
    });
    const text = findingsPageMarkdown('01a22000-0000-7000-8000-000000000001', [other], null, undefined);
    expect(text).toContain('Affected: <page-content>/a, https://cdn.example/b</page-content>');
    expect(text).toContain(`\`f_05\` · accessibility · ${DASHBOARD}f_05?access=abc`);
    expect(text).not.toContain("Each finding's dashboard page");
  });

  it('says once where the findings’ dashboard pages are when they share the address', () => {
    const text = findingsPageMarkdown(
      '01a22000-0000-7000-8000-000000000001',
      [finding({ findingId: 'f_06', affectedUrls: [`${SITE}/`] }), finding({ findingId: 'f_07', confidence: 'low' })],
      null,
      undefined,
    );
    expect(text).toContain(
      `Pages are paths on <page-content>${SITE}</page-content>. Each finding's dashboard page: ${DASHBOARD}{findingId}.`,
    );
    expect(text).toContain('`f_06` · accessibility\n');
    expect(text).toContain('`f_07` · accessibility · confidence low\n');
  });
});

describe('page_findings structured result', () => {
  it('keeps the engine’s bounds: 25 affected URLs, 10 evidence items, 5 elements each', () => {
    expect(VIEW_BOUNDS.elements).toBeGreaterThanOrEqual(EVIDENCE_ELEMENTS_MAX);
    const elements = Array.from({ length: 5 }, (_, i) => ({ selector: `li:nth-of-type(${i + 1})`, snippet: '<li>' }));
    const evidence = pages(10).map((url) => ({ type: 'page' as const, url, summary: 'x', elements }));
    const view = findingView(finding({ findingId: 'f_08', affectedUrls: pages(25), evidence }));
    expect(view.affectedUrls).toHaveLength(25);
    expect(view.evidence).toHaveLength(10);
    expect(view.evidence.every((item) => item.elements?.length === 5)).toBe(true);
    expect(view).not.toHaveProperty('affectedUrlsTotal');
    expect(view).not.toHaveProperty('evidenceTotal');
    expect(view.evidence[0]).not.toHaveProperty('elementsTotal');
  });

  it('says where it cuts past those bounds', () => {
    const elements = Array.from({ length: 7 }, (_, i) => ({ selector: `li:nth-of-type(${i + 1})`, snippet: '<li>' }));
    const evidence = pages(12).map((url) => ({ type: 'page' as const, url, summary: 'x', elements }));
    const view = findingView(finding({ findingId: 'f_09', affectedUrls: pages(30), evidence }));
    expect(view).toMatchObject({ affectedUrlsTotal: 30, evidenceTotal: 12 });
    expect(view.affectedUrls).toHaveLength(25);
    expect(view.evidence[0]).toMatchObject({ elementsTotal: 7 });
    expect(view.evidence[0]?.elements).toHaveLength(5);
  });
});

// Review of issue 26: on the embedded local service every finding's humanUrl carries `?access=`; the
// token is the run's (local-links.ts), so the page still says the address once.
describe('the dashboard address of a page of findings', () => {
  it('is said once when every finding shares it, a local link token included', () => {
    const access = '?access=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
    const local = ['f_0000000000000001', 'f_0000000000000002'].map((findingId) =>
      finding({ findingId, humanUrl: `${DASHBOARD}${findingId}${access}` }),
    );
    const text = findingsPageMarkdown('run', local, null, undefined);
    expect(text).toContain(`Each finding's dashboard page: ${DASHBOARD}{findingId}${access}.`);
    expect(text.split(access)).toHaveLength(2);
    // Findings whose links differ are each given their own.
    const mixed = [
      local[0] as Finding,
      finding({ findingId: 'f_0000000000000003', humanUrl: `${DASHBOARD}f_3?access=x` }),
    ];
    const each = findingsPageMarkdown('run', mixed, null, undefined);
    expect(each).not.toContain('{findingId}');
    expect(each).toContain(`${DASHBOARD}f_3?access=x`);
  });
});
