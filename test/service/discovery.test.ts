// spec 4.8 to 4.10: the marketing report, integrations and signals of a project, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationsResponse, PROVIDERS, SignalsResponse } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.each(testBackends())('project discovery on $name', (backend) => {
  let s: TestService;
  let key: string;
  let projectId: string;
  const test = it.skipIf(!backend.available);

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend);
    ({ key } = await s.tenant());
    projectId = await s.createProject(key, 'discover.example');
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  test('lists every provider as planned, read-only and not connected (spec 2.11)', async () => {
    const res = await s.request(`/api/v1/projects/${projectId}/integrations`, { key });
    expect(res.status).toBe(200);
    const body = IntegrationsResponse.parse(res.body);
    expect(body.projectId).toBe(projectId);
    expect(body.integrations.map((i) => i.provider).sort()).toEqual([...PROVIDERS].sort());
    for (const integration of body.integrations) {
      expect(integration).toMatchObject({ phase: 'planned', access: 'read_only', connected: false });
    }
    expect(body.note.length).toBeGreaterThan(10);
  });

  test('answers public_only coverage with no signals (spec 4.10)', async () => {
    const res = await s.request(`/api/v1/projects/${projectId}/signals`, { key });
    expect(res.status).toBe(200);
    expect(SignalsResponse.parse(res.body)).toMatchObject({
      projectId,
      sourceCoverage: 'public_only',
      connectedSources: [],
      signals: [],
    });
  });

  test('answers 404 no_marketing_run until a Marketing Signal run completes (spec 4.8)', async () => {
    expectError(await s.request(`/api/v1/projects/${projectId}/marketing/report`, { key }), 404, 'no_marketing_run');
  });

  test('answers 404 not_found for an unknown project on each discovery route', async () => {
    const unknown = '0190f5a0-0000-7000-8000-0000000000ff';
    for (const path of ['integrations', 'signals', 'marketing/report']) {
      expectError(await s.request(`/api/v1/projects/${unknown}/${path}`, { key }), 404, 'not_found');
    }
  });
});
