// The mail-security records a static audit can read: DNS tag lists (MTA-STS, TLS-RPT, DKIM), the
// MTA-STS policy file (RFC 8461 3.2) and its MX patterns, and the size of a DKIM public key.
import { createPublicKey } from 'node:crypto';

/** `k=v; k=v` tag lists (RFC 6376 3.2, reused by RFC 8461 3.1 and RFC 8460 3): names lower-cased, first wins. */
export function parseTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    if (!tags.has(name)) tags.set(name, part.slice(at + 1).trim());
  }
  return tags;
}

export interface MtaStsPolicy {
  version?: string;
  mode?: string;
  maxAge?: number;
  mx: string[];
  /** What makes senders reject the policy (RFC 8461 3.2). */
  problems: string[];
}

const MAX_AGE_LIMIT = 31_557_600;

/** The policy file's `key: value` lines; senders ignore the policy when a required field is wrong. */
export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { mx: [], problems: [] };
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (key === 'version' && policy.version === undefined) policy.version = value;
    else if (key === 'mode' && policy.mode === undefined) policy.mode = value;
    else if (key === 'max_age' && policy.maxAge === undefined)
      policy.maxAge = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    else if (key === 'mx') policy.mx.push(value.toLowerCase().replace(/\.$/, ''));
  }
  if (policy.version !== 'STSv1')
    policy.problems.push(`version is ${policy.version ? `"${policy.version}"` : 'missing'} (must be STSv1)`);
  if (!['enforce', 'testing', 'none'].includes(policy.mode ?? ''))
    policy.problems.push(`mode is ${policy.mode ? `"${policy.mode}"` : 'missing'} (enforce, testing or none)`);
  if (policy.maxAge === undefined) policy.problems.push('max_age is missing');
  else if (!Number.isInteger(policy.maxAge) || policy.maxAge > MAX_AGE_LIMIT)
    policy.problems.push(`max_age is not a number of seconds up to ${MAX_AGE_LIMIT}`);
  if (policy.mode !== 'none' && policy.mx.length === 0) policy.problems.push('no mx lines');
  return policy;
}

/** RFC 8461 4.1: a pattern is a host name, or `*.` and a name standing for exactly one more label. */
export function mxMatches(pattern: string, exchange: string): boolean {
  const host = exchange.toLowerCase().replace(/\.$/, '');
  if (!pattern.startsWith('*.')) return pattern === host;
  const rest = pattern.slice(2);
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === rest;
}

/** RFC 8461 3.1: `v=STSv1; id=` with an id of 1 to 32 letters and digits. */
export function mtaStsRecordProblem(record: string): string | undefined {
  const id = parseTags(record).get('id');
  if (id === undefined) return 'the record has no id';
  return /^[A-Za-z0-9]{1,32}$/.test(id) ? undefined : `the id "${id}" is not 1 to 32 letters and digits`;
}

/** RFC 8460 3: `v=TLSRPTv1; rua=` with mailto: or https: addresses, comma-separated. */
export function tlsRptRecordProblem(record: string): string | undefined {
  const rua = parseTags(record).get('rua');
  if (!rua) return 'the record has no rua= address for reports';
  const bad = rua.split(',').filter((uri) => !/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/i.test(uri.trim()));
  return bad.length > 0 ? `rua has addresses that are neither mailto: nor https: (${bad.join(', ')})` : undefined;
}

export interface DkimKey {
  /** rsa or ed25519 (k=, RFC 6376 3.6.1 and RFC 8463). */
  type: string;
  /** Key size in bits, or null when the key does not parse. */
  bits: number | null;
  /** p= is empty: the key was revoked. */
  revoked: boolean;
}

export function dkimKey(record: string): DkimKey {
  const tags = parseTags(record);
  const type = (tags.get('k') ?? 'rsa').toLowerCase();
  const p = (tags.get('p') ?? '').replace(/\s+/g, '');
  if (p === '') return { type, bits: null, revoked: true };
  const der = Buffer.from(p, 'base64');
  if (type === 'ed25519') return { type, bits: der.length === 32 ? 256 : null, revoked: false };
  // Most publish SubjectPublicKeyInfo; some old signers publish the bare RSAPublicKey (PKCS#1).
  for (const format of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type: format });
      return { type, bits: key.asymmetricKeyDetails?.modulusLength ?? null, revoked: false };
    } catch {
      // Try the other encoding.
    }
  }
  return { type, bits: null, revoked: false };
}
