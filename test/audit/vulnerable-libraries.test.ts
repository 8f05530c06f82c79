// JavaScript libraries with known vulnerabilities, found as retire.js finds them (issue 29): an old
// jQuery named by its script URL is flagged with its CVE ids and the version to upgrade to, a new
// one passes, and a rendered page whose unversioned jquery.js reports an old version through
// `jQuery.fn.jquery` is flagged too. A page whose globals spin, write or hold a huge value is read
// within bounds and reports nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { createChromiumRenderer, type Renderer } from '../../src/audit/render/renderer.ts';
import { CHROMIUM, hasChromium } from '../support/browser.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const page = (scripts: string) => html('<title>Shop</title>', `<main><h1>Shop</h1><p>Welcome.</p></main>${scripts}`);
const JS = { 'content-type': 'text/javascript' };

/** A jquery.js with no version in its URL: the library says its version itself, as jQuery does. */
const UNVERSIONED_JQUERY =
  'window.jQuery = window.$ = function () {}; jQuery.fn = jQuery.prototype = { jquery: "1.8.3" };';

/** Globals a hostile page could set where the audit reads versions. */
const HOSTILE_GLOBALS = `
  Object.defineProperty(window, 'jQuery', { get() { for (;;) {} } });
  window.$ = { fn: { get jquery() { document.title = 'touched'; return '1.0.0'; } } };
  window.Vue = { version: '1'.repeat(100000) };
  window.moment = new Proxy({}, { get() { document.body.dataset.touched = 'yes'; return '2.0.0'; } });
`;

describe('vulnerable JavaScript libraries (retire.js)', () => {
  const sites: FixtureSite[] = [];
  const outcomes: Record<string, AuditOutcome<unknown>> = {};
  const libraries = (name: string) => outcomes[name]?.checks.find((c) => c.id === 'outdated-libraries');
  const finding = (name: string) => outcomes[name]?.findings.find((f) => f.checkId === 'outdated-libraries');

  beforeAll(async () => {
    const old = await startFixtureSite({
      '/': { body: page('<script src="https://code.jquery.com/jquery-1.8.3.min.js"></script>') },
    });
    const current = await startFixtureSite({
      '/': { body: page('<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>') },
    });
    sites.push(old, current);
    outcomes.old = await runAudit('website_security', { url: `${old.origin}/`, local: true });
    outcomes.current = await runAudit('website_security', { url: `${current.origin}/`, local: true });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });

  it('flags an old jQuery named in its script URL, with its CVEs, severity and the version to upgrade to', () => {
    expect(libraries('old')?.status).toBe('fail');
    const f = finding('old');
    expect(f?.detail).toMatch(/^1 library with known vulnerabilities: jquery 1\.8\.3 \(/);
    for (const cve of ['CVE-2012-6708', 'CVE-2015-9251', 'CVE-2019-11358']) expect(f?.detail).toContain(cve);
    expect(f?.detail).toContain('upgrade to 3.5.0 or later');
    expect(f?.severity).toBe('medium'); // retire.js rates jQuery's advisories medium at worst
    expect(f?.agentAction).toContain('jquery 1.8.3 (npm jquery) to 3.5.0 or later');
    expect(f?.evidence[0]?.summary).toContain('seen in https://code.jquery.com/jquery-1.8.3.min.js');
  });

  it('passes a current jQuery and says it was judged', () => {
    expect(libraries('current')?.status).toBe('pass');
    expect(libraries('current')?.detail).toBe('no known vulnerabilities in jquery 3.7.1 (retire.js)');
  });
});

describe.skipIf(!hasChromium)('vulnerable libraries a rendered page reports', () => {
  let renderer: Renderer;
  const sites: FixtureSite[] = [];
  const outcomes: Record<string, AuditOutcome<unknown>> = {};

  beforeAll(async () => {
    renderer = createChromiumRenderer({ executablePath: CHROMIUM });
    const reported = await startFixtureSite({
      '/': { body: page('<script src="/static/jquery.js"></script>') },
      '/static/jquery.js': { headers: JS, body: UNVERSIONED_JQUERY },
    });
    const hostile = await startFixtureSite({
      '/': { body: page('<script src="/static/app.js"></script>') },
      '/static/app.js': { headers: JS, body: HOSTILE_GLOBALS },
    });
    sites.push(reported, hostile);
    const render = { renderer, mode: 'always' as const };
    outcomes.served = await runAudit('website_security', { url: `${reported.origin}/`, local: true });
    outcomes.reported = await runAudit('website_security', { url: `${reported.origin}/`, local: true }, { render });
    outcomes.hostile = await runAudit('website_security', { url: `${hostile.origin}/`, local: true }, { render });
  }, 120_000);
  afterAll(async () => {
    await renderer?.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  const row = (name: string) => outcomes[name]?.checks.find((c) => c.id === 'outdated-libraries');

  it('flags a vulnerable version the page reports through jQuery.fn.jquery behind an unversioned URL', () => {
    // Served alone, the URL names no version.
    expect(row('served')?.status).toBe('pass');
    expect(row('reported')?.status).toBe('fail');
    const f = outcomes.reported?.findings.find((x) => x.checkId === 'outdated-libraries');
    expect(f?.detail).toContain('jquery 1.8.3');
    expect(f?.detail).toContain('CVE-2019-11358');
    expect(f?.evidence[0]?.summary).toMatch(/the page reports jQuery\.fn\.jquery = .1\.8\.3./);
    // The page was loaded only to read versions: the security audit judged the served markup.
    expect(outcomes.reported?.rendering?.pages).toHaveLength(1);
    expect(outcomes.reported?.execSummary).not.toMatch(/Rendered in Chromium/);
  });

  it('reads a hostile page’s globals within bounds: spinning getters, writes and huge values report nothing', () => {
    expect(outcomes.hostile?.rendering?.pages[0]?.error).toBeUndefined();
    expect(row('hostile')?.status).toBe('pass');
    expect(outcomes.hostile?.rendering?.pages[0]?.ms).toBeLessThan(15_000);
  });
});
