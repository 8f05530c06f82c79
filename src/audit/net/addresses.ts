// Which IP addresses an audit may connect to. A hosted service must refuse private, loopback,
// link-local and other special-purpose ranges (RFC 6890) at every hop, DNS answer and redirect
// alike, or an audit becomes a server-side request forgery into its own network.
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // ::/96 holds the unspecified address, loopback and the deprecated IPv4-compatible form
  // (::7f00:1 is 127.0.0.1 to some stacks): none is a public destination.
  ['::', 96],
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): ::ffff:0:7f00:1
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): any IPv4 behind a local translator
  ['fc00::', 7], // unique local
  ['fec0::', 10], // site-local, deprecated but still routed by some networks
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001::', 32], // Teredo: an obfuscated IPv4 address behind a relay
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['2002::', 16], // 6to4, deprecated (RFC 7526): 2002:7f00:1:: carries 127.0.0.1
  ['100::', 64], // discard
  ['5f00::', 16], // segment routing (RFC 9602)
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return undefined;
}

/** True when the address is not on the public internet (or is not an IP address at all). */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return blocked.check(bare, 'ipv4');
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

/** True for names that always mean this machine, whatever DNS says. */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a URL's host is refused before any lookup (this machine by name, or a literal non-public
 * address), or undefined. Names are judged at connection time by the lookup guard.
 */
export function literalHostRefusal(hostname: string): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isLocalHostname(host)) return `refused: ${host} is this machine`;
  if (/^[\d.]+$|:/.test(host) && isNonPublicAddress(host)) return `refused: ${host} is not a public address`;
  return undefined;
}
