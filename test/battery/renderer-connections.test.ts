// The renderer's own connections (issue 23): Chromium must open none. Pages are rendered as a hosted
// service renders them: the SSRF guard refuses loopback and private addresses, and the audited site
// is reachable through the audit's fetcher. Two traps listen on loopback (TCP and UDP, IPv4 and
// IPv6) and count everything that reaches them: the site as Chromium sees it lives at one
// (`http://localhost:SITE`), so Chromium reaching for the audited site by itself lands there, and
// each page points its mechanism at the other. What the renderer fetches for the site comes from a
// fixture site. One page per way a page can make Chromium connect without asking the renderer; then
// Chromium's own traffic, with a trap as its proxy, and its net log showing no name resolved.
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import {
  createChromiumRenderer,
  type Renderer,
  type SubresourceFetch,
  subresourcesFrom,
} from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback port that counts TCP connections, HTTP requests and UDP datagrams, on 127.0.0.1 and ::1. */
interface Trap {
  port: number;
  connections: number;
  datagrams: number;
  requests: string[];
  close(): Promise<void>;
}

async function startTrap(): Promise<Trap> {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  const trap: Trap = { port: 0, connections: 0, datagrams: 0, requests: [], close: async () => undefined };
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer((req, res) => {
      trap.requests.push(`${req.method} ${req.headers.host}${req.url}`);
      res.end('secret');
    });
    server.on('connection', () => trap.connections++);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(trap.port, host, resolve);
    });
    trap.port = (server.address() as AddressInfo).port;
    servers.push(server);
    const udp = createSocket(host === '::1' ? 'udp6' : 'udp4');
    udp.on('message', () => trap.datagrams++);
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(trap.port, host, resolve);
    });
    sockets.push(udp);
  }
  trap.close = async () => {
    for (const udp of sockets) udp.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  };
  return trap;
}

interface Mechanism {
  /** The page's body; `TRAP` is the trap's host:port, `SITE` the site's origin. */
  body: string;
  headers?: Record<string, string>;
  /** The page leaves itself: its rendered DOM is another page's. */
  navigates?: true;
}

const specRules = (rules: unknown) => `<script type="speculationrules">${JSON.stringify(rules)}</script>`;
const rtc = (server: Record<string, string>) =>
  `<script>const pc = new RTCPeerConnection({ iceServers: [${JSON.stringify(server)}] });
   pc.createDataChannel('x'); pc.createOffer().then((offer) => pc.setLocalDescription(offer));</script>`;
const TURN = { username: 'u', credential: 'p' };

/** Every way found for a page to make Chromium connect on its own. */
const MECHANISMS: Record<string, Mechanism> = {
  'the audited page itself (Chromium preconnects to a page it opens)': { body: '<p>Nothing else.</p>' },
  'speculation rules: prefetch of a loopback address (the issue)': {
    body: specRules({ prefetch: [{ source: 'list', urls: ['http://TRAP/x'] }] }),
  },
  'speculation rules: prefetch by name (localhost)': {
    body: specRules({ prefetch: [{ source: 'list', urls: ['http://localhost:PORT/x'] }] }),
  },
  'speculation rules: prefetch of an IPv6 loopback address': {
    body: specRules({ prefetch: [{ source: 'list', urls: ['http://[::1]:PORT/x'] }] }),
  },
  'speculation rules: eager document rules on the site': {
    body: `<a href="/next">Next</a>${specRules({ prefetch: [{ where: { href_matches: '/*' }, eagerness: 'immediate' }] })}`,
  },
  'speculation rules: prerender on the site': {
    body: specRules({ prerender: [{ source: 'list', urls: ['/next'] }] }),
  },
  'speculation rules from a Speculation-Rules header': {
    body: '<p>Rules in a header.</p>',
    headers: { 'speculation-rules': '"/rules.json"' },
  },
  '<link rel=prefetch>': { body: '<link rel="prefetch" href="http://TRAP/prefetch">' },
  '<link rel=preconnect>': { body: '<link rel="preconnect" href="http://TRAP">' },
  '<link rel=preconnect> to a *.localhost name': { body: '<link rel="preconnect" href="http://trap.localhost:PORT">' },
  '<link rel=dns-prefetch>': { body: '<link rel="dns-prefetch" href="http://TRAP">' },
  '<link rel=preload>': { body: '<link rel="preload" as="image" href="http://TRAP/preload.png">' },
  '<link rel=modulepreload>': { body: '<link rel="modulepreload" href="http://TRAP/module.js">' },
  '<link rel=prerender>': { body: '<link rel="prerender" href="http://TRAP/prerender">' },
  'a Link header: preconnect and preload': {
    body: '<p>Hints in a header.</p>',
    headers: { link: '<http://TRAP>; rel=preconnect, <http://TRAP/hint.png>; rel=preload; as=image' },
  },
  'WebRTC: STUN': { body: rtc({ urls: 'stun:TRAP' }) },
  'WebRTC: TURN over UDP': { body: rtc({ urls: 'turn:TRAP?transport=udp', ...TURN }) },
  'WebRTC: TURN over TCP': { body: rtc({ urls: 'turn:TRAP?transport=tcp', ...TURN }) },
  'WebRTC: TURN over TLS': { body: rtc({ urls: 'turns:TRAP?transport=tcp', ...TURN }) },
  'a service worker': {
    body: `<script>navigator.serviceWorker?.register('/sw.js').catch(() => {});</script>`,
  },
  'navigator.sendBeacon': { body: `<script>navigator.sendBeacon('http://TRAP/beacon', 'x');</script>` },
  'fetch with keepalive': {
    body: `<script>fetch('http://TRAP/keepalive', { method: 'POST', body: 'x', keepalive: true }).catch(() => {});</script>`,
  },
  EventSource: { body: `<script>new EventSource('http://TRAP/events');</script>` },
  WebSocket: { body: `<script>new WebSocket('ws://TRAP/socket');</script>` },
  WebTransport: {
    body: `<script>try { new WebTransport('https://TRAP/transport').ready.catch(() => {}); } catch {}</script>`,
  },
  'a dedicated worker': { body: `<script>new Worker('/worker.js');</script>` },
  'a shared worker': { body: `<script>new SharedWorker('/shared.js');</script>` },
  'a hyperlink ping': {
    body: `<a id="ping" href="/next" ping="http://TRAP/ping">Next</a><script>document.getElementById('ping').click();</script>`,
    navigates: true,
  },
  'a popup (window.open)': { body: `<script>window.open('http://TRAP/popup');</script>` },
  'a new window from a target=_blank link': {
    body: `<a id="blank" href="http://TRAP/blank" target="_blank">New</a><script>document.getElementById('blank').click();</script>`,
  },
  'an iframe': { body: '<iframe src="http://TRAP/frame"></iframe>' },
  'a form submitted by script': {
    body: `<form id="f" method="post" action="http://TRAP/form"></form><script>document.getElementById('f').submit();</script>`,
    navigates: true,
  },
  'a meta refresh': { body: '<meta http-equiv="refresh" content="0;url=http://TRAP/refresh">', navigates: true },
  'CSS: @import, a background and a font': {
    body: `<style>@import url(http://TRAP/import.css); body { background: url(http://TRAP/bg.png); }
      @font-face { font-family: trap; src: url(http://TRAP/font.woff2); } p { font-family: trap; }</style><p>Styled.</p>`,
  },
};

describe.skipIf(!hasChromium)('battery: the renderer opens no connection of its own', () => {
  let target: Trap;
  let origin: Trap;
  let site: FixtureSite;
  let dns: DnsServer;
  let renderer: Renderer;
  let SITE: string;
  const fill = (text: string) =>
    text
      .replaceAll('TRAP', `127.0.0.1:${target.port}`)
      .replaceAll('PORT', String(target.port))
      .replaceAll('SITE', SITE);

  beforeAll(async () => {
    target = await startTrap();
    origin = await startTrap();
    SITE = `http://localhost:${origin.port}`;
    dns = await startDnsServer({});
    const script = () => ({
      headers: { 'content-type': 'text/javascript' },
      body: fill(`fetch('http://TRAP/from-script').catch(() => {}); try { new WebSocket('ws://TRAP/ws'); } catch {}`),
    });
    site = await startFixtureSite({
      '/next': { body: html('<title>Next</title>', '<h1>Next</h1>') },
      '/rules.json': {
        headers: { 'content-type': 'application/speculationrules+json' },
        body: fill(JSON.stringify({ prefetch: [{ source: 'list', urls: ['http://TRAP/from-header'] }] })),
      },
      '/sw.js': script(),
      '/worker.js': script(),
      '/shared.js': script(),
    });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM, limits: { pageDeadlineMs: 6000 } });
  });
  afterAll(async () => {
    await renderer?.close();
    await site?.close();
    await dns?.close();
    await target?.close();
    await origin?.close();
  });

  /**
   * As a hosted service fetches for a page: the guard refuses every non-public address; the site's own
   * URLs are answered by the fixture site, standing in for a public site the guard lets through.
   */
  function hostedFetch(): { fetch: SubresourceFetch; close(): Promise<void> } {
    const resolver = createResolver([dns.address]);
    const guardedFetcher = createFetcher({ resolver, allowPrivate: false, timeoutMs: 2000 });
    const siteFetcher = createFetcher({ resolver, allowPrivate: true, timeoutMs: 2000 });
    const viaGuard = subresourcesFrom(guardedFetcher);
    const viaSite = subresourcesFrom(siteFetcher);
    return {
      async fetch(url, accept, signal) {
        const parsed = new URL(url);
        if (parsed.origin !== SITE) return await viaGuard(url, accept, signal);
        const answer = await viaSite(`${site.origin}${parsed.pathname}${parsed.search}`, accept, signal);
        return { ...answer, requestedUrl: url, url };
      },
      close: async () => {
        await guardedFetcher.close();
        await siteFetcher.close();
      },
    };
  }

  const counts = () => ({
    connections: target.connections + origin.connections,
    datagrams: target.datagrams + origin.datagrams,
    requests: [...target.requests, ...origin.requests],
  });

  it.each(Object.entries(MECHANISMS))('%s: nothing reaches the traps', async (_name, mechanism) => {
    const before = counts();
    const { fetch, close } = hostedFetch();
    const session = await renderer.session(fetch);
    try {
      const page = await session.render({
        url: `${SITE}/`,
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', ...mechanism.headers },
        body: html(
          '<title>Mechanism</title>',
          `${fill(mechanism.body)}<script>document.body.dataset.ran = 'yes';</script>`,
        ),
      });
      expect(page.error).toBeUndefined();
      // The page's scripts ran to the end (a mechanism that threw would not have been tried).
      if (!mechanism.navigates) expect(page.html?.includes('data-ran="yes"')).toBe(true);
      // What a page starts may land after load: give it a moment before the window closes.
      await sleep(800);
    } finally {
      await session.close();
      await close();
    }
    await sleep(200);
    const after = counts();
    expect({
      connections: after.connections - before.connections,
      datagrams: after.datagrams - before.datagrams,
      requests: after.requests.slice(before.requests.length),
    }).toEqual({ connections: 0, datagrams: 0, requests: [] });
  });

  it("sends none of Chromium's own traffic: told to use a trap as its proxy, nothing reaches it", async () => {
    const proxy = await startTrap();
    const proxied = createChromiumRenderer({
      executablePath: CHROMIUM,
      chromiumArgs: [`--proxy-server=http://127.0.0.1:${proxy.port}`, '--proxy-bypass-list=<-loopback>'],
    });
    const { fetch, close } = hostedFetch();
    try {
      const session = await proxied.session(fetch);
      const page = await session.render({
        url: `${SITE}/`,
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html('<title>Proxied</title>', fill(MECHANISMS['<link rel=preconnect>']?.body ?? '')),
      });
      expect(page.error).toBeUndefined();
      // Update and account checks start within seconds of launch.
      await sleep(4000);
      await session.close();
    } finally {
      await proxied.close();
      await close();
      await proxy.close();
    }
    expect({ connections: proxy.connections, datagrams: proxy.datagrams, requests: proxy.requests }).toEqual({
      connections: 0,
      datagrams: 0,
      requests: [],
    });
  }, 30_000);

  it('resolves no name: its net log records no DNS query, no system lookup and no TCP connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteaudit-netlog-'));
    const log = join(dir, 'net.json');
    const logged = createChromiumRenderer({ executablePath: CHROMIUM, chromiumArgs: [`--log-net-log=${log}`] });
    const { fetch, close } = hostedFetch();
    try {
      const session = await logged.session(fetch);
      const page = await session.render({
        url: 'https://www.public.test/',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: html(
          '<title>Names</title>',
          `${specRules({ prefetch: [{ source: 'list', urls: ['https://www.public.test/next', 'https://other.test/'] }] })}
           <link rel="preconnect" href="https://cdn.public.test"><link rel="dns-prefetch" href="https://dns.public.test">
           <img src="https://img.public.test/a.png" alt="a">`,
        ),
      });
      expect(page.error).toBeUndefined();
      await sleep(3000);
      await session.close();
      // The log is complete once the browser has exited.
      await logged.close();
      const events = netLogEvents(readFileSync(log, 'utf8'));
      const seen = (type: string) => events.filter((e) => e.type === type);
      expect({
        dnsQueries: seen('DNS_TRANSACTION').length,
        systemLookups: seen('HOST_RESOLVER_SYSTEM_TASK').length,
        resolverJobs: seen('HOST_RESOLVER_MANAGER_JOB').length,
        tcpConnects: seen('TCP_CONNECT_ATTEMPT').map((e) => e.params?.address),
      }).toEqual({ dnsQueries: 0, systemLookups: 0, resolverJobs: 0, tcpConnects: [] });
      // Names were asked for, and each was answered "not found" without a lookup.
      expect(seen('HOST_RESOLVER_MANAGER_REQUEST').length).toBeGreaterThan(0);
    } finally {
      await logged.close();
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

/** A Chromium net log's events, with their type names. */
function netLogEvents(text: string): Array<{ type: string; params?: Record<string, unknown> }> {
  const log = JSON.parse(text) as {
    constants: { logEventTypes: Record<string, number> };
    events: Array<{ type: number; params?: Record<string, unknown> }>;
  };
  const names = new Map(Object.entries(log.constants.logEventTypes).map(([name, id]) => [id, name]));
  return log.events.map((e) => ({ type: names.get(e.type) ?? String(e.type), params: e.params }));
}
