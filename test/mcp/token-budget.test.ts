// Issue 26, item 7: what a model reads of one audit. get_report plus the first page_findings page as
// text is at most 0.35x the characters of the raw API JSON of the same data (the report and the
// first findings page of 20), and loses nothing a coding agent needs: every finding's verify line,
// each element's selector and start tag as code it can search for, each suggestion's text, and the
// page that holds a broken link. The real service audits a fixture site on loopback; the tools are
// called through a real MCP client.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/contract/index.ts';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { codeSpan, commandLine, markQuotes } from '../../src/mcp/page-content.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site.ts';
import { connectHttp, startLoopbackMcp, textOf } from '../support/mcp.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { structured } from './support.ts';

/** The budget of issue 26 (docs/mcp.md, docs/benchmarks.md). */
const TEXT_VS_RAW_MAX = 0.35;
const LIMIT = 20;

// bench/mcp.ts's site, with what real templates add: a search field named only by its placeholder
// and a navigation link to a page that is gone, on every page.
function page(title: string, description: string | null, body: string): string {
  const meta = description ? `<meta name="description" content="${description}">` : '';
  const nav = ['/', '/about', '/pricing', '/blog', '/careers']
    .map((path) => `<a href="${path}">${path === '/' ? 'Home' : path.slice(1)}</a>`)
    .join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${meta}</head><body><header><nav>${nav}</nav><form action="/search"><input name="q" placeholder="Search"></form></header><main><h1>${title}</h1><p>${'Acme makes hand-forged garden tools, guaranteed for twenty years of daily work. '.repeat(8)}</p>${body}</main></body></html>`;
}

const SITE: Record<string, string> = {
  '/': page('Acme garden tools', 'Hand-forged garden tools.', '<img src="/spade.jpg">'),
  '/about': page('About Acme', null, '<p>Founded in 1921.</p><img src="/founder.jpg">'),
  '/pricing': page(
    'Pricing',
    'Prices of our tools.',
    '<form action="/cart"><input name="qty"><button>Buy</button></form>',
  ),
  '/blog': page('Blog', null, '<article><h2>Sharpening a spade</h2><p>Use a file.</p></article>'),
};

let service: TestService;
let site: FixtureSite;
let mcp: McpHttpServer;
let client: Client;
let text: { report: string; findings: string };
let raw: { report: string; findings: string };
let findings: Finding[];

beforeAll(async () => {
  const backend = testBackends()[0];
  if (!backend) throw new Error('no SQLite backend');
  service = await startTestService(backend, { allowLocalTargets: true });
  site = await startFixtureSite(Object.fromEntries(Object.entries(SITE).map(([path, body]) => [path, { body }])));
  mcp = await startLoopbackMcp(service.url, { settings: { pollIntervalMs: 150, defaultWaitSeconds: 30 } });
  const { key } = await service.tenant('pro', 10);
  client = await connectHttp(mcp.url, key, { era: '2026-07-28' });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return result;
  };
  const { projectId } = structured<{ projectId: string }>(await call('create_project', { domain: site.host }));
  const { runId } = structured<{ runId: string }>(await call('start_run', { projectId }));
  let waited = await call('wait_for_run', { runId });
  while (structured<{ stillRunning: boolean }>(waited).stillRunning) waited = await call('wait_for_run', { runId });
  expect(structured(waited)).toMatchObject({ status: 'completed' });
  text = {
    report: textOf(await call('get_report', { runId })),
    findings: textOf(await call('page_findings', { runId, limit: LIMIT })),
  };
  raw = {
    report: (await service.request(`/api/v1/runs/${runId}/report`, { key })).text,
    findings: (await service.request(`/api/v1/runs/${runId}/findings?limit=${LIMIT}`, { key })).text,
  };
  findings = (JSON.parse(raw.findings) as { findings: Finding[] }).findings;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  await site?.close();
  await service?.close();
});

describe('get_report + the first page_findings page as text', () => {
  it(`is at most ${TEXT_VS_RAW_MAX}x the characters of the raw API JSON`, () => {
    // A run of about ten findings, with element evidence and a suggestion.
    expect(findings.length).toBeGreaterThanOrEqual(8);
    expect(findings.some((f) => f.evidence.some((e) => e.elements?.length))).toBe(true);
    expect(findings.some((f) => f.agentActions.some((a) => a.suggestion))).toBe(true);
    const ratio = (text.report.length + text.findings.length) / (raw.report.length + raw.findings.length);
    expect(ratio).toBeLessThanOrEqual(TEXT_VS_RAW_MAX);
  });

  it('keeps every fix, action, verify line, selector and start tag (as code) and suggestion', () => {
    for (const finding of findings) {
      expect(text.findings).toContain(`\`${finding.findingId}\``);
      expect(text.findings).toContain(`Fix: ${markQuotes(finding.remediation)}`);
      for (const action of finding.agentActions)
        expect(text.findings).toContain(`- Action: ${markQuotes(action.description.split('\n')[0] ?? '')}`);
      if (finding.verify) expect(text.findings).toContain(`Verify: ${codeSpan(commandLine(finding.verify))}`);
      for (const item of finding.evidence)
        for (const element of item.elements ?? [])
          expect(text.findings, finding.title).toContain(`\`${element.selector}\` \`${element.snippet}\``);
      for (const action of finding.agentActions)
        if (action.suggestion) expect(text.findings).toContain(action.suggestion.content);
    }
  });

  it('shows a template’s element once, with the pages it is on', () => {
    const field = '`<input name="q" placeholder="Search">`';
    expect(text.findings.split(field)).toHaveLength(2);
    const line = text.findings.split('\n').findIndex((l) => l.includes(field));
    expect(text.findings.split('\n')[line - 1]).toBe(
      'Evidence on <page-content>/, /about, /pricing, /blog</page-content>: text field <page-content>q</page-content> is named only by its placeholder',
    );
  });

  it('names the page that holds a broken link, and the link, once for a link on every page', () => {
    const at = text.findings.indexOf('### MEDIUM: Internal links lead to error pages');
    const block = text.findings.slice(at, text.findings.indexOf('\n\n', at));
    expect(block).toContain(
      'Evidence on <page-content>/</page-content>: its link to <page-content>/careers</page-content> answers 404; the same link is on 3 more page(s)',
    );
    expect(block).toContain('`<a href="/careers">`');
  });
});
