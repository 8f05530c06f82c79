// Every verify line proven (issue 25): for every check that has one, the line the engine prints in a
// real audit's finding is run with `bash -c` against a fixture with the defect, where it must show the
// defect, and against the same fixture fixed, where it must pass, each by its kind's convention
// (docs/scoring.md, "Verify lines"; verify-lines-cases.ts). Lines that read markup are run on pages
// written with double-quoted, single-quoted and unquoted attributes, in either order. The names in
// the lines lead to loopback servers and the tools this machine lacks have their documented offline
// equivalents (test/support/verify-env.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, citationById } from '../../src/audit/catalogue.ts';
import { type AuditOptions, type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type DnsServer, startDnsServer, type Zone } from '../support/dns-server.ts';
import { startFixtureSite } from '../support/fixture-site.ts';
import {
  createTestCa,
  type HostedSite,
  type SecureSites,
  startSecureSites,
  type TestCa,
} from '../support/secure-sites.ts';
import { createVerifyEnv, type VerifyEnv, type VerifyResult, type VerifyTarget } from '../support/verify-env.ts';
import {
  type Convention,
  doc,
  EXCEPTIONS,
  type HostSetup,
  PAGE_CASES,
  type PageCase,
  type Routes,
  SECURE_CASES,
  type SecureCase,
  STYLES,
  type Style,
  withOrigin,
} from './verify-lines-cases.ts';

const CASE_TIMEOUT = 240_000;
const LINE_TIMEOUT = 150_000;

const label = (c: { check: string; mode?: string }, style: Style | undefined) =>
  `${c.check}${c.mode ? ` (${c.mode})` : ''}${style ? `, ${style} attributes` : ''}`;

const needsBrowser = (c: { shows: Convention; render?: boolean }) =>
  c.render === true || c.shows.kind === 'axe' || c.shows.kind === 'lighthouse';

const shown = (line: string, r: VerifyResult) =>
  `${line}\n--- exit ${r.code}\n--- stdout\n${r.stdout.slice(0, 3000)}\n--- stderr\n${r.stderr.slice(0, 1500)}`;

/** The verify line of the check's finding in this audit, as the engine printed it. */
function lineOf(outcome: AuditOutcome<unknown>, c: PageCase | SecureCase, url: string): string {
  const row = outcome.checks.find((r) => r.id === c.check);
  if (c.noFinding) {
    // Informational: the check never gives a finding, so its line is the catalogue's, filled for the page.
    expect(outcome.findings.some((f) => f.checkId === c.check)).toBe(false);
    const line = citationById(c.check, { url })?.verify;
    if (!line) throw new Error(`${c.check} has no verify line`);
    return line;
  }
  const finding = outcome.findings.find((f) => f.checkId === c.check);
  if (!finding) {
    const merged = outcome.findings.find((f) => (f as { alsoChecks?: string[] }).alsoChecks?.includes(c.check));
    throw new Error(
      `no finding for ${c.check} before the fix (row: ${row?.status} ${row?.detail ?? 'absent'}${merged ? `; merged into ${merged.checkId}` : ''}); findings: ${outcome.findings.map((f) => f.checkId).join(', ')}`,
    );
  }
  return finding.verify;
}

/** The fixed fixture really is fixed: the check passes (or only informs) once the defect is gone. */
function expectFixed(outcome: AuditOutcome<unknown>, c: PageCase | SecureCase): void {
  const row = outcome.checks.find((r) => r.id === c.check);
  const after = c.after ?? 'pass';
  expect(
    after === 'pass' ? ['pass'] : ['pass', 'info'],
    `${c.check} after the fix: ${row?.status} ${row?.detail}`,
  ).toContain(row?.status);
  if (after !== 'informs') expect(outcome.findings.some((f) => f.checkId === c.check)).toBe(false);
}

/** One convention per kind, told by the line itself. */
function expectKind(c: { check: string; shows: Convention }, line = ''): void {
  if (c.shows.kind === 'axe') expect(line, c.check).toMatch(/^npx @axe-core\/cli /);
  if (c.shows.kind === 'lighthouse') expect(line, c.check).toMatch(/^npx lighthouse /);
  if (c.shows.kind === 'status') expect(line, c.check).toContain('%{http_code}');
}

function expectShows(c: { shows: Convention }, line: string, before: VerifyResult, after: VerifyResult): void {
  expect(
    c.shows.defect(before),
    `before the fix, the ${c.shows.kind} line must show the defect:\n${shown(line, before)}`,
  ).toBe(true);
  expect(c.shows.fixed(after), `after the fix, the ${c.shows.kind} line must pass:\n${shown(line, after)}`).toBe(true);
}

describe('verify lines', () => {
  let env: VerifyEnv;
  let renderer: Renderer | undefined;

  beforeAll(() => {
    env = createVerifyEnv();
    renderer = hasChromium ? createChromiumRenderer({ executablePath: CHROMIUM }) : undefined;
  });
  afterAll(async () => {
    await renderer?.close();
    env?.close();
  });

  it('cover every check of the catalogue, or say why a check is left out', () => {
    const ids = CATALOGUE.map((c) => c.spec.id);
    const covered = new Set([...PAGE_CASES, ...SECURE_CASES].map((c) => c.check));
    expect(ids.filter((id) => !covered.has(id) && !(id in EXCEPTIONS))).toEqual([]);
    expect([...covered, ...Object.keys(EXCEPTIONS)].filter((id) => !ids.includes(id))).toEqual([]);
    // A finding with a line of its own is told by that line, in its case.
    for (const c of [...PAGE_CASES, ...SECURE_CASES])
      if (!('ownLine' in c && c.ownLine))
        expectKind(c, citationById(c.check, { url: 'https://shop.example/' })?.verify);
  });

  describe.concurrent('on pages served on loopback', () => {
    for (const c of PAGE_CASES)
      for (const style of c.styles ? STYLES : [undefined])
        it.skipIf(needsBrowser(c) && !hasChromium)(
          label(c, style),
          // A lab measurement of timing runs alone: no other case loads the machine meanwhile.
          { timeout: CASE_TIMEOUT, ...(c.alone ? { concurrent: false } : {}) },
          async () => {
            const fixture = c.site(style ?? 'double');
            const site = await startFixtureSite({});
            try {
              const serve = (routes: Routes) => {
                site.routes.clear();
                for (const [path, route] of Object.entries(withOrigin(routes, site.origin)))
                  site.routes.set(path, route);
              };
              const url = `${site.origin}/`;
              const options: AuditOptions = {
                allowPrivate: true,
                timeoutMs: 5000,
                pageBudget: 5,
                ...(c.render && renderer ? { render: { renderer, mode: 'always' as const } } : {}),
              };
              serve(fixture.before);
              const line = lineOf(await runAudit(c.product, { url, local: false }, options), c, url);
              expectKind(c, line);
              const before = await env.run(line, {}, LINE_TIMEOUT);
              serve(fixture.after);
              expectFixed(await runAudit(c.product, { url, local: false }, options), c);
              const after = await env.run(line, {}, LINE_TIMEOUT);
              expectShows(c, line, before, after);
            } finally {
              await site.close();
            }
          },
        );
  });

  // Headers, TLS, DNS and mail: each case a host of its own, served as it is before the fix by one
  // set of servers (HTTPS, HTTP, DNS) and as it is after by another, behind the same name.
  describe('on named hosts over HTTPS, with their DNS', () => {
    interface Built {
      c: SecureCase;
      style: Style | undefined;
      name: string;
      setup: { before: HostSetup; after: HostSetup };
    }
    const slug = (text: string) => text.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const built: Built[] = SECURE_CASES.flatMap((c) =>
      (c.styles ? STYLES : [undefined]).map((style) => {
        const name = `${c.check}${c.mode ? `-${slug(c.mode)}` : ''}${style ? `-${style}` : ''}.test`;
        return { c, style, name, setup: c.host(style ?? 'double', name) };
      }),
    );
    let ca: TestCa;
    const servers: Record<'before' | 'legacy' | 'after', SecureSites | undefined> = {
      before: undefined,
      legacy: undefined,
      after: undefined,
    };
    const dns: Record<'before' | 'after', DnsServer | undefined> = { before: undefined, after: undefined };

    beforeAll(async () => {
      ca = createTestCa();
      const subhosts = (b: Built) =>
        [...new Set([...Object.keys(b.setup.before.subhosts ?? {}), ...Object.keys(b.setup.after.subhosts ?? {})])].map(
          (sub) => `${sub}.${b.name}`,
        );
      const shared = ca.issue(
        built.flatMap((b) => [b.name, ...subhosts(b)]),
        400,
      );
      const hosted = (b: Built, setup: HostSetup): Record<string, HostedSite> => {
        const origin = `https://${b.name}`;
        const tls = setup.cert
          ? ca.issue(setup.cert.names ?? [b.name], setup.cert.days ?? 400, setup.cert.rsaBits)
          : shared;
        const sites: Record<string, HostedSite> = {
          [b.name]: { tls, https: withOrigin(setup.https ?? {}, origin), http: withOrigin(setup.http ?? {}, origin) },
        };
        for (const [sub, routes] of Object.entries(setup.subhosts ?? {}))
          sites[`${sub}.${b.name}`] = { tls: shared, https: routes.https, http: {} };
        return sites;
      };
      const zones = (b: Built, setup: HostSetup): Record<string, Zone> => {
        const out: Record<string, Zone> = {};
        for (const [relative, zone] of Object.entries(setup.zones ?? {}))
          out[relative ? `${relative}.${b.name}` : b.name] = zone;
        out[b.name] = { A: ['127.0.0.1'], ...out[b.name] };
        return out;
      };
      const join = <T>(parts: Array<Record<string, T>>) => Object.assign({}, ...parts) as Record<string, T>;
      servers.before = await startSecureSites(
        join(built.filter((b) => !b.setup.before.legacyTls).map((b) => hosted(b, b.setup.before))),
      );
      const legacy = built.filter((b) => b.setup.before.legacyTls);
      if (legacy.length > 0)
        servers.legacy = await startSecureSites(join(legacy.map((b) => hosted(b, b.setup.before))), {
          legacyTls: true,
        });
      servers.after = await startSecureSites(join(built.map((b) => hosted(b, b.setup.after))));
      dns.before = await startDnsServer(join(built.map((b) => zones(b, b.setup.before))));
      dns.after = await startDnsServer(join(built.map((b) => zones(b, b.setup.after))));
    }, 120_000);
    afterAll(async () => {
      for (const server of Object.values(servers)) await server?.close();
      for (const server of Object.values(dns)) await server?.close();
      ca?.cleanup();
    });

    describe.concurrent('cases', () => {
      for (const b of built)
        it(
          label(b.c, b.style),
          async () => {
            const { c, name, setup } = b;
            const sitesBefore = (setup.before.legacyTls ? servers.legacy : servers.before) as SecureSites;
            const sitesAfter = servers.after as SecureSites;
            const url = `${c.plainStart ? 'http' : 'https'}://${name}/`;
            const hosts = [
              name,
              ...Object.keys({ ...setup.before.subhosts, ...setup.after.subhosts }).map((s) => `${s}.${name}`),
            ];
            const options = (sites: SecureSites, server: DnsServer): AuditOptions => ({
              allowPrivate: true,
              resolver: createResolver([server.address]),
              ports: sites.ports,
              ca: ca.caPem,
              timeoutMs: 5000,
            });
            const target = (sites: SecureSites, server: DnsServer): VerifyTarget => ({
              hosts,
              ports: sites.ports,
              dns: server.address,
              caPem: ca.caPem,
            });
            const dnsBefore = dns.before as DnsServer;
            const dnsAfter = dns.after as DnsServer;
            const outcomeBefore = await runAudit(c.product, { url, local: false }, options(sitesBefore, dnsBefore));
            const line = lineOf(outcomeBefore, c, url);
            const before = await env.run(line, target(sitesBefore, dnsBefore), LINE_TIMEOUT);
            expectFixed(await runAudit(c.product, { url, local: false }, options(sitesAfter, dnsAfter)), c);
            const after = await env.run(line, target(sitesAfter, dnsAfter), LINE_TIMEOUT);
            expectShows(c, line, before, after);
          },
          CASE_TIMEOUT,
        );
    });
  });

  // Rows made at run time from axe's own rules (checks/rendered.ts) carry `npx @axe-core/cli URL
  // --rules <rule>`: one of them, proven the same way.
  it.skipIf(!hasChromium)(
    'of axe rules found at run time (color-contrast)',
    async () => {
      const body = (color: string) =>
        doc('', `<main><h1>Tools</h1><p style="color:${color};background:#fff">Hand-forged garden tools.</p></main>`);
      const site = await startFixtureSite({ '/': { body: body('#bbb') } });
      try {
        const url = `${site.origin}/`;
        const options: AuditOptions = {
          allowPrivate: true,
          pageBudget: 1,
          ...(renderer ? { render: { renderer, mode: 'always' as const } } : {}),
        };
        const outcome = await runAudit('ai_readiness', { url, local: false }, options);
        const finding = outcome.findings.find((f) => f.checkId === 'axe-color-contrast');
        expect(finding, outcome.findings.map((f) => f.checkId).join(', ')).toBeDefined();
        const line = finding?.verify ?? '';
        const before = await env.run(line, {}, LINE_TIMEOUT);
        site.routes.set('/', { body: body('#222') });
        const after = await env.run(line, {}, LINE_TIMEOUT);
        expect(/[1-9]\d* Accessibility issues detected/.test(before.stdout), shown(line, before)).toBe(true);
        expect(/0 violations found!/.test(after.stdout), shown(line, after)).toBe(true);
      } finally {
        await site.close();
      }
    },
    CASE_TIMEOUT,
  );
});
