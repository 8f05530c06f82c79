// A website made of the inputs that once stalled an audit's process (issue 22), served on loopback
// as `hostile.test` (our own DNS server answers 127.0.0.1): a robots.txt with a wildcard bomb and
// long lines of the shape that made its line parser quadratic, a sitemap near the fetch cap, a page
// of 50,000 links, 2 MB of nested markup, deep nesting, and visible text shaped against the contact
// patterns. Served over HTTPS with a certificate of our own test CA. The test of issue 22 and
// `npm run bench -- hostile` both audit it.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { type DnsServer, startDnsServer } from './dns-server.ts';
import { html } from './fixture-site.ts';
import { createTestCa, type SecureSites, startSecureSites, type TestCa } from './secure-sites.ts';

export const HOSTILE_HOST = 'hostile.test';
const FETCH_CAP = 2 * 1024 * 1024;
/** A path of `a`s that a wildcard rule tries at every split (60 characters, as measured in the issue). */
export const BOMB_PATH = `/${'a'.repeat(59)}`;

export interface HostileSite {
  sites: SecureSites;
  dns: DnsServer;
  ca: TestCa;
  /** The start URL, `https://hostile.test/`. */
  url: string;
  /** Engine options that reach it: our DNS server, the sites' ports and our CA. */
  engine: {
    resolver: ReturnType<typeof createResolver>;
    ports: SecureSites['ports'];
    ca: string;
    allowPrivate: true;
  };
  close(): Promise<void>;
}

/** Seven `*`: seconds per path for a backtracking matcher, nothing for a linear one. */
export function wildcardBombRobots(): string {
  const lines = [
    'User-agent: *',
    'Disallow: /*a*a*a*a*a*a*b',
    'Disallow: /private/',
    `Sitemap: https://${HOSTILE_HOST}/sitemap.xml`,
  ];
  // Long lines whose value ends after a run of white space: a lazy value pattern followed by `\s*$`
  // rescans the run at every position. Up to just under the 512 KiB a robots.txt is read to.
  const long = `Disallow: /x${' '.repeat(16_000)}y`;
  let text = `${lines.join('\n')}\n`;
  while (text.length + long.length + 1 < 500 * 1024) text += `${long}\n`;
  return text;
}

/** A list of `count` links, one page. */
export function linksPage(count: number): string {
  let items = '';
  for (let i = 0; i < count; i++) items += `<li><a href="/l/${i}">${i}</a></li>`;
  return html('<title>Every link</title>', `<main><h1>Links</h1><ul>${items}</ul></main>`);
}

/** Unclosed nested elements up to about `bytes`. */
export function nestedPage(bytes: number): string {
  const unit = '<div class="x"><span><b><i>';
  return html('<title>Nested</title>', unit.repeat(Math.floor(bytes / unit.length)));
}

/** Text shaped against phone and email patterns: long digit runs, separators, at signs, dots. */
export function contactBaitPage(bytes: number): string {
  const unit = '+1 (555) 12 34 56 78 90 12 34 a@b.c.d.e.f.g.h.i.j.k tel: 1-2-3-4-5-6-7-8-9 @@@@ ....... ';
  return html(
    '<title>Contacts</title>',
    `<main><h1>Call</h1><p>${unit.repeat(Math.floor(bytes / unit.length))}</p></main>`,
  );
}

function sitemap(bytes: number): string {
  let body = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
  for (let i = 0; body.length < bytes - 200; i++) body += `<url><loc>https://${HOSTILE_HOST}/s/${i}</loc></url>`;
  return `${body}</urlset>`;
}

export async function startHostileSite(): Promise<HostileSite> {
  const near = FETCH_CAP - 64 * 1024;
  const ca = createTestCa();
  const routes = {
    '/': {
      body: html(
        '<title>Hostile</title><meta name="description" content="A site of pathological inputs.">',
        `<main><h1>Hostile</h1><a href="/links">Links</a> <a href="/nested">Nested</a> <a href="/contacts">Contacts</a>
        <a href="${BOMB_PATH}">Bomb one</a> <a href="${BOMB_PATH}b">Bomb two</a></main>`,
      ),
    },
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: wildcardBombRobots() },
    '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap(near) },
    '/links': { body: linksPage(50_000) },
    '/nested': { body: nestedPage(near) },
    '/contacts': { body: contactBaitPage(near) },
  };
  const sites = await startSecureSites({
    [HOSTILE_HOST]: {
      tls: ca.issue([HOSTILE_HOST], 30),
      https: routes,
      http: { '/': { status: 301, headers: { location: `https://${HOSTILE_HOST}/` } } },
    },
  });
  const dns = await startDnsServer({ [HOSTILE_HOST]: { A: ['127.0.0.1'] } });
  return {
    sites,
    dns,
    ca,
    url: `https://${HOSTILE_HOST}/`,
    engine: { resolver: createResolver([dns.address]), ports: sites.ports, ca: ca.caPem, allowPrivate: true },
    async close() {
      await sites.close();
      await dns.close();
      ca.cleanup();
    },
  };
}

/** The hostile site as the service under test meets it: elsewhere, its own CPU not the service's. */
export interface HostileSiteApart {
  url: string;
  /** The DNS server's `host:port`, for a service in a process of its own. */
  dnsAddress: string;
  caPem: string;
  engine: HostileSite['engine'];
  /** The paths the site was asked for, so far. */
  requests(): Promise<SecureSites['requests']>;
  close(): Promise<void>;
}

/**
 * The hostile site served from a thread of its own. A test that measures how the service's event loop
 * holds up must not also count the site's work on it (TLS over 8 MB of pages, its DNS answers): a
 * real audited site runs on another machine.
 */
export async function startHostileSiteApart(): Promise<HostileSiteApart> {
  const worker = new Worker(new URL('./hostile-site-thread.ts', import.meta.url));
  const [ready] = (await once(worker, 'message')) as [{ dns: string; ports: SecureSites['ports']; ca: string }];
  const ask = async <T>(message: string, key: string): Promise<T> => {
    worker.postMessage(message);
    for (;;) {
      const [answer] = (await once(worker, 'message')) as [Record<string, unknown>];
      if (key in answer) return answer[key] as T;
    }
  };
  return {
    url: `https://${HOSTILE_HOST}/`,
    dnsAddress: ready.dns,
    caPem: ready.ca,
    engine: { resolver: createResolver([ready.dns]), ports: ready.ports, ca: ready.ca, allowPrivate: true },
    requests: () => ask('requests', 'requests'),
    async close() {
      await ask('close', 'closed');
      await worker.terminate();
    },
  };
}
