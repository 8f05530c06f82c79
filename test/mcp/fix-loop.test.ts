// The agent's fix loop through MCP alone (issue 26), with the official SDK clients of both lines over
// stdio, the server started inside the site's repository as a coding agent's host starts it: audit a
// site with two defects; page_findings locates the image in the repository's file and line; fix it in
// the file; audit again; list_runs lists both runs; compare_runs answers the image notFound and the
// description persisting, one fingerprint in both runs; fix the description too; recheck answers
// pass in under 3 s.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site.ts';
import { connectStdio } from '../support/mcp.ts';
import { callV1, connectStdioV1 } from '../support/mcp-v1.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { TEST_POLL_MS } from './support.ts';

/**
 * The site's one page, as its repository holds it: clean but for two defects, the image at line 12
 * without alt text and no meta description.
 */
const index = (origin: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stoneware mugs from the mill</title>
</head>
<body>
<main>
<h1>Stoneware mugs</h1>
<p>${'Stoneware mugs, thrown and glazed by hand in our workshop by the river. '.repeat(6)}</p>
<img class="hero-mug" src="/img/blue-mug.jpg" width="400" height="300">
<h2>How long does a mug take to make?</h2>
<p>About three weeks: throwing, drying, two firings and glazing. Updated <time datetime="2026-11-01">1 November 2026</time>.</p>
</main>
<link rel="canonical" href="${origin}/">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"The Mill Pottery","url":"${origin}/","logo":"${origin}/logo.png"},{"@type":"WebPage","url":"${origin}/","dateModified":"2026-11-01"}]}</script>
</body>
</html>
`;
const IMAGE_LINE = 12;

interface Tools {
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ structuredContent?: unknown; content?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

const SDKS = [
  {
    sdk: '2.x',
    connect: async (env: Record<string, string>, cwd: string): Promise<Tools> => {
      const connection = await connectStdio(env, { era: '2026-07-28', cwd });
      return {
        call: (name, args = {}) => connection.client.callTool({ name, arguments: args }),
        close: connection.close,
      };
    },
  },
  {
    sdk: '1.x',
    connect: async (env: Record<string, string>, cwd: string): Promise<Tools> => {
      const connection = await connectStdioV1(env, undefined, cwd);
      await connection.client.listTools(); // the 1.x client validates results of tools it has listed
      return { call: (name, args = {}) => callV1(connection.client, name, args), close: connection.close };
    },
  },
];

const data = <T>(result: { structuredContent?: unknown; isError?: boolean; content?: unknown }): T => {
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as T;
};

interface Element {
  selector: string;
  snippet: string;
  locations?: Array<{ file: string; line: number; confidence: string }>;
}
interface FindingView {
  findingId: string;
  fingerprint?: string;
  title: string;
  evidence: Array<{ url?: string; elements?: Element[] }>;
}

describe.each(SDKS)('the fix loop through MCP with the SDK $sdk client over stdio', ({ connect }) => {
  let s: TestService;
  let site: FixtureSite;
  let repo: string;
  let tools: Tools;

  beforeAll(async () => {
    const backend = testBackends()[0];
    if (!backend) throw new Error('no SQLite backend');
    repo = mkdtempSync(join(tmpdir(), 'siteaudit-fix-loop-'));
    mkdirSync(join(repo, 'site'));
    writeFileSync(join(repo, 'site', 'index.html'), index('http://127.0.0.1'));
    // A built copy the repository ignores, which must never be pointed at.
    writeFileSync(join(repo, '.gitignore'), 'dist/\n');
    mkdirSync(join(repo, 'dist'));
    writeFileSync(join(repo, 'dist', 'index.html'), index('http://127.0.0.1'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    // The site serves its page from the repository: a fix in the file is a fix on the site.
    site = await startFixtureSite({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(readFileSync(join(repo, 'site', 'index.html')));
      },
    });
    writeFileSync(join(repo, 'site', 'index.html'), index(site.origin));
    s = await startTestService(backend, { allowLocalTargets: true, monitor: false });
    const { key } = await s.tenant('pro', 20);
    tools = await connect(
      {
        SITEAUDIT_API_URL: s.url,
        SITEAUDIT_API_KEY: key,
        SITEAUDIT_MCP_POLL_MS: String(TEST_POLL_MS),
        SITEAUDIT_MCP_WAIT_SECONDS: '20',
      },
      repo,
    );
  }, 60_000);
  afterAll(async () => {
    await tools?.close();
    await s?.close();
    await site?.close();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  async function audit(projectId: string, attempt: string): Promise<string> {
    const { runId } = data<{ runId: string }>(
      await tools.call('start_run', { projectId, product: 'ai_readiness', idempotencyKey: attempt }),
    );
    for (let i = 0; i < 20; i++) {
      const run = data<{ status: string; done: boolean }>(await tools.call('wait_for_run', { runId }));
      if (run.done) {
        expect(run.status).toBe('completed');
        return runId;
      }
    }
    throw new Error('the audit did not end');
  }
  const findingsOf = async (runId: string) =>
    data<{ findings: FindingView[] }>(await tools.call('page_findings', { runId, limit: 100 })).findings;

  it('locates, compares, lists and rechecks, all through MCP', async () => {
    const { projectId } = data<{ projectId: string }>(await tools.call('create_project', { domain: site.host }));
    const first = await audit(projectId, 'first');
    const before = await findingsOf(first);
    const image = before.find((f) => f.title === 'Images without alt text');
    const description = before.find((f) => f.title === 'Pages without a meta description');
    expect(image && description, JSON.stringify(before.map((f) => f.title))).toBeTruthy();
    expect(before.map((f) => f.title)).toEqual(['Images without alt text', 'Pages without a meta description']);
    // Located in the repository the server started in: the template, not the ignored built copy.
    const element = image?.evidence[0]?.elements?.[0];
    expect(element?.snippet).toContain('blue-mug.jpg');
    expect(element?.locations?.[0]).toMatchObject({ file: 'site/index.html', line: IMAGE_LINE, confidence: 'high' });
    expect(JSON.stringify(element?.locations)).not.toContain('dist/');

    // The agent fixes the image in the file, and audits again.
    writeFileSync(
      join(repo, 'site', 'index.html'),
      index(site.origin).replace('<img class="hero-mug"', '<img class="hero-mug" alt="A blue stoneware mug"'),
    );
    const second = await audit(projectId, 'second');

    const runs = data<{ runs: Array<{ runId: string; status: string; score?: number; completedAt?: string }> }>(
      await tools.call('list_runs', { projectId, product: 'ai_readiness' }),
    ).runs;
    expect(runs.map((r) => r.runId)).toEqual([second, first]);
    for (const run of runs) expect(run).toMatchObject({ status: 'completed', completedAt: expect.any(String) });

    const comparison = data<{
      baselineRunId: string;
      counts: { new: number; persisting: number; notFound: number };
      findings: Array<{ comparison: string; fingerprint: string; findingId: string }>;
    }>(await tools.call('compare_runs', { runId: second }));
    expect(comparison.baselineRunId).toBe(first);
    expect(comparison.counts).toEqual({ new: 0, persisting: 1, notFound: 1 });
    const after = await findingsOf(second);
    const persisting = comparison.findings.find((f) => f.comparison === 'persisting');
    const gone = comparison.findings.find((f) => f.comparison === 'notFound');
    expect(gone).toMatchObject({ fingerprint: image?.fingerprint, findingId: image?.findingId });
    const stillThere = after.find((f) => f.title === 'Pages without a meta description');
    expect(persisting?.fingerprint).toBe(description?.fingerprint);
    expect(stillThere?.fingerprint).toBe(description?.fingerprint);
    expect(stillThere?.findingId).not.toBe(description?.findingId);

    // The agent fixes the description, and checks the fix before deploying: one check, one page.
    writeFileSync(
      join(repo, 'site', 'index.html'),
      readFileSync(join(repo, 'site', 'index.html'), 'utf8').replace(
        '<title>',
        '<meta name="description" content="Stoneware mugs thrown and glazed by hand.">\n<title>',
      ),
    );
    const started = performance.now();
    const recheck = data<{ results: Array<{ url: string; status: string }>; ms: number }>(
      await tools.call('recheck', { runId: second, fingerprint: stillThere?.fingerprint }),
    );
    const wall = performance.now() - started;
    expect(recheck.results).toEqual([expect.objectContaining({ url: `${site.origin}/`, status: 'pass' })]);
    // Issue 26's budget for a recheck of one finding, as the agent waits for it.
    expect(wall).toBeLessThan(3000);
  }, 120_000);
});
