// POST /api/v1/runs/{runId}/recheck (an addition, issue 26): the checks behind one finding of a
// completed run re-run on up to five URLs, in seconds, so an agent can check its fix before the next
// audit. No credits, a rate of its own, the audits' SSRF guard and page bounds; nothing stored
// changes (spec 2.5: a later look is never a resolution).
import { Hono } from 'hono';
import { elementFingerprint, pageFingerprint, siteScope } from '../../audit/fingerprint.ts';
import { type EngineProduct, RecheckInputError, recheck, recheckUrls } from '../../audit/index.ts';
import {
  type Finding,
  RECHECK_NOTE,
  RECHECK_URLS_MAX,
  RecheckBody,
  type RecheckResult,
  Rendering,
} from '../../contract/index.ts';
import type { AppEnv, ServiceDeps } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { methodNotAllowed } from '../middleware/method-not-allowed.ts';
import { minuteWindow } from '../middleware/rate-limit.ts';
import { requireScope } from '../middleware/require-scope.ts';
import { accessLoader } from '../project-access.ts';
import { parseWith, readJson } from '../request.ts';
import { checkIdOf, fingerprintOf } from '../run-comparison.ts';
import type { RunRow } from '../store/index.ts';
import { findRun, resultsUnavailable } from './runs.ts';

/** Rechecks an organization may start a minute, across processes (the store's rate windows). */
export const RECHECKS_PER_MINUTE = 30;
/** Rechecks of one organization at once in this process: each fetches up to five pages. */
const RECHECKS_AT_ONCE = 2;
/** The longest a recheck may take before it is cut off (a page that drips its answer). */
const RECHECK_DEADLINE_MS = 60_000;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const isThisMachine = (host: string) =>
  LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Whether the run judged the finding's pages rendered in Chromium: then the recheck renders too, or
 * a defect a script adds (or a fix a script makes) would be judged on the served HTML instead.
 */
function renderedInRun(row: RunRow, finding: Finding): boolean {
  if (!row.report) return false;
  const parsed = Rendering.safeParse((JSON.parse(row.report) as { rendering?: unknown }).rendering);
  if (!parsed.success) return false;
  const rendered = new Set(parsed.data.pages.map((page) => page.url));
  return finding.affectedUrls.some((url) => rendered.has(url));
}

export function recheckRoutes({ store, options, engine, kek }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const accessFor = accessLoader(store, kek);
  const running = new Map<string, number>();

  app.post(
    '/:runId/recheck',
    requireScope('runs:write', (c) => findRun(c, store).then(() => undefined)),
    async (c) => {
      const { organization } = c.get('auth');
      const row = await findRun(c, store);
      if (row.status !== 'completed') throw resultsUnavailable(row);
      const body = await readJson(c);
      if (body === undefined)
        throw new ApiError(400, 'invalid_json', 'send a JSON body such as {"findingId": "f_..."}');
      const input = parseWith(RecheckBody, body, 'validation_failed');
      // A project made while local targets were allowed (the service has since become shared).
      if (row.local === 1 && !options.allowLocalTargets)
        throw new ApiError(
          400,
          'validation_failed',
          'the run targets this machine; local targets are not allowed on this service',
        );
      const finding = await findingOf(row, input);
      const checkIds = [checkIdOf(finding, row), ...(finding.alsoChecks ?? [])].filter(
        (id): id is string => id !== undefined,
      );
      if (checkIds.length === 0)
        throw new ApiError(
          400,
          'validation_failed',
          'this finding was stored before rechecks and names no check; audit again',
        );
      // By default the finding's pages, the first five of them (the request may name any five).
      const given =
        input.urls ?? (finding.affectedUrls.length ? finding.affectedUrls.slice(0, RECHECK_URLS_MAX) : [row.url]);
      const urls = targetsOf(row, given);
      await takeRate(organization.id);
      const local = urls.some((url) => isThisMachine(new URL(url).hostname.toLowerCase()));
      const held = running.get(organization.id) ?? 0;
      if (held >= RECHECKS_AT_ONCE)
        throw new ApiError(429, 'rate_limited', `${RECHECKS_AT_ONCE} rechecks are running; retry in 5 s`, {
          headers: { 'Retry-After': '5' },
          details: { retryAfterSeconds: 5 },
        });
      running.set(organization.id, held + 1);
      try {
        const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(RECHECK_DEADLINE_MS)]);
        // The project's access settings, for the run's own origin (a recheck sees what the run saw).
        const access = await accessFor(row.project_id, row.url).catch((error: Error) => {
          throw new ApiError(503, 'key_encryption_unavailable', error.message);
        });
        const result = await recheck(
          row.product as EngineProduct,
          {
            urls,
            checkIds,
            local: local || row.local === 1,
            ...(renderedInRun(row, finding) ? { rendered: true } : {}),
          },
          { ...engine, signal, ...(local ? { allowPrivate: true } : {}), ...(access ? { access } : {}) },
        );
        const primary = checkIds[0] as string;
        const answer: RecheckResult = {
          runId: row.id,
          findingId: finding.findingId,
          fingerprint: fingerprintOf(finding, row) ?? '',
          checkIds: result.checks,
          results: result.results.map((r) => ({
            url: r.url,
            ...(r.finalUrl ? { finalUrl: r.finalUrl } : {}),
            status: r.status,
            checks: r.checks.map(({ id, verdict, detail }) => ({ id, verdict, detail })),
            evidence: r.evidence.map((item) => {
              const url = item.url ?? r.url;
              return {
                ...item,
                fingerprint: pageFingerprint(primary, url),
                ...(item.elements
                  ? { elements: item.elements.map((e) => ({ ...e, fingerprint: elementFingerprint(primary, url, e) })) }
                  : {}),
              };
            }),
            ...(r.detail ? { detail: r.detail } : {}),
            ...(r.error ? { error: r.error } : {}),
          })),
          ms: Math.round(result.ms),
          note:
            input.urls === undefined && finding.affectedUrls.length > RECHECK_URLS_MAX
              ? `${RECHECK_NOTE} These are the first ${RECHECK_URLS_MAX} of the finding's ${finding.affectedUrls.length} pages; name others in urls.`
              : RECHECK_NOTE,
        };
        return c.json(answer, 200, { 'Cache-Control': 'no-store' });
      } catch (error) {
        if (error instanceof RecheckInputError)
          throw new ApiError(400, 'validation_failed', error.message, { details: { field: 'urls' } });
        throw error;
      } finally {
        const left = (running.get(organization.id) ?? 1) - 1;
        if (left > 0) running.set(organization.id, left);
        else running.delete(organization.id);
      }
    },
  );
  app.all('/:runId/recheck', methodNotAllowed('POST'));
  return app;

  async function findingOf(row: RunRow, input: RecheckBody): Promise<Finding> {
    const rows = await store.runs.allFindings(row.id);
    for (const stored of rows) {
      const finding = JSON.parse(stored.body) as Finding;
      if (input.findingId ? finding.findingId === input.findingId : fingerprintOf(finding, row) === input.fingerprint)
        return finding;
    }
    throw notFound('finding');
  }

  /**
   * The URLs to judge: http(s), on the project's site, or on this machine (a dev server) where the
   * service allows local targets. Anything else is refused before a request is made.
   */
  function targetsOf(row: RunRow, given: readonly string[]): string[] {
    let urls: string[];
    try {
      urls = recheckUrls(given);
    } catch (error) {
      throw new ApiError(400, 'validation_failed', (error as Error).message, { details: { field: 'urls' } });
    }
    const site = siteScope(row.url).split(':')[0];
    for (const url of urls) {
      const parsed = new URL(url);
      if (parsed.username || parsed.password) {
        // Said without them: an error is logged and shown, a password must not be.
        parsed.username = '';
        parsed.password = '';
        throw new ApiError(
          400,
          'validation_failed',
          `${parsed.href} was given with a user name or password; give the page's address alone`,
          { details: { field: 'urls', url: parsed.href } },
        );
      }
      const host = parsed.hostname.toLowerCase();
      const onSite = host === site || host === `www.${site}`;
      if (onSite) continue;
      if (isThisMachine(host) && options.allowLocalTargets) continue;
      throw new ApiError(
        400,
        'validation_failed',
        options.allowLocalTargets
          ? `${url} is not on the project's site (${site}), nor a server on this machine (a dev server)`
          : `${url} is not on the project's site (${site}); this service does not allow local targets`,
        { details: { field: 'urls', url } },
      );
    }
    return urls;
  }

  async function takeRate(organizationId: string): Promise<void> {
    const { start, resetIn } = minuteWindow();
    const count = await store.rateLimits.take(`recheck:${organizationId}`, start, RECHECKS_PER_MINUTE);
    if (count === null)
      throw new ApiError(
        429,
        'rate_limited',
        `over ${RECHECKS_PER_MINUTE} rechecks per minute for this organization; retry in ${resetIn} s`,
        { headers: { 'Retry-After': String(resetIn) }, details: { retryAfterSeconds: resetIn } },
      );
  }
}
