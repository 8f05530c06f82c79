// spec 4.2: the token exchange of the browser sign-in (loopback + PKCE S256), on both backends.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliTokenResponse } from '../../src/contract/index.ts';
import { createAuthorizationCode } from '../../src/service/cli-auth.ts';
import { testBackends } from '../support/backends.ts';
import { expectError } from '../support/expect-error.ts';
import { startTestService, type TestService } from '../support/service.ts';

const REDIRECT = 'http://127.0.0.1:53682/callback';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe.each(testBackends())('POST /api/v1/cli/token on $name', (backend) => {
  let s: TestService;
  let organizationId: string;
  const test = it.skipIf(!backend.available);

  const exchange = (json: unknown, target: TestService = s) =>
    target.request('/api/v1/cli/token', { method: 'POST', json });
  const newCode = async (challenge: string, target: TestService = s, org = organizationId) =>
    createAuthorizationCode(target.store, {
      organizationId: org,
      codeChallenge: challenge,
      redirectUri: REDIRECT,
      keyName: 'laptop',
      scopes: ['projects:read', 'runs:read'],
    });

  beforeAll(async () => {
    if (!backend.available) return;
    s = await startTestService(backend);
    organizationId = (await s.createOrg({ name: 'Sign In' })).id;
  });
  afterAll(async () => {
    if (backend.available) await s.close();
  });

  test('exchanges a code once for a working key (201), with no bearer key needed', async () => {
    const { verifier, challenge } = pkce();
    const code = await newCode(challenge);
    const res = await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT });
    expect(res.status).toBe(201);
    // RFC 6749 5.1: a response holding a credential must not be cached.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = CliTokenResponse.parse(res.body);
    expect(body).toMatchObject({
      keyName: 'laptop',
      scopes: ['projects:read', 'runs:read'],
      organizationId,
      organizationSlug: 'sign-in',
    });
    const me = await s.request<{ keyPrefix: string }>('/api/v1/me', { key: body.secret });
    expect(me.body.keyPrefix).toBe(body.keyPrefix);
    expectError(await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT }), 400, 'invalid_grant');
  });

  test.each([
    ['code', { code_verifier: 'v', redirect_uri: REDIRECT }],
    ['code_verifier', { code: 'c', redirect_uri: REDIRECT }],
    ['redirect_uri', { code: 'c', code_verifier: 'v' }],
  ])('400 invalid_request without %s', async (_field, json) => {
    expectError(await exchange(json), 400, 'invalid_request');
  });

  test.each([
    ['broken JSON', '{"code":'],
    ['an empty body', ''],
    ['an array', '[]'],
    ['numbers for strings', '{"code":1,"code_verifier":2,"redirect_uri":3}'],
  ])('400 invalid_request for %s', async (_name, body) => {
    expectError(await s.request('/api/v1/cli/token', { method: 'POST', body }), 400, 'invalid_request');
  });

  test('400 invalid_grant for an unknown code', async () => {
    expectError(await exchange({ code: 'nope', code_verifier: 'v', redirect_uri: REDIRECT }), 400, 'invalid_grant');
  });

  test('400 invalid_grant for a wrong verifier, and the code is spent', async () => {
    const { verifier, challenge } = pkce();
    const code = await newCode(challenge);
    expectError(await exchange({ code, code_verifier: pkce().verifier, redirect_uri: REDIRECT }), 400, 'invalid_grant');
    expectError(await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT }), 400, 'invalid_grant');
  });

  test('400 invalid_grant for a different redirect_uri', async () => {
    const { verifier, challenge } = pkce();
    const code = await newCode(challenge);
    expectError(
      await exchange({ code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:53683/callback' }),
      400,
      'invalid_grant',
    );
  });

  test('400 invalid_grant for an expired code', async () => {
    const { verifier, challenge } = pkce();
    const code = await createAuthorizationCode(
      s.store,
      { organizationId, codeChallenge: challenge, redirectUri: REDIRECT, keyName: 'old', scopes: ['runs:read'] },
      new Date(Date.now() - 10 * 60_000),
    );
    expectError(await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT }), 400, 'invalid_grant');
  });

  test('refuses to issue codes for a non-loopback redirect or a non-S256 challenge', async () => {
    const base = { organizationId, keyName: 'k', scopes: [] as [] };
    await expect(
      createAuthorizationCode(s.store, {
        ...base,
        codeChallenge: pkce().challenge,
        redirectUri: 'https://evil.example/cb',
      }),
    ).rejects.toThrow(/loopback/);
    await expect(
      createAuthorizationCode(s.store, { ...base, codeChallenge: 'plain', redirectUri: REDIRECT }),
    ).rejects.toThrow(/S256/);
  });

  /** Exchanges a fresh code on a service whose key-encryption key is `kek`; answers the response. */
  async function exchangeWithKek(
    kek: Buffer | Error,
    check: (service: TestService) => Promise<void>,
    expected: [number, string],
  ) {
    const broken = await startTestService(backend, { kek });
    try {
      const org = await broken.createOrg();
      const { verifier, challenge } = pkce();
      const code = await newCode(challenge, broken, org.id);
      expectError(await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT }, broken), ...expected);
      await check(broken);
    } finally {
      await broken.close();
    }
  }

  test('503 key_encryption_unavailable when the key-encryption key cannot be loaded, and the code is kept', async () => {
    await exchangeWithKek(
      new Error('no KEK'),
      async (broken) => {
        const row = await broken.store.db.selectFrom('cli_auth_codes').select('used_at').executeTakeFirst();
        expect(row?.used_at).toBeNull();
      },
      [503, 'key_encryption_unavailable'],
    );
  });

  test('500 internal_error when the credential cannot be issued, and no key is stored', async () => {
    // A key-encryption key of the wrong length makes encryption itself fail.
    await exchangeWithKek(
      Buffer.alloc(16),
      async (broken) => {
        expect(await broken.store.db.selectFrom('api_keys').selectAll().execute()).toEqual([]);
      },
      [500, 'internal_error'],
    );
  });

  test('503 service_unavailable with Retry-After when the database is gone', async () => {
    const doomed = await startTestService(backend);
    try {
      const org = await doomed.createOrg();
      const { verifier, challenge } = pkce();
      const code = await newCode(challenge, doomed, org.id);
      await doomed.store.close();
      const res = await exchange({ code, code_verifier: verifier, redirect_uri: REDIRECT }, doomed);
      expectError(res, 503, 'service_unavailable');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await doomed.service.close();
      await doomed.location.cleanup();
    }
  });
});
