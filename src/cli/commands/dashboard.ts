// `siteaudit dashboard`: opens the dashboard. On this machine's own service the local user is signed
// in through a one-time link made here, with access to the data directory (never through an open
// port: the link is written to the store directly). On a deployment it opens the sign-in page.
import type { Command } from 'commander';
import { trimTrailingSlashes } from '../../contract/index.ts';
import { createSignInLink, localUser } from '../../service/accounts.ts';
import { hashSecret } from '../../service/api-keys.ts';
import { openStore } from '../../service/store/index.ts';
import { openBrowser } from '../browser.ts';
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
      if (flags.browser && (await openBrowser(url))) {
        log(`opened ${apiUrl ? url : 'the dashboard'} in the browser`);
        return;
      }
      // The address goes to stdout, to be copied or piped; it signs in once, within a minute.
      process.stdout.write(`${url}\n`);
    });
}
