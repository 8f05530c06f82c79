// `siteaudit dashboard`: opens the dashboard. On this machine's own service the local user is signed
// in through a one-time link made here, with access to the data directory (never through an open
// port: the link is written to the store directly). On a deployment it opens the sign-in page.
import type { Command } from 'commander';
import { trimTrailingSlashes } from '../../contract/index.ts';
import { createSignInLink, localUser, SIGN_IN_LINK_SECONDS } from '../../service/accounts.ts';
import { hashSecret } from '../../service/api-keys.ts';
import { openStore } from '../../service/store/index.ts';
import { type OpenResult, tryOpenBrowser } from '../browser.ts';
import { setting } from '../connect.ts';
import { connectLocalService } from '../local-service.ts';
import { CliError, defaultDataDir, storeLocation } from '../options.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

export function dashboardCommand(program: Command): void {
  program
    .command('dashboard')
    .description("open the dashboard in the browser (this machine's service: signed in at once)")
    .argument('[page]', 'a page of the dashboard to open, such as a humanUrl of a run')
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--no-browser', 'print the address instead of opening it')
    .action(async (target: string | undefined, flags: { dataDir?: string; browser: boolean }) => {
      let path = '/';
      if (target) {
        try {
          const parsed = new URL(target, 'http://dashboard.invalid');
          path = `${parsed.pathname}${parsed.search}`;
        } catch {
          throw new CliError('invalid_argument', `not a dashboard address: ${target}`);
        }
      }
      const apiUrl = setting(process.env, 'SITEAUDIT_API_URL');
      let url: string;
      if (apiUrl) {
        url = `${trimTrailingSlashes(apiUrl)}/sign-in?next=${encodeURIComponent(path)}`;
      } else {
        const dataDir = flags.dataDir ?? defaultDataDir();
        const local = await connectLocalService(dataDir, log);
        const store = await openStore(storeLocation({ dataDir }));
        try {
          const found = await store.apiKeys.findActiveByHash(hashSecret(local.apiKey));
          if (!found) throw new CliError('internal_error', `the local key of ${dataDir} is not in its store`);
          const user = await localUser(store, found.organization.id);
          url = `${await createSignInLink(store, local.url, user.id)}?next=${encodeURIComponent(path)}`;
        } finally {
          await store.close();
        }
      }
      // The address always goes to stdout, to be copied or piped (the browser may not have opened, or
      // opened on another display); what happened goes to stderr.
      const opened = flags.browser ? await tryOpenBrowser(url) : undefined;
      log(advice(opened, apiUrl === undefined));
      process.stdout.write(`${url}\n`);
    });
}

/** What happened, and how to use the address printed next (the local link signs in once, soon). */
function advice(opened: OpenResult | undefined, local: boolean): string {
  const minutes = SIGN_IN_LINK_SECONDS / 60;
  const lifetime = Number.isInteger(minutes)
    ? `${minutes} minute${minutes === 1 ? '' : 's'}`
    : `${SIGN_IN_LINK_SECONDS} seconds`;
  const what = local ? 'this link' : 'this address';
  const note = local ? ` (it signs you in once and is valid for ${lifetime})` : '';
  if (!opened) return `Open ${what} in a browser${note}:`;
  return opened.opened
    ? `Opened ${local ? 'the dashboard' : 'the sign-in page'} in your browser. If it did not open, use ${what}${note}:`
    : `Could not open a browser (${opened.reason}). Open ${what} in a browser${note}:`;
}
