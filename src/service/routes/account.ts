// The dashboard's people pages (issue 12; docs/decisions.md, "Accounts"): sign-in and sign-out, the
// one-time sign-in link of the embedded default, the workspace home and switcher, members and
// invitations. Every form is checked for its CSRF token; sign-in is throttled by email and by client
// address and never tells whether an email has an account. An invitation is for one email address:
// its form makes new accounts only, and an existing account accepts it signed in (issue 23).
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  AccountExists,
  addMember,
  checkCredentials,
  createUser,
  Email,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  Password,
  PersonName,
  ROLES,
  type Role,
} from '../accounts.ts';
import { hashSecret } from '../api-keys.ts';
import { clientAddress } from '../client-address.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { homePage, invitationPage, membersPage, messagePage, signInPage } from '../dashboard/account-pages.ts';
import { contentSecurityPolicy } from '../dashboard/layout.ts';
import { minuteWindow } from '../middleware/rate-limit.ts';
import type { SignedIn } from '../sessions.ts';
import { uuidv7 } from '../store/ids.ts';
import { relyingParty } from './passkeys.ts';

export const INVITATION_DAYS = 7;
/** Failed sign-in attempts per minute for one email, and for one client address. */
export const SIGN_IN_PER_EMAIL = 5;
export const SIGN_IN_PER_ADDRESS = 20;

export const PAGE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

export const formHeaders = (extra: { formAction?: string[]; script?: boolean } = {}) => ({
  ...PAGE_HEADERS,
  'Content-Security-Policy': contentSecurityPolicy({ ...extra, formAction: ["'self'", ...(extra.formAction ?? [])] }),
});

/** The answer to a form whose CSRF token does not match: expired, or posted from another site. */
export const refusedForm = (c: AppContext, headers: Record<string, string> = formHeaders()) =>
  c.html(
    messagePage('Refused', 'This form has expired or came from another site. Go back, reload the page and try again.'),
    403,
    headers,
  );

/** A path of this service to go to after sign-in; anything else (another site, `//host`) goes home. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && next.length < 2000 ? next : '/';
}

/** The form fields of a POST, as strings (repeated fields as arrays). */
export async function formOf(c: AppContext): Promise<Record<string, string | string[]>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(type)) return {};
  const body = await c.req.parseBody({ all: true });
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') fields[name] = value;
    else if (Array.isArray(value)) fields[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return fields;
}

export const field = (form: Record<string, string | string[]>, name: string) => {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
};

export function accountRoutes({ store, sessions, options }: ServiceDeps) {
  const app = new Hono<AppEnv>();

  // A service that audits this machine's own sites is the embedded default (or a developer's): its
  // person signs in with a one-time link from the command line.
  const localHint = (next: string) => ({
    ...(options.allowLocalTargets ? { localCommand: `siteaudit dashboard '${options.publicUrl}${next}'` } : {}),
    passkeys: relyingParty(options.publicUrl) !== undefined,
  });
  const toSignIn = (c: Context<AppEnv>) =>
    c.redirect(`/sign-in?next=${encodeURIComponent(c.req.path + (new URL(c.req.url).search ?? ''))}`, 303);

  /** Runs `work` for a signed-in person with a workspace, else sends them to sign in. */
  const signedIn =
    (work: (c: AppContext, who: SignedIn & { current: NonNullable<SignedIn['current']> }) => Promise<Response>) =>
    async (c: AppContext) => {
      const who = await sessions.read(c);
      if (!who) return toSignIn(c);
      if (!who.current)
        return c.html(
          messagePage('No workspace', 'You do not belong to a workspace; ask an owner for an invitation link.'),
          200,
          formHeaders(),
        );
      return work(c, who as SignedIn & { current: NonNullable<SignedIn['current']> });
    };

  app.get('/sign-in', async (c) => {
    const next = safeNext(c.req.query('next'));
    if (await sessions.read(c)) return c.redirect(next, 303);
    return c.html(
      signInPage({ csrf: sessions.csrfToken(c), next, ...localHint(next) }),
      200,
      formHeaders({ script: true }),
    );
  });

  app.post('/sign-in', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const next = safeNext(field(form, 'next'));
    const emailText = field(form, 'email') ?? '';
    const email = Email.safeParse(emailText);
    const password = field(form, 'password') ?? '';
    const again = (error: string, status: 401 | 429 | 400) =>
      c.html(
        signInPage({ csrf: sessions.csrfToken(c), next, error, email: emailText.slice(0, 254), ...localHint(next) }),
        status,
        formHeaders(),
      );
    if (!email.success || password.length === 0 || password.length > 1024)
      return again('Enter your email address and password.', 400);
    // Throttled whether or not the account exists, so the limit tells nothing either.
    const { start: minute, resetIn } = minuteWindow();
    const address = clientAddress(c.env?.incoming, c.req.header('x-forwarded-for'), options.trustProxy);
    const emailKey = `sign-in|email|${hashSecret(email.data)}`;
    const addressKey = `sign-in|address|${address}`;
    // Taken before the check, so a burst in parallel cannot pass the limit; a good sign-in gives them back.
    const [byEmail, byAddress] = await Promise.all([
      store.rateLimits.take(emailKey, minute, SIGN_IN_PER_EMAIL),
      store.rateLimits.take(addressKey, minute, SIGN_IN_PER_ADDRESS),
    ]);
    if (byEmail === null || byAddress === null) {
      c.header('Retry-After', String(resetIn));
      return again('Too many sign-in attempts. Wait a minute and try again.', 429);
    }
    const user = await checkCredentials(store, email.data, password);
    if (!user) return again('That email and password do not match an account.', 401);
    await Promise.all([store.rateLimits.giveBack(emailKey, minute), store.rateLimits.giveBack(addressKey, minute)]);
    const workspaces = await store.accounts.workspaces(user.id);
    await sessions.start(c, user.id, workspaces[0]?.organization.id ?? null);
    return c.redirect(next, 303);
  });

  app.post('/sign-out', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    await sessions.end(c, await sessions.read(c));
    return c.redirect('/sign-in', 303);
  });

  // The embedded default's local user (`siteaudit dashboard`): a link that works once, for a minute.
  app.get('/auth/link/:token', async (c) => {
    const userId = await store.accounts.useSignInLink(hashSecret(c.req.param('token')), new Date().toISOString());
    if (!userId)
      return c.html(
        messagePage('Link used or expired', 'Sign-in links work once, within a minute. Run siteaudit dashboard again.'),
        410,
        formHeaders(),
      );
    const workspaces = await store.accounts.workspaces(userId);
    await sessions.start(c, userId, workspaces[0]?.organization.id ?? null);
    return c.redirect(safeNext(c.req.query('next')), 303);
  });

  app.get(
    '/',
    signedIn(async (c, who) => {
      const projects = await store.projects.page({
        organizationId: who.current.organization.id,
        status: undefined,
        limit: 100,
      });
      return c.html(homePage(who, sessions.csrfToken(c), projects.slice(0, 100)), 200, formHeaders());
    }),
  );

  app.post('/workspace', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const who = await sessions.read(c);
    if (!who) return toSignIn(c);
    const target = who.workspaces.find((w) => w.organization.id === field(form, 'organizationId'));
    if (target) await store.accounts.touchSession(who.tokenHash, { organization_id: target.organization.id });
    return c.redirect(safeNext(c.req.header('referer') ? new URL(c.req.header('referer') ?? '/').pathname : '/'), 303);
  });

  const members = async (
    c: AppContext,
    who: SignedIn & { current: NonNullable<SignedIn['current']> },
    shown: { link?: string; error?: string } = {},
  ) => {
    const now = new Date().toISOString();
    const organizationId = who.current.organization.id;
    const open = who.current.role === 'owner' ? await store.accounts.openInvitations(organizationId, now) : [];
    return c.html(
      membersPage(
        who,
        sessions.csrfToken(c),
        await store.accounts.members(organizationId),
        open.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expires_at })),
        shown,
      ),
      shown.error ? 400 : 200,
      formHeaders(),
    );
  };

  app.get(
    '/members',
    signedIn((c, who) => members(c, who)),
  );

  app.post(
    '/members/invitations',
    signedIn(async (c, who) => {
      const form = await formOf(c);
      if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
      if (who.current.role !== 'owner')
        return c.html(messagePage('Owners only', 'Only owners invite members.'), 403, formHeaders());
      const role = (ROLES as readonly string[]).includes(field(form, 'role') ?? '')
        ? (field(form, 'role') as Role)
        : 'member';
      // The invitation is for one person: only whoever signs in with this address accepts it.
      const email = Email.safeParse(field(form, 'email') ?? '');
      if (!email.success) return members(c, who, { error: 'Enter the email address of the person you invite.' });
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      await store.accounts.insertInvitation({
        token_hash: hashSecret(token),
        id: uuidv7(),
        organization_id: who.current.organization.id,
        role,
        invited_by: who.user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
        used_at: null,
        used_by: null,
        email: email.data,
      });
      // No mail server is assumed: the owner passes the link on.
      return members(c, who, { link: `${options.publicUrl}/invitations/${token}` });
    }),
  );

  const invitationOf = async (token: string) => {
    const invitation = await store.accounts.findInvitation(hashSecret(token));
    const now = new Date().toISOString();
    if (!invitation || invitation.used_at || invitation.expires_at <= now) return undefined;
    const organization = await store.organizations.get(invitation.organization_id);
    return organization ? { invitation, organization } : undefined;
  };
  type Found = NonNullable<Awaited<ReturnType<typeof invitationOf>>>;
  const invitationGone = (c: AppContext) =>
    c.html(
      messagePage('Invitation used or expired', 'Ask the owner who sent it for a new invitation link.'),
      410,
      formHeaders(),
    );
  /** Whether `email` may accept it: the address it was made for (any, on one made before issue 23). */
  const invitedEmail = (found: Found, email: string) =>
    found.invitation.email === null || found.invitation.email === email;
  // The page knows nothing of the invited address's account: to anyone not signed in it is the same
  // page, offering both sign-in and a new account, and it never takes an existing account's password.
  const invitation = (
    c: AppContext,
    token: string,
    found: Found,
    who: SignedIn | undefined,
    error?: { text: string; status: 400 | 403 | 429 },
  ) =>
    c.html(
      invitationPage({
        csrf: sessions.csrfToken(c),
        token,
        workspace: found.organization.name,
        role: found.invitation.role,
        ...(who ? { signedInAs: who.user.email, invited: invitedEmail(found, who.user.email) } : {}),
        ...(error ? { error: error.text } : {}),
      }),
      error?.status ?? 200,
      formHeaders(),
    );

  app.get('/invitations/:token', async (c) => {
    const found = await invitationOf(c.req.param('token'));
    if (!found) return invitationGone(c);
    return invitation(c, c.req.param('token'), found, await sessions.read(c));
  });

  app.post('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const found = await invitationOf(token);
    if (!found) return invitationGone(c);
    const who = await sessions.read(c);
    // Signed in: the person accepts as themself, and only the one it was made for.
    if (who) {
      if (!invitedEmail(found, who.user.email))
        return invitation(c, token, found, who, {
          text: 'This invitation was made for another email address. Sign out, then open the link again.',
          status: 403,
        });
      return join(c, token, found, who.user.id, who);
    }
    // Not signed in: the form only makes a new account. An existing account joins by signing in
    // (with sign-in's throttles) and accepting here, so no password is ever checked on this form.
    const input = {
      name: PersonName.safeParse(field(form, 'name') ?? ''),
      email: Email.safeParse(field(form, 'email') ?? ''),
      password: Password.safeParse(field(form, 'password') ?? ''),
    };
    if (!input.name.success || !input.email.success || !input.password.success)
      return invitation(c, token, found, undefined, {
        text: !input.name.success
          ? 'Enter your name (at most 100 characters, no control characters).'
          : !input.email.success
            ? 'Enter a valid email address.'
            : `Choose a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
        status: 400,
      });
    if (!invitedEmail(found, input.email.data))
      return invitation(c, token, found, undefined, {
        text: 'This invitation was made for another email address.',
        status: 400,
      });
    // Counted as sign-in attempts (per email and per address), so the form is no faster a probe of
    // which addresses are taken than sign-in is; a new account gives its counts back.
    const { start: minute, resetIn } = minuteWindow();
    const keys = [
      { key: `sign-in|email|${hashSecret(input.email.data)}`, limit: SIGN_IN_PER_EMAIL },
      {
        key: `sign-in|address|${clientAddress(c.env?.incoming, c.req.header('x-forwarded-for'), options.trustProxy)}`,
        limit: SIGN_IN_PER_ADDRESS,
      },
    ];
    const taken = await Promise.all(keys.map((k) => store.rateLimits.take(k.key, minute, k.limit)));
    if (taken.includes(null)) {
      c.header('Retry-After', String(resetIn));
      return invitation(c, token, found, undefined, {
        text: 'Too many attempts. Wait a minute and try again.',
        status: 429,
      });
    }
    // Without mail, a new account cannot be made for an address that has one; the answer is the one
    // the page gives everyone, and says nothing of why.
    const signInInstead = {
      text: 'No new account was made. To join with this email address, sign in with it, then accept here.',
      status: 400,
    } as const;
    if (await store.accounts.findUserByEmail(input.email.data))
      return invitation(c, token, found, undefined, signInInstead);
    let userId: string;
    try {
      userId = (
        await createUser(store, { email: input.email.data, name: input.name.data, password: input.password.data })
      ).id;
    } catch (error) {
      if (error instanceof AccountExists) return invitation(c, token, found, undefined, signInInstead);
      throw error;
    }
    await Promise.all(keys.map((k) => store.rateLimits.giveBack(k.key, minute)));
    return join(c, token, found, userId, undefined);
  });

  async function join(c: AppContext, token: string, found: Found, userId: string, who: SignedIn | undefined) {
    if (!(await store.accounts.useInvitation(hashSecret(token), userId, new Date().toISOString())))
      return invitationGone(c);
    await addMember(store, userId, found.organization.id, found.invitation.role as Role);
    if (who) await store.accounts.touchSession(who.tokenHash, { organization_id: found.organization.id });
    else await sessions.start(c, userId, found.organization.id);
    return c.redirect('/', 303);
  }

  return app;
}
