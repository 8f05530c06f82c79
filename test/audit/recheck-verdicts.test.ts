// What a recheck (issue 26) fetches for the checks it re-runs, and how a one-page audit's rows
// answer it: the checks that read no site file are judged alike with and without robots.txt, the
// sitemap, llms.txt and the agents' view (so leaving them out is safe), and a row that cannot say
// "fixed" (unverified, not asked of the page, a content check on a page without HTML) is not a pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SPECS } from '../../src/audit/checks/agent-readiness.ts';
import { MARKETING_SPECS } from '../../src/audit/checks/marketing.ts';
import { PAGE_SPECS } from '../../src/audit/checks/pages-specs.ts';
import { RENDERED_SPECS } from '../../src/audit/checks/rendered.ts';
import { TRANSPORT_SPECS } from '../../src/audit/checks/security/transport.ts';
import { type CheckResult, info, note, pass, unverified } from '../../src/audit/checks.ts';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { auditAiReadiness } from '../../src/audit/products/ai-readiness.ts';
import { auditMarketingSignal } from '../../src/audit/products/marketing-signal.ts';
import { type PageSeen, recheckNeeds, recheckVerdict } from '../../src/audit/recheck-verdicts.ts';
import { collectSite, type SiteSnapshot } from '../../src/audit/site.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const HEAD = '<title>Gallery of cats</title><meta name="viewport" content="width=device-width, initial-scale=1">';
const DESCRIPTION = '<meta name="description" content="Photographs of our cats, taken at home over the years.">';
const HOME = html(
  `${HEAD}${DESCRIPTION}<link rel="canonical" href="/">`,
  '<main><h1>Cats</h1><img src="/a.png"><a href="/about">About</a><form><input type="email"></form></main>',
);

describe('what a recheck leaves out does not change the rows it answers', () => {
  let site: FixtureSite;

  beforeAll(async () => {
    site = await startFixtureSite({
      // GPTBot, which robots.txt lets in, is turned away: what the agents' view sees.
      '/': (req, res) => {
        const refused = /GPTBot/.test(req.headers['user-agent'] ?? '');
        res.writeHead(refused ? 403 : 200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(refused ? 'Forbidden' : HOME);
      },
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /\nContent-Signal: search=yes\nSitemap: /sitemap.xml\n',
      },
      '/sitemap.xml': {
        headers: { 'content-type': 'application/xml' },
        body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/about</loc></url></urlset>',
      },
      '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: 'no title here' },
    });
  });
  afterAll(() => site?.close());

  /**
   * The rows of a product judged with robots.txt, the sitemap, llms.txt and the agents' view; with
   * the files but not the agents' view; and with neither.
   */
  async function threeWays(judge: (site: SiteSnapshot) => Promise<{ checks: CheckResult[] }>) {
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 2000 });
    try {
      const full = await collectSite(`${site.origin}/`, { fetcher, local: false, askAgents: true, pageBudget: 1 });
      const { agentAnswers: _a, agentDiscovery: _d, ...filesOnly } = full;
      const { robots: _r, sitemap: _s, llms: _l, ...pageOnly } = filesOnly;
      return {
        full: (await judge(full)).checks,
        filesOnly: (await judge(filesOnly)).checks,
        pageOnly: (await judge(pageOnly)).checks,
      };
    } finally {
      await fetcher.close();
    }
  }
  const same = (rows: CheckResult[], others: CheckResult[]) =>
    rows.filter((row) => JSON.stringify(others.find((r) => r.id === row.id)) === JSON.stringify(row));

  for (const [product, judge] of [
    ['ai_readiness', auditAiReadiness],
    ['marketing_signal', auditMarketingSignal],
  ] as const) {
    it(`judges every ${product} check alike without what it does not read`, async () => {
      const { full, filesOnly, pageOnly } = await threeWays(judge);
      const needs = (id: string) => recheckNeeds(product, [id]);
      const pageChecks = full.filter((row) => !needs(row.id).files && !needs(row.id).agents);
      expect(pageChecks.length).toBeGreaterThan(product === 'ai_readiness' ? 20 : 10);
      expect(same(pageChecks, pageOnly).map((row) => row.id)).toEqual(pageChecks.map((row) => row.id));
      const fileChecks = full.filter((row) => needs(row.id).files);
      const withoutAgents = fileChecks.filter((row) => !needs(row.id).agents);
      expect(same(withoutAgents, filesOnly).map((row) => row.id)).toEqual(withoutAgents.map((row) => row.id));
      // What is left out does change the others: the fixture's files are all wrong, and GPTBot is turned away.
      expect(same(fileChecks, pageOnly).length).toBeLessThan(fileChecks.length);
      if (product === 'ai_readiness') {
        const agentChecks = full.filter((row) => needs(row.id).agents);
        expect(agentChecks.find((row) => row.id === 'ai-agents-answered')?.status).toBe('fail');
        expect(same(agentChecks, filesOnly).length).toBeLessThan(agentChecks.length);
      }
    });
  }
});

describe('a row’s verdict on the page rechecked', () => {
  const seen: PageSeen = { product: 'ai_readiness', local: false, page: undefined, html: true, renderAsked: false };
  const none = { title: 'No Content Signals', remediation: '', agentAction: '' };

  it('fails a weighted check that still reports something to act on, and passes one with nothing left to fix', () => {
    const signals = info(AGENT_SPECS.contentSignals, { detail: 'robots.txt states no Content Signals', ...none });
    expect(recheckVerdict('content-signals', signals, seen).verdict).toBe('fail');
    const tree = note(RENDERED_SPECS.agentView, 'no controls in the rendered tree');
    expect(recheckVerdict('agent-accessibility-tree', tree, seen)).toMatchObject({
      verdict: 'pass',
      status: 'info',
      detail: 'nothing to fix: no controls in the rendered tree',
    });
  });

  it('does not pass an unverified row, a question not asked of the page, or a content check on a page without HTML', () => {
    const shell = unverified(PAGE_SPECS.text, 'the page is an app shell');
    expect(recheckVerdict('content-in-html', shell, seen).verdict).toBe('not_evaluated');
    const pricing = note(MARKETING_SPECS.pricing, 'not asked of a personal site: no prices to show');
    const marketing = { ...seen, product: 'marketing_signal' as const };
    expect(recheckVerdict('mk-pricing-visible', pricing, marketing)).toMatchObject({ verdict: 'not_evaluated' });
    const notFound = { ...seen, html: false };
    expect(recheckVerdict('image-alt', pass(PAGE_SPECS.imageAlt, 'every image (0 page(s))'), notFound).verdict).toBe(
      'not_evaluated',
    );
    // A header or a TLS verdict stands whatever the page's body is.
    const security = { ...notFound, product: 'website_security' as const };
    expect(recheckVerdict('hsts', pass(TRANSPORT_SPECS.hsts, 'max-age=31536000'), security).verdict).toBe('pass');
  });
});
