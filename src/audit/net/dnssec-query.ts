// DNSSEC facts through the configured resolver. node:dns cannot ask for DS or DNSKEY, nor show the
// AD and rcode bits, so these two questions go out as raw DNS messages (dns-packet) over UDP.

import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import packet from 'dns-packet';
import type { DnssecAnswer } from './resolver.ts';

interface Reply {
  rcode: string;
  answers: number;
  authenticated: boolean;
  truncated: boolean;
}

/** `ip`, `ip:port`, `[v6]` or `[v6]:port`, as node:dns writes its servers. */
export function parseServer(server: string): { address: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { address: bracketed[1] as string, port: Number(bracketed[2] ?? 53) };
  if (isIP(server) === 6) return { address: server, port: 53 };
  const [address, port] = server.split(':');
  return { address: address as string, port: Number(port ?? 53) };
}

function ask(server: string, name: string, type: 'DS' | 'DNSKEY', checkingDisabled: boolean, timeoutMs: number) {
  const { address, port } = parseServer(server);
  const id = randomInt(0, 65536);
  // AD in a query asks a validating resolver to say whether it validated (RFC 6840 5.7); CD asks it not to.
  const flags = packet.RECURSION_DESIRED | packet.AUTHENTIC_DATA | (checkingDisabled ? packet.CHECKING_DISABLED : 0);
  const message = packet.encode({
    id,
    type: 'query',
    flags,
    questions: [{ name, type, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  });
  return new Promise<Reply>((resolve, reject) => {
    const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error(`no DNS answer from ${server} within ${timeoutMs} ms`)), timeoutMs);
    function finish(error: Error | null, reply?: Reply) {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(reply as Reply);
    }
    socket.on('error', (error) => finish(error));
    socket.on('message', (data) => {
      let decoded: packet.Packet;
      try {
        decoded = packet.decode(data);
      } catch {
        return;
      }
      if (decoded.id !== id) return;
      const bits = decoded.flags ?? 0;
      finish(null, {
        rcode: (decoded as { rcode?: string }).rcode ?? 'NOERROR',
        answers: (decoded.answers ?? []).filter((a) => a.type === type).length,
        authenticated: (bits & packet.AUTHENTIC_DATA) !== 0,
        truncated: (bits & packet.TRUNCATED_RESPONSE) !== 0,
      });
    });
    socket.send(message, port, address);
  });
}

/** How many records of the type exist: a truncated NOERROR answer has some (an empty answer always fits). */
const count = (reply: Reply) =>
  reply.truncated && reply.rcode === 'NOERROR' ? Math.max(reply.answers, 1) : reply.answers;

async function firstAnswer(servers: string[], name: string, type: 'DS' | 'DNSKEY', cd: boolean, timeoutMs: number) {
  for (const server of servers) {
    try {
      return await ask(server, name, type, cd, timeoutMs);
    } catch {
      // The next server, as a stub resolver would.
    }
  }
  return null;
}

export async function askDnssec(zone: string, servers: string[], timeoutMs = 3000): Promise<DnssecAnswer | null> {
  const [ds, dnskey] = await Promise.all([
    firstAnswer(servers, zone, 'DS', false, timeoutMs),
    firstAnswer(servers, zone, 'DNSKEY', false, timeoutMs),
  ]);
  if (!ds || !dnskey) return null;
  const failed = ds.rcode === 'SERVFAIL' || dnskey.rcode === 'SERVFAIL';
  // A validating resolver answers SERVFAIL for a zone whose signatures fail; asked with CD it answers.
  const unchecked = failed ? await firstAnswer(servers, zone, 'DNSKEY', true, timeoutMs) : null;
  if (failed && unchecked?.rcode !== 'NOERROR') return null;
  return {
    ds: count(ds),
    dnskey: failed ? count(unchecked as Reply) : count(dnskey),
    authenticated: !failed && ds.authenticated && dnskey.authenticated,
    bogus: failed,
  };
}
