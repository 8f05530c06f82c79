// A website_security run end to end through the API, on both backends: a full scan (HTTPS, plain
// HTTP, DNS) of a fixture host on loopback, its report context, findings and dashboard page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { FindingPage, type Run, WebsiteSecurityReport } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { type DnsServer, startDnsServer } from '../support/dns-server.ts';
import { html } from '../support/fixture-site.ts';
import { signedInOwner } from '../support/form-browser.ts';
import { createTestCa, type SecureSites, startSecureSites, type TestCa } from '../support/secure-sites.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.each(testBackends())('website_security runs on $name', (backend) => {
  let ca: TestCa;
  let sites: SecureSites;
  let dns: DnsServer;
  let s: TestService;
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    ca = createTestCa();
    sites = await startSecureSites({
      'shop.test': {
        tls: ca.issue(['shop.test'], 200),
        https: {
          '/': {
            headers: { 'strict-transport-security': 'max-age=31536000', 'set-cookie': ['sessionid=1; Path=/'] },
            body: html('<title>Shop</title>', '<main><h1>Shop</h1></main>'),
          },
        },
        http: { '/': { status: 301, headers: { location: 'https://shop.test/' } } },
      },
    });
    dns = await startDnsServer({ 'shop.test': { A: ['127.0.0.1'], TXT: ['v=spf1 -all'] } });
    s = await startTestService(backend, {
      allowLocalTargets: true,
      worker: { pollMs: 50, engine: { resolver: createResolver([dns.address]), ports: sites.ports, ca: ca.caPem } },
    });
  });
  afterAll(async () => {
    if (!backend.available) return;
    await s.close();
    await sites.close();
    await dns.close();
    ca.cleanup();
  });

  test('audits the public surface and answers a website_security report context', async () => {
    const { key, organizationId } = await s.tenant();
    const projectId = await s.createProject(key, 'shop.test');
    const started = await s.request<Run>('/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId, scanMode: 'paid_website_security' },
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ product: 'website_security', url: 'https://shop.test/', coverage: null });
    let run = started.body;
    for (let i = 0; i < 200 && !['completed', 'failed', 'failed_auto_credit'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await s.request<Run>(`/api/v1/runs/${run.runId}`, { key })).body;
    }
    expect(run.status).toBe('completed');
    const report = WebsiteSecurityReport.parse((await s.request(`/api/v1/runs/${run.runId}/report`, { key })).body);
    expect(report.tls).toMatchObject({ valid: true, subject: 'shop.test' });
    expect(report.dns).toEqual({ hasMx: false, hasSpf: true, hasDmarc: false, hasCaa: false });
    expect(report.pillars.map((p) => p.key)).toEqual([
      'browser_defenses',
      'transport_trust',
      'dns_email_trust',
      'cookies_sessions',
      'exposure_reputation',
    ]);
    expect(report.checks.find((c) => c.id === 'cookies-secure')).toMatchObject({
      status: 'fail',
      severity: 'critical',
      pillar: 'cookies_sessions',
    });
    expect(report.topFindings[0]).toMatchObject({ category: 'security', severity: 'critical' });
    const findings = FindingPage.parse(
      (await s.request(`/api/v1/runs/${run.runId}/findings?limit=100`, { key })).body,
    ).findings;
    expect(findings.length).toBe(report.findingsTotal);
    expect(findings.every((f) => f.category === 'security')).toBe(true);
    const pageHtml = (await (await signedInOwner(s, organizationId)).get(run.humanUrl)).html;
    expect(pageHtml).toContain('Pillars');
    expect(pageHtml).toContain('Session cookies can travel over plain HTTP');
  });
});
