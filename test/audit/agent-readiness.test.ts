// Agent-readiness checks of 2026 (issue 13), each with a site that passes and one that fails,
// audited through the engine over loopback: llms.txt structure, markdown negotiation, Link headers,
// Content Signals, the API catalog, OAuth discovery, an MCP server card, WebMCP tool forms and
// forms an agent can complete. A site that offers none of the optional documents gets information,
// not failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthServerProblems, parseLinkHeader, protectedResourceProblems } from '../../src/audit/agent-discovery.ts';
import { contentSignalProblems, llmsTxtProblems } from '../../src/audit/checks/agent-readiness.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite, startShopSite } from '../support/fixture-site.ts';

const json = (body: unknown, type = 'application/json') => ({
  headers: { 'content-type': type },
  body: JSON.stringify(body),
});

function goodHome(origin: string) {
  return html(
    '<title>Acme tools</title><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<main><h1>Acme tools</h1>
     <form action="/contact" method="post"><label for="e">Email</label><input id="e" name="email" type="email" autocomplete="email"><button type="submit">Send</button></form>
     <form toolname="search_products" tooldescription="Search the catalogue by keyword" action="/search"><label>Query <input name="q"></label><button>Search</button></form>
     <a href="${origin}/about">About</a></main>`,
  );
}

const badHome = html(
  '<title>Shop</title>',
  `<main><h1>Shop</h1>
   <form><label>Email <input type="email" name="email"></label><input type="text" placeholder="Your name"></form>
   <form toolname="search products!" action="/s"><input name="q" aria-label="Query"><button>Go</button></form></main>`,
);

describe('agent readiness of 2026', () => {
  let good: FixtureSite;
  let bad: FixtureSite;
  let bare: FixtureSite;
  let passing: AuditOutcome<unknown>;
  let failing: AuditOutcome<unknown>;
  let plain: AuditOutcome<unknown>;

  beforeAll(async () => {
    good = await startFixtureSite();
    const o = good.origin;
    good.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nSitemap: ${o}/sitemap.xml\n`,
    });
    good.routes.set('/llms.txt', {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: `# Acme tools\n\n> Hand-forged garden tools.\n\nWe ship in the EU.\n\n## Docs\n\n- [About](${o}/about): who we are\n\n## Optional\n\n- [Press](${o}/press)\n`,
    });
    good.routes.set('/', (req, res) => {
      if (String(req.headers.accept).startsWith('text/markdown'))
        res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }).end('# Acme tools\n');
      else
        res
          .writeHead(200, {
            'content-type': 'text/html',
            link: `<${o}/sitemap.xml>; rel="sitemap", <${o}/.well-known/api-catalog>; rel="api-catalog"`,
          })
          .end(goodHome(o));
    });
    good.routes.set('/about', { body: html('<title>About Acme</title>', '<main><h1>About</h1></main>') });
    good.routes.set(
      '/.well-known/api-catalog',
      json(
        { linkset: [{ anchor: `${o}/api/`, 'service-desc': [{ href: `${o}/api/openapi.json` }] }] },
        'application/linkset+json',
      ),
    );
    good.routes.set(
      '/.well-known/oauth-authorization-server',
      json({
        issuer: o,
        authorization_endpoint: `${o}/oauth/authorize`,
        token_endpoint: `${o}/oauth/token`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      }),
    );
    good.routes.set(
      '/.well-known/oauth-protected-resource',
      json({ resource: `${o}/mcp`, authorization_servers: [o] }),
    );
    good.routes.set(
      '/.well-known/mcp/server-card.json',
      json({ serverInfo: { name: 'acme', version: '1.2.0' }, transport: { type: 'streamable-http', url: `${o}/mcp` } }),
    );

    bad = await startFixtureSite();
    bad.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nAllow: /\nContent-Signal: search=maybe, ai-training=no\n',
    });
    bad.routes.set('/llms.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'Welcome to our shop!\n# Shop\n\n## Pages\n\n- About us\n- [Contact](/contact)\n',
    });
    bad.routes.set('/', (req, res) => {
      if (String(req.headers.accept).startsWith('text/markdown'))
        res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Shop\n');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(badHome);
    });
    bad.routes.set('/.well-known/api-catalog', { body: '<!doctype html><title>Not here</title>' });
    bad.routes.set(
      '/.well-known/oauth-authorization-server',
      json({
        issuer: 'https://login.elsewhere.example',
        authorization_endpoint: 'x',
        token_endpoint: 'y',
        response_types_supported: ['code'],
      }),
    );
    bad.routes.set('/.well-known/mcp.json', json({ name: 'shop' }));

    bare = await startShopSite();
    const audit = (s: FixtureSite) =>
      runAudit('ai_readiness', { url: `${s.origin}/`, local: false }, { allowPrivate: true, pageBudget: 2 });
    [passing, failing, plain] = await Promise.all([audit(good), audit(bad), audit(bare)]);
  });
  afterAll(async () => {
    await Promise.all([good.close(), bad.close(), bare.close()]);
  });

  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);

  it.each([
    ['llms-txt-structure', 'the first line is not the "# Title" H1'],
    ['markdown-negotiation', 'without Vary: Accept'],
    ['content-signals', 'search must be yes or no'],
    ['api-catalog', 'not application/linkset+json'],
    ['oauth-discovery', 'code_challenge_methods_supported'],
    ['mcp-server-card', 'no "version"'],
    ['webmcp-tool-schema', 'has no tooldescription'],
    ['agent-forms', 'submits only through JavaScript'],
  ])('%s passes on the good site and fails on the broken one', (id, problem) => {
    expect(row(passing, id)?.status, row(passing, id)?.detail).toBe('pass');
    expect(row(failing, id)?.status, row(failing, id)?.detail).toBe('fail');
    const said = [row(failing, id)?.detail, ...(row(failing, id)?.finding?.evidence.map((e) => e.summary) ?? [])];
    expect(said.join(' | ')).toContain(problem);
    expect(row(failing, id)?.finding?.agentAction).toBeTruthy();
  });

  it('link-headers passes with agent relations and informs (with a suggestion) without them', () => {
    expect(row(passing, 'link-headers')).toMatchObject({ status: 'pass' });
    expect(row(passing, 'link-headers')?.detail).toContain('rel=api-catalog');
    expect(row(failing, 'link-headers')).toMatchObject({ status: 'info' });
    expect(row(failing, 'link-headers')?.finding?.agentAction).toMatch(/^Suggestion to review: /);
  });

  it('informs, with no weight, when a site offers none of the optional documents', () => {
    for (const id of [
      'api-catalog',
      'oauth-discovery',
      'mcp-server-card',
      'markdown-negotiation',
      'content-signals',
      'link-headers',
    ])
      expect(row(plain, id)?.status, id).toBe('info');
    expect(row(plain, 'webmcp-tool-schema')).toBeUndefined();
    expect(row(plain, 'api-catalog')?.detail).toContain('only a site that offers APIs needs one');
  });

  it('counts a one-field form that submits on Enter as working without scripts', async () => {
    const site = await startFixtureSite({
      '/': {
        body: html(
          '<title>Search</title>',
          '<main><h1>Search</h1><form><input type="search" name="q" aria-label="Search"></form></main>',
        ),
      },
    });
    try {
      const outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: true }, { pageBudget: 1 });
      expect(row(outcome, 'agent-forms')?.status).toBe('pass');
    } finally {
      await site.close();
    }
  });

  it('lists every broken detail of the failing forms', () => {
    const forms = row(failing, 'agent-forms')?.finding?.evidence[0]?.summary ?? '';
    expect(forms).toContain('email field “email” without autocomplete');
    expect(forms).toContain('a text field without a name');
    const tools = row(failing, 'webmcp-tool-schema')?.detail ?? '';
    expect(tools).toContain('1 of');
    expect(row(failing, 'webmcp-tool-schema')?.finding?.evidence[0]?.summary).toContain(
      'toolname “search products!” is not 1 to 64 letters',
    );
  });

  it('compares issuers and resources as origins, not as prefixes', () => {
    const doc = (body: unknown) => ({
      url: '',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(body),
      vary: '',
    });
    const server = {
      authorization_endpoint: 'x',
      token_endpoint: 'y',
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
    expect(oauthServerProblems(doc({ ...server, issuer: 'https://shop.example' }), 'https://shop.example')).toEqual([]);
    expect(
      oauthServerProblems(doc({ ...server, issuer: 'https://shop.example.evil.test' }), 'https://shop.example'),
    ).toEqual(['"issuer" is https://shop.example.evil.test, not on https://shop.example']);
    expect(
      protectedResourceProblems(
        doc({ resource: 'https://shop.example:444/mcp', authorization_servers: ['x'] }),
        'https://shop.example',
      ),
    ).toEqual(['"resource" is https://shop.example:444/mcp, not on https://shop.example']);
  });

  it('parses llms.txt, Content Signals and Link headers by their specifications', () => {
    expect(llmsTxtProblems('# A\n\n> b\n\n## Docs\n\n- [x](https://a.example/x): y\n')).toEqual([]);
    expect(llmsTxtProblems('# A\n## Docs\n- [x](https://a.example/x)\n')).toEqual([
      'no "> summary" blockquote before the sections',
    ]);
    expect(contentSignalProblems('search=yes, ai-input=no, ai-train=no')).toEqual([]);
    expect(contentSignalProblems('ai-train=0')).toEqual(['ai-train must be yes or no, not “ai-train=0”']);
    expect(
      parseLinkHeader(
        '<https://a.example/s.xml>; rel="sitemap", <https://a.example/x,y>; rel=alternate; type="text/markdown"',
      ),
    ).toEqual([
      { href: 'https://a.example/s.xml', rel: ['sitemap'], type: null },
      { href: 'https://a.example/x,y', rel: ['alternate'], type: 'text/markdown' },
    ]);
  });
});
