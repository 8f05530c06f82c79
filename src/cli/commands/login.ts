// `siteaudit login` and `siteaudit logout` (spec 4.2 and 5.2.2; RFC 8252 loopback redirect, RFC 7636
// PKCE S256). Login listens on 127.0.0.1 on a random port, opens the service's consent screen in the
// browser, takes the single-use code the browser brings back, exchanges it with the verifier for a
// new key, and saves the key in the config directory (mode 0600). Logout revokes and forgets it.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { CliTokenResponse, trimTrailingSlashes } from '../../contract/index.ts';
import { openBrowser } from '../browser.ts';
import { setting } from '../connect.ts';
import { forgetLogin, readSavedLogin, saveLogin } from '../credentials.ts';
import { CliError } from '../options.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
/** How long the client waits for the person to allow or deny in the browser. */
const WAIT_MS = 5 * 60_000;

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

interface Callback {
  code?: string;
  error?: string;
}

/** Listens on the loopback for the one redirect the browser brings back (RFC 8252 7.3). */
async function listenForCallback(
  state: string,
): Promise<{ server: Server; redirectUri: string; result: Promise<Callback> }> {
  let settle: (value: Callback) => void = () => {};
  const result = new Promise<Callback>((resolve) => {
    settle = resolve;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // A request without our state is not the answer to our request (another page, a forged link).
    if (url.searchParams.get('state') !== state) {
      res
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('Not this sign-in', 'Start again with siteaudit login.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
    });
    res.end(
      error
        ? PAGE('Not signed in', 'The request was not allowed. You can close this tab.')
        : PAGE('Signed in', 'siteaudit on your computer has its key. You can close this tab.'),
    );
    settle(error ? { error } : code ? { code } : { error: 'no code came back' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/callback`, result };
}

/** The service's error envelope as a CLI error, or a plain one. */
async function serviceError(response: Response): Promise<CliError> {
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string } }
    | undefined;
  return new CliError(
    body?.error?.code ?? 'service_error',
    body?.error?.message ?? `the service answered ${response.status}`,
  );
}

const keyNameFor = (host: string) => `siteaudit CLI on ${host.replace(/[^\p{L}\p{N} ._()-]/gu, '-').slice(0, 40)}`;

export function loginCommands(program: Command): void {
  program
    .command('login')
    .description('sign in through the browser and save a new API key for this computer (mode 0600)')
    .option('--api-url <url>', 'the service to sign in to (env SITEAUDIT_API_URL)')
    .option('--no-browser', 'print the sign-in address instead of opening the browser')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { apiUrl?: string; browser: boolean; json?: boolean }) => {
      const given = flags.apiUrl ?? setting(process.env, 'SITEAUDIT_API_URL');
      const base = given === undefined ? undefined : trimTrailingSlashes(given);
      if (!base)
        throw new CliError(
          'invalid_argument',
          "give the service's address with --api-url or SITEAUDIT_API_URL (the local service needs no login)",
        );
      try {
        if (!/^https?:$/.test(new URL(base).protocol)) throw new Error('not http');
      } catch {
        throw new CliError('invalid_argument', `not an http(s) address: ${base}`);
      }
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const state = randomBytes(16).toString('base64url');
      const { server, redirectUri, result } = await listenForCallback(state);
      try {
        const authorize = new URL(`${base}/cli/authorize`);
        for (const [name, value] of Object.entries({
          redirect_uri: redirectUri,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state,
          client_name: 'siteaudit command line',
          key_name: keyNameFor(hostname()),
        }))
          authorize.searchParams.set(name, value);
        const opened = flags.browser && (await openBrowser(authorize.href));
        log(
          opened
            ? `Allow the sign-in in your browser. If it did not open, visit:\n${authorize.href}`
            : `Open this address in a browser to sign in:\n${authorize.href}`,
        );
        let timer: NodeJS.Timeout | undefined;
        const callback = await Promise.race([
          result,
          new Promise<Callback>((resolve) => {
            timer = setTimeout(() => resolve({ error: 'timed out waiting for the browser' }), WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (callback.error || !callback.code)
          throw new CliError(
            callback.error === 'access_denied' ? 'access_denied' : 'login_failed',
            callback.error === 'access_denied'
              ? 'the sign-in was denied in the browser'
              : `the sign-in did not finish: ${callback.error}`,
          );
        const response = await fetch(`${base}/api/v1/cli/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: callback.code, code_verifier: verifier, redirect_uri: redirectUri }),
        }).catch((error: Error) => {
          throw new CliError('service_unavailable', `cannot reach ${base}: ${error.message}`);
        });
        if (response.status !== 201) throw await serviceError(response);
        const issued = CliTokenResponse.parse(await response.json());
        const file = saveLogin({
          apiUrl: base,
          apiKey: issued.secret,
          keyPrefix: issued.keyPrefix,
          organizationSlug: issued.organizationSlug,
          savedAt: new Date().toISOString(),
        });
        const summary = {
          apiUrl: base,
          organizationId: issued.organizationId,
          organizationSlug: issued.organizationSlug,
          keyPrefix: issued.keyPrefix,
          keyName: issued.keyName,
          scopes: issued.scopes,
          savedTo: file,
        };
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(summary)}\n`
            : `signed in to ${issued.organizationSlug} at ${base}: key ${issued.keyPrefix}… "${issued.keyName}" saved in ${file}\n`,
        );
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

  program
    .command('logout')
    .description('revoke the key siteaudit login saved, and forget it')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { json?: boolean }) => {
      const saved = readSavedLogin();
      if (!saved) {
        process.stdout.write(flags.json ? `${JSON.stringify({ loggedOut: false })}\n` : 'not signed in\n');
        return;
      }
      // Revoked first, so a key is never forgotten here while it still works there.
      const revoked = await fetch(`${saved.apiUrl}/api/v1/cli/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: saved.apiKey }),
      })
        .then((response) => response.ok)
        .catch(() => false);
      forgetLogin();
      if (!revoked)
        log(`could not reach ${saved.apiUrl} to revoke key ${saved.keyPrefix}…; revoke it on the API keys page`);
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ loggedOut: true, revoked, keyPrefix: saved.keyPrefix })}\n`
          : `signed out of ${saved.apiUrl}${revoked ? `; key ${saved.keyPrefix}… revoked` : ''}\n`,
      );
    });
}
