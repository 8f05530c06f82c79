// The SSRF guard at connection time, as a `lookup` for net/tls/undici: a name that resolves only to
// non-public addresses is refused when the socket connects, so an answer that changes between a
// check and the connection (DNS rebinding) cannot slip through.
import type { LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { isNonPublicAddress } from './addresses.ts';
import type { AuditResolver } from './resolver.ts';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export const BLOCKED_CODE = 'ESITEAUDITBLOCKED';

export function guardedLookup(resolver: AuditResolver, allowPrivate: boolean) {
  return function lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
    resolver.addresses(hostname).then(
      (found) => {
        const usable = allowPrivate ? found : found.filter((a) => !isNonPublicAddress(a.address));
        const first = usable[0];
        if (!first) {
          callback(
            Object.assign(new Error(`refused: ${hostname} resolves only to non-public addresses`), {
              code: BLOCKED_CODE,
            }),
            '',
            0,
          );
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface GuardedAgentOptions {
  resolver: AuditResolver;
  allowPrivate: boolean;
  timeoutMs: number;
  connections: number;
  /** Extra certificate authorities (tests' own CA). */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
}

/** An undici agent whose every connection goes through the guard, with one timeout for connect, headers and body. */
export function guardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connect: {
      lookup: guardedLookup(options.resolver, options.allowPrivate) as never,
      timeout: options.timeoutMs,
      ...(options.ca ? { ca: options.ca } : {}),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: options.connections,
  });
}

/** Ports to connect to instead of the scheme's default (tests run fixture sites on free ports). */
export type PortMap = Partial<Record<'http:' | 'https:', number>>;

/** SITEAUDIT_PORT_MAP="http=18080,https=18443", a test and development hook. */
export function parsePortMap(text: string | undefined): PortMap {
  const map: PortMap = {};
  for (const part of text?.split(',') ?? []) {
    const [scheme, port] = part.split('=').map((s) => s.trim());
    if ((scheme === 'http' || scheme === 'https') && /^\d{1,5}$/.test(port ?? '')) map[`${scheme}:`] = Number(port);
  }
  return map;
}

/** The port a URL connects to, after the map. */
export function connectPort(url: URL, ports: PortMap): number {
  if (url.port) return Number(url.port);
  return ports[url.protocol as 'http:' | 'https:'] ?? (url.protocol === 'https:' ? 443 : 80);
}
