// Issuing API keys (spec 5.1, 5.2): `svc_` + 256 random bits, found by SHA-256 hash, kept encrypted.
import { createHash, randomBytes } from 'node:crypto';
import { SCOPES, type Scope } from '../contract/index.ts';
import { encryptSecret } from './key-encryption.ts';
import { isUniqueViolation } from './store/context.ts';
import { uuidv7 } from './store/ids.ts';
import type { ApiKeyRow, Store } from './store/index.ts';

export const KEY_PREFIX_LENGTH = 12; // "svc_" + 8 characters, shown in lists and logs

/** The SHA-256 (hex) a secret is stored and found by: keys, session and link tokens, codes. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newSecret(): string {
  return `svc_${randomBytes(32).toString('base64url')}`;
}

/** A masked form for lists: prefix and last four characters. */
export function maskSecret(prefix: string, secret?: string): string {
  return secret ? `${prefix}…${secret.slice(-4)}` : `${prefix}…`;
}

export interface IssueKeyInput {
  organizationId: string;
  name: string;
  scopes?: readonly Scope[];
  projectId?: string | null;
  source: 'admin' | 'cli' | 'local' | 'dashboard';
  /** The user who made it (dashboard, `siteaudit login`). */
  createdBy?: string | null;
}

export interface IssuedKey {
  secret: string;
  row: ApiKeyRow;
}

/** Creates a key; the secret is in the answer and nowhere else in clear. */
export async function issueKey(store: Store, kek: Buffer, input: IssueKeyInput): Promise<IssuedKey> {
  // spec 5.3: full scope set by default.
  const scopes = input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : [...SCOPES];
  for (let attempt = 0; ; attempt++) {
    const secret = newSecret();
    const row: ApiKeyRow = {
      id: uuidv7(),
      organization_id: input.organizationId,
      project_id: input.projectId ?? null,
      name: input.name,
      prefix: secret.slice(0, KEY_PREFIX_LENGTH),
      secret_hash: hashSecret(secret),
      secret_ciphertext: encryptSecret(kek, secret),
      scopes: JSON.stringify(scopes),
      source: input.source,
      created_at: new Date().toISOString(),
      revoked_at: null,
      last_used_at: null,
      created_by: input.createdBy ?? null,
    };
    try {
      await store.apiKeys.insert(row);
      return { secret, row };
    } catch (error) {
      // A prefix collision (48 random bits) is rare but possible: draw again.
      if (!isUniqueViolation(error) || attempt >= 4) throw error;
    }
  }
}

export function parseScopes(stored: string): Scope[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)) : [];
}
