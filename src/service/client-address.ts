// The address a request came from, for throttling refused requests before authentication. Behind a
// reverse proxy every request comes from the proxy, so an operator who runs one says so
// (`serve --trust-proxy`) and the last X-Forwarded-For hop, the one the proxy added, is used instead.
import { isIP } from 'node:net';
import type { SocketHolder } from './context.ts';

/** What identifies a client: an IPv4 address, or an IPv6 /64 (one host is handed a whole /64). */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = address.includes('::') ? [...headGroups, ...Array(missing).fill('0'), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function clientAddress(
  incoming: SocketHolder | undefined,
  forwardedFor: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && forwardedFor) {
    const hop = forwardedFor.split(',').at(-1)?.trim() ?? '';
    if (isIP(hop)) return addressKey(hop);
  }
  const remote = incoming?.socket?.remoteAddress;
  return remote ? addressKey(remote) : 'unknown';
}
