// spec 4.12: webhook endpoints. Paths and bodies the spec leaves open are in docs/decisions.md,
// "Webhooks". The signing secret is shown once, at creation and at each rotation.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import {
  CreateWebhookBody,
  ROTATION_OVERLAP_DEFAULT_SECONDS,
  RotateWebhookSecretBody,
  UpdateWebhookBody,
} from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { encryptSecret } from '../key-encryption.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { planTerms } from '../plans.ts';
import { idParam, pageParams, parseWith, readJson } from '../request.ts';
import { toWebhookDelivery, toWebhookEndpoint } from '../serialize.ts';
import { checkEndpointUrl } from '../webhook-urls.ts';

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export function webhookRoutes({ store, cursors, kek, options, onDeliveryQueued }: ServiceDeps) {
  const app = new Hono<AppEnv>();

  /** The organization of a key that may manage its webhooks (not one pinned to a project). */
  const organizationOf = (c: AppContext) => {
    const { organization, key } = c.get('auth');
    if (key.project_id)
      throw new ApiError(
        403,
        'project_scoped_key',
        "a key pinned to one project cannot manage the organization's webhooks",
      );
    return organization.id;
  };
  const seal = (secret: string) => {
    if (kek instanceof Error)
      throw new ApiError(
        503,
        'key_encryption_unavailable',
        'webhook secrets cannot be stored: the service has no key-encryption key',
      );
    return encryptSecret(kek, secret);
  };
  const body = async (c: AppContext) => {
    const value = await readJson(c);
    if (value === undefined) throw new ApiError(400, 'invalid_json', 'send a JSON body');
    return value;
  };

  /** The endpoint, or a 404 (another organization's, or deleted). */
  const endpointOf = async (c: AppContext) => {
    const organizationId = organizationOf(c);
    const row = await store.webhooks.get(organizationId, idParam(c, 'webhookId', 'webhook endpoint'));
    if (!row) throw notFound('webhook endpoint');
    return row;
  };

  app.post('/', requireScope('webhooks:manage'), async (c) => {
    const organizationId = organizationOf(c);
    const input = parseWith(CreateWebhookBody, await body(c), 'validation_failed');
    const secret = newSecret();
    const limit = planTerms(c.get('auth').organization.plan).webhookEndpointLimit;
    const created = await store.webhooks.createWithin(
      {
        organizationId,
        url: checkEndpointUrl(input.url, options.allowLocalTargets),
        events: [...new Set(input.events ?? ['run.completed', 'run.failed'])],
        description: input.description ?? null,
        secretCiphertext: seal(secret),
      },
      limit,
    );
    if (created.outcome === 'limit_reached')
      throw new ApiError(
        409,
        'webhook_limit_reached',
        `the organization's plan allows ${limit} webhook endpoints; delete one to make room`,
        { details: { limit } },
      );
    return c.json({ ...toWebhookEndpoint(created.row), secret }, 201);
  });

  app.get('/', requireScope('webhooks:manage'), async (c) => {
    const organizationId = organizationOf(c);
    const { limit, cursor } = pageParams(c);
    const { page, nextCursor } = await cursors.newestFirst(`webhooks|${organizationId}`, cursor, limit, (after) =>
      store.webhooks.page({ organizationId, limit, after }),
    );
    return c.json({ webhooks: page.map(toWebhookEndpoint), pagination: { nextCursor, limit } });
  });

  app.get('/:webhookId', requireScope('webhooks:manage'), async (c) => c.json(toWebhookEndpoint(await endpointOf(c))));

  app.patch('/:webhookId', requireScope('webhooks:manage'), async (c) => {
    const organizationId = organizationOf(c);
    const id = idParam(c, 'webhookId', 'webhook endpoint');
    const change = parseWith(UpdateWebhookBody, await body(c), 'validation_failed');
    const row = await store.webhooks.update(organizationId, id, {
      ...(change.url !== undefined ? { url: checkEndpointUrl(change.url, options.allowLocalTargets) } : {}),
      ...(change.events !== undefined ? { events: [...new Set(change.events)] } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.active !== undefined ? { active: change.active } : {}),
    });
    if (!row) throw notFound('webhook endpoint');
    return c.json(toWebhookEndpoint(row));
  });

  app.post('/:webhookId/rotate-secret', requireScope('webhooks:manage'), async (c) => {
    const organizationId = organizationOf(c);
    const id = idParam(c, 'webhookId', 'webhook endpoint');
    const raw = await readJson(c);
    const input = parseWith(RotateWebhookSecretBody, raw ?? {}, 'validation_failed');
    const overlap = input.overlapSeconds ?? ROTATION_OVERLAP_DEFAULT_SECONDS;
    const secret = newSecret();
    const expires = overlap > 0 ? new Date(Date.now() + overlap * 1000).toISOString() : null;
    const row = await store.webhooks.rotate(organizationId, id, seal(secret), expires);
    if (!row) throw notFound('webhook endpoint');
    return c.json({ ...toWebhookEndpoint(row), secret });
  });

  app.delete('/:webhookId', requireScope('webhooks:manage'), async (c) => {
    const removed = await store.webhooks.remove(organizationOf(c), idParam(c, 'webhookId', 'webhook endpoint'));
    if (!removed) throw notFound('webhook endpoint');
    return c.body(null, 204);
  });

  app.get('/:webhookId/deliveries', requireScope('webhooks:manage'), async (c) => {
    const endpoint = await endpointOf(c);
    const { limit, cursor } = pageParams(c);
    const { page, nextCursor } = await cursors.newestFirst(`deliveries|${endpoint.id}`, cursor, limit, (after) =>
      store.deliveries.page(endpoint.organization_id, endpoint.id, limit, after),
    );
    return c.json({ deliveries: page.map(toWebhookDelivery), pagination: { nextCursor, limit } });
  });

  app.post('/:webhookId/deliveries/:deliveryId/redeliver', requireScope('webhooks:manage'), async (c) => {
    const endpoint = await endpointOf(c);
    const deliveryId = idParam(c, 'deliveryId', 'delivery');
    const outcome = await store.deliveries.redeliver(
      endpoint.organization_id,
      endpoint.id,
      deliveryId,
      new Date().toISOString(),
    );
    if (outcome === 'not_found') throw notFound('delivery');
    if (outcome === 'in_progress')
      throw new ApiError(409, 'delivery_in_progress', 'this delivery is being sent right now; ask again when it ends');
    onDeliveryQueued?.();
    return c.json({ deliveryId, status: 'pending' }, 202);
  });

  app.all('/', methodNotAllowed('GET, POST'));
  app.all('/:webhookId', methodNotAllowed('GET, PATCH, DELETE'));
  app.all('/:webhookId/rotate-secret', methodNotAllowed('POST'));
  app.all('/:webhookId/deliveries', methodNotAllowed('GET'));
  app.all('/:webhookId/deliveries/:deliveryId/redeliver', methodNotAllowed('POST'));
  return app;
}
