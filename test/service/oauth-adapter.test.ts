// The OAuth authorization server's storage (issue 12) on both backends: the contract oidc-provider
// expects of an adapter (find after upsert, expiry, one-time consumption, lookups by uid and user
// code, a grant revoked across models), shared through the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthAdapterFactory } from '../../src/service/oauth/adapter.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import { type TestLocation, testBackends } from '../support/backends.ts';

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
    expect(await elsewhere.find('code-1')).toEqual({ accountId: 'a', grantId: 'g-1', scope: 'projects:read' });
    // Models are separate namespaces.
    expect(await oauthAdapterFactory(other)('AccessToken').find('code-1')).toBeUndefined();
    // Written again: replaced whole.
    await codes.upsert('code-1', { accountId: 'b', grantId: 'g-1' }, 60);
    expect(await elsewhere.find('code-1')).toEqual({ accountId: 'b', grantId: 'g-1' });
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
    expect(await adapter('AccessToken').find('at-2')).toEqual({ grantId: 'g-3' });
  });
});
