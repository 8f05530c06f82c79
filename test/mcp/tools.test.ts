// Every tool end to end with the SDK's own client, over stdio (the real `siteaudit mcp` process) and
// streamable HTTP, in both protocol eras, against the real service auditing a fixture site.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, textOf } from '../support/mcp.ts';
import { CONNECTIONS, type McpWorld, startMcpWorld, structured } from './support.ts';

let world: McpWorld;
beforeAll(async () => {
  world = await startMcpWorld();
});
afterAll(async () => {
  await world?.close();
});

interface RunResult {
  runId: string;
  status: string;
  done: boolean;
  humanUrl: string;
  stillRunning?: boolean;
  replayed?: boolean;
  idempotencyKey?: string;
}

describe.each(CONNECTIONS)('MCP tools over $name', ({ transport, era }) => {
  let client: Client;
  let close: () => Promise<void>;
  let key: string;
  let organizationId: string;
  const asked: string[] = [];
  let answer: 'accept' | 'decline' = 'accept';

  beforeAll(async () => {
    ({ key, organizationId } = await world.service.tenant('pro', 40));
    ({ client, close } = await world.connect(transport, key, {
      era,
      onElicit: (message) => {
        asked.push(message);
        return answer === 'accept' ? { action: 'accept', content: { archive: true } } : { action: 'decline' };
      },
    }));
  });
  afterAll(async () => {
    await close?.();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

  it('negotiates the protocol revision asked for', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
    expect(client.getServerVersion()?.name).toBe('siteaudit');
  });

  it('whoami names the organization, plan and credits', async () => {
    const result = await call('whoami');
    expect(result.isError).toBeFalsy();
    const me = structured<{ organizationId: string; plan: string; creditsRemaining: number; canStartRuns: boolean }>(
      result,
    );
    expect(me).toMatchObject({ organizationId, plan: 'pro', creditsRemaining: 40, canStartRuns: true });
    expect(textOf(result)).toContain('40 credits left');
    // Where notifications are configured (issue 11).
    expect(textOf(result)).toContain('/api/v1/webhooks, with a key that has webhooks:manage (this one has it)');
    expect(textOf(result)).toContain('PUT /api/v1/projects/{projectId}/monitoring {"enabled": true}');
  });

  it('audits a site: create, start (idempotently), wait with progress, report, findings, resources', async () => {
    const created = await call('create_project', { domain: `http://${world.site.host}/some/page` });
    const project = structured<{ projectId: string; domain: string; alreadyExisted: boolean }>(created);
    expect(project).toMatchObject({ domain: world.site.host, alreadyExisted: false });
    const again = structured<{ projectId: string; alreadyExisted: boolean }>(
      await call('create_project', { domain: world.site.host }),
    );
    expect(again).toEqual(expect.objectContaining({ projectId: project.projectId, alreadyExisted: true }));

    const listed = structured<{ projects: { projectId: string }[]; hasMore: boolean }>(await call('list_projects'));
    expect(listed.projects.map((p) => p.projectId)).toContain(project.projectId);

    const started = await call('start_run', { projectId: project.projectId });
    const run = structured<RunResult>(started);
    expect(run.status).toBe('pending');
    expect(run.idempotencyKey).toMatch(/^mcp-/);
    expect(textOf(started)).toContain(run.humanUrl);
    // A retried call (same arguments) is the same audit, not a second one.
    const retried = structured<RunResult>(await call('start_run', { projectId: project.projectId }));
    expect(retried.runId).toBe(run.runId);

    const progress: { progress: number; message?: string }[] = [];
    const waited = await client.callTool(
      { name: 'wait_for_run', arguments: { runId: run.runId } },
      { onprogress: (update) => progress.push(update) },
    );
    const finished = structured<RunResult & { score: number | null; findingsTotal: number }>(waited);
    expect(finished).toMatchObject({ runId: run.runId, status: 'completed', done: true, stillRunning: false });
    // The fixture audit can finish before the first poll; the slow site below shows progress mid-run.
    // Progress only grows, and the result (not a closing notification) says the run is done.
    for (const update of progress) expect(update.progress).toBeLessThanOrEqual(100);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress as number);
    expect(textOf(waited)).toContain('get_report');
    // A local scan's run says what its score stands on before the number (issue 24).
    expect(textOf(waited).split('\n')[1]).toMatch(
      /^Partial: \d+ of \d+ AI readiness checks evaluated; score \d+\/100 on those checks; \d+ findings\.$/,
    );

    const report = await call('get_report', { runId: run.runId });
    expect(report.isError).toBeFalsy();
    const view = structured<{
      product: string;
      score: number;
      humanUrl: string;
      pagesCrawled: number;
      foundation: { sitemap: boolean };
    }>(report);
    expect(view.product).toBe('ai_readiness');
    expect(view.pagesCrawled).toBe(3);
    // A loopback site is a local on-page scan: its files were not read, which is not "missing" (issue 10).
    expect(view.foundation).toEqual({ sitemap: 'not_evaluated', robotsTxt: 'not_evaluated', llmsTxt: 'not_evaluated' });
    expect(structured<{ notEvaluated: string[] }>(report).notEvaluated).toContain('dns');
    const counts = structured<{ scoreLabel: string; evaluatedChecks: number; totalChecks: number }>(report);
    expect(counts.evaluatedChecks).toBeGreaterThan(0);
    expect(counts.evaluatedChecks).toBeLessThan(counts.totalChecks);
    const partial = `Partial: ${counts.evaluatedChecks} of ${counts.totalChecks} AI readiness checks evaluated`;
    expect(counts.scoreLabel).toBe(partial);
    expect(textOf(report)).toContain('sitemap not evaluated, robots.txt not evaluated, llms.txt not evaluated');
    // The text leads with the partial fact, the number after it; the summary names what was left out.
    expect(textOf(report).split('\n')[1]).toMatch(
      new RegExp(`^\\*\\*${partial}\\*\\*; score \\d+/100 on those checks\\. Partial: a local on-page scan evaluated `),
    );
    expect(textOf(report)).toContain('not evaluated: DNS, TLS (HTTPS), redirects');
    expect(textOf(report)).not.toContain('missing');
    expect(textOf(report)).toMatch(
      /webhooks at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks \(scope webhooks:manage\)/,
    );
    expect(textOf(report)).toMatch(
      /PUT http:\/\/127\.0\.0\.1:\d+\/api\/v1\/projects\/[0-9a-f-]{36}\/monitoring \{"enabled": true\}/,
    );
    expect(textOf(report)).toContain(view.humanUrl);
    const links = (report.content as { type: string; uri?: string }[]).filter((b) => b.type === 'resource_link');
    expect(links.map((l) => l.uri)).toEqual([
      `siteaudit://runs/${run.runId}/report`,
      `siteaudit://runs/${run.runId}/findings`,
    ]);

    const first = await call('page_findings', { runId: run.runId, limit: 2 });
    const page = structured<{
      findings: { findingId: string; humanUrl: string; detail: string; remediation: string }[];
      nextCursor: string;
      hasMore: boolean;
    }>(first);
    expect(page.findings).toHaveLength(2);
    expect(page.hasMore).toBe(true);
    // The engine's own words are shown as written; only text quoted from the site is marked.
    for (const finding of page.findings) {
      expect(finding.detail).not.toMatch(/[‹›]/);
      expect(finding.detail.split('<page-content>').length).toBe(finding.detail.split('</page-content>').length);
    }
    // Each finding's dashboard page is said once for the page: its address with the finding's id appended.
    for (const finding of page.findings) {
      const prefix = finding.humanUrl.slice(0, -finding.findingId.length);
      expect(`${prefix}${finding.findingId}`).toBe(finding.humanUrl);
      expect(textOf(first)).toContain(`Each finding's dashboard page: ${prefix}{findingId}.`);
      expect(textOf(first)).toContain(`\`${finding.findingId}\``);
    }
    // Each finding cites its standard (in the result) and the line that verifies a fix (in the result and the text).
    const cited = structured<{ findings: { references?: { url: string }[]; verify?: string }[] }>(first).findings;
    for (const finding of cited) {
      expect(finding.references?.[0]?.url).toMatch(/^https:\/\//);
      expect(textOf(first)).toContain(`Verify: \`${finding.verify}\``);
    }
    // A paste-ready fix comes as a suggestion to review, its text in a code block (issue 13), marked
    // as page content since it is built from the site (issue 23).
    const whole = await call('page_findings', { runId: run.runId, limit: 100 });
    const suggested = structured<{ findings: { agentActions: string[] }[] }>(whole)
      .findings.flatMap((f) => f.agentActions)
      .find((a) => a.startsWith('Suggestion to review (Organization JSON-LD'));
    expect(suggested).toContain('"@type": "Organization"');
    expect(textOf(whole)).toContain(
      "- Action: Suggestion to review (Organization JSON-LD, for the <head> of the home page):\n```\n<page-content>\n<!-- Replace https://www.example.com/ with the site's public address",
    );
    // A local scan's starter never carries the local address it read (issue 25).
    expect(suggested).toContain('"url": "https://www.example.com/"');
    expect(suggested).not.toContain('127.0.0.1');
    const second = structured<{ findings: { findingId: string }[] }>(
      await call('page_findings', { runId: run.runId, limit: 2, cursor: page.nextCursor }),
    );
    expect(second.findings[0]?.findingId).not.toBe(page.findings[0]?.findingId);
    const lows = structured<{ findings: { severity: string }[] }>(
      await call('page_findings', { runId: run.runId, severity: 'low' }),
    );
    expect(lows.findings.length).toBeGreaterThan(0);
    expect(lows.findings.every((f) => f.severity === 'low')).toBe(true);

    // Evidence names the offending element, marked as page content in both the result and the text.
    const all100 = await call('page_findings', { runId: run.runId, limit: 100 });
    const alt = structured<{
      findings: { title: string; evidence: { url?: string; elements?: { selector: string; snippet: string }[] }[] }[];
    }>(all100).findings.find((f) => f.title === 'Images without alt text');
    expect(alt?.evidence[0]).toMatchObject({
      url: `${world.site.origin}/pricing`,
      elements: [
        {
          selector: '<page-content>body > main > img.chart</page-content>',
          snippet: '<page-content>‹img src="/chart.png" class="chart"›</page-content>',
        },
      ],
    });
    // In the text, the selector and the start tag are code, as written, so they can be searched for (issue 26).
    expect(textOf(all100)).toContain(
      '  - <page-content>`body > main > img.chart` `<img src="/chart.png" class="chart">`</page-content>',
    );

    const resource = await client.readResource({ uri: `siteaudit://runs/${run.runId}/report` });
    const body = JSON.parse((resource.contents[0] as { text: string }).text) as { runId: string; product: string };
    expect(body).toMatchObject({ runId: run.runId, product: 'ai_readiness' });
    const findings = await client.readResource({ uri: `siteaudit://runs/${run.runId}/findings` });
    const all = JSON.parse((findings.contents[0] as { text: string }).text) as { findings: unknown[] };
    expect(all.findings.length).toBe(finished.findingsTotal);
  });

  it('archives only with the domain as confirm and, where the client can, the person’s yes; restores', async () => {
    const { projectId } = structured<{ projectId: string }>(
      await call('create_project', { domain: `archive-${era}-${transport}.example` }),
    );
    const wrong = await call('archive_project', { projectId, confirm: 'other.example' });
    expect(wrong.isError).toBe(true);
    expect(errorOf(wrong)).toEqual({ code: 'confirmation_mismatch', status: 400 });

    {
      answer = 'decline';
      const declined = await call('archive_project', { projectId, confirm: `archive-${era}-${transport}.example` });
      expect(declined.isError).toBe(true);
      expect(errorOf(declined).code).toBe('not_confirmed');
      answer = 'accept';
    }
    const before = asked.length;
    const archived = await call('archive_project', { projectId, confirm: `archive-${era}-${transport}.example` });
    expect(archived.isError).toBeFalsy();
    expect(structured(archived)).toMatchObject({ projectId, archived: true });
    expect(asked.length - before).toBe(1);
    expect(asked.at(-1)).toContain(`archive-${era}-${transport}.example`);

    const refused = await call('start_run', { projectId });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused)).toMatchObject({ code: 'project_archived', status: 409 });
    expect(textOf(refused)).toContain('restore_project');

    const restored = await call('restore_project', { projectId });
    expect(structured(restored)).toMatchObject({ projectId, status: 'active', restored: true });
    const idle = await call('restore_project', { projectId });
    expect(structured(idle)).toMatchObject({ projectId, status: 'active', restored: false });
    expect(textOf(idle)).toContain('Already active');
  });

  // Issue 26: create_project restored an archived project and said "Found the existing project".
  it('says when create_project restores an archived project', async () => {
    const domain = `restore-${era}-${transport}.example`;
    const { projectId } = structured<{ projectId: string }>(await call('create_project', { domain }));
    expect((await call('archive_project', { projectId, confirm: domain })).isError).toBeFalsy();
    const again = await call('create_project', { domain });
    expect(structured(again)).toMatchObject({ projectId, status: 'active', alreadyExisted: true, restored: true });
    expect(textOf(again)).toMatch(/^Restored the archived project/);
    const third = await call('create_project', { domain });
    expect(structured(third)).toMatchObject({ projectId, alreadyExisted: true, restored: false });
    expect(textOf(third)).toMatch(/^Found the existing project/);
  });

  it('bounds the wait and says to call again; refuses a second run while one is in flight', async () => {
    const { projectId } = structured<{ projectId: string }>(
      await call('create_project', { domain: world.slowSite.host }),
    );
    const run = structured<RunResult>(
      await call('start_run', { projectId, idempotencyKey: `slow-${era}-${transport}-1` }),
    );
    const began = Date.now();
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const waited = await client.callTool(
      { name: 'wait_for_run', arguments: { runId: run.runId, maxWaitSeconds: 1 } },
      { onprogress: (update) => progress.push(update) },
    );
    const elapsed = Date.now() - began;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ total: 100 });
    expect(progress[0]?.message).toMatch(/\w/);
    expect(structured(waited)).toMatchObject({ runId: run.runId, done: false, stillRunning: true });
    expect(textOf(waited)).toContain('Call wait_for_run again');
    expect(elapsed).toBeLessThan(3000);

    const second = await call('start_run', { projectId, idempotencyKey: `slow-${era}-${transport}-2` });
    expect(second.isError).toBe(true);
    expect(errorOf(second)).toMatchObject({ code: 'run_in_flight', status: 409 });
    expect(textOf(second)).toContain(`wait_for_run with runId "${run.runId}"`);
  });

  it('turns API errors into tool errors that say what to do', async () => {
    const missing = await call('get_report', { runId: '01234567-89ab-7def-8123-456789abcdef' });
    expect(missing.isError).toBe(true);
    expect(errorOf(missing)).toMatchObject({ code: 'not_found', status: 404 });

    const invalid = await call('start_run', { projectId: 'not-a-uuid' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/projectId/);
  });

  it('offers the audit_site and fix_findings prompts', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['audit_site', 'fix_findings']);
    const audit = await client.getPrompt({ name: 'audit_site', arguments: { domain: 'example.com' } });
    const text = (audit.messages[0]?.content as { text: string } | undefined)?.text;
    expect(text).toMatch(/create_project[\s\S]*start_run[\s\S]*wait_for_run[\s\S]*get_report[\s\S]*page_findings/);
    const fix = await client.getPrompt({
      name: 'fix_findings',
      arguments: { runId: '01234567-89ab-7def-8123-456789abcdef', minSeverity: 'high' },
    });
    // The fix loop (issue 26): locations, a recheck of each fix, then a new audit compared.
    expect((fix.messages[0]?.content as { text: string } | undefined)?.text).toMatch(
      /file:line[\s\S]*recheck[\s\S]*localhost:3000[\s\S]*compare_runs/,
    );
  });
});

describe('get_report renders every product', () => {
  it.each([
    ['website_security', 'pillars', '| pillar | score | weight | fail |'],
    ['marketing_signal', 'stageScores', '| stage | score | confidence |'],
  ] as const)('%s', async (product, section, table) => {
    const { key } = await world.service.tenant('pro', 5);
    const { client, close } = await world.connect('http', key, { era: '2026-07-28' });
    try {
      const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
      const { projectId } = structured<{ projectId: string }>(
        await call('create_project', { domain: world.site.host }),
      );
      const { runId } = structured<{ runId: string }>(await call('start_run', { projectId, product }));
      expect(structured(await call('wait_for_run', { runId }))).toMatchObject({ status: 'completed' });
      const report = await call('get_report', { runId });
      const view = structured<Record<string, unknown>>(report);
      expect(view.product).toBe(product);
      expect(view[section]).toBeDefined();
      expect(textOf(report)).toContain(table);
      expect(textOf(report)).toContain(view.humanUrl as string);
      const page = structured<{ findings: { humanUrl: string; remediation: string }[] }>(
        await call('page_findings', { runId, limit: 5 }),
      );
      expect(page.findings.length).toBe(Math.min(5, view.findingsTotal as number));
      for (const finding of page.findings) expect(finding.remediation.length).toBeGreaterThan(0);
      if (product === 'marketing_signal') {
        // The home page's H1 is quoted from the site: marked as page content inside the engine's own words.
        const all = structured<{ findings: { detail: string }[] }>(
          await call('page_findings', { runId, limit: 100 }),
        ).findings.map((finding) => finding.detail);
        expect(all).toContain('the H1 <page-content>Home</page-content> does not state an offer');
      }
    } finally {
      await close();
    }
  });
});
