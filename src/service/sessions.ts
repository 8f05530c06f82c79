// Browser sessions and CSRF protection of the dashboard (issue 12; docs/decisions.md, "Accounts").
// A session is a random token in an HttpOnly, SameSite=Lax cookie (`__Host-` and Secure when the
// service is reached over https), stored as its hash. Every form carries a CSRF token: the HMAC of a
// random cookie of its own under a service secret (the signed double-submit pattern), so a form
// works before sign-in too; a request whose Origin is another site is refused as well.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { hashSecret } from './api-keys.ts';
import type { AppContext } from './context.ts';
import type { Workspace } from './store/accounts.ts';
import type { SessionRow, Store, UserRow } from './store/index.ts';

const SESSION_DAYS = 14;
/** A session's expiry moves on with use, written at most this often. */
const TOUCH_EVERY_MS = 3600_000;
/** Revealing a key's secret needs the password entered this recently. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export interface SignedIn {
  tokenHash: string;
  session: SessionRow;
  user: UserRow;
  workspaces: Workspace[];
  /** The workspace the session is in; undefined when the person belongs to none. */
  current: Workspace | undefined;
}

function isSecure(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

function cookieName(base: string, publicUrl: string): string {
  return isSecure(publicUrl) ? `__Host-${base}` : base;
}

function cookieOptions(publicUrl: string, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    secure: isSecure(publicUrl),
    sameSite: 'Lax' as const,
    maxAge: maxAgeSeconds,
  };
}

/** `afterStart` is told after each sign-in (the local-targets policy counts the people again). */
export function sessionStore(
  store: Store,
  publicUrl: () => string,
  csrfSecret: string,
  afterStart?: () => Promise<void>,
) {
  const sessionCookie = () => cookieName('siteaudit_session', publicUrl());
  const csrfCookie = () => cookieName('siteaudit_csrf', publicUrl());
  const csrfOf = (value: string) => createHmac('sha256', csrfSecret).update(value).digest('base64url');

  return {
    /** Starts a session for `user` in `organizationId` and sets its cookie. */
    async start(c: AppContext, userId: string, organizationId: string | null): Promise<void> {
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      await store.accounts.insertSession({
        token_hash: hashSecret(token),
        user_id: userId,
        organization_id: organizationId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
        reauthenticated_at: now.toISOString(),
      });
      setCookie(c, sessionCookie(), token, cookieOptions(publicUrl(), SESSION_DAYS * 86_400));
      await afterStart?.();
    },

    /** The signed-in person of this request, or undefined. */
    async read(c: AppContext): Promise<SignedIn | undefined> {
      const token = getCookie(c, sessionCookie());
      if (!token || token.length > 100) return undefined;
      const tokenHash = hashSecret(token);
      const now = new Date();
      const found = await store.accounts.findSession(tokenHash, now.toISOString());
      if (!found) return undefined;
      const workspaces = await store.accounts.workspaces(found.user.id);
      const current =
        workspaces.find((w) => w.organization.id === found.session.organization_id) ?? workspaces[0] ?? undefined;
      if (now.getTime() - Date.parse(found.session.last_seen_at) > TOUCH_EVERY_MS) {
        await store.accounts.touchSession(tokenHash, {
          last_seen_at: now.toISOString(),
          expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
        });
      }
      return { tokenHash, session: found.session, user: found.user, workspaces, current };
    },

    async end(c: AppContext, signedIn: SignedIn | undefined): Promise<void> {
      if (signedIn) await store.accounts.deleteSession(signedIn.tokenHash);
      deleteCookie(c, sessionCookie(), { path: '/', secure: isSecure(publicUrl()) });
    },

    /** The token a form of this response carries (its cookie is set when missing). */
    csrfToken(c: AppContext): string {
      let value = getCookie(c, csrfCookie());
      if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
        value = randomBytes(32).toString('base64url');
        setCookie(c, csrfCookie(), value, { ...cookieOptions(publicUrl(), 86_400 * 365), sameSite: 'Strict' });
      }
      return csrfOf(value);
    },

    /** True when a form's token matches this browser's CSRF cookie and the request comes from this site. */
    csrfValid(c: AppContext, token: unknown): boolean {
      const origin = c.req.header('origin');
      if (origin && origin !== 'null' && origin !== new URL(publicUrl()).origin) return false;
      const value = getCookie(c, csrfCookie());
      if (!value || typeof token !== 'string') return false;
      const expected = Buffer.from(csrfOf(value));
      const given = Buffer.from(token);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
