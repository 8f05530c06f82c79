// The API Keys page of a workspace (spec 5.2.1; issue 12): create a key with a name, scopes and an
// optional project pin, its secret shown once with a copy button; re-reveal it after entering the
// password again; the list masked as prefix and suffix with last use; revocation that takes effect
// on the very next request (keys are looked up on every request).
import { Hono } from 'hono';
import { z } from 'zod';
import { PlainText, SCOPES, type Scope } from '../../contract/index.ts';
import { checkCredentials } from '../accounts.ts';
import { issueKey, maskSecret, parseScopes } from '../api-keys.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { COPY_SCRIPT, keysPage, messagePage, PASSKEYS_SCRIPT } from '../dashboard/account-pages.ts';
import { decryptSecret } from '../key-encryption.ts';
import { minuteWindow } from '../middleware/rate-limit.ts';
import { REAUTH_WINDOW_MS, type SignedIn } from '../sessions.ts';
import type { ApiKeyRow } from '../store/index.ts';
import { field, formHeaders, formOf, PAGE_HEADERS, refusedForm } from './account.ts';

type Member = SignedIn & { current: NonNullable<SignedIn['current']> };

const KeyName = PlainText.pipe(z.string().trim().min(1).max(100));
/** Password attempts to reveal keys, per person per minute. */
const REVEALS_PER_MINUTE = 5;

export function keysPageRoutes({ store, sessions, kek }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const headers = formHeaders({ script: true });

  const secretOf = (ciphertext: string): string | undefined => {
    if (kek instanceof Error) return undefined;
    try {
      return decryptSecret(kek, ciphertext);
    } catch {
      return undefined;
    }
  };

  async function render(
    c: AppContext,
    who: Member,
    extra: {
      shown?: { name: string; secret: string; note: string };
      error?: string;
      status?: 200 | 201 | 400 | 401 | 403 | 429 | 503;
    } = {},
  ) {
    const organizationId = who.current.organization.id;
    const [rows, projects] = await Promise.all([
      store.apiKeys.listForOrganization(organizationId),
      store.projects.page({ organizationId, status: undefined, limit: 100 }),
    ]);
    const members = new Map((await store.accounts.members(organizationId)).map((m) => [m.user.id, m.user.email]));
    const keys = rows
      .slice()
      .reverse()
      .map((row) => ({
        row,
        masked: maskSecret(row.prefix, row.revoked_at ? undefined : secretOf(row.secret_ciphertext)),
        scopes: parseScopes(row.scopes),
        createdBy: row.created_by ? (members.get(row.created_by) ?? 'a former member') : null,
        manageable: mayManage(who, row),
      }));
    return c.html(
      keysPage({
        who,
        csrf: sessions.csrfToken(c),
        keys,
        projects: projects.slice(0, 100),
        scopes: SCOPES,
        ...(extra.shown ? { shown: extra.shown } : {}),
        ...(extra.error ? { error: extra.error } : {}),
      }),
      extra.status ?? 200,
      headers,
    );
  }

  /** Owners manage every key of the workspace; a member, the keys they made. */
  const mayManage = (who: Member, row: ApiKeyRow) => who.current.role === 'owner' || row.created_by === who.user.id;
  const notYours = (c: AppContext, who: Member) =>
    render(c, who, { error: 'Only an owner, or the person who made a key, can reveal or revoke it.', status: 403 });

  /** The signed-in member and the form of a POST, or the answer that ends the request. */
  async function member(
    c: AppContext,
    post: boolean,
  ): Promise<{ who: Member; form: Record<string, string | string[]> } | Response> {
    const form = post ? await formOf(c) : {};
    if (post && !sessions.csrfValid(c, form.csrf)) return refusedForm(c, headers);
    const who = await sessions.read(c);
    if (!who) return c.redirect('/sign-in?next=/keys', 303);
    if (!who.current) return c.html(messagePage('No workspace', 'You do not belong to a workspace.'), 403, headers);
    return { who: who as Member, form };
  }

  app.get('/', async (c) => {
    const m = await member(c, false);
    return m instanceof Response ? m : render(c, m.who);
  });

  app.post('/', async (c) => {
    const m = await member(c, true);
    if (m instanceof Response) return m;
    const { who, form } = m;
    const name = KeyName.safeParse(field(form, 'name') ?? '');
    const picked = ([] as string[]).concat(form.scopes ?? []);
    const scopes = SCOPES.filter((s) => picked.includes(s)) as Scope[];
    const projectId = field(form, 'projectId') || null;
    if (!name.success) return render(c, who, { error: 'Give the key a name (up to 100 characters).', status: 400 });
    if (scopes.length === 0 || scopes.length !== new Set(picked).size)
      return render(c, who, { error: 'Pick at least one scope from the list.', status: 400 });
    if (projectId && !(await store.projects.get(who.current.organization.id, projectId).catch(() => undefined)))
      return render(c, who, { error: 'That project is not in this workspace.', status: 400 });
    if (kek instanceof Error)
      return render(c, who, { error: 'Keys cannot be made now: the service has no key-encryption key.', status: 503 });
    const issued = await issueKey(store, kek, {
      organizationId: who.current.organization.id,
      name: name.data,
      scopes,
      projectId,
      source: 'dashboard',
      createdBy: who.user.id,
    });
    return render(c, who, {
      shown: {
        name: issued.row.name,
        secret: issued.secret,
        note: 'copy it now; you can reveal it again later with your password.',
      },
      status: 201,
    });
  });

  app.post('/:keyId/reveal', async (c) => {
    const m = await member(c, true);
    if (m instanceof Response) return m;
    const { who, form } = m;
    const row = await store.apiKeys.get(who.current.organization.id, c.req.param('keyId')).catch(() => undefined);
    if (!row || row.revoked_at)
      return render(c, who, { error: 'No live key with that id in this workspace.', status: 400 });
    if (!mayManage(who, row)) return notYours(c, who);
    const password = field(form, 'password') ?? '';
    const minute = minuteWindow().start;
    if ((await store.rateLimits.take(`reveal|${who.user.id}`, minute, REVEALS_PER_MINUTE)) === null)
      return render(c, who, { error: 'Too many attempts. Wait a minute and try again.', status: 429 });
    // The person proves it is still them: their password, or (the local user, who has none) a sign-in moments ago.
    const recent =
      who.session.reauthenticated_at !== null &&
      Date.now() - Date.parse(who.session.reauthenticated_at) < REAUTH_WINDOW_MS;
    const proven = who.user.password_hash
      ? password.length > 0 && (await checkCredentials(store, who.user.email, password)) !== undefined
      : recent;
    if (!proven) return render(c, who, { error: 'Enter your password to reveal a key.', status: 401 });
    await store.accounts.touchSession(who.tokenHash, { reauthenticated_at: new Date().toISOString() });
    const secret = secretOf(row.secret_ciphertext);
    if (!secret)
      return render(c, who, { error: 'This key cannot be read with the service’s key-encryption key.', status: 503 });
    return render(c, who, { shown: { name: row.name, secret, note: 'revealed; copy it now.' } });
  });

  app.post('/:keyId/revoke', async (c) => {
    const m = await member(c, true);
    if (m instanceof Response) return m;
    const organizationId = m.who.current.organization.id;
    const row = await store.apiKeys.get(organizationId, c.req.param('keyId')).catch(() => undefined);
    if (row && !mayManage(m.who, row)) return notYours(c, m.who);
    const revoked = row ? await store.apiKeys.revoke(organizationId, row.id) : false;
    return render(c, m.who, revoked ? {} : { error: 'No live key with that id in this workspace.', status: 400 });
  });

  return app;
}

/** The dashboard's two scripts: the keys page's copy button and the passkey buttons. */
export function assetRoutes() {
  const script = (text: string) => (c: AppContext) =>
    c.body(text, 200, {
      ...PAGE_HEADERS,
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    });
  return new Hono<AppEnv>().get('/copy.js', script(COPY_SCRIPT)).get('/passkeys.js', script(PASSKEYS_SCRIPT));
}
