// Paste-ready fixes built from the crawl (issue 13): a site with no robots.txt, no llms.txt, no
// Organization JSON-LD and AI agents refused gets each fix as a suggestion; serving exactly what
// was suggested makes the same checks pass on the next audit. DNS records are suggested from what
// the audit saw (the MX provider, the certificate's CA, the DMARC record in place).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caaIssuer, suggestedSpf } from '../../src/audit/checks/security/dns-email.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const HEAD =
  '<title>Acme Tools | Hand-forged garden tools</title><meta name="description" content="Hand-forged garden tools, made in Sheffield since 1901."><link rel="apple-touch-icon" href="/icon.png">';
const page = (title: string, description: string) =>
  html(
    `<title>${title} | Acme Tools</title><meta name="description" content="${description}">`,
    `<main><h1>${title}</h1></main>`,
  );

describe('suggestions built from the crawl', () => {
  let site: FixtureSite;
  let before: AuditOutcome<unknown>;
  let after: AuditOutcome<unknown>;
  const audit = () =>
    runAudit('ai_readiness', { url: `${site.origin}/`, local: false }, { allowPrivate: true, pageBudget: 5 });
  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);
  const suggestion = (id: string) => before.findings.find((f) => f.checkId === id)?.suggestions?.[0];

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': {
        body: html(
          HEAD,
          `<main><h1>Acme Tools</h1><a href="/shears">Shears</a> <a href="/privacy">Privacy</a>
           <a href="https://www.linkedin.com/company/acme-tools">LinkedIn</a> <a href="mailto:hello@acme.test">Email us</a></main>`,
        ),
      },
      '/shears': { body: page('Pruning shears', 'Bypass shears with a lifetime warranty.') },
      '/privacy': { body: page('Privacy policy', 'How we handle your data.') },
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
      },
    });
    before = await audit();
    // Apply every suggestion as written.
    const robots = `${suggestion('robots-allows-ai-answer-bots')?.content}\n\n${(site.routes.get('/robots.txt') as { body: string }).body}`;
    site.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: robots });
    site.routes.set('/llms.txt', {
      headers: { 'content-type': 'text/markdown' },
      body: suggestion('llms-txt')?.content ?? '',
    });
    site.routes.set('/', {
      body: html(
        `${HEAD}${suggestion('organization-schema')?.content}`,
        `<main><h1>Acme Tools</h1><a href="/shears">Shears</a> <a href="/privacy">Privacy</a></main>`,
      ),
    });
    after = await audit();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('writes llms.txt from the pages’ titles and descriptions, legal pages under Optional', () => {
    expect(suggestion('llms-txt')).toEqual({
      label: 'llms.txt',
      target: `${site.origin}/llms.txt (served as text/markdown or text/plain)`,
      format: 'markdown',
      content: [
        '# Acme Tools',
        '',
        '> Hand-forged garden tools, made in Sheffield since 1901.',
        '',
        '## Pages',
        '',
        `- [Pruning shears](${site.origin}/shears): Bypass shears with a lifetime warranty.`,
        '',
        '## Optional',
        '',
        `- [Privacy policy](${site.origin}/privacy): How we handle your data.`,
      ].join('\n'),
    });
  });

  it('writes Organization JSON-LD from what the home page shows', () => {
    const content = suggestion('organization-schema')?.content ?? '';
    expect(JSON.parse(content.replace(/^<script[^>]*>|<\/script>$/g, ''))).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      name: 'Acme Tools',
      url: `${site.origin}/`,
      logo: `${site.origin}/icon.png`,
      description: 'Hand-forged garden tools, made in Sheffield since 1901.',
      sameAs: ['https://www.linkedin.com/company/acme-tools'],
      email: 'hello@acme.test',
    });
  });

  it('gives the robots.txt group that lets the refused AI agents in', () => {
    expect(suggestion('robots-allows-ai-answer-bots')?.content).toBe(
      'User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: ChatGPT-User\nAllow: /',
    );
  });

  it('makes the checks pass once the suggestions are applied as written', () => {
    for (const id of ['llms-txt', 'organization-schema', 'robots-allows-ai-answer-bots']) {
      expect(row(before, id)?.status, `${id} before`).toBe('fail');
      expect(row(after, id)?.status, `${id} after`).toBe('pass');
    }
    // The llmstxt.org structure and the media type are right too.
    expect(row(after, 'llms-txt-structure')?.status).toBe('pass');
  });
});

describe('suggested DNS records', () => {
  it('starts SPF from the mail provider the MX hosts name', () => {
    expect(suggestedSpf([{ exchange: 'aspmx.l.google.com', priority: 1 }])).toBe('v=spf1 include:_spf.google.com -all');
    expect(suggestedSpf([{ exchange: 'acme-test.mail.protection.outlook.com', priority: 0 }])).toBe(
      'v=spf1 include:spf.protection.outlook.com -all',
    );
    expect(suggestedSpf([{ exchange: 'mx.acme.test', priority: 10 }])).toBe('v=spf1 mx -all');
    expect(suggestedSpf([])).toBe('v=spf1 -all');
  });

  it('names the CA that issued the certificate in CAA', () => {
    expect(caaIssuer('R11')).toBe('letsencrypt.org');
    expect(caaIssuer('WE1')).toBe('pki.goog');
    expect(caaIssuer('DigiCert Global G2 TLS RSA SHA256 2020 CA1')).toBe('digicert.com');
    expect(caaIssuer('Some Private CA')).toBeUndefined();
  });
});
