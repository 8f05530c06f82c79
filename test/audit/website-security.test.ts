// The website_security product against fixture hosts on loopback: HTTPS with certificates from a
// throwaway CA, plain HTTP, and DNS answers from our own server. Each check fails on one host and
// passes on another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import type { WebsiteSecurityDetails } from '../../src/audit/products/website-security.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { expectCheckStatuses } from '../support/expect-checks.ts';
import { html } from '../support/fixture-site.ts';
import { createTestCa, type SecureSites, startSecureSites, type TestCa } from '../support/secure-sites.ts';

const GOOD_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self' https://cdn.example; object-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  server: 'nginx',
};

describe('website_security', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  const outcomes: Record<string, AuditOutcome<WebsiteSecurityDetails>> = {};

  beforeAll(async () => {
    ca = createTestCa();
    const page = (body: string) => html('<title>Site</title>', `<main><h1>Site</h1>${body}</main>`);
    sites = await startSecureSites({
      'secure.test': {
        tls: ca.issue(['secure.test'], 400),
        https: {
          '/': {
            headers: { ...GOOD_HEADERS, 'set-cookie': ['__Host-session=1; Secure; HttpOnly; SameSite=Lax; Path=/'] },
            body: page(
              '<script src="https://cdn.example/lib.js" integrity="sha384-abc" crossorigin="anonymous"></script><a href="/about">About</a>',
            ),
          },
          '/about': { headers: GOOD_HEADERS, body: page('<p>About us.</p>') },
          '/.well-known/security.txt': {
            headers: { 'content-type': 'text/plain' },
            body: 'Contact: mailto:security@secure.test\nExpires: 2099-01-01T00:00:00Z\n',
          },
        },
        http: { '/': { status: 301, headers: { location: 'https://secure.test/' } } },
      },
      'mta-sts.secure.test': {
        tls: ca.issue(['mta-sts.secure.test'], 400),
        https: {
          '/.well-known/mta-sts.txt': {
            headers: { 'content-type': 'text/plain' },
            body: 'version: STSv1\nmode: enforce\nmx: mail.secure.test\nmax_age: 604800\n',
          },
        },
        http: {},
      },
      'weak.test': {
        tls: ca.issue(['weak.test'], 400),
        https: {
          '/': {
            headers: {
              server: 'nginx/1.18.0',
              'x-powered-by': 'PHP/7.4.3',
              'access-control-allow-origin': '*',
              'access-control-allow-credentials': 'true',
              'referrer-policy': 'no-referrer-when-downgrade',
              'set-cookie': ['sessionid=abc; Path=/', '__Host-pref=1; Path=/'],
            },
            body: page(
              '<script src="http://cdn.example/jquery-1.12.4.min.js"></script><img src="http://cdn.example/x.png" alt="x"><a href="/files/">Files</a>',
            ),
          },
          '/files/': { body: html('<title>Index of /files/</title>', '<h1>Index of /files/</h1>') },
          '/.git/HEAD': { headers: { 'content-type': 'text/plain' }, body: 'ref: refs/heads/main\n' },
          '/.env': { headers: { 'content-type': 'text/plain' }, body: 'DB_PASSWORD=secret\n' },
        },
        http: { '/': { body: page('<p>plain</p>') } },
      },
      'lax.test': {
        tls: ca.issue(['lax.test'], 5),
        https: {
          '/': {
            headers: {
              'content-security-policy': "default-src * 'unsafe-inline' 'unsafe-eval'",
              'strict-transport-security': 'max-age=86400',
              'referrer-policy': 'never',
            },
            body: page(''),
          },
          '/.well-known/security.txt': {
            headers: { 'content-type': 'text/plain' },
            body: 'Contact: mailto:a@lax.test\nExpires: 2020-01-01T00:00:00Z\n',
          },
        },
        http: { '/': { status: 302, headers: { location: 'https://lax.test/' } } },
      },
      'mismatch.test': {
        tls: ca.issue(['other.test'], 400),
        https: { '/': { body: page('') } },
        http: { '/': { status: 301, headers: { location: 'https://mismatch.test/' } } },
      },
    });
    dns = await startDnsServer({
      'secure.test': {
        A: ['127.0.0.1'],
        MX: [{ exchange: 'mail.secure.test', preference: 10 }],
        TXT: ['v=spf1 mx -all'],
        CAA: [{ tag: 'issue', value: 'letsencrypt.org' }],
        DS: ['ab'.repeat(32)],
        DNSKEY: [Buffer.alloc(64, 7).toString('base64')],
      },
      '_dmarc.secure.test': { TXT: ['v=DMARC1; p=reject'] },
      '_mta-sts.secure.test': { TXT: ['v=STSv1; id=20261124000000Z'] },
      '_smtp._tls.secure.test': { TXT: ['v=TLSRPTv1; rua=mailto:tls@secure.test'] },
      'mta-sts.secure.test': { A: ['127.0.0.1'] },
      'weak.test': { A: ['127.0.0.1'], TXT: ['v=spf1 +all'] },
      'lax.test': {
        A: ['127.0.0.1'],
        MX: [{ exchange: 'mx.lax.test', preference: 5 }],
        TXT: ['v=spf1 include:a.example include:b.example ?all'],
      },
      '_dmarc.lax.test': { TXT: ['v=DMARC1; p=none; rua=mailto:d@lax.test'] },
      'mismatch.test': { A: ['127.0.0.1'] },
    });
    const options = {
      allowPrivate: true,
      resolver: createResolver([dns.address]),
      ports: sites.ports,
      ca: ca.caPem,
      timeoutMs: 3000,
    };
    for (const host of ['secure.test', 'weak.test', 'lax.test', 'mismatch.test']) {
      outcomes[host] = await runAudit('website_security', { url: `https://${host}/`, local: false }, options);
    }
  });
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const status = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id)?.status;

  it.each([
    // [check, secure.test, weak.test, lax.test]
    ['csp-present', 'pass', 'fail', 'pass'],
    ['csp-no-unsafe-inline', 'pass', undefined, 'fail'],
    ['csp-no-unsafe-eval', 'pass', undefined, 'fail'],
    ['csp-no-bypassable-sources', 'pass', undefined, 'fail'],
    ['csp-object-src', 'pass', undefined, 'pass'],
    ['csp-base-uri', 'pass', undefined, 'pass'],
    ['clickjacking-protection', 'pass', 'fail', 'fail'],
    ['x-content-type-options', 'pass', 'fail', 'fail'],
    ['referrer-policy', 'pass', 'fail', 'fail'],
    ['subresource-integrity', 'pass', 'fail', 'pass'],
    ['cors-not-permissive', 'pass', 'fail', 'pass'],
    ['https-available', 'pass', 'pass', 'pass'],
    ['http-redirects-to-https', 'pass', 'fail', 'pass'],
    ['hsts', 'pass', 'fail', 'fail'],
    ['certificate-valid', 'pass', 'pass', 'pass'],
    ['certificate-expiry', 'pass', 'pass', 'fail'],
    ['no-mixed-content-security', 'pass', 'fail', 'pass'],
    ['mx-records', 'pass', 'fail', 'pass'],
    ['spf', 'pass', 'fail', 'fail'],
    ['dmarc', 'pass', 'fail', 'fail'],
    ['caa', 'pass', 'fail', 'fail'],
    ['cookies-secure', 'pass', 'fail', 'pass'],
    ['session-cookies-httponly', 'pass', 'fail', 'pass'],
    ['cookies-samesite', 'pass', 'fail', 'pass'],
    ['cookie-prefixes', 'pass', 'fail', 'pass'],
    ['security-txt', 'pass', 'fail', 'fail'],
    ['version-banners', 'pass', 'fail', 'pass'],
    ['exposed-files', 'pass', 'fail', 'pass'],
    ['directory-listing', 'pass', 'fail', 'pass'],
    ['outdated-libraries', 'pass', 'fail', 'pass'],
  ])('%s: secure %s, weak %s, lax %s', (id, secure, weak, lax) => {
    expectCheckStatuses(outcomes, id, { 'secure.test': secure, 'weak.test': weak, 'lax.test': lax });
  });

  it('grades severities as the catalogue says', () => {
    const severity = (host: string, id: string) => outcomes[host]?.findings.find((f) => f.checkId === id)?.severity;
    expect(severity('weak.test', 'exposed-files')).toBe('critical');
    expect(severity('weak.test', 'cookies-secure')).toBe('critical'); // a session cookie
    expect(severity('weak.test', 'spf')).toBe('high'); // +all
    expect(severity('lax.test', 'spf')).toBe('low'); // ?all
    expect(severity('lax.test', 'dmarc')).toBe('low'); // p=none
    expect(severity('lax.test', 'certificate-expiry')).toBe('high'); // under 14 days
    expect(severity('lax.test', 'hsts')).toBe('medium'); // under six months
    expect(severity('lax.test', 'security-txt')).toBe('medium'); // expired
    expect(outcomes['weak.test']?.findings.every((f) => f.category === 'security' && f.pillar)).toBe(true);
  });

  it('refuses a certificate for another name, and judges no headers it could not read', () => {
    expect(status('mismatch.test', 'certificate-valid')).toBe('fail');
    expect(status('mismatch.test', 'https-available')).toBe('fail');
    expect(status('mismatch.test', 'csp-present')).toBeUndefined();
    expect(outcomes['mismatch.test']?.details.tls).toMatchObject({
      valid: false,
      error: expect.stringMatching(/ALTNAME|altname|Hostname/i),
    });
  });

  it('reports TLS and DNS facts, five weighted pillars, and a blended score', () => {
    const secure = outcomes['secure.test'] as AuditOutcome<WebsiteSecurityDetails>;
    expect(secure.details.tls).toMatchObject({ valid: true, issuer: 'siteaudit test CA', subject: 'secure.test' });
    expect(secure.details.tls?.daysUntilExpiry).toBeGreaterThan(300);
    expect(secure.details.dns).toEqual({ hasMx: true, hasSpf: true, hasDmarc: true, hasCaa: true });
    expect(secure.details.pillars.map((p) => [p.key, p.weight])).toEqual([
      ['browser_defenses', 30],
      ['transport_trust', 25],
      ['dns_email_trust', 15],
      ['cookies_sessions', 15],
      ['exposure_reputation', 15],
    ]);
    expect(secure.score).toBe(100);
    const weak = outcomes['weak.test'] as AuditOutcome<WebsiteSecurityDetails>;
    expect(weak.score).toBeLessThan(40);
    expect(weak.details.dns).toEqual({ hasMx: false, hasSpf: true, hasDmarc: false, hasCaa: false });
  });

  it('on a local on-page scan judges only what the page and its server give away', async () => {
    const local = await runAudit(
      'website_security',
      { url: `https://weak.test/`, local: true },
      { resolver: createResolver([dns.address]), ports: sites.ports, ca: ca.caPem },
    );
    expect(local.coverage?.mode).toBe('local_on_page');
    expect(local.checks.map((c) => c.id).sort()).toEqual([
      'directory-listing',
      'exposed-files',
      'outdated-libraries',
      'subresource-integrity',
    ]);
    expect(local.details.tls).toBeUndefined();
  });
});
