// Accounts (issue 12; docs/decisions.md, "Accounts"): people sign in with an email and a password
// hashed with scrypt from node:crypto, memory-hard, with parameters kept in the hash so they can be
// raised later. An unknown email costs the same scrypt work as a wrong password, so timing does not
// tell which emails have accounts.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { PlainText } from '../contract/index.ts';
import { hashSecret } from './api-keys.ts';
import { uuidv7 } from './store/ids.ts';
import type { Store, UserRow } from './store/index.ts';

/** scrypt N = 2^15, r = 8, p = 3: 32 MiB, one of the settings OWASP lists as equal to N = 2^17 at 128 MiB. */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'not an email address' }));
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `a password has at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH);
export const PersonName = PlainText.pipe(z.string().trim().min(1).max(100));

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, SCRYPT.keyLength, { ...params, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await derive(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// Verified against when the email is unknown, so both answers take the same time.
let decoy: Promise<string> | undefined;

/** The user whose email and password these are, or undefined; the same work either way. */
export async function checkCredentials(store: Store, email: string, password: string): Promise<UserRow | undefined> {
  const user = await store.accounts.findUserByEmail(email);
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const stored = user?.password_hash ?? (await decoy);
  const ok = await verifyPassword(password, stored);
  return ok && user?.password_hash ? user : undefined;
}

export class AccountExists extends Error {
  override readonly name = 'AccountExists';
}

/** Creates a person; with a password unless it is the embedded default's local user. */
export async function createUser(
  store: Store,
  input: { email: string; name: string; password: string | null },
): Promise<UserRow> {
  const email = Email.parse(input.email);
  if (await store.accounts.findUserByEmail(email)) throw new AccountExists(`an account for ${email} exists`);
  const now = new Date().toISOString();
  const user: UserRow = {
    id: uuidv7(),
    email,
    name: PersonName.parse(input.name),
    password_hash: input.password === null ? null : await hashPassword(Password.parse(input.password)),
    created_at: now,
    updated_at: now,
  };
  await store.accounts.insertUser(user);
  return user;
}

export async function addMember(store: Store, userId: string, organizationId: string, role: Role): Promise<void> {
  await store.accounts.addMembership({
    user_id: userId,
    organization_id: organizationId,
    role,
    created_at: new Date().toISOString(),
  });
}

/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_SECONDS = 60;

/** A link that signs `userId` in once, within SIGN_IN_LINK_SECONDS (the embedded default's dashboard, operators). */
export async function createSignInLink(store: Store, publicUrl: string, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await store.accounts.insertSignInLink({
    token_hash: hashSecret(token),
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_SECONDS * 1000).toISOString(),
  });
  return `${publicUrl}/auth/link/${token}`;
}

export const LOCAL_USER_EMAIL = 'local@siteaudit.localhost';

/**
 * The embedded default's person: one user with no password, owner of the local organization,
 * signed in only through one-time links made on this machine (`siteaudit dashboard`).
 */
export async function localUser(store: Store, organizationId: string): Promise<UserRow> {
  const user =
    (await store.accounts.findUserByEmail(LOCAL_USER_EMAIL)) ??
    (await createUser(store, { email: LOCAL_USER_EMAIL, name: 'Local user', password: null }).catch(async (error) => {
      // Two processes made it at once: take the one that won.
      const winner = await store.accounts.findUserByEmail(LOCAL_USER_EMAIL);
      if (!winner) throw error;
      return winner;
    }));
  await addMember(store, user.id, organizationId, 'owner');
  return user;
}
