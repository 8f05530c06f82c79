// Honest failure (issue 10): a site whose start page cannot be fetched is not audited, with the
// reason; a robots.txt that could not be read makes its per-agent verdicts unknown, never "blocked".

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit, SiteUnreachable } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

let dns: DnsServer;
let site: FixtureSite;
let guarded: FixtureSite;
let closedPort: number;

beforeAll(async () => {
  dns = await startDnsServer({ 'inward.test': { A: ['127.0.0.1'] }, 'closed.test': { A: ['127.0.0.1'] } });
  site = await startFixtureSite({
    '/': { body: html('<title>Home</title>', `<main><h1>Home</h1><p>${'Words. '.repeat(60)}</p></main>`) },
    '/robots.txt': { status: 503, body: 'busy' },
  });
  guarded = await startFixtureSite({
    '/': { status: 401, headers: { 'www-authenticate': 'Basic realm="preview"' }, body: 'login' },
  });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await dns?.close();
  await site?.close();
  await guarded?.close();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a site that cannot be reached', () => {
  const resolver = () => createResolver([dns.address]);

  it.each(['ai_readiness', 'marketing_signal', 'website_security'] as const)(
    '%s: a name with no address fails with the reason, not a score',
    async (product) => {
      const error = await refusal(
        runAudit(
          product,
          { url: 'https://no-such-host.test/', local: false },
          { resolver: resolver(), timeoutMs: 2000 },
        ),
      );
      expect(error).toBeInstanceOf(SiteUnreachable);
      expect(error).toMatchObject({ reason: 'dns', retryable: false });
      expect((error as Error).message).toContain('no address in DNS');
    },
  );

  it('a name that resolves to this machine is blocked, not audited', async () => {
    const error = await refusal(
      runAudit(
        'marketing_signal',
        { url: 'http://inward.test/', local: false },
        { resolver: resolver(), timeoutMs: 2000 },
      ),
    );
    expect(error).toMatchObject({ reason: 'blocked', retryable: false });
  });

  it('a refused connection is worth a retry', async () => {
    const error = await refusal(
      runAudit(
        'ai_readiness',
        { url: 'http://closed.test/', local: false },
        { resolver: resolver(), allowPrivate: true, ports: { 'http:': closedPort }, timeoutMs: 2000 },
      ),
    );
    expect(error).toMatchObject({ reason: 'refused', retryable: true });
  });

  it('a local scan of a port nobody listens on fails too', async () => {
    const error = await refusal(runAudit('ai_readiness', { url: `http://127.0.0.1:${closedPort}/`, local: true }));
    expect(error).toMatchObject({ reason: 'refused' });
  });

  it('a robots.txt that could not be read leaves the per-agent verdicts unknown, never "blocked"', async () => {
    const outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: false }, { allowPrivate: true });
    const status = (id: string) => outcome.checks.find((c) => c.id === id)?.status;
    expect(status('robots-allows-search')).toBe('unverified');
    expect(status('robots-allows-ai-answer-bots')).toBe('unverified');
    expect(outcome.checks.find((c) => c.id === 'robots-txt-valid' || c.id.startsWith('robots-valid'))?.status).not.toBe(
      'pass',
    );
    const titles = outcome.findings.map((f) => f.title).join('\n');
    expect(titles).not.toContain('blocks search engines');
    expect(titles).not.toContain('AI answer bots are blocked');
  });

  // Found by a fresh-eyes run: a preview behind a login got "make the site root answer 200", not how
  // to audit it (access settings, issue 29).
  // It also found that such a site broke the AI readiness audit itself: the llms.txt starter read
  // the facts of a home page that was never read as HTML.
  it('a start page behind a login says how to give the project access settings', async () => {
    const outcome = await runAudit('ai_readiness', { url: `${guarded.origin}/`, local: false }, { allowPrivate: true });
    const home = outcome.findings.find((f) => f.title === 'The home page does not answer');
    expect(home?.detail).toContain('answered 401');
    expect(home?.remediation).toContain('siteaudit project access <site> --basic-auth USER');
    expect(home?.remediation).toContain('/api/v1/projects/{projectId}/access');
  });

  // And marketing called it an app shell whose content appears after JavaScript runs.
  it('marketing: a start page behind a login leaves the score unverified, saying why and what to do', async () => {
    const outcome = await runAudit(
      'marketing_signal',
      { url: `${guarded.origin}/`, local: false },
      { allowPrivate: true },
    );
    expect(outcome.scoreStatus).toBe('unverified');
    expect(outcome.execSummary).toContain('the home page answered 401');
    expect(outcome.execSummary).toContain('siteaudit project access');
    expect(outcome.execSummary).not.toContain('JavaScript');
  });

  it('security: a start page behind a login is audited', async () => {
    const outcome = await runAudit(
      'website_security',
      { url: `${guarded.origin}/`, local: false },
      { allowPrivate: true },
    );
    expect(outcome.checks.length).toBeGreaterThan(0);
  });
});
