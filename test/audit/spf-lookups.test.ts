// SPF counted as a receiver evaluates it (issue 29, RFC 7208 4.6.4): includes and redirects followed
// through the audit's resolver against our own DNS server, at most 10 DNS lookups and 2 void ones,
// an include with no SPF record or an include loop a failure, and the walk bounded in lookups,
// depth and time. The record's own verdicts stay with the `spf` check.
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsEmailChecks } from '../../src/audit/checks/security/dns-email.ts';
import { gatherDnsFacts } from '../../src/audit/net/dns-facts.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer, type Zone } from '../support/dns-server.ts';

const MAIL = (host: string): Zone => ({ A: ['192.0.2.1'], MX: [{ exchange: `mx.${host}`, preference: 10 }] });
const host = (_name: string): Zone => ({ A: ['192.0.2.10'] });

let dns: DnsServer;
beforeAll(async () => {
  const zones: Record<string, Zone> = {
    // Three levels of includes, 8 lookups in all.
    'nested.test': { ...MAIL('nested.test'), TXT: ['v=spf1 include:_spf.nested.test mx a -all'] },
    '_spf.nested.test': { TXT: ['v=spf1 include:_a.nested.test include:_b.nested.test ~all'] },
    '_a.nested.test': { TXT: ['v=spf1 a:mail.nested.test include:_c.nested.test -all'] },
    '_b.nested.test': { TXT: ['v=spf1 exists:host.nested.test -all'] },
    '_c.nested.test': { TXT: ['v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 -all'] },
    'mail.nested.test': host('mail'),
    'host.nested.test': host('host'),
    // 12 lookups: the 11th is the sixth a: of the vendor's record.
    'over.test': { ...MAIL('over.test'), TXT: ['v=spf1 include:_spf.over.test include:_vendor.over.test mx -all'] },
    '_spf.over.test': {
      TXT: ['v=spf1 include:_n1.over.test include:_n2.over.test include:_n3.over.test ~all'],
    },
    '_n1.over.test': { TXT: ['v=spf1 ip4:192.0.2.1 -all'] },
    '_n2.over.test': { TXT: ['v=spf1 ip4:192.0.2.2 -all'] },
    '_n3.over.test': { TXT: ['v=spf1 ip4:192.0.2.3 -all'] },
    '_vendor.over.test': {
      TXT: [`v=spf1 ${[1, 2, 3, 4, 5, 6].map((i) => `a:m${i}.over.test`).join(' ')} -all`],
    },
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`m${i}.over.test`, host('m')])),
    // Thirty includes, each with an include of its own: the walk stops a few past the limit.
    'wide.test': {
      ...MAIL('wide.test'),
      TXT: [`v=spf1 ${Array.from({ length: 30 }, (_, i) => `include:w${i}.wide.test`).join(' ')} -all`],
    },
    ...Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`w${i}.wide.test`, { TXT: [`v=spf1 include:x${i}.wide.test -all`] }]),
    ),
    ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x${i}.wide.test`, { TXT: ['v=spf1 -all'] }])),
    // A loop through two records, and a record that includes itself.
    'loop.test': { ...MAIL('loop.test'), TXT: ['v=spf1 include:_a.loop.test -all'] },
    '_a.loop.test': { TXT: ['v=spf1 include:_b.loop.test -all'] },
    '_b.loop.test': { TXT: ['v=spf1 include:_a.loop.test -all'] },
    'self.test': { ...MAIL('self.test'), TXT: ['v=spf1 mx include:self.test -all'] },
    // Includes that lead nowhere: a name that does not exist, a name with TXT but no SPF.
    'missing.test': {
      ...MAIL('missing.test'),
      TXT: ['v=spf1 include:_spf.gone.test include:notspf.test mx -all'],
    },
    'notspf.test': { TXT: ['google-site-verification=abc'] },
    // Three a/mx terms naming nothing.
    'voids.test': {
      ...MAIL('voids.test'),
      TXT: ['v=spf1 a:n1.voids.test a:n2.voids.test mx:n3.voids.test -all'],
    },
    // An mx of eleven mail servers.
    'mxmany.test': {
      A: ['192.0.2.1'],
      MX: Array.from({ length: 11 }, (_, i) => ({ exchange: `mx${i}.mxmany.test`, preference: i })),
      TXT: ['v=spf1 mx -all'],
    },
    // redirect= is followed; terms after `all` are never evaluated.
    'redirect.test': { ...MAIL('redirect.test'), TXT: ['v=spf1 redirect=_r.redirect.test'] },
    // After a redirect the target is the domain: a bare mx would ask _r.redirect.test's own MX.
    '_r.redirect.test': { TXT: ['v=spf1 mx:redirect.test a:redirect.test -all'] },
    'after.test': {
      ...MAIL('after.test'),
      TXT: [`v=spf1 mx -all ${Array.from({ length: 12 }, (_, i) => `include:z${i}.after.test`).join(' ')}`],
    },
    // No SPF at all.
    'nospf.test': MAIL('nospf.test'),
  };
  dns = await startDnsServer(zones);
});
afterAll(async () => {
  await dns?.close();
});

async function rowsOf(domain: string) {
  const facts = await gatherDnsFacts(domain, createResolver([dns.address]));
  const rows = dnsEmailChecks(facts, `https://${domain}/`);
  return { facts, rows, row: rows.find((r) => r.id === 'spf-lookups'), spf: rows.find((r) => r.id === 'spf') };
}

describe('spf-lookups', () => {
  it('passes three levels of includes that cost 8 lookups, and says where they go', async () => {
    const { row, spf } = await rowsOf('nested.test');
    expect(row?.status, row?.detail).toBe('pass');
    expect(row?.detail).toBe('8 of 10 DNS lookups: include:_spf.nested.test 6, mx 1, a 1');
    expect(spf?.status).toBe('pass');
  });

  it('fails 12 lookups, naming the chain that reached the 11th and the heaviest include', async () => {
    const { row, spf, facts } = await rowsOf('over.test');
    expect(row?.status).toBe('fail');
    expect(row?.severity).toBe('high');
    expect(row?.finding?.title).toBe('SPF: 12 DNS lookups, receivers allow 10');
    expect(row?.detail).toContain('include:_spf.over.test 4, include:_vendor.over.test 7, mx 1');
    expect(row?.detail).toContain(
      'lookup 11 is “a:m6.over.test” in the record of _vendor.over.test (over.test → _vendor.over.test)',
    );
    expect(row?.finding?.agentAction).toContain('from 12 to at most 10 DNS lookups');
    expect(row?.finding?.agentAction).toContain('include:_vendor.over.test (7)');
    expect(row?.finding?.remediation).toMatch(/flattening/);
    expect(row?.finding?.evidence.map((e) => e.summary)).toContain(
      '_vendor.over.test: “v=spf1 a:m1.over.test a:m2.over.test a:m3.over.test a:m4.over.test a:m5.over.test a:m6.over.test -all”',
    );
    // The record itself is fine: one record, ending in -all.
    expect(spf?.status).toBe('pass');
    expect(facts.spfWalk?.voids).toEqual([]);
  });

  it('stops a few lookups past the limit, however wide the tree', async () => {
    const before = dns.queries.length;
    const { row, facts } = await rowsOf('wide.test');
    expect(facts.spfWalk?.stoppedAtBound).toBe(true);
    expect(facts.spfWalk?.lookups).toHaveLength(14);
    expect(row?.finding?.title).toBe('SPF: at least 14 DNS lookups, receivers allow 10');
    const asked = dns.queries.slice(before).filter((q) => q.type === 'TXT' && /^[wx]\d+\.wide\.test$/.test(q.name));
    expect(asked.length).toBeLessThanOrEqual(13);
  });

  it('fails an include loop, and a record that includes itself', async () => {
    const loop = await rowsOf('loop.test');
    expect(loop.row?.status).toBe('fail');
    expect(loop.row?.finding?.title).toBe('SPF includes loop back on themselves, so receivers fail it');
    expect(loop.row?.detail).toContain(
      '“include:_a.loop.test” in the record of _b.loop.test (loop.test → _a.loop.test → _b.loop.test): _a.loop.test is already being evaluated higher in the chain (a loop)',
    );
    const self = await rowsOf('self.test');
    expect(self.row?.status).toBe('fail');
    expect(self.row?.finding?.agentAction).toContain('Remove "include:self.test" from the SPF record of self.test');
    // The include is in the domain's own record, so the record without it is suggested.
    expect(self.row?.finding?.suggestions?.[0]?.content).toContain('"v=spf1 mx -all"');
  });

  it('fails includes of names with no SPF record, and suggests the record without them', async () => {
    const { row } = await rowsOf('missing.test');
    expect(row?.status).toBe('fail');
    expect(row?.finding?.title).toBe('SPF includes a domain with no SPF record, so receivers fail it');
    expect(row?.detail).toContain(
      '“include:_spf.gone.test” in the record of missing.test: _spf.gone.test has no SPF record',
    );
    expect(row?.detail).toContain('“include:notspf.test” in the record of missing.test: notspf.test has no SPF record');
    expect(row?.finding?.suggestions?.[0]?.content).toBe('missing.test.\t3600\tIN\tTXT\t"v=spf1 mx -all"');
  });

  it('fails more than two lookups that answer nothing, at medium severity', async () => {
    const { row } = await rowsOf('voids.test');
    expect(row?.status).toBe('fail');
    expect(row?.severity).toBe('medium');
    expect(row?.detail).toContain('3 lookups answer nothing');
  });

  it('fails an mx on a domain with more than 10 mail servers', async () => {
    const { row } = await rowsOf('mxmany.test');
    expect(row?.status).toBe('fail');
    expect(row?.detail).toContain('mxmany.test has 11 MX records');
  });

  it('follows redirect=, and counts nothing after all', async () => {
    expect((await rowsOf('redirect.test')).row?.detail).toBe('3 of 10 DNS lookups: redirect=_r.redirect.test 3');
    expect((await rowsOf('after.test')).row?.detail).toBe('1 of 10 DNS lookups: mx 1');
  });

  it('has nothing to count without an SPF record, and gives no finding', async () => {
    const { row, spf } = await rowsOf('nospf.test');
    expect(row?.status).toBe('info');
    expect(row?.finding).toBeUndefined();
    expect(spf?.status).toBe('fail');
  });

  describe('when a name server does not answer', () => {
    let silent: Socket;
    beforeAll(async () => {
      silent = createSocket('udp4');
      silent.on('message', () => {});
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    });
    afterAll(() => silent?.close());

    it('stops at the total time bound and says the count is not known', async () => {
      const { walkSpf } = await import('../../src/audit/net/spf-walk.ts');
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      const walk = await walkSpf(
        'slow.test',
        'v=spf1 include:a.slow.test include:b.slow.test -all',
        createResolver([`127.0.0.1:${port}`]),
        {
          deadlineMs: 400,
        },
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(walk.incomplete).toBe('the lookups took over 400 ms in all');
      const facts = await gatherDnsFacts('nested.test', createResolver([dns.address]));
      const row = dnsEmailChecks(
        { ...facts, spfWalk: walk, spf: ['v=spf1 include:a.slow.test -all'] },
        'https://slow.test/',
      ).find((r) => r.id === 'spf-lookups');
      expect(row?.status).toBe('unverified');
      expect(row?.detail).toContain('the lookups took over 400 ms in all');
    });
  });
});
