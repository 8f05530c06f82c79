// Opening a page in the person's browser (the sign-in and the dashboard). The URL is passed as one
// argument, never through a shell; whether it opened is reported, so the caller can say so and print the address.
import { spawn } from 'node:child_process';

/**
 * How long the opener may run before it counts as opened. Openers (xdg-open, open, rundll32) hand the
 * URL to the browser and exit at once, 0 when it was taken; one that fails (xdg-open exits 3 on a
 * machine without a desktop) fails at once too. One still running after this has most likely become
 * the browser (xdg-open execs it on some desktops; SITEAUDIT_BROWSER may name a browser itself).
 */
export const OPENER_GRACE_MS = 2_000;

export type OpenResult = { opened: true } | { opened: false; reason: string };

function opener(): [string, string[]] {
  if (process.platform === 'darwin') return ['open', []];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler']];
  return ['xdg-open', []];
}

/**
 * Opens `url` in the browser and says whether that worked: opened only when the opener exits 0 (or is
 * still running after OPENER_GRACE_MS), else why not (not found, its exit code or signal).
 */
export function tryOpenBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenResult> {
  // SITEAUDIT_BROWSER: a program to open URLs with (tests, headless machines, a particular browser).
  const [command, args] = env.SITEAUDIT_BROWSER ? [env.SITEAUDIT_BROWSER, []] : opener();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: OpenResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    try {
      const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
      child.once('error', (error: NodeJS.ErrnoException) =>
        settle({ opened: false, reason: error.code === 'ENOENT' ? `${command} was not found` : error.message }),
      );
      child.once('exit', (code, signal) =>
        settle(
          code === 0
            ? { opened: true }
            : { opened: false, reason: `${command} ${signal ? `ended by ${signal}` : `exited with code ${code}`}` },
        ),
      );
      child.once('spawn', () => {
        timer = setTimeout(() => {
          // Left to run on its own: the command does not wait for the browser to close.
          child.unref();
          settle({ opened: true });
        }, OPENER_GRACE_MS);
      });
    } catch (error) {
      settle({ opened: false, reason: (error as Error).message });
    }
  });
}

/** Starts the browser on `url`; false when it did not open (no desktop, no opener, the opener failed). */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await tryOpenBrowser(url, env)).opened;
}
