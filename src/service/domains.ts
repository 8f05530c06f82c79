// Normalizing and validating a project's domain (spec 2.3, 4.4: 3 to 253 characters, else invalid_domain).
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { DOMAIN_MAX, DOMAIN_MIN } from '../contract/index.ts';

export type DomainResult = { ok: true; domain: string; local: boolean } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

/**
 * Accepts a bare host name, optionally written with an http(s) scheme and a trailing slash, and
 * answers its canonical form (lowercase, punycode, no trailing dot). A path, query, credentials or
 * port is refused, except that `allowLocal` admits loopback hosts with a port (the local on-page scan).
 */
export function normalizeDomain(input: string, allowLocal: boolean): DomainResult {
  const raw = input.trim();
  if (raw.length < DOMAIN_MIN || raw.length > DOMAIN_MAX) {
    return { ok: false, reason: `domain must be ${DOMAIN_MIN} to ${DOMAIN_MAX} characters` };
  }
  let rest = raw.replace(/^https?:\/\//i, '');
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  if (/[/?#@\s\\]/.test(rest) || rest.length === 0) {
    return {
      ok: false,
      reason: 'domain must be a host name such as example.com, without a path, query or credentials',
    };
  }
  const portMatch = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(rest);
  const written = portMatch?.[1] ?? rest;
  const port = portMatch?.[2];
  // Every check below sees the host as it will be fetched: without its trailing dot, mapped to ASCII
  // (IDNA: "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ" is "localhost"), IPv4 shorthands spelled out ("127.1" is "127.0.0.1").
  const host = written.startsWith('[') ? written.toLowerCase() : domainToASCII(written.replace(/\.$/, ''));
  if (!host) return { ok: false, reason: 'domain is not a valid host name' };

  if (isLoopbackHost(host)) {
    if (!allowLocal) return { ok: false, reason: 'local targets are not allowed on this service' };
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
      return { ok: false, reason: 'port must be 1 to 65535' };
    return { ok: true, domain: port ? `${host}:${Number(port)}` : host, local: true };
  }
  if (port !== undefined || rest.includes(':')) {
    return { ok: false, reason: 'a port is allowed only for local targets' };
  }
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
    return { ok: false, reason: 'use a domain name, not an IP address' };
  }
  const ascii = host;
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: 'domain needs a top-level domain, as in example.com' };
  if (!labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: 'domain labels are letters, digits and hyphens, 1 to 63 each' };
  }
  if (/^\d+$/.test(labels.at(-1) ?? '')) return { ok: false, reason: 'the top-level domain cannot be numeric' };
  if (ascii.length > DOMAIN_MAX) return { ok: false, reason: `domain must be at most ${DOMAIN_MAX} characters` };
  return { ok: true, domain: ascii, local: false };
}

/** A URL-safe slug: lowercase letters, digits and single hyphens. */
export function slugify(text: string, fallback = 'item'): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    // Runs became one hyphen each, so single-hyphen ends suffice (-+$ is quadratic on a long run).
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .replace(/-$/, '');
  return slug || fallback;
}
