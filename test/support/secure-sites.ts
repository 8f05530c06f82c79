// Fixture sites for full scans on loopback: several host names (resolved by our DNS server) served by
// one HTTPS server, with certificates from a throwaway CA chosen by SNI, and one plain HTTP server.
// Engines reach them through a port map instead of 80/443.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import type { DnsServer } from './dns-server.ts';
import { type FixtureRoute, handleFixture } from './fixture-site.ts';

export interface TestCa {
  caPem: string;
  /** A key and certificate for `names`, valid `days` days from now (an RSA key of `rsaBits`, 2048 unless told). */
  issue(names: string[], days: number, rsaBits?: number): { key: string; cert: string };
  cleanup(): void;
}

export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'siteaudit-ca-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=siteaudit test CA',
    '-days',
    '30',
  );
  let serial = 0;
  return {
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    issue(names, days, rsaBits = 2048) {
      const id = `leaf${serial++}`;
      writeFileSync(join(dir, `${id}.ext`), `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\n`);
      openssl(
        'req',
        '-newkey',
        `rsa:${rsaBits}`,
        '-nodes',
        '-keyout',
        `${id}.key`,
        '-out',
        `${id}.csr`,
        '-subj',
        `/CN=${names[0]}`,
      );
      openssl(
        'x509',
        '-req',
        '-in',
        `${id}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${id}.pem`,
        '-days',
        String(days),
        '-extfile',
        `${id}.ext`,
      );
      return { key: readFileSync(join(dir, `${id}.key`), 'utf8'), cert: readFileSync(join(dir, `${id}.pem`), 'utf8') };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface HostedSite {
  /** Routes served over HTTPS for this host. */
  https: Record<string, FixtureRoute>;
  /** Routes served over plain HTTP (e.g. the redirect to HTTPS). */
  http: Record<string, FixtureRoute>;
  /** The certificate this host presents. */
  tls: { key: string; cert: string };
}

export interface SecureSites {
  ports: { 'http:': number; 'https:': number };
  requests: Array<{ path: string; userAgent: string | undefined }>;
  close(): Promise<void>;
}

function byHost(sites: Record<string, HostedSite>, scheme: 'http' | 'https', requests: SecureSites['requests']) {
  const handlers = new Map(
    Object.entries(sites).map(([host, site]) => [host, handleFixture(new Map(Object.entries(site[scheme])), requests)]),
  );
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const handler = handlers.get(host);
    if (handler) return handler(req, res);
    res.writeHead(421, { 'content-type': 'text/plain' });
    res.end('misdirected');
  };
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** `legacyTls`: the HTTPS server also accepts TLS 1.0 and 1.1 (and weak keys), as old servers do. */
export async function startSecureSites(
  sites: Record<string, HostedSite>,
  options: { legacyTls?: boolean } = {},
): Promise<SecureSites> {
  const requests: SecureSites['requests'] = [];
  const legacy = options.legacyTls ? ({ minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } as const) : {};
  const contexts = new Map<string, SecureContext>(
    Object.entries(sites).map(([host, site]) => [host, createSecureContext({ ...site.tls, ...legacy })]),
  );
  const first = Object.values(sites)[0] as HostedSite;
  const https = createHttpsServer(
    {
      ...first.tls,
      ...legacy,
      SNICallback: (servername, done) =>
        done(null, contexts.get(servername) ?? (contexts.values().next().value as SecureContext)),
    },
    byHost(sites, 'https', requests),
  );
  const http = createHttpServer(byHost(sites, 'http', requests));
  const ports = { 'https:': await listen(https), 'http:': await listen(http) };
  return {
    ports,
    requests,
    close: async () => {
      for (const server of [https, http]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** A full website_security audit of each host over HTTPS, through the tests' DNS server, sites and CA. */
export async function auditSecureHosts(
  hosts: readonly string[],
  env: { dns: DnsServer; sites: SecureSites; ca: TestCa },
): Promise<Record<string, AuditOutcome<unknown>>> {
  const outcomes: Record<string, AuditOutcome<unknown>> = {};
  for (const host of hosts)
    outcomes[host] = await runAudit(
      'website_security',
      { url: `https://${host}/`, local: false },
      {
        allowPrivate: true,
        resolver: createResolver([env.dns.address]),
        ports: env.sites.ports,
        ca: env.ca.caPem,
        timeoutMs: 3000,
      },
    );
  return outcomes;
}
