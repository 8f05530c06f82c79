// The secrets battery (issue 23), on both backends: a real `siteaudit serve` is used the way its
// clients use it (an API key, webhook secrets made and rotated, a person signed in, OAuth clients
// registered, public and confidential, codes traded for tokens, tokens refreshed, used, and pasted
// into paths), then every column of every table the schema lists, and everything the process
// logged, is searched for each secret it handed out. None may be there as itself.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { addMember, createUser } from '../../src/service/accounts.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { testBackends } from '../support/backends.ts';
import { runJson, type ServeProcess, startServe } from '../support/cli.ts';
import { TestBrowser } from '../support/form-browser.ts';
import { request } from '../support/service.ts';

const MCP = 'https://mcp.acme.example/mcp';
const REDIRECT = 'http://127.0.0.1:47009/callback';
const PASSWORD = 'correct horse battery staple';
/** The cookies that stand for a signed-in person or an authorization in progress. */
const SECRET_COOKIES = new Set(['siteaudit_session', '_session', '_interaction', '_interaction_resume']);

/** Every table of the schema, by the backend's own catalogue. */
async function tablesOf(store: Store): Promise<string[]> {
  const { rows } =
    store.backend === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(store.db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(store.db);
  return rows.map((row) => row.name);
}

/** Where each secret is found: `table.column` per hit. */
async function findInTables(store: Store, secrets: readonly string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const table of await tablesOf(store)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
    for (const row of rows)
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : String(value);
        for (const secret of secrets)
          if (text.includes(secret)) hits.push(`${table}.${column}: ${secret.slice(0, 10)}…`);
      }
  }
  return hits;
}

describe.each(testBackends())('secrets at rest and in logs on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  test('no secret handed out is stored or logged as itself', async () => {
    const location = await backend.create();
    cleanup.push(() => location.cleanup());
    const where = location.databaseUrl
      ? ['--database-url', location.databaseUrl, '--data-dir', location.dataDir]
      : ['--data-dir', location.dataDir];
    const secrets = new Set<string>([PASSWORD]);
    const keep = (...values: (string | undefined)[]) => {
      for (const value of values) {
        expect(value, 'a secret the service answered with').toBeTypeOf('string');
        secrets.add(value as string);
      }
    };

    const org = await runJson<{ organizationId: string }>(['admin', 'org', 'create', '--name', 'Acme', ...where]);
    const { secret: key } = await runJson<{ secret: string }>([
      'admin',
      'key',
      'create',
      '--org',
      org.organizationId,
      ...where,
    ]);
    keep(key);
    const store = await openStore(location);
    cleanup.push(() => store.close());
    const ann = await createUser(store, { email: 'ann@example.com', name: 'Ann', password: PASSWORD });
    await addMember(store, ann.id, org.organizationId, 'owner');
    const serve: ServeProcess = await startServe([...where, '--no-local-org', '--mcp-url', MCP]);
    cleanup.push(() => serve.stop('SIGKILL'));
    const api = <T>(path: string, options: Parameters<typeof request>[2] = {}) =>
      request<T>(serve.url, path, { key, ...options });

    // Webhook signing secrets: made, then rotated.
    const hook = await api<{ webhookId: string; secret: string }>('/api/v1/webhooks', {
      method: 'POST',
      json: { url: 'https://hooks.example.com/in' },
    });
    expect(hook.status, hook.text).toBe(201);
    const rotated = await api<{ secret: string }>(`/api/v1/webhooks/${hook.body.webhookId}/rotate-secret`, {
      method: 'POST',
    });
    expect(rotated.status, rotated.text).toBe(200);
    keep(hook.body.secret, rotated.body.secret);

    // OAuth: a public client and a confidential one (as some hosts register), each authorized.
    const browser = new TestBrowser(serve.url);
    expect((await browser.signIn('ann@example.com', PASSWORD)).status).toBe(303);
    const post = (path: string, fields: Record<string, string>, auth?: string) =>
      fetch(`${serve.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(auth ? { authorization: auth } : {}),
        },
        body: new URLSearchParams(fields),
      });
    async function registerClient(method: 'none' | 'client_secret_post') {
      const answer = await fetch(`${serve.url}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: `Battery ${method}`,
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: method,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        }),
      });
      const body = (await answer.json()) as Record<string, string>;
      expect(answer.status, JSON.stringify(body)).toBe(201);
      keep(body.registration_access_token, ...(method === 'none' ? [] : [body.client_secret]));
      return body as { client_id: string; client_secret?: string; registration_access_token: string };
    }
    const noteCookies = () => {
      for (const [name, value] of browser.cookies) if (SECRET_COOKIES.has(name)) secrets.add(value);
    };
    async function authorize(clientId: string): Promise<{ code: string; verifier: string }> {
      const verifier = randomBytes(32).toString('base64url');
      const url = new URL(`${serve.url}/oauth/auth`);
      for (const [name, value] of Object.entries({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
        scope: 'projects:read runs:read',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'st',
        resource: MCP,
      }))
        url.searchParams.set(name, value);
      let page = await browser.get(url.href);
      for (let i = 0; i < 5 && page.location && !page.location.includes('/oauth/consent/'); i++)
        page = await browser.get(new URL(page.location, serve.url).href);
      noteCookies();
      const consent = await browser.get(new URL(page.location as string, serve.url).pathname);
      let answer = await browser.post(new URL(consent.url).pathname, { decision: 'allow' }, { from: consent });
      for (let i = 0; i < 5 && answer.location && !answer.location.startsWith(REDIRECT); i++) {
        noteCookies();
        answer = await browser.get(new URL(answer.location, serve.url).href);
      }
      noteCookies();
      const code = new URL(answer.location as string).searchParams.get('code') as string;
      keep(code);
      return { code, verifier };
    }
    async function tokens(fields: Record<string, string>, auth?: string) {
      const answer = await post('/oauth/token', { resource: MCP, ...fields }, auth);
      const body = (await answer.json()) as Record<string, string>;
      expect(answer.status, JSON.stringify(body)).toBe(200);
      keep(body.access_token, body.refresh_token);
      return body as { access_token: string; refresh_token: string };
    }

    const open = await registerClient('none');
    const first = await authorize(open.client_id);
    const pair = await tokens({
      grant_type: 'authorization_code',
      code: first.code,
      redirect_uri: REDIRECT,
      client_id: open.client_id,
      code_verifier: first.verifier,
    });
    const renewed = await tokens({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token,
      client_id: open.client_id,
    });

    const confidential = await registerClient('client_secret_post');
    const second = await authorize(confidential.client_id);
    const wrongSecret = await post('/oauth/token', {
      grant_type: 'authorization_code',
      code: second.code,
      redirect_uri: REDIRECT,
      client_id: confidential.client_id,
      client_secret: 'not-the-secret',
      code_verifier: second.verifier,
      resource: MCP,
    });
    expect(wrongSecret.status).toBe(401);
    const secretPair = await tokens({
      grant_type: 'authorization_code',
      code: second.code,
      redirect_uri: REDIRECT,
      client_id: confidential.client_id,
      client_secret: confidential.client_secret as string,
      code_verifier: second.verifier,
    });
    // The registration read (RFC 7592) answers without the stored secret.
    const read = await fetch(`${serve.url}/oauth/reg/${confidential.client_id}`, {
      headers: { authorization: `Bearer ${confidential.registration_access_token}` },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).not.toHaveProperty('client_secret');

    // Tokens used, and pasted where they do not belong: a path, with and without being the bearer.
    for (const token of [renewed.access_token, secretPair.access_token]) {
      expect((await api('/api/v1/me', { key: token })).status).toBe(200);
      expect((await api(`/api/v1/projects/${token}`, { key: token })).status).toBe(404);
      expect((await api(`/api/v1/runs/${token}`, { key: null })).status).toBe(401);
    }
    expect((await api(`/api/v1/projects/${key}`)).status).toBe(404);
    // A revoked token is still a secret: revoked, it must not be left lying around either.
    expect(
      (await post('/oauth/token/revocation', { token: pair.refresh_token, client_id: open.client_id })).status,
    ).toBe(200);

    // Stopped: every burst of refusals is written and the log is complete.
    expect(await serve.stop('SIGTERM')).toBe(0);
    const all = [...secrets];
    expect(all.length).toBeGreaterThanOrEqual(16);
    expect(await findInTables(store, all)).toEqual([]);
    const logged = serve.stderr();
    expect(all.filter((secret) => logged.includes(secret)).map((secret) => `${secret.slice(0, 10)}…`)).toEqual([]);
    // The scan does look: the audit log holds the pasted tokens, cut to their prefixes.
    const paths = (await store.auditLog.recent(100)).map((row) => row.path);
    expect(paths).toContain(`/api/v1/projects/${renewed.access_token.slice(0, 14)}…`);
  });
});
