// DMARC for subdomains (issue 10): with no record at `_dmarc.<host>`, the organizational domain's
// record applies (RFC 7489 6.6.3, found through the Public Suffix List), with its sp= if it has one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsEmailChecks } from '../../src/audit/checks/security/dns-email.ts';
import { gatherDnsFacts } from '../../src/audit/net/dns-facts.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    '_dmarc.acme.test': { TXT: ['v=DMARC1; p=reject'] },
    '_dmarc.loose.test': { TXT: ['v=DMARC1; p=reject; sp=none'] },
    '_dmarc.own.acme.test': { TXT: ['v=DMARC1; p=quarantine'] },
  });
});
afterAll(async () => {
  await dns?.close();
});

const dmarcRow = async (host: string) => {
  const facts = await gatherDnsFacts(host, createResolver([dns.address]));
  return { facts, row: dnsEmailChecks(facts, `https://${host}/`).find((r) => r.id === 'dmarc') };
};

describe('DMARC with the organizational-domain fallback', () => {
  it('a subdomain is covered by its organizational domain’s record', async () => {
    const { facts, row } = await dmarcRow('shop.acme.test');
    expect(facts.dmarcAt).toBe('acme.test');
    expect(row?.status).toBe('pass');
    expect(row?.detail).toContain('from _dmarc.acme.test, the organizational domain');
  });

  it('the sp= tag governs subdomains', async () => {
    const { row } = await dmarcRow('app.loose.test');
    expect(row?.status).toBe('fail');
    expect(row?.severity).toBe('low');
    expect(row?.finding?.agentAction).toContain('sp=none');
  });

  it('a record at the name itself wins', async () => {
    const { facts, row } = await dmarcRow('own.acme.test');
    expect(facts.dmarcAt).toBe('own.acme.test');
    expect(row?.detail).toBe('v=DMARC1; p=quarantine');
  });

  it('asks no MX or SPF of a web-only subdomain, and still asks them of the organizational domain', async () => {
    const sub = await gatherDnsFacts('shop.acme.test', createResolver([dns.address]));
    const rows = dnsEmailChecks(sub, 'https://shop.acme.test/');
    for (const id of ['mx-records', 'spf']) {
      const row = rows.find((r) => r.id === id);
      expect(row?.status, id).toBe('info');
      expect(row?.finding).toBeUndefined();
      expect(row?.detail).toContain('web-only subdomain of acme.test');
    }
    const org = dnsEmailChecks(await gatherDnsFacts('acme.test', createResolver([dns.address])), 'https://acme.test/');
    expect(org.find((r) => r.id === 'mx-records')?.status).toBe('fail');
    expect(org.find((r) => r.id === 'spf')?.status).toBe('fail');
  });

  it('no record anywhere is still a failure', async () => {
    const { facts, row } = await dmarcRow('www.nothing.test');
    expect(facts.dmarcAt).toBeNull();
    expect(row?.status).toBe('fail');
  });
});
