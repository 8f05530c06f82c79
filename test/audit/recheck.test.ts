// Recheck (issue 26): the checks behind one finding judged again on a few URLs of a fixture site on
// loopback, each as a one-page audit: a page that still has the defect fails with the element in
// the evidence, the same page fixed passes, each URL is judged on its own, only what the asked
// checks read is fetched, and what cannot be judged says why instead of passing.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_MAX_URLS, RecheckInputError, recheck } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { createTestCa, type SecureSites, startSecureSites } from '../support/secure-sites.ts';

const HEAD = '<title>Gallery of cats</title><meta name="viewport" content="width=device-width, initial-scale=1">';
const DESCRIPTION = '<meta name="description" content="Photographs of our cats, taken at home over the years.">';
const MISSING_ALT = html(
  `${HEAD}${DESCRIPTION}`,
  '<main><h1>Cats</h1><img src="/tabby.png" width="40" height="40"></main>',
);
const WITH_ALT = html(
  `${HEAD}${DESCRIPTION}`,
  '<main><h1>Cats</h1><img src="/tabby.png" alt="A tabby cat asleep" width="40" height="40"></main>',
);
const NO_DESCRIPTION = html(HEAD, '<main><h1>Cats</h1></main>');

/** A port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('recheck of a finding on the pages it names', () => {
  let site: FixtureSite;
  const options = { allowPrivate: true, timeoutMs: 2000 };

  beforeAll(async () => {
    site = await startFixtureSite({
      '/gallery': { body: MISSING_ALT },
      '/other': { body: MISSING_ALT },
      '/about': { body: NO_DESCRIPTION },
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    });
  });
  afterAll(() => site?.close());

  it('fails on the page that still has the defect, naming the element, after fetching that page alone', async () => {
    site.requests.length = 0;
    const result = await recheck(
      'ai_readiness',
      { urls: [`${site.origin}/gallery`], checkIds: ['image-alt'], local: false },
      options,
    );
    console.log(`recheck of image-alt on one page: ${result.ms} ms`);
    expect(result.checks).toEqual(['image-alt']);
    const [gallery] = result.results;
    expect(gallery?.status).toBe('fail');
    expect(gallery?.checks).toEqual([expect.objectContaining({ id: 'image-alt', verdict: 'fail', status: 'fail' })]);
    expect(gallery?.evidence[0]?.url).toBe(`${site.origin}/gallery`);
    expect(gallery?.evidence[0]?.elements?.[0]?.snippet).toContain('<img src="/tabby.png"');
    expect(gallery?.evidence[0]?.elements?.[0]?.selector).toContain('img');
    // No crawl, no robots.txt, sitemap or llms.txt: image-alt reads none of them.
    expect(site.requests.map((r) => r.path)).toEqual(['/gallery']);
  });

  it('passes once the page is fixed, and judges each URL on its own', async () => {
    site.routes.set('/gallery', { body: WITH_ALT });
    const result = await recheck(
      'ai_readiness',
      {
        urls: [`${site.origin}/gallery`, `${site.origin}/other`, `${site.origin}/gallery#top`],
        checkIds: ['image-alt'],
        local: false,
      },
      options,
    );
    console.log(`recheck of image-alt on two pages: ${result.ms} ms`);
    expect(result.results.map((r) => [r.url, r.status])).toEqual([
      [`${site.origin}/gallery`, 'pass'],
      [`${site.origin}/other`, 'fail'],
    ]);
    expect(result.results[0]?.evidence).toEqual([]);
    expect(result.results[0]?.detail).toContain('every image has an alt attribute');
    expect(result.results[1]?.evidence[0]?.url).toBe(`${site.origin}/other`);
  });

  it('rechecks a missing meta description, on a local target too', async () => {
    const urls = [`${site.origin}/about`];
    const before = await recheck('ai_readiness', { urls, checkIds: ['meta-description'], local: true }, {});
    expect(before.results[0]?.status).toBe('fail');
    expect(before.results[0]?.evidence[0]?.summary).toContain('no <meta name="description">');
    site.routes.set('/about', { body: html(`${HEAD}${DESCRIPTION}`, '<main><h1>Cats</h1></main>') });
    const after = await recheck('ai_readiness', { urls, checkIds: ['meta-description'], local: true }, {});
    console.log(`recheck of meta-description on a local target: ${after.ms} ms`);
    expect(after.results[0]?.status).toBe('pass');
  });

  it('answers error for a page it cannot reach, and still judges the others', async () => {
    const gone = `http://127.0.0.1:${await closedPort()}/`;
    const result = await recheck(
      'ai_readiness',
      { urls: [gone, `${site.origin}/other`], checkIds: ['image-alt'], local: false },
      options,
    );
    expect(result.results[0]).toMatchObject({ url: gone, status: 'error', evidence: [] });
    expect(result.results[0]?.error).toContain('the connection was refused');
    expect(result.results[0]?.checks[0]?.verdict).toBe('not_evaluated');
    expect(result.results[1]?.status).toBe('fail');
  });

  it('refuses a private address where local targets are not allowed', async () => {
    const result = await recheck(
      'ai_readiness',
      { urls: [`${site.origin}/other`], checkIds: ['image-alt'], local: false },
      { timeoutMs: 2000 },
    );
    expect(result.results[0]?.status).toBe('error');
    expect(result.results[0]?.error).toContain('does not audit');
  });

  it('says not evaluated for a check the product does not have, and for a fact with no pass or fail', async () => {
    const result = await recheck(
      'ai_readiness',
      { urls: [`${site.origin}/other`], checkIds: ['no-such-check', 'robots-training-crawlers'], local: false },
      options,
    );
    const [other] = result.results;
    expect(other?.status).toBe('not_evaluated');
    expect(other?.checks[0]).toMatchObject({ id: 'no-such-check', verdict: 'not_evaluated', status: null });
    expect(other?.checks[0]?.detail).toContain('not a check of ai_readiness');
    expect(other?.checks[1]).toMatchObject({ verdict: 'not_evaluated', status: 'info' });
    expect(other?.checks[1]?.detail).toContain('informational');
  });

  it('fails a page that answers 404 on the check that asks for 2xx, and judges no content on it', async () => {
    const result = await recheck(
      'ai_readiness',
      { urls: [`${site.origin}/moved`], checkIds: ['pages-answer-2xx', 'image-alt'], local: false },
      options,
    );
    const [moved] = result.results;
    expect(moved?.status).toBe('fail');
    expect(moved?.checks.map((c) => [c.id, c.verdict])).toEqual([
      ['pages-answer-2xx', 'fail'],
      ['image-alt', 'not_evaluated'],
    ]);
    expect(moved?.checks[1]?.detail).toContain('answered 404');
  });

  it('reads the site files only for a check that reads them', async () => {
    site.requests.length = 0;
    const urls = [`${site.origin}/other`];
    const before = await recheck('ai_readiness', { urls, checkIds: ['llms-txt'], local: false }, options);
    expect(before.results[0]?.status).toBe('fail');
    expect(before.results[0]?.evidence[0]?.url).toBe(`${site.origin}/llms.txt`);
    expect(site.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/robots.txt', '/llms.txt', '/other']));
    site.routes.set('/llms.txt', {
      headers: { 'content-type': 'text/markdown' },
      body: '# Cats\n\n> Photographs of our cats.\n\n## Pages\n\n- [Gallery](https://cats.example/gallery): the photographs\n',
    });
    const after = await recheck('ai_readiness', { urls, checkIds: ['llms-txt'], local: false }, options);
    expect(after.results[0]?.status).toBe('pass');
  });

  it('rechecks a security check of a local scan, and says which a local scan does not run', async () => {
    site.routes.set('/scripts', {
      body: html(HEAD, '<main><h1>Scripts</h1><script src="https://cdn.example/lib.js"></script></main>'),
    });
    const result = await recheck(
      'website_security',
      { urls: [`${site.origin}/scripts`], checkIds: ['subresource-integrity', 'x-content-type-options'], local: true },
      {},
    );
    const [scripts] = result.results;
    expect(scripts?.checks.map((c) => [c.id, c.verdict])).toEqual([
      ['subresource-integrity', 'fail'],
      ['x-content-type-options', 'not_evaluated'],
    ]);
    expect(scripts?.checks[1]?.detail).toContain('local');
    expect(scripts?.status).toBe('fail');
  });

  it('says not evaluated for an axe check when nothing renders the page', async () => {
    const result = await recheck('ai_readiness', {
      urls: [`${site.origin}/other`],
      checkIds: ['axe-color-contrast', 'axe-image-alt'],
      local: true,
    });
    const [other] = result.results;
    expect(other?.status).toBe('not_evaluated');
    expect(other?.checks[0]?.detail).toContain('rendered in Chromium');
    expect(other?.checks[1]?.detail).toContain('judged by the check image-alt');
  });

  it('refuses input it cannot recheck', async () => {
    const many = Array.from({ length: RECHECK_MAX_URLS + 1 }, (_, i) => `${site.origin}/p${i}`);
    await expect(recheck('ai_readiness', { urls: many, checkIds: ['image-alt'], local: true })).rejects.toThrow(
      RecheckInputError,
    );
    await expect(
      recheck('ai_readiness', { urls: ['ftp://example.com/'], checkIds: ['image-alt'], local: true }),
    ).rejects.toThrow(/http\(s\)/);
    await expect(recheck('ai_readiness', { urls: [`${site.origin}/`], checkIds: [], local: true })).rejects.toThrow(
      RecheckInputError,
    );
  });
});

describe.skipIf(!hasChromium)('recheck of a rendered finding', () => {
  let site: FixtureSite;
  let renderer: Renderer;
  const pale = html(
    HEAD,
    `<main><h1>Cats</h1><p style="color:#c8c8c8;background:#ffffff">${'Pale grey text on white is hard to read. '.repeat(3)}</p></main>`,
  );
  const dark = pale.replace('#c8c8c8', '#222222');

  beforeAll(async () => {
    site = await startFixtureSite({ '/pale': { body: pale } });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
  });

  it('renders the page for an axe check: fails with axe’s element, passes once fixed', async () => {
    const urls = [`${site.origin}/pale`];
    const render = { renderer, mode: 'auto' as const };
    const before = await recheck('ai_readiness', { urls, checkIds: ['axe-color-contrast'], local: true }, { render });
    console.log(`rendered recheck of axe-color-contrast: ${before.ms} ms`);
    expect(before.results[0]?.status).toBe('fail');
    expect(before.results[0]?.evidence[0]?.elements?.[0]?.snippet).toContain('<p style="color:#c8c8c8');
    site.routes.set('/pale', { body: dark });
    const after = await recheck('ai_readiness', { urls, checkIds: ['axe-color-contrast'], local: true }, { render });
    console.log(`rendered recheck of axe-color-contrast, fixed: ${after.ms} ms`);
    expect(after.results[0]?.status).toBe('pass');
    expect(after.results[0]?.checks[0]?.detail).toContain('axe found no violation of color-contrast');
  }, 60_000);
});

describe('recheck of security checks on a deployed site, headers and DNS alike', () => {
  let sites: SecureSites;
  let dns: DnsServer;
  let fixed = false;
  const ca = createTestCa();

  beforeAll(async () => {
    const page = (req: { url?: string }, res: import('node:http').ServerResponse) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'strict-transport-security': 'max-age=31536000',
        ...(fixed ? { 'x-content-type-options': 'nosniff' } : {}),
      });
      res.end(html('<title>Fix</title>', `<main><h1>${req.url}</h1></main>`));
    };
    sites = await startSecureSites({
      'fix.test': {
        tls: ca.issue(['fix.test'], 400),
        https: { '/': page, '/about': page },
        http: { '/': { status: 301, headers: { location: 'https://fix.test/' } } },
      },
    });
    dns = await startDnsServer({ 'fix.test': { A: ['127.0.0.1'], TXT: ['v=spf1 -all'] } });
  });
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
  });

  it('fails a missing header until the server sends it, while the DMARC record still fails', async () => {
    const options = {
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ports: sites.ports,
      ca: ca.caPem,
      timeoutMs: 3000,
    };
    const input = {
      urls: ['https://fix.test/', 'https://fix.test/about'],
      checkIds: ['x-content-type-options', 'dmarc'],
      local: false,
    };
    const before = await recheck('website_security', input, options);
    console.log(`recheck of a header and DMARC on two pages of a deployed site: ${before.ms} ms`);
    for (const result of before.results)
      expect(result.checks.map((c) => [c.id, c.verdict])).toEqual([
        ['x-content-type-options', 'fail'],
        ['dmarc', 'fail'],
      ]);
    fixed = true;
    const after = await recheck('website_security', input, options);
    for (const result of after.results)
      expect(result.checks.map((c) => [c.id, c.verdict])).toEqual([
        ['x-content-type-options', 'pass'],
        ['dmarc', 'fail'],
      ]);
    // The header's evidence names the page; once it is sent, only DMARC's is left.
    expect(before.results[0]?.evidence).toEqual([
      { type: 'page', url: 'https://fix.test/', summary: 'header absent' },
      { type: 'check', summary: 'no v=DMARC1 record' },
    ]);
    expect(after.results[0]?.evidence).toEqual([{ type: 'check', summary: 'no v=DMARC1 record' }]);
  }, 30_000);
});
