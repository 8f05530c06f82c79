// Content-Security-Policy judged by Google's CSP Evaluator (issue 29): fixture hosts on loopback
// send policies that pass, that allowlist a CDN serving JSONP and AngularJS, that lack object-src or
// base-uri, several policies at once (headers and <meta>), and a Report-Only policy; each check's
// verdict is the evaluator's, said in our words. Hostile policies are bounded and judged off the
// event loop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspChecks } from '../../src/audit/checks/security/browser-defenses.ts';
import { cpuPool } from '../../src/audit/cpu/pool.ts';
import { evaluateCsp, POLICY_MAX, policiesOf } from '../../src/audit/csp-evaluation.ts';
import type { AuditOutcome } from '../../src/audit/index.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { expectCheckStatuses } from '../support/expect-checks.ts';
import { html } from '../support/fixture-site.ts';
import {
  auditSecureHosts,
  createTestCa,
  type HostedSite,
  type SecureSites,
  startSecureSites,
  type TestCa,
} from '../support/secure-sites.ts';

const page = (head = '') => html(`<title>Site</title>${head}`, '<main><h1>Site</h1><p>Hello.</p></main>');
const NONCE = "'nonce-R4nd0mN0nce22'";

/** Each host's policy and what the evaluator makes of it. */
const HOSTS: Record<string, { headers?: Record<string, string | string[]>; head?: string }> = {
  // Google's strict CSP: a nonce, 'strict-dynamic' (hosts ignored by CSP3 browsers), object-src, base-uri.
  'strict.test': {
    headers: {
      'content-security-policy': `script-src ${NONCE} 'strict-dynamic' https: 'unsafe-inline'; object-src 'none'; base-uri 'none'`,
    },
  },
  // An allowlist of the site and a CDN with no known bypass.
  'allowlist.test': {
    headers: {
      'content-security-policy': "default-src 'self'; script-src 'self' https://cdn.example; object-src 'none'",
    },
  },
  // A CDN that serves JSONP endpoints and AngularJS (ajax.googleapis.com) on the allowlist.
  'jsonp.test': {
    headers: {
      'content-security-policy': "script-src 'self' https://ajax.googleapis.com; object-src 'none'; base-uri 'self'",
    },
  },
  // A nonce policy with neither object-src nor base-uri.
  'missing.test': { headers: { 'content-security-policy': `script-src ${NONCE}` } },
  // Two headers: the first allows inline script and the JSONP CDN, the second requires a nonce and
  // sets object-src and base-uri; every policy is enforced, so neither weakness is left.
  'several.test': {
    headers: {
      'content-security-policy': [
        "script-src 'self' 'unsafe-inline' https://ajax.googleapis.com",
        `script-src ${NONCE}; object-src 'none'; base-uri 'self'`,
      ],
    },
  },
  // Two policies, only one restricting scripts: its weaknesses stand; object-src comes from a <meta> tag.
  'several-weak.test': {
    headers: {
      'content-security-policy': "script-src 'unsafe-inline' https://www.google.com, frame-ancestors 'none'",
    },
    head: `<meta http-equiv="Content-Security-Policy" content="object-src 'none'">`,
  },
  // A policy in <meta> only.
  'meta.test': {
    head: `<meta http-equiv="Content-Security-Policy" content="script-src 'self'; object-src 'none'">`,
  },
  // Only Report-Only: browsers report, block nothing.
  'report-only.test': {
    headers: { 'content-security-policy-report-only': "script-src 'self' 'unsafe-inline'; object-src 'none'" },
  },
};

describe('CSP judged by the CSP Evaluator', () => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  let outcomes: Record<string, AuditOutcome<unknown>>;

  beforeAll(async () => {
    ca = createTestCa();
    const hosted: Record<string, HostedSite> = {};
    for (const [host, { headers, head }] of Object.entries(HOSTS))
      hosted[host] = {
        tls: ca.issue([host], 400),
        https: { '/': { ...(headers ? { headers } : {}), body: page(head) } },
        http: {},
      };
    sites = await startSecureSites(hosted);
    dns = await startDnsServer(Object.fromEntries(Object.keys(HOSTS).map((host) => [host, { A: ['127.0.0.1'] }])));
    outcomes = await auditSecureHosts(Object.keys(HOSTS), { dns, sites, ca });
  }, 120_000);
  afterAll(async () => {
    await sites?.close();
    await dns?.close();
    ca?.cleanup();
  });

  const row = (host: string, id: string) => outcomes[host]?.checks.find((c) => c.id === id);
  const finding = (host: string, id: string) => outcomes[host]?.findings.find((f) => f.checkId === id);

  it.each([
    // check, strict, allowlist, jsonp, missing, several, several-weak, meta, report-only
    ['csp-present', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'fail'],
    ['csp-no-unsafe-inline', 'pass', 'pass', 'pass', 'pass', 'pass', 'fail', 'pass', undefined],
    ['csp-no-unsafe-eval', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', undefined],
    ['csp-no-bypassable-sources', 'pass', 'pass', 'fail', 'pass', 'pass', 'fail', 'pass', undefined],
    ['csp-object-src', 'pass', 'pass', 'pass', 'fail', 'pass', 'pass', 'pass', undefined],
    ['csp-base-uri', 'pass', 'pass', 'pass', 'fail', 'pass', 'pass', 'pass', undefined],
  ] as const)(
    '%s: strict %s, allowlist %s, jsonp %s, missing %s, several %s, several-weak %s, meta %s, report-only %s',
    (id, ...expected) => {
      const hosts = Object.keys(HOSTS);
      expectCheckStatuses(outcomes, id, Object.fromEntries(hosts.map((host, i) => [host, expected[i]])));
    },
  );

  it('names the allowlisted CDN that serves JSONP and AngularJS, and suggests a strict policy', () => {
    const f = finding('jsonp.test', 'csp-no-bypassable-sources');
    expect(f?.severity).toBe('high');
    expect(f?.detail).toContain('https://ajax.googleapis.com');
    expect(f?.detail).toMatch(/JSONP endpoints and AngularJS/);
    expect(f?.evidence.some((e) => /CSP Evaluator: ajax\.googleapis\.com is known to host/.test(e.summary))).toBe(true);
    expect(f?.suggestions?.[0]?.content).toContain("'strict-dynamic'");
    // Our words: the remediation tells the owner what to do, not the evaluator's message.
    expect(f?.remediation).toMatch(/^Remove these sources from script-src/);
  });

  it('says what is missing in the owner’s words', () => {
    expect(finding('missing.test', 'csp-object-src')?.remediation).toBe(
      "Add object-src 'none' to the Content-Security-Policy: sites rarely need <object> or <embed>.",
    );
    expect(finding('missing.test', 'csp-base-uri')?.detail).toMatch(/an injected <base> tag/);
  });

  it('judges several policies together: a weakness counts only when every policy that restricts scripts has it', () => {
    expect(row('several.test', 'csp-present')?.detail).toContain('2 policies, all enforced');
    expect(finding('several-weak.test', 'csp-no-bypassable-sources')?.detail).toContain('https://www.google.com');
    // The <meta> policy's object-src counts with the headers'.
    expect(row('several-weak.test', 'csp-object-src')?.status).toBe('pass');
    expect(row('meta.test', 'csp-present')?.detail).toContain("'self'");
  });

  it('does not count a Report-Only policy as enforced, and says what it would still allow', () => {
    const f = finding('report-only.test', 'csp-present');
    expect(f?.title).toBe('The Content-Security-Policy is only reported, not enforced');
    expect(f?.detail).toMatch(/only Content-Security-Policy-Report-Only is sent/);
    expect(f?.detail).toContain("'unsafe-inline'");
  });
});

describe('CSP evaluation on hostile policies', () => {
  it('bounds each policy and the number of policies', () => {
    const long = `script-src 'self' ${'a.example.com '.repeat(3000)}; object-src 'none'`;
    const judged = evaluateCsp([
      { from: 'header', text: long },
      ...Array.from({ length: 20 }, () => ({ from: 'header' as const, text: "script-src 'self'" })),
    ]);
    expect(long.length).toBeGreaterThan(POLICY_MAX);
    expect(judged.enforced?.truncated).toBe(true);
    expect(judged.enforced?.policies).toHaveLength(8);
    // Cut before object-src: the evaluator sees no object-src in the first policy, nor in the others.
    expect(judged.enforced?.failures.some((f) => f.directive === 'object-src')).toBe(true);
  });

  it('judges sources a URL parser cannot read one by one instead of losing the verdict', () => {
    const judged = evaluateCsp([
      { from: 'header', text: "script-src https://cdn.example:port https://ajax.googleapis.com; object-src 'none'" },
    ]);
    const rows = cspChecks(judged, 'https://site.test/');
    expect(rows.find((r) => r.id === 'csp-no-bypassable-sources')?.status).toBe('fail');
  });

  it('runs on the CPU pool and answers data a thread can send (a 16 KB policy of hosts)', async () => {
    const text = `script-src ${Array.from({ length: 2000 }, (_, i) => `h${i}.example.com`).join(' ')}`;
    const policies = policiesOf({ 'content-security-policy': `${text}, ${text}` }, undefined);
    expect(policies).toHaveLength(2);
    const judged = await cpuPool().run('evaluateCsp', [policies]);
    expect(judged.enforced?.policies).toHaveLength(2);
    expect(judged.enforced?.failures.some((f) => f.type === 400)).toBe(true); // the evaluator's STRICT_DYNAMIC advice
  });
});
