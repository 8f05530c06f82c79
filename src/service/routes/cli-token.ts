// spec 4.2: POST /api/v1/cli/token, the only operation without a bearer key.
import { Hono } from 'hono';
import { CliRevokeRequest, CliTokenRequest } from '../../contract/index.ts';
import { hashSecret } from '../api-keys.ts';
import { exchangeAuthorizationCode } from '../cli-auth.ts';
import type { AppEnv, ServiceDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { parseWith, readJson } from '../request.ts';

export function cliTokenRoutes({ store, kek }: ServiceDeps) {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const body = await readJson(c, 'invalid_request');
      if (body === undefined)
        throw new ApiError(400, 'invalid_request', 'send code, code_verifier and redirect_uri as JSON');
      const request = parseWith(CliTokenRequest, body, 'invalid_request');
      if (kek instanceof Error) {
        throw new ApiError(
          503,
          'key_encryption_unavailable',
          'keys cannot be issued now: the key-encryption key is unavailable',
        );
      }
      return c.json(await exchangeAuthorizationCode(store, kek, request), 201);
    })
    .all('/', methodNotAllowed('POST'));
}

export function cliRevokeRoutes({ store }: ServiceDeps) {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const body = await readJson(c, 'invalid_request');
      if (body === undefined) throw new ApiError(400, 'invalid_request', 'send {"token": "svc_..."} as JSON');
      const { token } = parseWith(CliRevokeRequest, body, 'invalid_request');
      const found = token.startsWith('svc_') ? await store.apiKeys.findActiveByHash(hashSecret(token)) : undefined;
      if (found) await store.apiKeys.revoke(found.key.organization_id, found.key.id);
      return c.json({ revoked: true });
    })
    .all('/', methodNotAllowed('POST'));
}
