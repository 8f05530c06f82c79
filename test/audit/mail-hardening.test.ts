// Mail and DNS past internet.nl (issue 13): MTA-STS with its policy file, TLS-RPT, DKIM key sizes,
// the lock-down of a mail-free domain and DNSSEC, audited through the engine against our own DNS
// server (DS, DNSKEY, validating verdicts) and HTTPS policy hosts signed by our own CA.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailHardeningChecks } from '../../src/audit/checks/security/mail-hardening.ts';
import type { AuditOutcome } from '../../src/audit/index.ts';
import { dkimKey, mxMatches, parseMtaStsPolicy, tlsRptRecordProblem } from '../../src/audit/mail-records.ts';
import type { DnsFacts } from '../../src/audit/net/dns-facts.ts';
import { askDnssec, parseServer } from '../../src/audit/net/dnssec-query.ts';
import type { DnssecAnswer } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { html } from '../support/fixture-site.ts';
import {
  auditSecureHosts,
  createTestCa,
  type HostedSite,
  type SecureSites,
  startSecureSites,
  type TestCa,
} from '../support/secure-sites.ts';

const rsaKey = (bits: number, type: 'spki' | 'pkcs1' = 'spki') =>
  generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type, format: 'der' }).toString('base64');
const POLICY = 'text/plain; charset=utf-8';
const EMPTY_FACTS: DnsFacts = {
  domain: 'bogus.test',
  mx: [],
  spf: [],
  dmarc: [],
  dmarcAt: null,
  organizationalDomain: 'bogus.test',
  caa: [],
  caaAt: null,
  mtaSts: [],
  tlsRpt: [],
  dkim: [],
  dkimSelectorsAsked: [],
  dnssec: null,
  errors: [],
};

describe('mail hardening', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  const outcomes: Record<string, AuditOutcome<unknown>> = {};
  const home = { '/': { body: html('<title>Site</title>', '<main><h1>Site</h1></main>') } };
  const hosts = ['strict.test', 'loose.test', 'parked.test', 'quiet.test', 'moved.test'];

  beforeAll(async () => {
    ca = createTestCa();
    const site = (host: string, https: HostedSite['https'] = home): HostedSite => ({
      tls: ca.issue([host], 400),
      https,
      http: {},
    });
    const policy = (body: string, headers: Record<string, string> = { 'content-type': POLICY }) => ({
      '/.well-known/mta-sts.txt': { body, headers },
    });
    sites = await startSecureSites({
      ...Object.fromEntries(hosts.map((h) => [h, site(h)])),
      'mta-sts.strict.test': site(
        'mta-sts.strict.test',
        policy('version: STSv1\r\nmode: enforce\r\nmx: *.strict.test\r\nmax_age: 604800\r\n'),
      ),
      'mta-sts.loose.test': site(
        'mta-sts.loose.test',
        policy('version: STSv1\nmode: enforce\nmx: mx.loose.test\nmax_age: 86400\n'),
      ),
      'mta-sts.moved.test': site('mta-sts.moved.test', {
        '/.well-known/mta-sts.txt': { status: 301, body: '', headers: { location: '/policy.txt' } },
        '/policy.txt': { body: 'version: STSv1\nmode: enforce\nmx: mx.moved.test\nmax_age: 86400\n' },
      }),
    });
    const a = { A: ['127.0.0.1'] };
    dns = await startDnsServer({
      ...Object.fromEntries(hosts.flatMap((h) => [[`mta-sts.${h}`, a]])),
      'strict.test': {
        ...a,
        MX: [
          { exchange: 'mx1.strict.test', preference: 10 },
          { exchange: 'mx2.strict.test', preference: 20 },
        ],
        TXT: ['v=spf1 include:_spf.provider.test -all'],
        DS: ['aa'.repeat(32)],
        DNSKEY: [Buffer.alloc(64, 1).toString('base64')],
        validated: true,
      },
      '_mta-sts.strict.test': { TXT: ['v=STSv1; id=20261124000000Z'] },
      '_smtp._tls.strict.test': { TXT: ['v=TLSRPTv1; rua=mailto:tls@strict.test'] },
      'selector1._domainkey.strict.test': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(2048)}`] },
      'loose.test': {
        ...a,
        MX: [
          { exchange: 'mx.loose.test', preference: 10 },
          { exchange: 'backup.other.test', preference: 20 },
        ],
        TXT: ['v=spf1 mx ~all'],
        DNSKEY: [Buffer.alloc(64, 2).toString('base64')],
      },
      '_mta-sts.loose.test': { TXT: ['v=STSv1; id=1'] },
      '_smtp._tls.loose.test': { TXT: ['v=TLSRPTv1; rua=ftp://reports.loose.test'] },
      'google._domainkey.loose.test': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(1024)}`] },
      's1._domainkey.loose.test': { TXT: ['v=DKIM1; p='] },
      'parked.test': {
        ...a,
        MX: [{ exchange: '', preference: 0 }],
        TXT: ['v=spf1 ~all'],
        DS: ['bb'.repeat(32)],
        DNSKEY: [Buffer.alloc(64, 3).toString('base64')],
      },
      'quiet.test': { ...a, MX: [{ exchange: '', preference: 0 }], TXT: ['v=spf1 -all'] },
      'moved.test': { ...a, MX: [{ exchange: 'mx.moved.test', preference: 10 }], TXT: ['v=spf1 mx -all'] },
      '_mta-sts.moved.test': { TXT: ['v=STSv1; id=abc'] },
      'bogus.test': { DS: ['cc'.repeat(32)], DNSKEY: [Buffer.alloc(64, 4).toString('base64')], bogus: true },
    });
    Object.assign(outcomes, await auditSecureHosts(hosts, { dns, sites, ca }));
  }, 60_000);
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const row = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id);

  it('passes a domain whose MTA-STS policy is served right and covers every MX host', () => {
    expect(row('strict.test', 'mta-sts')).toMatchObject({
      status: 'pass',
      detail: 'mode enforce, max_age 604800, mx *.strict.test',
    });
    expect(row('strict.test', 'tls-rpt')).toMatchObject({ status: 'pass' });
  });

  it('fails an enforced policy that leaves out an MX host, high, and gives the policy to paste', () => {
    const mta = row('loose.test', 'mta-sts');
    expect(mta).toMatchObject({ status: 'fail', severity: 'high' });
    expect(mta?.detail).toContain('do not cover backup.other.test');
    expect(mta?.finding?.suggestions?.[0]).toEqual({
      label: 'MTA-STS policy',
      target: 'https://mta-sts.loose.test/.well-known/mta-sts.txt',
      format: 'text',
      content: 'version: STSv1\nmode: enforce\nmx: mx.loose.test\nmx: backup.other.test\nmax_age: 604800',
    });
    expect(mta?.finding?.suggestions?.[1]?.content).toMatch(
      /^_mta-sts\.loose\.test\.\t3600\tIN\tTXT\t"v=STSv1; id=\d{14}Z"$/,
    );
  });

  it('fails a policy behind a redirect, and says absent where there is no record', () => {
    expect(row('moved.test', 'mta-sts')).toMatchObject({ status: 'fail', severity: 'medium' });
    expect(row('moved.test', 'mta-sts')?.detail).toContain('senders do not follow redirects');
    expect(row('moved.test', 'tls-rpt')).toMatchObject({ status: 'fail', severity: 'low' });
    expect(row('moved.test', 'tls-rpt')?.finding?.agentAction).toBe(
      'Add the TXT record _smtp._tls.moved.test "v=TLSRPTv1; rua=mailto:tls-reports@moved.test".',
    );
  });

  it('fails a TLS-RPT record whose report address is neither mailto: nor https:', () => {
    expect(row('loose.test', 'tls-rpt')).toMatchObject({ status: 'fail' });
    expect(row('loose.test', 'tls-rpt')?.detail).toContain('ftp://reports.loose.test');
  });

  it('judges DKIM keys by size, leaves revoked ones alone and gives no verdict where none is found', () => {
    expect(row('strict.test', 'dkim')).toMatchObject({ status: 'pass', detail: 'selector1: rsa 2048 bits' });
    const loose = row('loose.test', 'dkim');
    expect(loose).toMatchObject({ status: 'fail', severity: 'low' });
    expect(loose?.detail).toContain('google: rsa 1024 bits; s1: revoked (empty p=)');
    expect(row('moved.test', 'dkim')).toMatchObject({ status: 'info' });
    expect(row('moved.test', 'dkim')?.finding).toBeUndefined();
    expect(row('moved.test', 'dkim')?.detail).toContain('no DKIM key at the 20 common selectors');
  });

  it('asks a mail-free domain for a null MX and SPF -all, and passes it with both', () => {
    expect(row('quiet.test', 'no-mail-domain-locked')).toMatchObject({ status: 'pass' });
    const parked = row('parked.test', 'no-mail-domain-locked');
    expect(parked).toMatchObject({ status: 'fail', severity: 'medium' });
    expect(parked?.detail).toBe('parked.test looks mail-free but lacks SPF "v=spf1 -all" (now “v=spf1 ~all”)');
    expect(parked?.finding?.suggestions?.[0]?.content).toBe(
      'parked.test.\t3600\tIN\tMX\t0 .\nparked.test.\t3600\tIN\tTXT\t"v=spf1 -all"\n_dmarc.parked.test.\t3600\tIN\tTXT\t"v=DMARC1; p=reject"',
    );
    expect(row('strict.test', 'no-mail-domain-locked')).toMatchObject({
      status: 'info',
      detail: 'strict.test uses mail',
    });
    for (const id of ['mta-sts', 'tls-rpt']) expect(row('quiet.test', id)?.status, id).toBe('info');
  });

  it('judges DNSSEC: validated, unlinked, unsigned and bogus', () => {
    expect(row('strict.test', 'dnssec')).toMatchObject({
      status: 'pass',
      detail: 'strict.test is signed (DS at the parent, 1 DNSKEY) and the resolver validated it',
    });
    expect(row('loose.test', 'dnssec')).toMatchObject({ status: 'fail', severity: 'low' });
    expect(row('loose.test', 'dnssec')?.detail).toContain('the parent has no DS record');
    expect(row('quiet.test', 'dnssec')).toMatchObject({
      status: 'fail',
      detail: 'quiet.test is not signed (no DS, no DNSKEY)',
    });
    expect(row('parked.test', 'dnssec')).toMatchObject({
      status: 'pass',
      detail: 'parked.test is signed (DS at the parent, 1 DNSKEY)',
    });
  });

  it('tells a bogus zone (SERVFAIL that clears with checking disabled) from one that is down, and fails it high', async () => {
    const bogus = await askDnssec('bogus.test', [dns.address]);
    expect(bogus).toEqual({ ds: 0, dnskey: 1, authenticated: false, bogus: true });
    const facts = { ...EMPTY_FACTS, dnssec: { ...(bogus as DnssecAnswer), zone: 'bogus.test' } };
    const verdict = mailHardeningChecks(facts, undefined, 'https://bogus.test/').find((r) => r.id === 'dnssec');
    expect(verdict).toMatchObject({ status: 'fail', severity: 'high' });
    expect(verdict?.finding?.agentAction).toContain('https://dnsviz.net/d/bogus.test/dnssec/');
  });

  it('gives no DNSSEC verdict when no server answers', async () => {
    expect(await askDnssec('strict.test', ['127.0.0.1:9'], 300)).toBeNull();
    expect(parseServer('[::1]:5353')).toEqual({ address: '::1', port: 5353 });
    expect(parseServer('2001:db8::1')).toEqual({ address: '2001:db8::1', port: 53 });
  });
});

describe('mail records', () => {
  it('parses MTA-STS policies as senders do', () => {
    expect(parseMtaStsPolicy('version: STSv1\nmode: enforce\nmx: MX.Example.com.\nmax_age: 86400').problems).toEqual(
      [],
    );
    expect(parseMtaStsPolicy('version: STSv1\nmode: strict\nmax_age: 99999999999').problems).toEqual([
      'mode is "strict" (enforce, testing or none)',
      'max_age is not a number of seconds up to 31557600',
      'no mx lines',
    ]);
    expect(parseMtaStsPolicy('<html>').problems[0]).toBe('version is missing (must be STSv1)');
  });

  it('matches MX patterns with a wildcard standing for exactly one label', () => {
    expect(mxMatches('*.example.com', 'mx1.example.com.')).toBe(true);
    expect(mxMatches('*.example.com', 'a.b.example.com')).toBe(false);
    expect(mxMatches('*.example.com', 'example.com')).toBe(false);
    expect(mxMatches('mx.example.com', 'MX.example.com')).toBe(true);
  });

  it('reads DKIM key sizes from SubjectPublicKeyInfo and bare PKCS#1 keys', () => {
    expect(dkimKey(`v=DKIM1; p=${rsaKey(1024, 'pkcs1')}`)).toEqual({ type: 'rsa', bits: 1024, revoked: false });
    expect(dkimKey('v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=')).toEqual({
      type: 'ed25519',
      bits: 256,
      revoked: false,
    });
    expect(dkimKey('v=DKIM1; p=bm90IGEga2V5')).toEqual({ type: 'rsa', bits: null, revoked: false });
  });

  it('accepts mailto: and https: report addresses only', () => {
    expect(tlsRptRecordProblem('v=TLSRPTv1; rua=mailto:a@b.test,https://r.test/v1')).toBeUndefined();
    expect(tlsRptRecordProblem('v=TLSRPTv1')).toBe('the record has no rua= address for reports');
  });
});
