// The key `siteaudit login` saved (spec 5.2.2): one file in the user's config directory, mode 0600 in
// a 0700 directory, written whole through a temporary file so a crash never leaves half a key.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const SavedLogin = z.object({
  apiUrl: z.url(),
  apiKey: z.string().startsWith('svc_'),
  keyPrefix: z.string(),
  organizationSlug: z.string(),
  savedAt: z.string(),
});
export type SavedLogin = z.infer<typeof SavedLogin>;

/** SITEAUDIT_CONFIG_DIR, else $XDG_CONFIG_HOME/siteaudit, else ~/.config/siteaudit. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SITEAUDIT_CONFIG_DIR) return env.SITEAUDIT_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'siteaudit');
}

export const credentialsPath = (env: NodeJS.ProcessEnv = process.env) => join(configDir(env), 'credentials.json');

/** The saved login, or undefined when there is none (or the file is not one of ours). */
export function readSavedLogin(env: NodeJS.ProcessEnv = process.env): SavedLogin | undefined {
  const file = credentialsPath(env);
  if (!existsSync(file)) return undefined;
  try {
    return SavedLogin.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

export function saveLogin(login: SavedLogin, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = credentialsPath(env);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}

export function forgetLogin(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(credentialsPath(env), { force: true });
}
