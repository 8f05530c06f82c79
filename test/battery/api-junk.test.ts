// The API battery: junk generated from /openapi.json for every operation (path ids, query
// parameters, body properties, whole bodies, headers, methods) on both backends. Every answer must
// be a status the document declares for the operation, in the spec's envelope, with no stack trace
// and no secret; and nothing stored may change except by an answer that says it did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/index.ts';
import { testBackends } from '../support/backends.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { JUNK_IDS, JUNK_QUERY, JUNK_VALUES, type Operation, operationsOf, RAW_BODIES, Tally } from './junk.ts';

/** Operations the document describes ahead of the service: the webhooks API comes with issue 11. */
const PARALLEL = 8;

interface Case {
  operation: Operation;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Statuses allowed beyond the operation's own (a junk path may name no route: 404, 405). */
  alsoAllowed?: number[];
}

describe.each(testBackends())('API junk battery on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  let key: string;
  const ids: Record<string, string> = {};
  const seededDomain = 'battery-seed.example';

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend, { worker: false });
    ({ key } = await s.tenant('pro', 1000));
    ids.projectId = await s.createProject(key, seededDomain);
    const run = await s.request<{ runId: string }>('/api/v1/runs', {
      key,
      method: 'POST',
      json: { projectId: ids.projectId },
    });
    ids.runId = run.body.runId;
    ids.webhookId = '01234567-89ab-7def-8123-456789abcdef';
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A body the operation would take, to put one junk property in. */
  function baseBody(operation: Operation, n: number): Record<string, unknown> {
    const plausible: Record<string, unknown> = {
      domain: `battery-${n}.example`,
      name: 'Battery',
      projectId: ids.projectId,
      confirm: 'not-the-domain.example', // never the seeded domain: the battery must not archive it
      status: 'active',
      code: 'battery-code',
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'http://127.0.0.1:9/callback',
      url: 'https://hooks.battery.example/in',
      events: ['run.completed'],
      description: 'battery',
      active: true,
    };
    return Object.fromEntries(Object.keys(operation.bodyProperties).map((name) => [name, plausible[name] ?? 'x']));
  }

  function pathOf(operation: Operation, override?: [string, string]): string {
    return operation.path.replace(/\{(\w+)\}/g, (_all, name: string) =>
      override && override[0] === name ? override[1] : (ids[name] ?? 'missing'),
    );
  }

  function casesOf(operation: Operation): Case[] {
    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const base = { operation, method: operation.method, headers: auth };
    const validBody = operation.hasBody ? JSON.stringify(baseBody(operation, 0)) : undefined;
    const cases: Case[] = [];
    for (const name of operation.pathParams) {
      for (const junk of JUNK_IDS)
        cases.push({
          ...base,
          what: `path ${name}=${junk.slice(0, 30)}`,
          path: pathOf(operation, [name, junk]),
          alsoAllowed: [404, 405],
        });
    }
    for (const name of operation.queryParams) {
      for (const junk of JUNK_QUERY) {
        cases.push({
          ...base,
          what: `query ${name}=${junk.slice(0, 30)}`,
          path: `${pathOf(operation)}?${name}=${junk}`,
        });
      }
      cases.push({ ...base, what: `query ${name} twice`, path: `${pathOf(operation)}?${name}=1&${name}=2` });
    }
    cases.push({ ...base, what: 'unknown query parameter', path: `${pathOf(operation)}?zzz=${'q'.repeat(100)}` });
    if (operation.hasBody) {
      for (const raw of RAW_BODIES) {
        cases.push({
          ...base,
          what: `body ${raw.body.slice(0, 20)} as ${raw.contentType}`,
          path: pathOf(operation),
          headers: { ...auth, 'content-type': raw.contentType },
          body: raw.body,
        });
      }
      let n = 1;
      for (const property of [...Object.keys(operation.bodyProperties), 'unexpected']) {
        for (const junk of JUNK_VALUES) {
          const body = { ...baseBody(operation, n++), [property]: junk };
          cases.push({
            ...base,
            what: `body ${property}=${JSON.stringify(junk)?.slice(0, 30)}`,
            path: pathOf(operation),
            headers: json,
            body: JSON.stringify(body),
          });
          cases.push({
            ...base,
            what: `body only ${property}=${JSON.stringify(junk)?.slice(0, 30)}`,
            path: pathOf(operation),
            headers: json,
            body: JSON.stringify({ [property]: junk }),
          });
        }
      }
    }
    for (const header of operation.headerParams) {
      for (const junk of ['', 'x'.repeat(300), 'a\tb', '\u00e9t\u00e9'])
        cases.push({
          ...base,
          what: `header ${header}=${junk.slice(0, 20)}`,
          path: pathOf(operation),
          headers: { ...json, [header]: junk },
          ...(validBody ? { body: validBody } : {}),
        });
    }
    const authJunk = [
      '',
      'Bearer',
      'Bearer ',
      'bearer svc_',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${key} extra`,
      `Bearer ${key.toUpperCase()}`,
      `Bearer ${'svc_'.padEnd(300, 'z')}`,
      `Bearer ${key.slice(0, -1)}`,
    ];
    for (const header of authJunk) {
      cases.push({
        ...base,
        what: `authorization ${header.slice(0, 16)}`,
        path: pathOf(operation),
        headers: header ? { authorization: header, 'content-type': 'application/json' } : {},
        ...(validBody ? { body: validBody } : {}),
        // The token exchange takes no key: a header there is ignored.
        alsoAllowed: [401],
      });
    }
    cases.push({
      ...base,
      what: 'key in the query string',
      path: `${pathOf(operation)}?api_key=${key}`,
      headers: {},
      alsoAllowed: [401],
    });
    return cases;
  }

  function wrongMethods(): Case[] {
    const byPath = new Map<string, Operation[]>();
    for (const operation of operationsOf())
      byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
    const cases: Case[] = [];
    for (const [path, operations] of byPath) {
      const [first] = operations;
      if (!first || !path.startsWith('/api/')) continue;
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        if (operations.some((op) => op.method === method)) continue;
        cases.push({
          operation: first,
          what: `method ${method}`,
          method,
          path: pathOf(first),
          headers: { authorization: `Bearer ${key}` },
          alsoAllowed: [404, 405],
        });
      }
    }
    return cases;
  }

  async function send(c: Case) {
    const response = await fetch(`${s.url}${c.path}`, {
      method: c.method,
      headers: c.headers,
      ...(c.body !== undefined && c.method !== 'GET' ? { body: c.body } : {}),
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  test('answers every junk case with a declared status in the envelope, and changes nothing it did not report', async () => {
    const projectBefore = (await s.request(`/api/v1/projects/${ids.projectId}`, { key })).body;
    const countOf = async (table: 'projects' | 'runs') =>
      Number(
        (
          await s.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [projectsBefore, runsBefore] = [await countOf('projects'), await countOf('runs')];

    const operations = operationsOf().filter((op) => op.path.startsWith('/api/'));
    const cases = [...operations.flatMap((op) => casesOf(op)), ...wrongMethods()];
    const tally = new Tally();
    const problems: string[] = [];
    let created = { projects: 0, runs: 0 };
    for (let i = 0; i < cases.length; i += PARALLEL) {
      await Promise.all(
        cases.slice(i, i + PARALLEL).map(async (c) => {
          const answer = await send(c);
          tally.note(answer.status);
          const where = `${c.method} ${c.operation.path} [${c.what}] -> ${answer.status}`;
          const allowed = new Set([...c.operation.statuses, ...(c.alsoAllowed ?? [])]);
          if (!allowed.has(answer.status))
            problems.push(`${where}: not a declared status: ${answer.text.slice(0, 160)}`);
          if (answer.status >= 500) problems.push(`${where}: server error`);
          if (/\n\s+at |node_modules|\.ts:\d+/.test(answer.text)) problems.push(`${where}: a stack trace`);
          if (answer.text.includes(key.slice(12))) problems.push(`${where}: the key's secret part`);
          if (answer.status === 201 && c.operation.operationId === 'createProject') created.projects++;
          if (answer.status === 202) created.runs++;
          if (answer.status >= 400) {
            let envelope: { error?: { code?: unknown; message?: unknown } } = {};
            try {
              envelope = JSON.parse(answer.text);
            } catch {
              problems.push(`${where}: not JSON: ${answer.text.slice(0, 80)}`);
            }
            if (!answer.type.startsWith('application/json')) problems.push(`${where}: content-type ${answer.type}`);
            const code = envelope.error?.code;
            if (typeof envelope.error?.message !== 'string' || !(ERROR_CODES as readonly unknown[]).includes(code))
              problems.push(`${where}: not the spec's envelope: ${answer.text.slice(0, 120)}`);
          }
        }),
      );
    }
    created = { ...created };
    console.log(
      `battery: API junk on ${backend.name}: ${tally.summary()} over ${operations.length} operations; ${problems.length} outside the contract`,
    );
    // One line per kind of problem, not one per case.
    const kinds = [...new Set(problems.map((p) => p.replace(/ \[[^\]]*\]/, '').slice(0, 240)))];
    expect(kinds).toEqual([]);
    expect(tally.cases).toBeGreaterThan(1000);
    // Nothing half-written: the seeded project is as it was, and only reported creations exist.
    expect((await s.request(`/api/v1/projects/${ids.projectId}`, { key })).body).toEqual(projectBefore);
    expect(await countOf('projects')).toBe(projectsBefore + created.projects);
    expect(await countOf('runs')).toBe(runsBefore + created.runs);
  }, 180_000);
});
