// Transport and browser defenses past the basics (issue 13): HSTS preload readiness, COOP, CORS
// that reflects a stranger's Origin with credentials, and security.txt as RFC 9116 defines it,
// each audited through the engine on HTTPS sites of our own; and the paste-ready header fixes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditOutcome } from '../../src/audit/index.ts';
import { parseSecurityTxt, starterSecurityTxt } from '../../src/audit/security-txt.ts';
import { headerSuggestions } from '../../src/audit/suggestions.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { html } from '../support/fixture-site.ts';
import {
  auditSecureHosts,
  createTestCa,
  type SecureSites,
  startSecureSites,
  type TestCa,
} from '../support/secure-sites.ts';

const body = html('<title>Site</title>', '<main><h1>Site</h1></main>');
const NOW = new Date('2026-11-24T00:00:00Z');

/** A page that copies the request's Origin into Access-Control-Allow-Origin, with credentials. */
function reflecting(req: IncomingMessage, res: ServerResponse) {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'strict-transport-security': 'max-age=31536000; preload',
    'cross-origin-opener-policy': 'unsafe-none',
    ...(req.headers.origin
      ? { 'access-control-allow-origin': req.headers.origin, 'access-control-allow-credentials': 'true' }
      : {}),
  });
  res.end(body);
}

describe('transport and browser defenses in depth', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  const outcomes: Record<string, AuditOutcome<unknown>> = {};
  const hosts = ['reflect.test', 'ready.test', 'www.ready.test'];

  beforeAll(async () => {
    ca = createTestCa();
    const redirect = (host: string) => ({ '/': { status: 301, headers: { location: `https://${host}/` } } });
    const ready = {
      headers: {
        'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
        'cross-origin-opener-policy': 'same-origin-allow-popups; report-to="coop"',
        'access-control-allow-origin': '*',
      },
      body,
    };
    sites = await startSecureSites({
      'reflect.test': {
        tls: ca.issue(['reflect.test'], 400),
        https: {
          '/': reflecting,
          '/.well-known/security.txt': {
            headers: { 'content-type': 'text/plain' },
            body: 'Contact: security@reflect.test\nExpires: 2027-13-01\n',
          },
        },
        http: redirect('reflect.test'),
      },
      'ready.test': {
        tls: ca.issue(['ready.test'], 400),
        https: {
          '/': ready,
          '/.well-known/security.txt': {
            headers: { 'content-type': 'text/plain' },
            body: '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:security@ready.test\nContact: https://ready.test/report\nExpires: 2027-06-01T00:00:00Z\nCanonical: https://ready.test/.well-known/security.txt\n',
          },
        },
        http: redirect('ready.test'),
      },
      'www.ready.test': {
        tls: ca.issue(['www.ready.test'], 400),
        https: {
          '/': ready,
          '/.well-known/security.txt': { status: 302, headers: { location: 'http://www.ready.test/security.txt' } },
        },
        http: {
          '/': { status: 301, headers: { location: 'https://www.ready.test/' } },
          '/security.txt': {
            headers: { 'content-type': 'text/plain' },
            body: 'Contact: mailto:security@ready.test\nExpires: 2027-06-01T00:00:00Z\n',
          },
        },
      },
    });
    dns = await startDnsServer(Object.fromEntries(hosts.map((h) => [h, { A: ['127.0.0.1'] }])));
    Object.assign(outcomes, await auditSecureHosts(hosts, { dns, sites, ca }));
  }, 60_000);
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const row = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id);

  it('fails a page that reflects a stranger’s Origin with credentials, and passes a public wildcard', () => {
    const reflect = row('reflect.test', 'cors-not-permissive');
    expect(reflect).toMatchObject({ status: 'fail', severity: 'high' });
    expect(reflect?.detail).toBe(
      'asked with Origin https://cors-probe.siteaudit.invalid, the page answered Access-Control-Allow-Origin “https://cors-probe.siteaudit.invalid” with Access-Control-Allow-Credentials: true',
    );
    expect(row('ready.test', 'cors-not-permissive')).toMatchObject({
      status: 'pass',
      detail: "asked with a stranger's Origin: Access-Control-Allow-Origin “*”, without credentials",
    });
  });

  it('judges COOP by its policy token, parameters aside', () => {
    expect(row('ready.test', 'cross-origin-opener-policy')).toMatchObject({ status: 'pass' });
    const weak = row('reflect.test', 'cross-origin-opener-policy');
    expect(weak).toMatchObject({ status: 'fail', severity: 'low' });
    expect(weak?.finding?.suggestions?.map((s) => s.label)).toEqual([
      'nginx',
      'Apache',
      'Caddy',
      'Netlify',
      'Vercel',
      'Cloudflare',
    ]);
  });

  it('fails a preload request that the list would refuse, passes one that qualifies, notes a subdomain', () => {
    const refused = row('reflect.test', 'hsts-preload');
    expect(refused).toMatchObject({ status: 'fail', severity: 'medium' });
    expect(refused?.detail).toBe('preload is requested, but the preload list also needs includeSubDomains');
    expect(refused?.finding?.suggestions?.[0]?.content).toBe(
      'add_header Strict-Transport-Security "max-age=31536000; includeSubDomains; preload" always;',
    );
    expect(row('ready.test', 'hsts-preload')).toMatchObject({ status: 'pass' });
    expect(row('www.ready.test', 'hsts-preload')).toMatchObject({ status: 'info' });
    expect(row('www.ready.test', 'hsts-preload')?.detail).toContain('ready.test is submitted');
  });

  it('judges security.txt by RFC 9116: URIs, an RFC 3339 Expires, and HTTPS', () => {
    const broken = row('reflect.test', 'security-txt');
    expect(broken).toMatchObject({ status: 'fail' });
    expect(broken?.detail).toBe(
      'security.txt: Contact must be a URI (mailto:, https: or tel:), not "security@reflect.test"; Expires "2027-13-01" is not an RFC 3339 date-time (e.g. 2027-01-31T00:00:00Z)',
    );
    expect(broken?.finding?.suggestions?.[0]).toMatchObject({ label: 'security.txt', format: 'text' });
    expect(row('ready.test', 'security-txt')).toMatchObject({ status: 'pass' });
    expect(row('www.ready.test', 'security-txt')?.detail).toContain('served over plain HTTP');
  });
});

describe('security.txt and suggestions', () => {
  it('advises on an Expires more than a year ahead and a Canonical that leaves out the address', () => {
    const parsed = parseSecurityTxt(
      'Contact: mailto:a@b.test\nExpires: 2030-01-01T00:00:00Z\nCanonical: https://other.test/.well-known/security.txt',
      'https://b.test/.well-known/security.txt',
      NOW,
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.advice).toHaveLength(2);
    expect(
      parseSecurityTxt('Contact: mailto:a@b.test\nExpires: 2026-01-01T00:00:00Z', 'https://b.test/x', NOW).problems,
    ).toEqual(['expired on 2026-01-01T00:00:00Z']);
  });

  it('writes a starter security.txt that its own parser accepts', () => {
    const url = 'https://b.test/.well-known/security.txt';
    const text = starterSecurityTxt('b.test', url, NOW);
    expect(text).toContain('Expires: 2027-10-');
    expect(parseSecurityTxt(text, url, NOW)).toMatchObject({ problems: [], advice: [] });
  });

  it('quotes header values for each server, and escapes quotes', () => {
    const [nginx, apache, caddy, netlify, vercel] = headerSuggestions([['X-Test', 'a "b"']]);
    expect(nginx?.content).toBe('add_header X-Test "a \\"b\\"" always;');
    expect(apache?.content).toBe('Header always set X-Test "a \\"b\\""');
    expect(caddy?.content).toBe('header {\n\tX-Test "a \\"b\\""\n}');
    expect(netlify?.content).toBe('/*\n  X-Test: a "b"');
    expect(JSON.parse(vercel?.content ?? '')).toEqual({
      headers: [{ source: '/(.*)', headers: [{ key: 'X-Test', value: 'a "b"' }] }],
    });
  });
});
