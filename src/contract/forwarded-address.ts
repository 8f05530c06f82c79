// An MCP server naming the address of the client it serves (issue 23). The service throttles refused
// keys by client address, and every request `mcp --http` makes comes from its own address, so its
// clients' refusals would be pooled into one budget: junk from one client would lock every new key
// out. With a secret the two share, the MCP server names its client's address in a header signed
// together with the Authorization header it sends; the service believes the address only when the
// signature holds, so no one else can claim an address, and a header seen once cannot be replayed
// with another key.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export const CLIENT_ADDRESS_HEADER = 'siteaudit-client-address';
/** Environment variable holding the secret shared by `serve` and `mcp --http` of one deployment. */
export const MCP_SECRET_ENV = 'SITEAUDIT_MCP_SECRET';
/** A shared secret shorter than this is refused: it must not be guessable. */
export const MIN_MCP_SECRET_LENGTH = 32;

const mac = (secret: string, address: string, authorization: string) =>
  createHmac('sha256', secret).update(`${address}\n${authorization}`).digest('base64url');

/** The header's value: `<address>; sig=<base64url HMAC-SHA256 of "address\nauthorization">`. */
export function vouchForAddress(secret: string, address: string, authorization: string): string {
  return `${address}; sig=${mac(secret, address, authorization)}`;
}

/** The address a header names, when it is an IP address signed with `secret` for this Authorization. */
export function vouchedAddress(
  secret: string | undefined,
  value: string | undefined,
  authorization: string | undefined,
): string | undefined {
  if (!secret || !value || value.length > 200) return undefined;
  const separator = value.indexOf('; sig=');
  if (separator < 0) return undefined;
  const address = value.slice(0, separator);
  if (!isIP(address)) return undefined;
  const given = Buffer.from(value.slice(separator + 6));
  const expected = Buffer.from(mac(secret, address, authorization ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
}

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

/** The address of a client behind a reverse proxy: the last X-Forwarded-For hop, the one the proxy added. */
export function lastForwardedHop(forwardedFor: string | undefined): string | undefined {
  const hop = forwardedFor?.split(',').at(-1)?.trim() ?? '';
  return isIP(hop) ? hop : undefined;
}
