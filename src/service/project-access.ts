// A project's access settings (issue 29) between the API, where they arrive in clear once, and the
// engine, which gets them as the headers to add for the project's own origin. Sealed under the
// key-encryption key in between; nothing here logs or returns a value.

import type { SiteAccess } from '../audit/index.ts';
import { type ProjectAccess, ProjectAccessBody } from '../contract/index.ts';
import { ApiError } from './errors.ts';
import { decryptSecret, encryptSecret } from './key-encryption.ts';
import { parseWith } from './request.ts';
import type { AccessNames, StoredAccess } from './store/project-access.ts';

/** The settings cannot be opened (the key-encryption key is missing or changed): a run says so and fails. */
export class AccessUnavailable extends Error {
  override readonly name = 'AccessUnavailable';
}

const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

/**
 * The body checked against ProjectAccessBody, and first for a header or cookie named `__proto__`,
 * which a record schema would drop without a word (the setting would seem saved and never be sent).
 */
export function parseAccessBody(body: unknown): ProjectAccessBody {
  for (const part of ['headers', 'cookies'] as const) {
    const entries = (body as Record<string, unknown> | null)?.[part];
    if (entries && typeof entries === 'object' && Object.hasOwn(entries, '__proto__'))
      throw new ApiError(400, 'validation_failed', `${part}: a name may not be __proto__`);
  }
  return parseWith(ProjectAccessBody, body, 'validation_failed');
}

/** True when the body sets nothing: the settings are cleared. */
export function clearsAccess(body: ProjectAccessBody): boolean {
  return (
    Object.keys(body.headers ?? {}).length === 0 && !body.basicAuth && Object.keys(body.cookies ?? {}).length === 0
  );
}

export function sealAccess(kek: Buffer, body: ProjectAccessBody): { names: AccessNames; sealed: string } {
  // Header names are case-insensitive: kept as the client wrote them, sent so.
  const settings: ProjectAccessBody = {
    ...(body.headers && Object.keys(body.headers).length ? { headers: body.headers } : {}),
    ...(body.basicAuth ? { basicAuth: body.basicAuth } : {}),
    ...(body.cookies && Object.keys(body.cookies).length ? { cookies: body.cookies } : {}),
  };
  return {
    names: {
      headers: sorted(Object.keys(settings.headers ?? {})),
      cookies: sorted(Object.keys(settings.cookies ?? {})),
      basicAuth: settings.basicAuth !== undefined,
    },
    sealed: encryptSecret(kek, JSON.stringify(settings)),
  };
}

/** Seals and stores the settings (the API's PUT and the dashboard's form); 503 without a key-encryption key. */
export async function saveAccess(
  store: { projectAccess: { put(projectId: string, names: AccessNames, sealed: string): Promise<string> } },
  kek: Buffer | Error,
  projectId: string,
  input: ProjectAccessBody,
): Promise<StoredAccess> {
  if (kek instanceof Error)
    throw new ApiError(
      503,
      'key_encryption_unavailable',
      'access settings cannot be stored: the service has no key-encryption key',
    );
  const { names, sealed } = sealAccess(kek, input);
  return { names, sealed, updatedAt: await store.projectAccess.put(projectId, names, sealed) };
}

/** What the API shows: the names, never a value. */
export function toProjectAccess(projectId: string, stored: StoredAccess | undefined): ProjectAccess {
  return {
    projectId,
    headers: stored?.names.headers ?? [],
    cookies: stored?.names.cookies ?? [],
    basicAuth: stored?.names.basicAuth ?? false,
    updatedAt: stored?.updatedAt ?? null,
  };
}

/**
 * The headers the engine adds to requests for `startUrl`'s origin (and no other): the project's
 * own headers, Authorization for basic auth (RFC 7617), and one Cookie header.
 */
export function siteAccessOf(kek: Buffer | Error, stored: StoredAccess, startUrl: string): SiteAccess {
  if (kek instanceof Error) throw new AccessUnavailable(`the project's access settings cannot be read: ${kek.message}`);
  let settings: ProjectAccessBody;
  try {
    settings = JSON.parse(decryptSecret(kek, stored.sealed)) as ProjectAccessBody;
  } catch {
    throw new AccessUnavailable(
      "the project's access settings cannot be read with this service's key-encryption key: set them again",
    );
  }
  const headers: Record<string, string> = { ...(settings.headers ?? {}) };
  if (settings.basicAuth) {
    const { username, password } = settings.basicAuth;
    headers.authorization = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }
  const cookies = Object.entries(settings.cookies ?? {});
  if (cookies.length) headers.cookie = cookies.map(([name, value]) => `${name}=${value}`).join('; ');
  return { origin: new URL(startUrl).origin, headers };
}

/** A project's settings as the engine takes them, read at each use (a change applies to the next run). */
export type AccessLoader = (projectId: string, startUrl: string) => Promise<SiteAccess | undefined>;

export function accessLoader(
  store: { projectAccess: { get(projectId: string): Promise<StoredAccess | undefined> } },
  kek: Buffer | Error,
): AccessLoader {
  return async (projectId, startUrl) => {
    const stored = await store.projectAccess.get(projectId);
    return stored ? siteAccessOf(kek, stored, startUrl) : undefined;
  };
}
