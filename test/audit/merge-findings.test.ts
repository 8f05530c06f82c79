// One defect, one finding (issue 25): findings on the same element or the same missing file merge,
// keeping the strongest severity and every reference, while each check keeps its row, so scores
// and the checks ledger stay as judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckResult, fail, perPage, weightedScore } from '../../src/audit/checks.ts';
import type { CrawledPage } from '../../src/audit/crawler.ts';
import { roleDefect } from '../../src/audit/defects.ts';
import { parseHtml } from '../../src/audit/html.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { buildOutcome } from '../../src/audit/outcome.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

describe('one missing robots.txt', () => {
  let site: FixtureSite;
  let outcome: AuditOutcome<unknown>;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: html('<title>Shop</title>', '<main><h1>Shop</h1><p>Garden tools since 1901.</p></main>') },
    });
    outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: false }, { allowPrivate: true });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('is one finding, with the references of every check that saw it', () => {
    const robots = `${site.origin}/robots.txt`;
    const about = outcome.findings.filter((f) => f.evidence.some((e) => e.url === robots));
    expect(about.map((f) => f.checkId)).toEqual(['robots-txt-valid']);
    const [finding] = about;
    expect(finding?.alsoChecks?.sort()).toEqual([
      'ai-access-by-purpose',
      'content-signals',
      'robots-training-crawlers',
    ]);
    expect(finding?.severity).toBe('low');
    // Merged findings are named by their titles, in a sentence of their own: no check ids.
    expect(finding?.detail).toMatch(/sitemap\. Also reported as: [^.]*No Content Signals in robots\.txt[^.]*\.$/);
    expect(finding?.detail).not.toMatch(/content-signals|robots-training-crawlers|ai-access-by-purpose/);
    // Each check still has its row, judged as before.
    for (const id of ['robots-txt-valid', 'robots-training-crawlers', 'ai-access-by-purpose', 'content-signals'])
      expect(outcome.checks.find((c) => c.id === id)?.finding, id).toBeDefined();
    expect(outcome.severityCounts.info).toBe(outcome.findings.filter((f) => f.severity === 'info').length);
  });
});

/** A citation for the specs made here: what these tests read is the merging, not the standards. */
const CITE = {
  references: [{ title: 'WCAG 2.2 SC 4.1.2', url: 'https://www.w3.org/WAI/WCAG22/Understanding/name-role-value.html' }],
  verify: 'npx @axe-core/cli {url}',
  anchors: [],
};

describe('one element that two checks find nameless', () => {
  const url = 'https://shop.example/';
  const markup = html(
    '<title>Mugs</title>',
    '<main><h1>Mugs</h1><select name="orderby"><option>Default</option></select>' +
      '<a href="/p/1"><img src="/1.jpg" alt=""></a><a href="/p/2"><img src="/2.jpg" alt=""></a></main>',
  );
  const page = { url, isHtml: true, facts: parseHtml(markup) } as unknown as CrawledPage;
  const judged = (id: string, judge: Parameters<typeof perPage>[2]) =>
    perPage(
      { id, label: id, category: 'accessibility', severity: id === 'form-labels' ? 'high' : 'medium', cite: CITE },
      [page],
      judge,
      {
        ok: 'ok',
        problem: 'nameless',
        title: id,
        remediation: 'Name it.',
        agentAction: 'Name it.',
      },
    );
  const linkName = judged('link-name', (f) =>
    f.anchors
      .filter((a) => a.text === '')
      .map((a) => ({ what: a.href, element: a.element, defect: 'name', role: 'link' })),
  );
  const formLabels = judged('form-labels', (f) =>
    f.fields.map((field) => ({ what: field.name, element: field.element, defect: 'name', role: 'combobox' })),
  );
  // axe's rule on the rendered page, with its own selector and the browser's serialization.
  const axeSelect = fail(
    {
      id: 'axe-select-name',
      label: 'select-name',
      category: 'accessibility',
      severity: 'critical',
      cite: {
        references: [{ title: 'axe rule select-name', url: 'https://dequeuniversity.com/rules/axe/4.14/select-name' }],
        verify: 'npx @axe-core/cli {url} --rules select-name',
        anchors: ['axe'],
      },
    },
    {
      detail: 'a select without a name',
      title: 'Select element must have an accessible name',
      remediation: 'Label it.',
      agentAction: 'Label it.',
      affectedUrls: [url],
      evidence: [
        {
          type: 'page',
          url,
          summary: '1 element',
          elements: [{ selector: 'select', snippet: '<select name="orderby"><option>Default</option></select>' }],
        },
      ],
    },
  );
  // The agent view of the rendered home page names the roles it found unnamed (checks/rendered.ts).
  const agentView = fail(
    {
      id: 'agent-accessibility-tree',
      label: 'agent view',
      category: 'agent_operability',
      severity: 'medium',
      cite: CITE,
    },
    {
      severity: 'high',
      detail: '0 named control(s), 3 unnamed',
      title: 'Agents see controls they cannot name on the rendered home page',
      remediation: 'Name them.',
      agentAction: 'Name them.',
      affectedUrls: [url],
      evidence: [{ type: 'page', url, summary: '3 unnamed' }],
      defects: [roleDefect('name', url, 'link'), roleDefect('name', url, 'combobox')],
    },
  );
  const rows: CheckResult[] = [linkName, formLabels, axeSelect, agentView];
  const outcome = buildOutcome({
    product: 'ai_readiness',
    productLabel: 'AI readiness',
    startUrl: url,
    checks: rows,
    pagesCrawled: 1,
    local: false,
    details: {},
  });

  it('is one finding per defect, with the strongest severity and every reference', () => {
    // axe's finding on the <select> carries its role too (combobox, as the agent view counts it), so
    // the agent view's unnamed combobox and link go to the most severe finding sharing one of them.
    expect(outcome.findings.map((f) => [f.checkId, f.severity, (f.alsoChecks ?? []).sort()])).toEqual([
      ['axe-select-name', 'critical', ['agent-accessibility-tree', 'form-labels']],
      ['link-name', 'medium', []],
    ]);
    const labels = outcome.findings[0];
    expect(labels?.references.map((r) => r.title)).toEqual(['axe rule select-name', 'WCAG 2.2 SC 4.1.2']);
    expect(outcome.severityCounts).toEqual({ critical: 1, high: 0, medium: 1, low: 0, info: 0 });
    expect(outcome.execSummary).toContain('Issues: 1 critical, 1 medium.');
  });

  it('keeps every check’s row, so the score is the rows’ score', () => {
    expect(outcome.checks).toBe(rows);
    expect(outcome.checks.filter((c) => c.status === 'fail')).toHaveLength(4);
    expect(outcome.score).toBe(weightedScore(rows));
  });

  it('merges nothing that is a different defect of the same element', () => {
    const dimensions = judged('image-dimensions', (f) => f.images.map((i) => ({ what: i.src, element: i.element })));
    const alt = judged('image-alt-meaningful', (f) =>
      f.images.map((i) => ({ what: i.src, element: i.element, defect: 'alt-meaningful' })),
    );
    const both = buildOutcome({
      product: 'ai_readiness',
      productLabel: 'AI readiness',
      startUrl: url,
      checks: [dimensions, alt],
      pagesCrawled: 1,
      local: false,
      details: {},
    });
    expect(both.findings.map((f) => f.checkId)).toEqual(['image-dimensions', 'image-alt-meaningful']);
  });
});
