// TLS past internet.nl's basics (issue 13): a server that still accepts TLS 1.0 and 1.1 with a
// 1024-bit RSA key, and one that offers TLS 1.2 and 1.3 only with a 2048-bit key, audited through
// the engine with our own DNS and CA.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditOutcome } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { probeLegacyTls } from '../../src/audit/net/tls.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { html } from '../support/fixture-site.ts';
import {
  auditSecureHosts,
  createTestCa,
  type SecureSites,
  startSecureSites,
  type TestCa,
} from '../support/secure-sites.ts';

describe('TLS versions and key strength', () => {
  let ca: TestCa;
  let legacy: SecureSites;
  let modern: SecureSites;
  let dns: DnsServer;
  const outcomes: Record<string, AuditOutcome<unknown>> = {};
  const home = { '/': { body: html('<title>Site</title>', '<main><h1>Site</h1></main>') } };

  beforeAll(async () => {
    ca = createTestCa();
    legacy = await startSecureSites(
      { 'old.test': { tls: ca.issue(['old.test'], 400, 1024), https: home, http: {} } },
      { legacyTls: true },
    );
    modern = await startSecureSites({ 'new.test': { tls: ca.issue(['new.test'], 400), https: home, http: {} } });
    dns = await startDnsServer({ 'old.test': { A: ['127.0.0.1'] }, 'new.test': { A: ['127.0.0.1'] } });
    Object.assign(outcomes, await auditSecureHosts(['old.test'], { dns, sites: legacy, ca }));
    Object.assign(outcomes, await auditSecureHosts(['new.test'], { dns, sites: modern, ca }));
  });
  afterAll(async () => {
    await legacy?.close();
    await modern?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const row = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id);

  it('fails a server that accepts TLS 1.0 and 1.1, and passes one that refuses them', () => {
    expect(row('new.test', 'tls-legacy-versions-refused')).toMatchObject({ status: 'pass' });
    expect(row('old.test', 'tls-legacy-versions-refused')).toMatchObject({
      status: 'fail',
      detail: 'the server completes a handshake with TLS 1.0 and TLS 1.1',
    });
    expect(row('old.test', 'tls-legacy-versions-refused')?.finding?.agentAction).toContain(
      'ssl_protocols TLSv1.2 TLSv1.3',
    );
  });

  it('fails a 1024-bit RSA key and passes a 2048-bit one', () => {
    expect(row('new.test', 'certificate-key-strength')).toMatchObject({ status: 'pass', detail: 'RSA 2048-bit key' });
    expect(row('old.test', 'certificate-key-strength')).toMatchObject({
      status: 'fail',
      detail: 'the certificate has a RSA 1024-bit key (at least 2048 bits expected)',
    });
  });

  it('gives no verdict on versions when the server cannot be reached', async () => {
    const versions = await probeLegacyTls('127.0.0.1', {
      resolver: createResolver([dns.address]),
      allowPrivate: true,
      ports: { 'https:': 9 },
      timeoutMs: 1000,
    });
    expect(versions).toBeNull();
  });
});
