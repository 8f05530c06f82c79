// Passkeys (WebAuthn; issue 12) through @simplewebauthn/server: a signed-in person adds one from the
// Account page, and signs in with it from the sign-in page. The relying party is the service's public
// address (its host name; WebAuthn takes no IP address, so a service reached by IP offers none).
// Challenges are kept in the store for 5 minutes and used once; the browser holds only their id, in
// an HttpOnly cookie. The pages' script sends JSON with the CSRF token in a header. Anyone may ask
// for a sign-in challenge, so their table is bounded (issue 23): per client address a minute, expired
// ones pruned before each is added, and a ceiling on all kept at once; a person has one registration
// challenge at a time.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { PlainText } from '../../contract/index.ts';
import { clientAddress } from '../client-address.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { accountPage } from '../dashboard/account-pages.ts';
import { minuteWindow } from '../middleware/rate-limit.ts';
import { formHeaders, formOf, refusedForm, safeNext } from './account.ts';

const CHALLENGE_MS = 5 * 60_000;
const CHALLENGE_COOKIE = 'siteaudit_webauthn';
const PASSKEY_SIGN_INS_PER_MINUTE = 20;
/** Sign-in challenges one client address may ask for in a minute. */
export const SIGN_IN_CHALLENGES_PER_MINUTE = 20;
/** Challenges kept at once, for every client together: beyond it, sign-in challenges are refused. */
export const MAX_CHALLENGES = 10_000;

/** The relying party of a public address, or undefined when passkeys cannot work there (an IP). */
export function relyingParty(publicUrl: string): { id: string; origin: string } | undefined {
  try {
    const url = new URL(publicUrl);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return isIP(host) ? undefined : { id: host, origin: url.origin };
  } catch {
    return undefined;
  }
}

export function passkeyRoutes({ store, sessions, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const json = (c: AppContext, body: unknown, status: 200 | 201 | 400 | 401 | 403 | 404 | 429 = 200) =>
    c.json(body, status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  const problem = (c: AppContext, status: 400 | 401 | 403 | 404, message: string) =>
    json(c, { error: { code: 'invalid_request', message } }, status);
  /** 429 in the spec's envelope, with Retry-After as the API's own rate limit sends it. */
  const tooMany = (c: AppContext, message: string) => {
    const { resetIn } = minuteWindow();
    c.header('Retry-After', String(resetIn));
    return json(c, { error: { code: 'rate_limited', message, retryAfterSeconds: resetIn } }, 429);
  };
  const addressOf = (c: AppContext) =>
    clientAddress(c.env?.incoming, c.req.header('x-forwarded-for'), options.trustProxy);

  /** The relying party, and a CSRF check of the JSON request (token in `x-csrf-token`). */
  function guard(c: AppContext) {
    const rp = relyingParty(options.publicUrl);
    if (!rp) return { refused: problem(c, 400, 'passkeys need the service at a host name, not an IP address') };
    if (!sessions.csrfValid(c, c.req.header('x-csrf-token')))
      return { refused: problem(c, 403, 'this page has expired; reload it and try again') };
    return { rp };
  }

  async function rememberChallenge(c: AppContext, challenge: string, purpose: string, userId: string | null) {
    const id = randomBytes(24).toString('base64url');
    // Expired ones go first, so the table holds at most the challenges of the last CHALLENGE_MS.
    await store.accounts.pruneChallenges(new Date().toISOString());
    await store.accounts.insertChallenge({
      id,
      challenge,
      user_id: userId,
      purpose,
      expires_at: new Date(Date.now() + CHALLENGE_MS).toISOString(),
    });
    setCookie(c, CHALLENGE_COOKIE, id, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure: options.publicUrl.startsWith('https:'),
      maxAge: CHALLENGE_MS / 1000,
    });
  }

  async function takeChallenge(c: AppContext, purpose: string) {
    const id = getCookie(c, CHALLENGE_COOKIE);
    deleteCookie(c, CHALLENGE_COOKIE, { path: '/' });
    return id && id.length < 100 ? store.accounts.takeChallenge(id, purpose, new Date().toISOString()) : undefined;
  }

  async function body<T>(c: AppContext): Promise<T | undefined> {
    try {
      return (await c.req.json()) as T;
    } catch {
      return undefined;
    }
  }

  app.get('/', async (c) => {
    const who = await sessions.read(c);
    if (!who) return c.redirect('/sign-in?next=/account', 303);
    return c.html(
      accountPage({
        who,
        csrf: sessions.csrfToken(c),
        passkeys: await store.accounts.passkeys(who.user.id),
        available: relyingParty(options.publicUrl) !== undefined,
      }),
      200,
      formHeaders({ script: true }),
    );
  });

  app.post('/passkeys/options', async (c) => {
    const { rp, refused } = guard(c);
    if (refused) return refused;
    const who = await sessions.read(c);
    if (!who) return problem(c, 401, 'sign in first');
    const existing = await store.accounts.passkeys(who.user.id);
    const creation = await generateRegistrationOptions({
      rpName: 'siteaudit',
      rpID: rp.id,
      userName: who.user.email,
      userDisplayName: who.user.name,
      userID: new TextEncoder().encode(who.user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as string[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await store.accounts.dropChallenges(who.user.id, 'register');
    await rememberChallenge(c, creation.challenge, 'register', who.user.id);
    return json(c, creation);
  });

  app.post('/passkeys', async (c) => {
    const { rp, refused } = guard(c);
    if (refused) return refused;
    const who = await sessions.read(c);
    if (!who) return problem(c, 401, 'sign in first');
    const input = await body<{ response?: RegistrationResponseJSON; name?: unknown }>(c);
    const name = PlainText.safeParse(typeof input?.name === 'string' ? input.name.trim().slice(0, 60) : '');
    const expected = await takeChallenge(c, 'register');
    if (!input?.response || !expected || expected.user_id !== who.user.id)
      return problem(c, 400, 'this passkey request has expired; try again');
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: input.response,
        expectedChallenge: expected.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (error) {
      return problem(c, 400, `the passkey could not be verified: ${(error as Error).message.slice(0, 200)}`);
    }
    if (!verified.verified) return problem(c, 400, 'the passkey could not be verified');
    const { credential } = verified.registrationInfo;
    await store.accounts.insertPasskey({
      id: credential.id,
      user_id: who.user.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      name: name.success && name.data ? name.data : 'passkey',
      created_at: new Date().toISOString(),
      last_used_at: null,
    });
    return json(c, { ok: true }, 201);
  });

  app.post('/passkeys/:id/delete', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const who = await sessions.read(c);
    if (!who) return c.redirect('/sign-in?next=/account', 303);
    await store.accounts.deletePasskey(who.user.id, c.req.param('id'));
    return c.redirect('/account', 303);
  });

  app.post('/sign-in/options', async (c) => {
    const { rp, refused } = guard(c);
    if (refused) return refused;
    const key = `passkey-options|address|${addressOf(c)}`;
    if ((await store.rateLimits.take(key, minuteWindow().start, SIGN_IN_CHALLENGES_PER_MINUTE)) === null)
      return tooMany(c, 'too many passkey sign-in requests from this address; wait a minute');
    // A burst in parallel may pass the ceiling by its own size, which the per-address limit bounds.
    if ((await store.accounts.countChallenges(new Date().toISOString())) >= MAX_CHALLENGES)
      return tooMany(c, 'too many passkey sign-ins are under way; wait a minute, or sign in with your password');
    const request = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
    await rememberChallenge(c, request.challenge, 'sign-in', null);
    return json(c, request);
  });

  app.post('/sign-in', async (c) => {
    const { rp, refused } = guard(c);
    if (refused) return refused;
    const minute = minuteWindow().start;
    if ((await store.rateLimits.take(`passkey|address|${addressOf(c)}`, minute, PASSKEY_SIGN_INS_PER_MINUTE)) === null)
      return tooMany(c, 'too many sign-in attempts; wait a minute');
    const input = await body<{ response?: AuthenticationResponseJSON; next?: unknown }>(c);
    const expected = await takeChallenge(c, 'sign-in');
    const passkey =
      typeof input?.response?.id === 'string' ? await store.accounts.findPasskey(input.response.id) : undefined;
    // One answer for an unknown passkey, a stale challenge and a bad signature.
    const refusal = () => problem(c, 401, 'this passkey was not accepted; sign in with your password');
    if (!input?.response || !expected || !passkey) return refusal();
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response: input.response,
        expectedChallenge: expected.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
        credential: {
          id: passkey.id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: Number(passkey.counter),
          transports: JSON.parse(passkey.transports) as never,
        },
      });
    } catch {
      return refusal();
    }
    if (!verified.verified) return refusal();
    await store.accounts.usePasskey(passkey.id, verified.authenticationInfo.newCounter, new Date().toISOString());
    const workspaces = await store.accounts.workspaces(passkey.user_id);
    await sessions.start(c, passkey.user_id, workspaces[0]?.organization.id ?? null);
    return json(c, { redirect: safeNext(input.next) });
  });

  return app;
}
