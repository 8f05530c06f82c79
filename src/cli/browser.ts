// Opening a page in the person's browser (the sign-in and the dashboard). The URL is passed as one
// argument, never through a shell; when no opener is found the caller prints the address instead.
import { spawn } from 'node:child_process';

function opener(): [string, string[]] {
  if (process.platform === 'darwin') return ['open', []];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler']];
  return ['xdg-open', []];
}

/** Starts the browser on `url`; false when it could not be started (no desktop, no opener). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  // SITEAUDIT_BROWSER: a program to open URLs with (tests, headless machines, a particular browser).
  const [command, args] = env.SITEAUDIT_BROWSER ? [env.SITEAUDIT_BROWSER, []] : opener();
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
