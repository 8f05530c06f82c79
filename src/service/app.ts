// The service's HTTP app: API v1 under /api/v1 with its middleware, /openapi.json, and one error
// handler that renders every failure in the spec's envelope (2.1).
import { type Handler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { clientHungUp } from './client-address.ts';
import type { AppEnv, ServiceDeps } from './context.ts';
import { messagePage } from './dashboard/account-pages.ts';
import { ApiError } from './errors.ts';
import { logger } from './logger.ts';
import { bearsToken, METRICS_CONTENT_TYPE, metricsToken, scrape } from './metrics.ts';
import { auditLog } from './middleware/audit-log.ts';
import { authenticate, presentedKeyHash } from './middleware/authenticate.ts';
import { issueLocalLinks, signInByLocalLink } from './middleware/local-links.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { loggableTarget, requestLog } from './middleware/request-log.ts';
import { oauthTokenLookup } from './oauth/tokens.ts';
import { accountRoutes, PAGE_HEADERS } from './routes/account.ts';
import { cliAuthorizeRoutes } from './routes/cli-authorize.ts';
import { cliRevokeRoutes, cliTokenRoutes } from './routes/cli-token.ts';
import { dashboardRoutes, projectPageRoutes, sharedRunRoutes } from './routes/dashboard.ts';
import { assetRoutes, keysPageRoutes } from './routes/keys-page.ts';
import { meRoutes } from './routes/me.ts';
import { monitoringRoutes } from './routes/monitoring.ts';
import { oauthConsentRoutes } from './routes/oauth-consent.ts';
import { passkeyRoutes } from './routes/passkeys.ts';
import { projectAccessRoutes } from './routes/project-access.ts';
import { projectDiscoveryRoutes } from './routes/project-discovery.ts';
import { projectRoutes } from './routes/projects.ts';
import { recheckRoutes } from './routes/recheck.ts';
import { runRoutes } from './routes/runs.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { isStoreUnavailable } from './store/context.ts';

// spec 4: every operation needs the bearer key except the token exchange.
const PUBLIC_API_PATHS = new Set(['/api/v1/cli/token', '/api/v1/cli/revoke']);

/**
 * /metrics on the API's port, for a bearer of the operator's SITEAUDIT_METRICS_TOKEN only; without
 * one set, the path does not exist here (`serve --metrics-port` serves the metrics on their own port).
 */
function metricsRoute(store: ServiceDeps['store']): Handler<AppEnv> {
  const token = metricsToken();
  return async function serveMetrics(c) {
    if (!token) return c.notFound();
    if (!bearsToken(c.req.header('authorization'), token))
      throw new ApiError(401, 'unauthorized', 'send Authorization: Bearer with the metrics token', {
        headers: { 'WWW-Authenticate': 'Bearer realm="siteaudit-metrics"' },
      });
    return c.body(await scrape(store), 200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
  };
}

export function createApp(deps: ServiceDeps): Hono<AppEnv> {
  const { store, options } = deps;
  const app = new Hono<AppEnv>();
  let openApi: string | undefined;

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(error.toBody(), error.status as ContentfulStatusCode, error.headers);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 413 ? 'payload_too_large' : 'invalid_request';
      return c.json({ error: { code, message: error.message || 'bad request' } }, error.status);
    }
    const id = c.get('requestId');
    // A client that hung up mid-body (or was cut off by the request timeout) is its own fault, not
    // the database's (its ECONNRESET looks like one); nobody reads the answer, nothing is logged.
    if (clientHungUp(c.env?.incoming, error)) {
      return c.json({ error: { code: 'invalid_request', message: 'the request body was cut off' } }, 400);
    }
    if (isStoreUnavailable(error)) {
      logger().error(
        { requestId: id },
        `${c.req.method} ${loggableTarget(c)}: database unavailable: ${(error as Error).message}`,
      );
      return c.json(
        { error: { code: 'service_unavailable', message: 'the service cannot reach its database; retry shortly' } },
        503,
        { 'Retry-After': '5' },
      );
    }
    logger().error({ requestId: id, err: error }, `${c.req.method} ${loggableTarget(c)} failed (request ${id})`);
    return c.json({ error: { code: 'internal_error', message: `internal error (request ${id})`, requestId: id } }, 500);
  });
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` } }, 404),
  );

  // An id a client sends is kept when it is short and plain (letters, digits, _, - and =), else one is made.
  app.use('*', requestId({ limitLength: 128 }));
  app.use('*', requestLog());
  app.get('/metrics', metricsRoute(store));
  app.get('/openapi.json', (c) => {
    openApi ??= JSON.stringify(buildOpenApiDocument(options.publicUrl));
    return c.body(openApi, 200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    });
  });
  app.get('/healthz', (c) => c.json({ ok: true, version: options.version }));
  // The dashboard's forms are bounded like API bodies (the API has its own limit below).
  const formLimit = bodyLimit({
    maxSize: options.maxBodyBytes,
    onError: (c) => c.html(messagePage('Too large', 'The form was too large.'), 413, PAGE_HEADERS),
  });
  app.use('*', (c, next) => (c.req.path.startsWith('/api/') ? next() : formLimit(c, next)));
  const localLinkSignIn = signInByLocalLink(deps, deps.localLinks);
  app.use('/runs/*', localLinkSignIn);
  app.use('/projects/*', localLinkSignIn);
  app.route('/runs', dashboardRoutes(deps));
  app.route('/projects', projectPageRoutes(deps));
  app.route('/shared', sharedRunRoutes(deps));
  app.route('/cli', cliAuthorizeRoutes(deps));
  app.route('/keys', keysPageRoutes(deps));
  app.route('/account', passkeyRoutes(deps));
  app.route('/oauth/consent', oauthConsentRoutes(deps));
  app.route('/assets', assetRoutes());
  app.route('/', accountRoutes(deps));

  const api = new Hono<AppEnv>();
  api.use('*', auditLog(store, deps.auditBursts, options.trustProxy, options.mcpSecret));
  api.use('*', async function defaultHeaders(c, next) {
    await next();
    // API answers are private to a key (and the token exchange returns a secret: RFC 6749 5.1), so
    // nothing is cached unless a route says otherwise (completed runs will).
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
  api.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: (c) =>
        c.json(
          { error: { code: 'payload_too_large', message: `request body is over ${options.maxBodyBytes} bytes` } },
          413,
        ),
    }),
  );
  const requireKey = authenticate(store, oauthTokenLookup(store, deps.oauth, deps.oauthResources));
  const limitRate = rateLimit(store, options.rateLimit, options.localRateLimit);
  api.use('*', async function throttleThenAuthenticate(c, next) {
    const isPublic = PUBLIC_API_PATHS.has(c.req.path);
    const admission = await deps.addressThrottle.admit(
      c.get('clientAddress'),
      presentedKeyHash(c.req.header('authorization')),
    );
    if (!admission.admitted) {
      const wait = admission.retryAfterSeconds;
      throw new ApiError(429, 'rate_limited', `too many refused requests from this address; retry in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
        details: { retryAfterSeconds: wait },
      });
    }
    let refused = false;
    try {
      if (isPublic) await next();
      else
        await requireKey(c, async () => {
          admission.settle(false); // accepted: decided now, not when the answer is done (a long poll)
          await limitRate(c, next);
        });
      // A refused token exchange counts too: its codes must not be guessed at speed.
      refused = c.res.status === 401 || (isPublic && c.res.status >= 400 && c.res.status < 500);
    } catch (error) {
      refused = error instanceof ApiError && error.status === 401;
      throw error;
    } finally {
      admission.settle(refused);
    }
  });
  api.use(
    '*',
    issueLocalLinks(deps.localLinks, () => options.publicUrl),
  );
  api.route('/cli/token', cliTokenRoutes(deps));
  api.route('/cli/revoke', cliRevokeRoutes(deps));
  api.route('/me', meRoutes(deps));
  api.route('/projects', projectRoutes(deps));
  api.route('/projects', projectDiscoveryRoutes(deps));
  api.route('/projects', monitoringRoutes(deps));
  api.route('/projects', projectAccessRoutes(deps));
  api.route('/runs', runRoutes(deps));
  api.route('/runs', recheckRoutes(deps));
  api.route('/webhooks', webhookRoutes(deps));
  app.route('/api/v1', api);
  return app;
}
