// A partial score is never read as a verdict (issue 24): a local security scan of a server that sends
// no security header at all was "100" in large type beside a small "Partial: Excellent on 4 evaluated
// checks". Each surface (report page, terminal, MCP text) now leads with "Partial: 4 of 36 security
// checks evaluated" and shows the number small; runs stored before the counts still read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/audit/catalogue.ts';
import { SEVERITY_WEIGHT } from '../../src/audit/checks.ts';
import { renderReport } from '../../src/cli/render.ts';
import { FindingPage, ReportContext, Run } from '../../src/contract/index.ts';
import { reportMarkdown, runMarkdown } from '../../src/mcp/markdown.ts';
import { reportView, runView } from '../../src/mcp/views.ts';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { startTestService, type TestService } from '../support/service.ts';

const sqlite = testBackends()[0] as ReturnType<typeof testBackends>[number];
const PASSWORD = 'correct horse battery staple';
const VERDICTS = /Excellent|Good|Needs work|Poor/;
const TOTAL = CATALOGUE.filter((c) => c.product === 'website_security' && SEVERITY_WEIGHT[c.spec.severity] > 0).length;

/** The report page's head: from the crumb to the findings. */
const headOf = (page: string) => page.slice(0, page.indexOf('<h2>Findings'));

describe('a partial score on every surface', () => {
  let s: TestService;
  let site: FixtureSite;
  let key: string;
  let viewer: TestBrowser;
  let run: Run;

  const read = async () => {
    const current = Run.parse((await s.request(`/api/v1/runs/${run.runId}`, { key })).body);
    const report = ReportContext.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    const findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    return { run: current, report, findings };
  };

  beforeAll(async () => {
    // No security header at all, nothing on the page a local scan can fault.
    site = await startFixtureSite({
      '/': { body: html('<title>Dev server</title>', '<main><h1>Dev server</h1><p>Local build.</p></main>') },
    });
    s = await startTestService(sqlite, { allowLocalTargets: true });
    const tenant = await s.tenant();
    key = tenant.key;
    const owner = await createUser(s.store, { email: 'owner@example.com', name: 'Owner', password: PASSWORD });
    await addMember(s.store, owner.id, tenant.organizationId, 'owner');
    viewer = new TestBrowser(s.url);
    expect((await viewer.signIn('owner@example.com', PASSWORD)).status).toBe(303);
    const projectId = await s.createProject(key, site.host);
    const started = await s.request<Run>('/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId, scanMode: 'paid_website_security' },
    });
    expect(started.status).toBe(202);
    run = started.body;
    for (let i = 0; i < 200 && run.status !== 'completed' && run.status !== 'failed_auto_credit'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
    }
    expect(run.status).toBe('completed');
  });
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });

  it('carries the counts on the run and its report context', async () => {
    const { run: current, report } = await read();
    expect(current.coverage).toMatchObject({ mode: 'local_on_page', evaluatedChecks: 4, totalChecks: TOTAL });
    expect(report.coverage).toEqual(current.coverage);
    expect(report.score).toBe(100);
    expect(report.scoreLabel).toBe(`Partial: 4 of ${TOTAL} security checks evaluated`);
  });

  it('heads the report page with what the score stands on, and shows no big number', async () => {
    const page = await viewer.get(run.humanUrl);
    expect(page.status).toBe(200);
    const head = headOf(page.html);
    expect(head).toContain(`<h2 id="score-basis">Partial: 4 of ${TOTAL} security checks evaluated</h2>`);
    expect(head).toContain('Score on those checks: <strong>100</strong>/100');
    // The large score block is for full scores only; the hero names no verdict.
    expect(head).not.toContain('class="score"');
    expect(head).not.toMatch(VERDICTS);
    expect(head.indexOf('score-basis')).toBeLessThan(head.indexOf('Score on those checks'));
    expect(head).toContain('does not evaluate DNS, TLS (HTTPS), redirects,');
    expect(head).not.toContain('foundation_files');
    // Said once: the summary, written to be read alone, is not repeated under the heading.
    expect(head.split('not evaluate').length - 1, head).toBe(1);
  });

  it('leads the terminal and MCP texts with the partial statement, before the number', async () => {
    const { run: current, report, findings } = await read();
    const partial = `Partial: 4 of ${TOTAL} security checks evaluated`;
    const terminal = renderReport(current, report, findings).split('\n');
    expect(terminal[1]).toBe(`${partial}; score 100/100 on those checks`);
    expect(terminal[2]).toMatch(
      new RegExp(`^Partial: a local on-page scan evaluated 4 of the ${TOTAL} security checks`),
    );
    const mcpReport = reportMarkdown(reportView(report)).split('\n');
    expect(mcpReport[1]).toMatch(new RegExp(`^\\*\\*${partial}\\*\\*; score 100/100 on those checks\\. `));
    expect(reportView(report)).toMatchObject({ evaluatedChecks: 4, totalChecks: TOTAL, scoreLabel: partial });
    expect(runMarkdown(runView(current)).split('\n')[1]).toBe(
      `${partial}; score 100/100 on those checks; ${report.findingsTotal} findings.`,
    );
    for (const text of [terminal.slice(0, 3).join('\n'), mcpReport.slice(0, 2).join('\n')])
      expect(text).not.toMatch(VERDICTS);
  });

  it('still reads a run stored before the counts, in its own words', async () => {
    const row = await s.store.db
      .selectFrom('runs')
      .select(['coverage', 'report'])
      .where('id', '=', run.runId)
      .executeTakeFirstOrThrow();
    // What a run completed before issue 24 stored: no counts, the old label and summary.
    const coverage = { mode: 'local_on_page', notEvaluated: ['dns', 'tls', 'foundation_files'] };
    const old = {
      ...JSON.parse(row.report as string),
      coverage,
      scoreLabel: 'Partial: Excellent on 4 evaluated checks',
      execSummary:
        'Website security score 100/100 (Partial: Excellent on 4 evaluated checks): a local on-page scan; not evaluated: dns, tls, foundation files. No issues in the 4 checks evaluated.',
    };
    await s.store.db
      .updateTable('runs')
      .set({ coverage: JSON.stringify(coverage), report: JSON.stringify(old) })
      .where('id', '=', run.runId)
      .execute();
    try {
      const { run: current, report, findings } = await read();
      const page = await viewer.get(run.humanUrl);
      expect(page.status).toBe(200);
      const head = headOf(page.html);
      expect(head).toContain('<h2 id="score-basis">Partial: Excellent on 4 evaluated checks</h2>');
      expect(head).not.toContain('class="score"');
      expect(head).toContain('does not evaluate DNS, TLS (HTTPS) and foundation files (robots.txt, sitemap, llms.txt)');
      expect(renderReport(current, report, findings).split('\n')[1]).toBe(
        'Partial: Excellent on 4 evaluated checks; score 100/100 on those checks',
      );
      expect(reportMarkdown(reportView(report)).split('\n')[1]).toMatch(
        /^\*\*Partial: Excellent on 4 evaluated checks\*\*; score 100\/100 on those checks\. /,
      );
      const status = runMarkdown(runView(current)).split('\n');
      expect(status[1]).toBe(
        `Partial: a local on-page scan; score 100/100 on those checks; ${report.findingsTotal} findings.`,
      );
      expect(status).toContain(
        'Partial score: a local on-page scan; not evaluated: DNS, TLS (HTTPS) and foundation files (robots.txt, sitemap, llms.txt).',
      );
    } finally {
      await s.store.db
        .updateTable('runs')
        .set({ coverage: row.coverage, report: row.report })
        .where('id', '=', run.runId)
        .execute();
    }
  });
});
