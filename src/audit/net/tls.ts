// TLS facts from the handshake (spec 2.10 `tls`): whether the chain and the host name verify, who
// issued the certificate, to whom, and when it expires.
import { type ConnectionOptions, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
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
  /** The leaf certificate's public key: RSA with its modulus size, or EC with its curve size. */
  key?: { type: 'RSA' | 'EC' | 'other'; bits: number | null };
  /** Legacy protocol versions the server still completes a handshake with (TLSv1, TLSv1.1). */
  legacyVersions?: string[];
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

/**
 * A handshake with the site's HTTPS port through the audit's address guard. The certificate is read
 * even when it does not verify: the verdict is the socket's `authorized`.
 */
function openTls(hostname: string, options: TlsProbeOptions, extra: ConnectionOptions): TLSSocket {
  return connect({
    host: hostname,
    port: connectPort(new URL(`https://${hostname}/`), options.ports ?? {}),
    servername: hostname,
    rejectUnauthorized: false,
    lookup: guardedLookup(options.resolver, options.allowPrivate) as never,
    timeout: options.timeoutMs ?? 10_000,
    ...extra,
  });
}

export function probeTls(hostname: string, options: TlsProbeOptions): Promise<TlsProbe> {
  return new Promise((resolve) => {
    const socket = openTls(hostname, options, options.ca ? { ca: options.ca } : {});
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
      if (cert?.bits) probe.key = { type: 'RSA', bits: cert.bits };
      else if (cert?.asn1Curve || cert?.nistCurve)
        probe.key = {
          type: 'EC',
          bits: Number(/\d{3}/.exec(cert.nistCurve ?? cert.asn1Curve ?? '')?.[0] ?? 0) || null,
        };
      else if (cert?.pubkey) probe.key = { type: 'other', bits: null };
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

/** Handshake refusals that mean "this version is not offered" (alerts from the server or our side). */
const VERSION_REFUSED =
  /PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION|NO_PROTOCOLS_AVAILABLE|VERSION_TOO_LOW|ECONNRESET|HANDSHAKE_FAILURE/;

/**
 * Which of TLS 1.0 and 1.1 the server still accepts: one handshake each with only that version
 * offered (and any cipher, security level 0, so our side never refuses first). null: no verdict
 * (a timeout or another failure).
 */
export async function probeLegacyTls(hostname: string, options: TlsProbeOptions): Promise<string[] | null> {
  const offered = (version: 'TLSv1' | 'TLSv1.1') =>
    new Promise<boolean | null>((resolve) => {
      const socket = openTls(hostname, options, {
        minVersion: version,
        maxVersion: version,
        ciphers: 'DEFAULT@SECLEVEL=0',
      });
      const finish = (accepted: boolean | null) => {
        socket.destroy();
        resolve(accepted);
      };
      socket.once('secureConnect', () => finish(true));
      socket.once('timeout', () => finish(null));
      socket.once('error', (error: NodeJS.ErrnoException) =>
        finish(VERSION_REFUSED.test(`${error.code} ${error.message}`) ? false : null),
      );
    });
  const [tls10, tls11] = await Promise.all([offered('TLSv1'), offered('TLSv1.1')]);
  if (tls10 === null && tls11 === null) return null;
  return [...(tls10 ? ['TLSv1'] : []), ...(tls11 ? ['TLSv1.1'] : [])];
}
