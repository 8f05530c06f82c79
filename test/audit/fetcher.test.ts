// The audit's fetcher against fixture servers on loopback: the SSRF guard, redirects, caps, timeouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress } from '../../src/audit/net/addresses.ts';
import { createFetcher, FetchError } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site.ts';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    // Found by the attack battery (accepted as webhook endpoints): IPv4-compatible, 6to4,
    // local-use NAT64, site-local and IPv4-translated forms of non-public addresses.
    '::7f00:1',
    '::127.0.0.1',
    '2002:7f00:1::',
    '64:ff9b:1::7f00:1',
    'fec0::1',
    '::ffff:0:7f00:1',
    '2001::1',
    '[::1]',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });
  it.each([
    '93.184.216.34',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:93.184.216.34',
    '2a00:1450:4001::1',
  ])('admits %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('the fetcher', () => {
  let site: FixtureSite;
  let dns: DnsServer;

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: '<h1>home</h1>' },
      '/hop1': { status: 301, headers: { location: '/hop2' } },
      '/hop2': { status: 302, headers: { location: '/' } },
      '/loop': { status: 302, headers: { location: '/loop' } },
      '/big': { body: 'x'.repeat(50_000) },
      '/cookies': { headers: { 'set-cookie': ['a=1; Secure', 'b=2; HttpOnly'] }, body: 'ok' },
      '/slow': () => {
        // never answers
      },
      '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
      // A tarpit: headers at once, then one byte of body every 200 ms, never ending.
      '/drip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('x'), 200);
        res.on('close', () => clearInterval(timer));
      },
    });
    dns = await startDnsServer({ 'rebind.example': { A: ['127.0.0.1'] }, 'public.example': { A: ['93.184.216.34'] } });
  });
  afterAll(async () => {
    await site.close();
    await dns.close();
  });

  const local = () =>
    createFetcher({ resolver: createResolver([dns.address]), allowPrivate: true, timeoutMs: 1500, maxBytes: 10_000 });
  const hosted = () => createFetcher({ resolver: createResolver([dns.address]), allowPrivate: false, timeoutMs: 1500 });

  it('fetches a page with its status, headers, body and its own user agent', async () => {
    const fetcher = local();
    const page = await fetcher.fetch(`${site.origin}/`);
    expect(page).toMatchObject({ status: 200, body: '<h1>home</h1>', truncated: false, redirects: [] });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(site.requests.at(-1)?.userAgent).toMatch(/^siteaudit\//);
    await fetcher.close();
  });

  it('follows redirects, recording each hop', async () => {
    const page = await local().fetch(`${site.origin}/hop1`);
    expect(page.url).toBe(`${site.origin}/`);
    expect(page.redirects.map((r) => r.status)).toEqual([301, 302]);
  });

  it('stops after five redirects', async () => {
    await expect(local().fetch(`${site.origin}/loop`)).rejects.toMatchObject({ code: 'too_many_redirects' });
  });

  it('caps the body and says it did', async () => {
    const page = await local().fetch(`${site.origin}/big`);
    expect(page.truncated).toBe(true);
    expect(page.body.length).toBe(10_000);
  });

  it('keeps every Set-Cookie header', async () => {
    expect((await local().fetch(`${site.origin}/cookies`)).setCookies).toEqual(['a=1; Secure', 'b=2; HttpOnly']);
  });

  it('times out a page that never answers', async () => {
    await expect(local().fetch(`${site.origin}/slow`)).rejects.toMatchObject({ code: 'timeout' });
  });

  // Found by the attack battery: a byte every few seconds kept a fetch (and its audit) alive forever.
  it('gives a whole fetch a deadline, however steadily the body drips', async () => {
    const fetcher = createFetcher({
      resolver: createResolver([dns.address]),
      allowPrivate: true,
      timeoutMs: 1500,
      deadlineMs: 800,
    });
    const began = Date.now();
    await expect(fetcher.fetch(`${site.origin}/drip`)).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - began).toBeLessThan(2_000);
    await fetcher.close();
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'http://user:pass@example.com/', 'not a url'])(
    'refuses %s',
    async (url) => {
      await expect(local().fetch(url)).rejects.toMatchObject({ code: 'bad_url' });
    },
  );

  it('refuses a redirect to another scheme', async () => {
    await expect(local().fetch(`${site.origin}/to-file`)).rejects.toMatchObject({ code: 'bad_url' });
  });

  it('resolves through the servers SITEAUDIT_DNS_SERVERS names, by default', async () => {
    const previous = process.env.SITEAUDIT_DNS_SERVERS;
    process.env.SITEAUDIT_DNS_SERVERS = dns.address;
    try {
      expect(await createResolver().addresses('public.example')).toEqual([{ address: '93.184.216.34', family: 4 }]);
      expect(dns.queries.some((q) => q.name === 'public.example')).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.SITEAUDIT_DNS_SERVERS;
      else process.env.SITEAUDIT_DNS_SERVERS = previous;
    }
  });

  describe('on a hosted service (local targets not allowed)', () => {
    it.each([
      'http://127.0.0.1/',
      'http://localhost/',
      'http://app.localhost/',
      'http://[::1]/',
      'http://169.254.169.254/',
      'http://10.0.0.1/',
    ])('refuses %s before connecting', async (url) => {
      await expect(hosted().fetch(url)).rejects.toMatchObject({ code: 'blocked' });
    });

    it('refuses a name whose DNS answer is a loopback address, at connection time', async () => {
      const error = await hosted()
        .fetch(`http://rebind.example:${site.port}/`)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FetchError);
      expect(error).toMatchObject({ code: 'blocked' });
      expect(site.requests.some((r) => r.path === '/' && r.userAgent === undefined)).toBe(false);
    });
  });
});
