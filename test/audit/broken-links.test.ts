// Issue 26: a broken-link finding named the address that answers an error but not the page that
// holds the link. Its evidence now names the linking page and the link's element; a link on every
// page (a navigation link) is one evidence item that counts the other pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const nav =
  '<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/blog">Blog</a> <a href="/contact">Contact</a> <a class="jobs" href="/careers">Careers</a></nav></header>';
const page = (title: string, body = '') =>
  html(
    `<title>${title}</title>`,
    `${nav}<main><h1>${title}</h1><p>${'Words about tools. '.repeat(20)}</p>${body}</main>`,
  );

describe('pages-answer-2xx evidence', () => {
  let site: FixtureSite;
  let outcome: AuditOutcome;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: page('Home', '<a id="old-link" href="/old">Old catalogue</a>') },
      '/about': { body: page('About') },
      '/blog': { body: page('Blog') },
      '/contact': { body: page('Contact') },
      // A moved page that redirects to one that is gone: the link to the first address is the one to fix.
      '/old': { status: 301, headers: { location: '/gone' } },
      '/gone': { status: 410, body: 'gone' },
    });
    outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: true });
  }, 60_000);
  afterAll(async () => {
    await site.close();
  });

  const finding = () => outcome.findings.find((f) => f.checkId === 'pages-answer-2xx');

  it('names the page that holds each broken link and the link, besides the address that fails', () => {
    expect(finding()?.affectedUrls.sort()).toEqual([`${site.origin}/careers`, `${site.origin}/gone`]);
    const evidence = finding()?.evidence ?? [];
    const careers = evidence.find((e) => e.summary.includes('“/careers”'));
    expect(careers).toMatchObject({
      type: 'page',
      url: `${site.origin}/`,
      elements: [{ selector: expect.stringContaining('a.jobs'), snippet: '<a class="jobs" href="/careers">' }],
    });
    const gone = evidence.find((e) => e.summary.includes('“/gone”'));
    expect(gone).toMatchObject({
      url: `${site.origin}/`,
      summary: 'its link to “/gone” answers 410',
      elements: [{ selector: 'a#old-link', snippet: '<a id="old-link" href="/old">' }],
    });
  });

  it('keeps a link that is on every page as one evidence item with the count of the other pages', () => {
    const evidence = finding()?.evidence ?? [];
    expect(evidence.filter((e) => e.summary.includes('“/careers”'))).toHaveLength(1);
    expect(evidence.find((e) => e.summary.includes('“/careers”'))?.summary).toBe(
      'its link to “/careers” answers 404; the same link is on 3 more page(s): “/about”, “/blog”, “/contact”',
    );
  });
});
