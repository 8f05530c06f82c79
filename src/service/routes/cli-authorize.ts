// The consent screen of `siteaudit login` (spec 4.2 and 5.2.2; RFC 8252 loopback redirect, RFC 7636
// PKCE S256). The client opens /cli/authorize in the browser; a signed-in person allows or denies,
// and the browser is sent back to the client's loopback address with a single-use code (or
// `error=access_denied`). A redirect that is not a loopback address is never followed.
import { Hono } from 'hono';
import { SCOPES } from '../../contract/index.ts';
import { createAuthorizationCode, isLoopbackRedirect } from '../cli-auth.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { consentPage, messagePage } from '../dashboard/account-pages.ts';
import { field, formHeaders, formOf, refusedForm } from './account.ts';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const STATE = /^[\x21-\x7e]{1,256}$/;
const NAME = /^[\p{L}\p{N} ._()-]{1,60}$/u;

interface AuthorizeRequest {
  redirectUri: string;
  codeChallenge: string;
  state: string;
  clientName: string;
  keyName: string;
}

/** The request's parameters, or why they are refused (`redirect: false`: the redirect itself is bad). */
function readRequest(
  get: (name: string) => string | undefined,
): { ok: true; request: AuthorizeRequest } | { ok: false; redirect: boolean; reason: string } {
  const redirectUri = get('redirect_uri') ?? '';
  if (!isLoopbackRedirect(redirectUri))
    return { ok: false, redirect: false, reason: 'redirect_uri must be an http loopback address with a port' };
  const codeChallenge = get('code_challenge') ?? '';
  const state = get('state') ?? '';
  if (get('code_challenge_method') !== 'S256' || !CHALLENGE.test(codeChallenge))
    return { ok: false, redirect: true, reason: 'a PKCE S256 code_challenge is required' };
  if (!STATE.test(state)) return { ok: false, redirect: true, reason: 'state is required' };
  const clientName = get('client_name') ?? 'siteaudit command line';
  const keyName = get('key_name') ?? clientName;
  if (!NAME.test(clientName) || !NAME.test(keyName))
    return { ok: false, redirect: true, reason: 'client_name and key_name are plain names of up to 60 characters' };
  return { ok: true, request: { redirectUri, codeChallenge, state, clientName, keyName } };
}

function back(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

export function cliAuthorizeRoutes({ store, sessions }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const refuse = (c: AppContext, reason: string) =>
    c.html(messagePage('This sign-in link is not valid', reason), 400, formHeaders());

  app.get('/authorize', async (c) => {
    const read = readRequest((name) => c.req.query(name));
    if (!read.ok) {
      if (!read.redirect) return refuse(c, read.reason);
      const redirectUri = c.req.query('redirect_uri') as string;
      return c.redirect(
        back(redirectUri, {
          error: 'invalid_request',
          error_description: read.reason,
          state: c.req.query('state') ?? '',
        }),
        303,
      );
    }
    const who = await sessions.read(c);
    if (!who)
      return c.redirect(`/sign-in?next=${encodeURIComponent(`/cli/authorize${new URL(c.req.url).search}`)}`, 303);
    if (!who.current)
      return c.html(
        messagePage('No workspace', 'You do not belong to a workspace; ask an owner for an invitation link.'),
        403,
        formHeaders(),
      );
    const { request } = read;
    const redirect = new URL(request.redirectUri);
    return c.html(
      consentPage({
        who,
        csrf: sessions.csrfToken(c),
        clientName: request.clientName,
        redirectHost: redirect.host,
        scopes: SCOPES,
        hidden: {
          redirect_uri: request.redirectUri,
          code_challenge: request.codeChallenge,
          code_challenge_method: 'S256',
          state: request.state,
          client_name: request.clientName,
          key_name: request.keyName,
        },
      }),
      200,
      // The answer to the form is a redirect to the client on this machine: the policy must let it go there.
      formHeaders({ formAction: [redirect.origin] }),
    );
  });

  app.post('/authorize', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const read = readRequest((name) => field(form, name));
    if (!read.ok) return refuse(c, read.reason);
    const { request } = read;
    const who = await sessions.read(c);
    if (!who?.current) return c.redirect('/sign-in', 303);
    if (field(form, 'decision') !== 'allow')
      return c.redirect(back(request.redirectUri, { error: 'access_denied', state: request.state }), 303);
    const code = await createAuthorizationCode(store, {
      organizationId: who.current.organization.id,
      codeChallenge: request.codeChallenge,
      redirectUri: request.redirectUri,
      keyName: request.keyName,
      // spec 5.2.2: the same scope as a key made on the dashboard.
      scopes: SCOPES,
      userId: who.user.id,
    });
    return c.redirect(back(request.redirectUri, { code, state: request.state }), 303);
  });

  return app;
}
