// `siteaudit whoami`: which organization and key the client is using, with plan and credits.
import type { Command } from 'commander';
import { connect, KEY_SOURCE_TEXT, withServiceErrors } from '../connect.ts';

export function whoamiCommand(program: Command): void {
  program
    .command('whoami')
    .description('show the organization, key, scopes, plan and credits of the configured service')
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--api-key <key>', 'the API key to use (else SITEAUDIT_API_KEY, the saved login, or the local service)')
    .option('--json', 'print the key context as JSON, with keySource')
    .action(async (flags: { dataDir?: string; apiKey?: string; json?: boolean }) => {
      const connection = await connect(flags, (line) => process.stderr.write(`${line}\n`));
      await withServiceErrors(async () => {
        const me = await connection.client.me();
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ ...me, keySource: connection.keySource })}\n`);
          return;
        }
        process.stdout.write(
          [
            `${me.organizationName} (${me.organizationSlug}) at ${connection.baseUrl}${connection.embedded ? ' (local service)' : ''}`,
            `key ${me.keyPrefix}… "${me.keyName}"${me.projectId ? `, pinned to project ${me.projectId}` : ''}, from ${KEY_SOURCE_TEXT[connection.keySource]}`,
            `scopes: ${me.scopes.join(', ')}`,
            `plan: ${me.plan ?? 'free'}, credits: ${me.credits ? `${me.credits.remaining} left (the plan adds ${me.credits.monthlyIncluded} each month)` : 'unknown'}`,
          ]
            .map((line) => `${line}\n`)
            .join(''),
        );
      });
    });
}
