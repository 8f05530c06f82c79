// The key-encryption key (KEK) under which API key secrets are stored (AES-256-GCM).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const KEK_ENV = 'SITEAUDIT_KEY_ENCRYPTION_KEY';
export const KEK_FILE = 'key-encryption-key';
const KEY_BYTES = 32;

export class KeyEncryptionUnavailable extends Error {
  override readonly name = 'KeyEncryptionUnavailable';
}

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new KeyEncryptionUnavailable(`${where} must hold 32 bytes, as 64 hex characters or base64`);
  }
  return key;
}

/**
 * The KEK from the environment, or else from the data directory, where the embedded default makes
 * one on first use (mode 0600). A deployment sets the environment variable on every process.
 */
export function loadKeyEncryptionKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env[KEK_ENV];
  if (fromEnv) return decodeKey(fromEnv, KEK_ENV);
  const file = join(dataDir, KEK_FILE);
  try {
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      // 'wx' fails if another process created it meanwhile; then that one's key is read below.
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new KeyEncryptionUnavailable(`cannot create ${file}: ${(error as Error).message}`);
    }
  }
  try {
    return decodeKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if (error instanceof KeyEncryptionUnavailable) throw error;
    throw new KeyEncryptionUnavailable(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** `v1.` + base64url(iv | tag | ciphertext). */
export function encryptSecret(kek: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

export function decryptSecret(kek: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1.')) throw new KeyEncryptionUnavailable('unknown secret encoding');
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', kek, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
