// TLS facts from the handshake (spec 2.10 `tls`): whether the chain and the host name verify, who
// issued the certificate, to whom, and when it expires.
import { connect, type PeerCertificate } from 'node:tls';
import { connectPort, guardedLookup, type PortMap } from './lookup.ts';
import type { AuditResolver } from './resolver.ts';

export interface TlsProbe {
  valid: boolean;
  issuer?: string;
  subject?: string;
  validTo?: string;
  daysUntilExpiry?: number;
  protocol?: string;
  error?: string;
}

export interface TlsProbeOptions {
  resolver: AuditResolver;
  allowPrivate: boolean;
  ca?: string | string[];
  ports?: PortMap;
  timeoutMs?: number;
  now?: Date;
}

const name = (entity: PeerCertificate['subject'] | undefined) => {
  const value = entity?.CN ?? entity?.O;
  return Array.isArray(value) ? value.join(', ') : value;
};

export function probeTls(hostname: string, options: TlsProbeOptions): Promise<TlsProbe> {
  const port = connectPort(new URL(`https://${hostname}/`), options.ports ?? {});
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname,
      port,
      servername: hostname,
      // Read the certificate even when it does not verify; the verdict is `authorized` below.
      rejectUnauthorized: false,
      lookup: guardedLookup(options.resolver, options.allowPrivate) as never,
      ...(options.ca ? { ca: options.ca } : {}),
      timeout: options.timeoutMs ?? 10_000,
    });
    const finish = (probe: TlsProbe) => {
      socket.destroy();
      resolve(probe);
    };
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const validTo = cert?.valid_to ? new Date(cert.valid_to) : undefined;
      const now = options.now ?? new Date();
      const probe: TlsProbe = { valid: socket.authorized };
      const issuer = name(cert?.issuer);
      const subject = name(cert?.subject);
      if (issuer) probe.issuer = issuer;
      if (subject) probe.subject = subject;
      if (validTo && !Number.isNaN(validTo.getTime())) {
        probe.validTo = validTo.toISOString();
        probe.daysUntilExpiry = Math.floor((validTo.getTime() - now.getTime()) / 86_400_000);
      }
      const protocol = socket.getProtocol();
      if (protocol) probe.protocol = protocol;
      if (!socket.authorized && socket.authorizationError) probe.error = String(socket.authorizationError);
      finish(probe);
    });
    socket.once('timeout', () => finish({ valid: false, error: 'TLS handshake timed out' }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({ valid: false, error: error.code ?? error.message }),
    );
  });
}
