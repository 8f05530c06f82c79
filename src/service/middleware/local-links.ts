// The two halves of local report links (see ../local-links.ts): the API gives the local key its
// humanUrls with a token, and a dashboard page opened with a valid token on this machine signs the
// local user in and drops the token from the address.
import type { MiddlewareHandler } from 'hono';
import { localUser } from '../accounts.ts';
import type { AppEnv, ServiceDeps } from '../context.ts';
import { messagePage } from '../dashboard/account-pages.ts';
import { CONTENT_SECURITY_POLICY } from '../dashboard/layout.ts';
import { ACCESS_PARAM, isLoopbackAddress, isLoopbackHost, type LocalLinks } from '../local-links.ts';
import type { Store } from '../store/index.ts';

const REFUSED_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/** Answers of the API to the local key: every humanUrl in a JSON body carries its token. */
export function issueLocalLinks(links: LocalLinks | undefined, publicUrl: () => string): MiddlewareHandler<AppEnv> {
  return async function linkHumanUrls(c, next) {
    await next();
    if (!links || c.get('auth')?.key.source !== 'local') return;
    const answer = c.res;
    // Every success carries links: 200, 201, and 202 (a run just started: start_run's first link).
    if (answer.status < 200 || answer.status >= 300) return;
    if (!answer.headers.get('content-type')?.startsWith('application/json')) return;
    const text = await answer.text();
    const body = text.includes('"humanUrl"') ? JSON.stringify(links.linkAll(JSON.parse(text), publicUrl())) : text;
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    c.res = undefined;
    c.res = new Response(body, { status: answer.status, headers });
  };
}

/** The organization a dashboard page belongs to (its run's or project's), when it exists. */
async function organizationOf(store: Store, pathname: string): Promise<string | undefined> {
  const [, kind, id] = pathname.split('/');
  if (!id) return undefined;
  const row = kind === 'runs' ? await store.runs.getById(id) : await store.projects.getById(id);
  return row?.organization_id;
}

/** A dashboard page opened through a local link: the local user is signed in, and the token dropped. */
export function signInByLocalLink(
  { store, sessions }: ServiceDeps,
  links: LocalLinks | undefined,
): MiddlewareHandler<AppEnv> {
  return async function localLinkSignIn(c, next) {
    const token = c.req.query(ACCESS_PARAM);
    // A deployment has no local links: a token is ignored, and the page's own rule applies (sign in).
    if (token === undefined || !links || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    const path = c.req.path;
    if (!links.valid(path, token)) return next();
    if (!isLoopbackAddress(c.env?.incoming?.socket?.remoteAddress) || !isLoopbackHost(c.req.header('host'))) {
      return c.html(
        messagePage(
          'Open this link on the computer that runs siteaudit',
          'This report link signs in only a browser on the computer where the local siteaudit service runs.',
        ),
        403,
        REFUSED_HEADERS,
      );
    }
    const organizationId = await organizationOf(store, path);
    if (!organizationId) return next();
    const who = await sessions.read(c);
    if (!who?.workspaces.some((w) => w.organization.id === organizationId)) {
      const user = await localUser(store, organizationId);
      await sessions.start(c, user.id, organizationId);
    }
    const rest = new URL(c.req.url).searchParams;
    rest.delete(ACCESS_PARAM);
    const query = rest.toString();
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    return c.redirect(query ? `${path}?${query}` : path, 303);
  };
}
