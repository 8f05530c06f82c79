// A DNS server of our own on loopback (UDP), answering A, AAAA, MX, TXT, CAA, DS and DNSKEY from a
// table, so the audit's resolver can be pointed at it (SITEAUDIT_DNS_SERVERS) and no test asks the
// real DNS. A zone may play a validating resolver's verdicts: validated (AD) or bogus (SERVFAIL
// unless the query sets CD).
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import packet from 'dns-packet';

export interface Zone {
  A?: string[];
  AAAA?: string[];
  MX?: Array<{ exchange: string; preference: number }>;
  TXT?: string[];
  CAA?: Array<{ tag: 'issue' | 'issuewild' | 'iodef'; value: string; flags?: number }>;
  /** DS digests (hex) as the parent publishes them. */
  DS?: string[];
  /** DNSKEY public keys (base64). */
  DNSKEY?: string[];
  /** Answers carry AD, as a validating resolver's do for a zone that validates. */
  validated?: boolean;
  /** SERVFAIL unless checking is disabled, as a validating resolver answers for a bogus zone. */
  bogus?: boolean;
}

export interface DnsServer {
  /** `127.0.0.1:port`, for SITEAUDIT_DNS_SERVERS. */
  address: string;
  zones: Map<string, Zone>;
  queries: Array<{ name: string; type: string }>;
  close(): Promise<void>;
}

/** A TXT string longer than 255 bytes goes out as several character-strings, as DKIM keys do. */
const chunks = (text: string) => text.match(/.{1,255}/gs) ?? [''];

export async function startDnsServer(zones: Record<string, Zone> = {}): Promise<DnsServer> {
  const table = new Map(Object.entries(zones).map(([name, zone]) => [name.toLowerCase(), zone]));
  const queries: DnsServer['queries'] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push({ name, type: question.type });
    const zone = table.get(name);
    const answers: packet.Answer[] = [];
    const ttl = 60;
    const checkingDisabled = ((query.flags ?? 0) & packet.CHECKING_DISABLED) !== 0;
    if (zone?.bogus && !checkingDisabled) {
      const refusal = packet.encode({
        id: query.id,
        type: 'response',
        flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | 2, // rcode 2: SERVFAIL
        questions: query.questions,
      });
      socket.send(refusal, remote.port, remote.address);
      return;
    }
    if (zone) {
      if (question.type === 'DS')
        for (const digest of zone.DS ?? [])
          answers.push({
            type: 'DS',
            name,
            ttl,
            data: { keyTag: 12345, algorithm: 13, digestType: 2, digest: Buffer.from(digest, 'hex') },
          });
      if (question.type === 'DNSKEY')
        for (const key of zone.DNSKEY ?? [])
          answers.push({
            type: 'DNSKEY',
            name,
            ttl,
            data: { flags: 257, algorithm: 13, key: Buffer.from(key, 'base64') },
          });
      if (question.type === 'A') for (const data of zone.A ?? []) answers.push({ type: 'A', name, ttl, data });
      if (question.type === 'AAAA') for (const data of zone.AAAA ?? []) answers.push({ type: 'AAAA', name, ttl, data });
      if (question.type === 'MX') for (const data of zone.MX ?? []) answers.push({ type: 'MX', name, ttl, data });
      if (question.type === 'TXT')
        for (const data of zone.TXT ?? []) answers.push({ type: 'TXT', name, ttl, data: chunks(data) });
      if (question.type === 'CAA') {
        for (const caa of zone.CAA ?? [])
          answers.push({
            type: 'CAA',
            name,
            ttl,
            data: { flags: caa.flags ?? 0, tag: caa.tag, value: caa.value, issuerCritical: false },
          });
      }
    }
    const response = packet.encode({
      id: query.id,
      type: 'response',
      flags:
        packet.RECURSION_DESIRED |
        packet.RECURSION_AVAILABLE |
        (zone?.validated ? packet.AUTHENTIC_DATA : 0) |
        (zone ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    zones: table,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
