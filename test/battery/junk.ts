// Junk for the battery: values no client should send, and cases generated from the service's own
// OpenAPI document (every operation, every parameter, every body property), so a route or field
// added later is covered without a new test.
import { buildOpenApiDocument } from '../../src/contract/openapi.ts';

/** Values for an id in a path: malformed, encoded, hostile, absurdly long. */
export const JUNK_IDS = [
  'not-a-uuid',
  '1',
  '0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01234567-89AB-7DEF-8123-456789ABCDEF',
  '%00',
  '%ZZ',
  '%',
  '..%2F..%2Fetc%2Fpasswd',
  "'%20OR%201%3D1--",
  '%3Cscript%3E',
  '%E2%80%AE',
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded
  '%F0%9F%92%A9',
  'x'.repeat(5000),
  'svc_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  '%73vc_abcdefghijklmnopqrstuvwxyz0123456789',
];

/** Values for a query parameter. */
export const JUNK_QUERY = [
  '',
  '0',
  '-1',
  '1e2',
  '101',
  '99999999999999999999',
  'NaN',
  'true',
  'null',
  '[]',
  '%00',
  '%ZZ',
  'a%0Ab',
  '%E2%80%AE',
  '%ED%A0%80',
  'x'.repeat(3000),
  'svc_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
];

/** Values for a body property: wrong types, edges and hostile text. */
export const JUNK_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  3.5,
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202eevil',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  "' OR 1=1 --",
  '{{7*7}}',
  [],
  ['a'],
  {},
  { $ne: null },
  { __proto__: { polluted: true } },
];

/** Whole bodies that are not the JSON object an operation takes. */
export const RAW_BODIES: { body: string; contentType: string }[] = [
  { body: '', contentType: 'application/json' },
  { body: '{', contentType: 'application/json' },
  { body: '}', contentType: 'application/json' },
  { body: 'null', contentType: 'application/json' },
  { body: '[]', contentType: 'application/json' },
  { body: '"text"', contentType: 'application/json' },
  { body: '1e999', contentType: 'application/json' },
  { body: `${'['.repeat(20_000)}${']'.repeat(20_000)}`, contentType: 'application/json' },
  { body: `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`, contentType: 'application/json' },
  { body: '{"__proto__":{"polluted":true}}', contentType: 'application/json' },
  { body: '{"a":1,"a":2}', contentType: 'application/json' },
  { body: '\ufeff{}', contentType: 'application/json' },
  { body: '{"x":"\\ud800"}', contentType: 'application/json' },
  { body: 'x'.repeat(70 * 1024), contentType: 'application/json' },
  { body: 'domain=example.com', contentType: 'application/x-www-form-urlencoded' },
  { body: '<xml/>', contentType: 'application/xml' },
  { body: '{}', contentType: 'text/plain' },
  { body: '{}', contentType: 'application/json; charset=utf-16' },
];

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  statuses: Set<number>;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  bodyProperties: Record<string, { type?: string; format?: string; enum?: unknown[] }>;
  hasBody: boolean;
}

interface OpenApiSchema {
  $ref?: string;
  properties?: Record<string, { type?: string; format?: string; enum?: unknown[] }>;
}

/** Every operation of /openapi.json, with what it declares. */
export function operationsOf(): Operation[] {
  const doc = buildOpenApiDocument('http://battery.invalid') as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, OpenApiSchema> };
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as {
        operationId?: string;
        responses?: Record<string, unknown>;
        parameters?: { in: string; name: string }[];
        requestBody?: { content: { 'application/json': { schema: OpenApiSchema } } };
      };
      if (!op.responses) continue;
      const params = op.parameters ?? [];
      const ref = op.requestBody?.content['application/json'].schema.$ref;
      const schema = ref ? doc.components.schemas[ref.split('/').at(-1) ?? ''] : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        headerParams: params.filter((p) => p.in === 'header').map((p) => p.name),
        bodyProperties: schema?.properties ?? {},
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** Tallies of a battery's answers, printed at its end. */
export class Tally {
  readonly byStatus = new Map<number, number>();
  cases = 0;
  note(status: number): void {
    this.cases++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
  summary(): string {
    const statuses = [...this.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status} x${count}`)
      .join(', ');
    return `${this.cases.toLocaleString('en-US')} cases (${statuses})`;
  }
}
