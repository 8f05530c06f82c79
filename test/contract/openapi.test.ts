import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPENAPI_OPERATIONS } from '../../src/contract/openapi.ts';

const doc = buildOpenApiDocument('http://127.0.0.1:8787') as {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }
    >
  >;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme: string }> };
  webhooks: Record<string, unknown>;
};

// spec section 4: every operation, including those whose handlers arrive in later issues.
const SECTION_4 = [
  'GET /api/v1/me',
  'POST /api/v1/cli/token',
  'GET /api/v1/projects',
  'POST /api/v1/projects',
  'GET /api/v1/projects/{projectId}',
  'PATCH /api/v1/projects/{projectId}',
  'DELETE /api/v1/projects/{projectId}',
  'GET /api/v1/projects/{projectId}/marketing/report',
  'GET /api/v1/projects/{projectId}/integrations',
  'GET /api/v1/projects/{projectId}/signals',
  'GET /api/v1/runs',
  'POST /api/v1/runs',
  'GET /api/v1/runs/{runId}',
  'GET /api/v1/runs/{runId}/report',
  'GET /api/v1/runs/{runId}/findings',
  'POST /api/v1/webhooks',
  'PATCH /api/v1/webhooks/{webhookId}',
];

describe('/openapi.json document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('is checked by a validator that does refuse a broken document', async () => {
    const broken = structuredClone(doc) as Record<string, unknown>;
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it.each(SECTION_4)('describes %s', (operation) => {
    expect(OPENAPI_OPERATIONS).toContain(operation);
    const [method, path] = operation.split(' ') as [string, string];
    expect(doc.paths[path]?.[method.toLowerCase()]).toBeDefined();
  });

  it('secures every operation but the token exchange and revocation with the bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const open = ['/api/v1/cli/token', '/api/v1/cli/revoke', '/openapi.json'].includes(path);
        expect(op.security?.length ?? 0, `${method} ${path}`).toBe(open ? 0 : 1);
        if (!open)
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429']));
      }
    }
  });

  it('describes error responses with the error envelope', () => {
    const archive = doc.paths['/api/v1/projects/{projectId}']?.delete;
    expect(archive?.responses['400']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(JSON.stringify(archive?.responses['400'])).toContain('confirmation_mismatch');
  });

  it('has a component for every resource of the spec, and the webhook events', () => {
    for (const name of [
      'KeyContext',
      'Project',
      'Run',
      'RunListItem',
      'Finding',
      'SeverityCounts',
      'CheckRow',
      'AiReadinessReport',
      'MarketingSignalReport',
      'WebsiteSecurityReport',
      'Integration',
      'WebhookEvent',
      'RunEventData',
      'MonitoringChangedData',
      'Monitoring',
      'MonitorCheckList',
      'ErrorEnvelope',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(Object.keys(doc.webhooks)).toEqual(['run.completed', 'run.failed', 'monitoring.changed']);
  });

  it('describes a project’s access settings (issue 29): names in the answer, values only in the request', () => {
    const path = doc.paths['/api/v1/projects/{projectId}/access'] as Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: unknown }> };
        responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>;
      }
    >;
    expect(OPENAPI_OPERATIONS).toEqual(
      expect.arrayContaining(['GET /api/v1/projects/{projectId}/access', 'PUT /api/v1/projects/{projectId}/access']),
    );
    expect(path.get?.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ProjectAccess',
    });
    expect(path.put?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ProjectAccessBody',
    });
    expect(Object.keys(path.get?.responses ?? {})).toEqual(['200', '401', '403', '404', '429']);
    expect(Object.keys(path.put?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '413', '429', '503']);
    expect(path.put?.responses['400']?.description).toContain('`validation_failed`');
    expect(path.put?.responses['400']?.description).toContain('`invalid_json`');
    expect(path.put?.responses['503']?.description).toContain('`key_encryption_unavailable`');
    const body = doc.components.schemas.ProjectAccessBody as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties).sort()).toEqual(['basicAuth', 'cookies', 'headers']);
    const answer = doc.components.schemas.ProjectAccess as { properties: Record<string, { type?: unknown }> };
    expect(Object.keys(answer.properties).sort()).toEqual([
      'basicAuth',
      'cookies',
      'headers',
      'projectId',
      'updatedAt',
    ]);
    expect(answer.properties.headers?.type).toBe('array');
    expect(answer.properties.basicAuth?.type).toBe('boolean');
  });

  it('resolves every $ref', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(refs.length).toBeGreaterThan(20);
    for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();
  });
});
