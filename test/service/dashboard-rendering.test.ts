// The report page says which pages were rendered in Chromium and which were judged on their served
// HTML only (issue 25): rendering covers a few pages a run, and the rest must not pass for rendered.
import { describe, expect, it } from 'vitest';
import { AiReadinessReport, type ReportContext } from '../../src/contract/index.ts';
import { reportSummary } from '../../src/service/dashboard/score-summary.ts';

const report = (rendering: unknown): ReportContext =>
  AiReadinessReport.parse({
    schemaVersion: 2,
    runId: '01890a5d-ac96-774b-bcce-b302099a8057',
    projectId: null,
    url: 'https://example.com/',
    score: 80,
    scoreLabel: 'Good',
    execSummary: 'Good foundations.',
    severityCounts: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
    findingsTotal: 1,
    scanMode: null,
    model: null,
    costUsd: 0,
    createdAt: '2026-11-26T10:00:00.000Z',
    completedAt: '2026-11-26T10:01:00.000Z',
    humanUrl: 'https://siteaudit.example/runs/01890a5d-ac96-774b-bcce-b302099a8057',
    rendering,
    product: 'ai_readiness',
    topFindings: [],
    foundation: {
      sitemap: { present: true, notes: '' },
      robotsTxt: { present: true, notes: '' },
      llmsTxt: { present: false, notes: '' },
    },
    pagesCrawled: 3,
  });

describe('the report summary on the dashboard', () => {
  it('names the pages rendered and the pages judged as served', async () => {
    const page = String(
      await reportSummary(
        report({
          mode: 'always',
          available: true,
          pages: [
            { url: 'https://example.com/', ms: 900, requests: 3, refused: 0 },
            { url: 'https://example.com/a', ms: 700, requests: 2, refused: 0, axeError: 'axe is not defined' },
          ],
          judgedAsServed: ['https://example.com/b'],
        }),
      ),
    );
    expect(page).toContain(
      'Rendered in Chromium and checked as a browser shows them: <code>https://example.com/</code>, <code>https://example.com/a</code> (axe did not finish: axe is not defined)',
    );
    expect(page).toContain(
      'Judged on their served HTML only, without CSS or scripts: <code>https://example.com/b</code>',
    );
  });

  it('says nothing of served pages when every page was rendered, or none could be', async () => {
    const all = String(
      await reportSummary(
        report({
          mode: 'auto',
          available: true,
          pages: [{ url: 'https://example.com/', ms: 900, requests: 3, refused: 0 }],
          judgedAsServed: [],
        }),
      ),
    );
    expect(all).not.toContain('Judged on their served HTML');
    const none = String(
      await reportSummary(report({ mode: 'auto', available: false, reason: 'no Chromium', pages: [] })),
    );
    expect(none).not.toContain('Judged on their served HTML');
  });
});
