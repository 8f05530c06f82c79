// The OAuth authorization server's storage (issue 12) on both backends: the contract oidc-provider
// expects of an adapter (find after upsert, expiry, one-time consumption, lookups by uid and user
// code, a grant revoked across models), shared through the database; no secret stored as itself
// (issue 23), and the records of an older version re-keyed by the upgrade, still found.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthAdapterFactory } from '../../src/service/oauth/adapter.ts';
import { openStore, SQLITE_FILE, type Store } from '../../src/service/store/index.ts';
import { storeMigrator } from '../../src/service/store/migrations.ts';
import { nodeSqliteDialect, openSqliteFile } from '../../src/service/store/node-sqlite-dialect.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A database at the schema of an older version (migration `upTo`), as an upgrade finds it. */
async function databaseAt(location: TestLocation, upTo: string): Promise<Kysely<unknown>> {
  const db = location.databaseUrl
    ? new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location.databaseUrl, max: 1 }) }),
      })
    : new Kysely<unknown>({ dialect: nodeSqliteDialect(openSqliteFile(join(location.dataDir, SQLITE_FILE))) });
  const migrator = await storeMigrator(db, location.databaseUrl ? 'postgres' : 'sqlite');
  const { error } = await migrator.migrateTo(upTo);
  if (error) throw error;
  return db;
}

describe.each(testBackends())('OAuth records on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let location: TestLocation;
  let store: Store;
  let other: Store;

  beforeAll(async () => {
    if (!backend.available) return;
    location = await backend.create();
    store = await openStore(location);
    // A second connection to the same database, as another serve process has.
    other = await openStore(location);
  });
  afterAll(async () => {
    if (!backend.available) return;
    await other.close();
    await store.close();
    await location.cleanup();
  });

  test('finds what was written, from another process too, until it expires', async () => {
    const codes = oauthAdapterFactory(store)('AuthorizationCode');
    const elsewhere = oauthAdapterFactory(other)('AuthorizationCode');
    await codes.upsert('code-1', { accountId: 'a', grantId: 'g-1', scope: 'projects:read' }, 60);
    expect(await elsewhere.find('code-1')).toEqual({
      jti: 'code-1',
      accountId: 'a',
      grantId: 'g-1',
      scope: 'projects:read',
    });
    // Models are separate namespaces.
    expect(await oauthAdapterFactory(other)('AccessToken').find('code-1')).toBeUndefined();
    // Written again: replaced whole.
    await codes.upsert('code-1', { accountId: 'b', grantId: 'g-1' }, 60);
    expect(await elsewhere.find('code-1')).toEqual({ jti: 'code-1', accountId: 'b', grantId: 'g-1' });
    await codes.upsert('old', { accountId: 'a' }, -1);
    expect(await codes.find('old')).toBeUndefined();
    // No expiry: kept until destroyed.
    const clients = oauthAdapterFactory(store)('Client');
    await clients.upsert('client-1', { client_id: 'client-1', redirect_uris: ['http://127.0.0.1/cb'] });
    expect(await clients.find('client-1')).toMatchObject({ client_id: 'client-1' });
    await clients.destroy('client-1');
    expect(await clients.find('client-1')).toBeUndefined();
    expect(await store.oauthRecords.prune()).toBeGreaterThanOrEqual(1);
  });

  test('marks a one-time record consumed once, and says when', async () => {
    const codes = oauthAdapterFactory(store)('AuthorizationCode');
    await codes.upsert('code-2', { accountId: 'a' }, 60);
    const before = Math.floor(Date.now() / 1000);
    await Promise.all([codes.consume('code-2'), oauthAdapterFactory(other)('AuthorizationCode').consume('code-2')]);
    const found = await codes.find('code-2');
    expect(found?.consumed).toBeGreaterThanOrEqual(before);
    expect(found?.consumed).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  test('finds sessions by uid and device codes by user code', async () => {
    const sessions = oauthAdapterFactory(store)('Session');
    await sessions.upsert('s-1', { uid: 'uid-1', accountId: 'a' }, 60);
    expect(await oauthAdapterFactory(other)('Session').findByUid('uid-1')).toMatchObject({ accountId: 'a' });
    expect(await sessions.findByUid('uid-2')).toBeUndefined();
    const devices = oauthAdapterFactory(store)('DeviceCode');
    await devices.upsert('d-1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await devices.findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' });
  });

  test('revokes every code and token of a grant, and nothing of another', async () => {
    const adapter = oauthAdapterFactory(store);
    await adapter('AccessToken').upsert('at-1', { grantId: 'g-2' }, 3600);
    await adapter('RefreshToken').upsert('rt-1', { grantId: 'g-2' }, 86_400);
    await adapter('AuthorizationCode').upsert('c-3', { grantId: 'g-2' }, 60);
    await adapter('AccessToken').upsert('at-2', { grantId: 'g-3' }, 3600);
    await oauthAdapterFactory(other)('AccessToken').revokeByGrantId('g-2');
    expect(await adapter('AccessToken').find('at-1')).toBeUndefined();
    expect(await adapter('RefreshToken').find('rt-1')).toBeUndefined();
    expect(await adapter('AuthorizationCode').find('c-3')).toBeUndefined();
    expect(await adapter('AccessToken').find('at-2')).toEqual({ jti: 'at-2', grantId: 'g-3' });
  });

  // Found by the attack battery: codes and tokens were the records' ids, in plain text.
  test('stores codes, tokens, sessions and client secrets only as hashes, and finds them by what is presented', async () => {
    const adapter = oauthAdapterFactory(store);
    const secrets = {
      AuthorizationCode: 'oauth_code-secret-aaaaaaaaaaaaaaaa',
      AccessToken: 'oauth_access-secret-bbbbbbbbbbbbbbbb',
      RefreshToken: 'oauth_refresh-secret-cccccccccccccc',
      RegistrationAccessToken: 'oauth_registration-secret-dddddddd',
      Session: 'session-cookie-value-eeeeeeeeeeeeee',
      Interaction: 'interaction-uid-ffffffffffffffffff',
    };
    for (const [model, secret] of Object.entries(secrets))
      await adapter(model).upsert(secret, { jti: secret, kind: model, grantId: 'g-9', clientId: 'c-9' }, 600);
    await adapter('Interaction').upsert(
      secrets.Interaction,
      { jti: secrets.Interaction, session: { uid: 'u-9', cookie: secrets.Session, accountId: 'a' } },
      600,
    );
    await adapter('Client').upsert('c-9', { client_id: 'c-9', client_secret: 'shared-secret-gggggggggggggg' });
    const everything = JSON.stringify(await store.db.selectFrom('oauth_records').selectAll().execute());
    for (const secret of [...Object.values(secrets), 'shared-secret-gggggggggggggg'])
      expect(everything, secret).not.toContain(secret);
    expect(everything).toContain(sha256(secrets.AccessToken));
    expect(everything).toContain(`sha256:${sha256('shared-secret-gggggggggggggg')}`);
    // Found, from another process too, with the secret given back as the record's id.
    const elsewhere = oauthAdapterFactory(other);
    expect(await elsewhere('AccessToken').find(secrets.AccessToken)).toMatchObject({
      jti: secrets.AccessToken,
      grantId: 'g-9',
    });
    expect(await elsewhere('AccessToken').find(sha256(secrets.AccessToken))).toBeUndefined();
    expect(await elsewhere('Interaction').find(secrets.Interaction)).toEqual({
      jti: secrets.Interaction,
      session: { uid: 'u-9', accountId: 'a' },
    });
    // Client and grant ids are no secret: stored as they are.
    expect((await elsewhere('Client').find('c-9'))?.client_id).toBe('c-9');
    await elsewhere('AuthorizationCode').consume(secrets.AuthorizationCode);
    expect((await adapter('AuthorizationCode').find(secrets.AuthorizationCode))?.consumed).toBeGreaterThan(0);
    await elsewhere('RefreshToken').destroy(secrets.RefreshToken);
    expect(await adapter('RefreshToken').find(secrets.RefreshToken)).toBeUndefined();
  });

  test('an upgrade re-keys the records an older version stored, which keep working', async () => {
    const old = await backend.create();
    try {
      const db = await databaseAt(old, '0007_accounts');
      const inFuture = new Date(Date.now() + 3600_000).toISOString();
      const rows = [
        [
          'AccessToken',
          'oauth-old-access',
          { jti: 'oauth-old-access', grantId: 'g-1', clientId: 'c-used', expiresWithSession: true },
        ],
        ['RefreshToken', 'old-refresh', { jti: 'old-refresh', grantId: 'g-1', clientId: 'c-used' }],
        ['Session', 'old-session', { jti: 'old-session', uid: 'u-1', accountId: 'a' }],
        ['Grant', 'g-1', { jti: 'g-1', accountId: 'a', clientId: 'c-used' }],
        ['Client', 'c-used', { client_id: 'c-used' }],
        ['Client', 'c-idle', { client_id: 'c-idle', client_secret: 'idle-secret-hhhhhhhhhhhh' }],
        ['RegistrationAccessToken', 'old-registration', { jti: 'old-registration', clientId: 'c-idle' }],
      ] as const;
      for (const [model, id, payload] of rows)
        await sql`insert into oauth_records (model, id, payload, grant_id, uid, expires_at)
          values (${model}, ${id}, ${JSON.stringify(payload)}, ${'grantId' in payload ? payload.grantId : null},
            ${'uid' in payload ? payload.uid : null}, ${model === 'Client' || model === 'Grant' || model === 'RegistrationAccessToken' ? null : inFuture})`.execute(
          db,
        );
      await db.destroy();

      const upgraded = await openStore(old);
      try {
        const adapter = oauthAdapterFactory(upgraded);
        const everything = JSON.stringify(await upgraded.db.selectFrom('oauth_records').selectAll().execute());
        for (const secret of [
          'oauth-old-access',
          'old-refresh',
          'old-session',
          'old-registration',
          'idle-secret-hhhhhhhhhhhh',
        ])
          expect(everything, secret).not.toContain(secret);
        const access = await adapter('AccessToken').find('oauth-old-access');
        expect(access).toMatchObject({ jti: 'oauth-old-access', grantId: 'g-1' });
        // Tokens no longer end with the browser session they were issued in.
        expect(access).not.toHaveProperty('expiresWithSession');
        expect(await adapter('RefreshToken').find('old-refresh')).toMatchObject({ grantId: 'g-1' });
        expect(await adapter('Session').find('old-session')).toMatchObject({ accountId: 'a' });
        expect(await adapter('Session').findByUid('u-1')).toMatchObject({ accountId: 'a' });
        expect(await adapter('RegistrationAccessToken').find('old-registration')).toMatchObject({ clientId: 'c-idle' });
        // A registration nothing was authorized with now expires within the hour; a used one stays.
        const expiry = async (model: string, id: string) =>
          (
            await upgraded.db
              .selectFrom('oauth_records')
              .select('expires_at')
              .where('model', '=', model)
              .where('client_id', '=', id)
              .executeTakeFirst()
          )?.expires_at;
        expect(await expiry('Client', 'c-used')).toBeNull();
        expect(Date.parse((await expiry('Client', 'c-idle')) as string)).toBeGreaterThan(Date.now());
        expect(await expiry('RegistrationAccessToken', 'c-idle')).toBe(await expiry('Client', 'c-idle'));
      } finally {
        await upgraded.close();
      }
    } finally {
      await old.cleanup();
    }
  });
});
