// `dig +short TYPE NAME` for the verify-line test (test/audit/verify-lines.test.ts), where the
// machine has no dig: the same question sent over UDP to the tests' DNS server (VERIFY_DNS,
// 127.0.0.1:port), the answer printed as dig +short prints it (one record a line, TXT strings quoted,
// names with their final dot). Only what the verify lines ask: A, AAAA, MX, TXT, CAA, DS, DNSKEY.
import { createSocket } from 'node:dgram';
import packet from 'dns-packet';

const TYPES = new Set(['A', 'AAAA', 'MX', 'TXT', 'CAA', 'DS', 'DNSKEY']);
const args = process.argv.slice(2).filter((a) => !a.startsWith('+'));
const type = args.find((a) => TYPES.has(a.toUpperCase()))?.toUpperCase() ?? 'A';
const name = args.find((a) => !TYPES.has(a.toUpperCase()) && !a.startsWith('@'));
const [host = '127.0.0.1', port = '53'] = (process.env.VERIFY_DNS ?? '').split(':');
if (!name) {
  process.stderr.write('usage: dig +short TYPE NAME\n');
  process.exit(1);
}

const dot = (n: string) => (n === '' || n === '.' ? '.' : n.endsWith('.') ? n : `${n}.`);
const quoted = (s: Buffer | string) => `"${String(s).replaceAll('"', '\\"')}"`;

function line(answer: packet.Answer): string | undefined {
  const data = (answer as { data: unknown }).data;
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return String(data);
    case 'MX': {
      const mx = data as { preference: number; exchange: string };
      return `${mx.preference} ${dot(mx.exchange)}`;
    }
    case 'TXT':
      return (Array.isArray(data) ? data : [data]).map((s) => quoted(s as Buffer)).join(' ');
    case 'CAA': {
      const caa = data as { flags: number; tag: string; value: string };
      return `${caa.flags} ${caa.tag} ${quoted(caa.value)}`;
    }
    case 'DS': {
      const ds = data as { keyTag: number; algorithm: number; digestType: number; digest: Buffer };
      return `${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toString('hex').toUpperCase()}`;
    }
    case 'DNSKEY': {
      const key = data as { flags: number; algorithm: number; key: Buffer };
      return `${key.flags} 3 ${key.algorithm} ${key.key.toString('base64')}`;
    }
    default:
      return undefined;
  }
}

const socket = createSocket('udp4');
const timer = setTimeout(() => {
  process.stdout.write(';; connection timed out; no servers could be reached\n');
  process.exit(9);
}, 3000);
socket.on('message', (message) => {
  clearTimeout(timer);
  const answer = packet.decode(message);
  for (const record of answer.answers ?? []) {
    if (record.type !== type) continue;
    const text = line(record);
    if (text !== undefined) process.stdout.write(`${text}\n`);
  }
  socket.close();
});
const query = packet.encode({
  type: 'query',
  id: Math.floor(Math.random() * 65535),
  flags: packet.RECURSION_DESIRED,
  questions: [{ type: type as packet.RecordType, name: name.replace(/\.$/, '') }],
});
socket.send(query, Number(port), host);
