// The `siteaudit` command: the only place that wires the layers together, and the only one that exits.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.ts';
import { adminCommands } from './commands/admin.ts';
import { auditCommand } from './commands/audit.ts';
import { dashboardCommand } from './commands/dashboard.ts';
import { loginCommands } from './commands/login.ts';
import { mcpCommand } from './commands/mcp.ts';
import { mcpConfigCommand } from './commands/mcp-config.ts';
import { monitorCommand } from './commands/monitor.ts';
import { serveCommand } from './commands/serve.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import { whoamiCommand } from './commands/whoami.ts';
import { CliError } from './options.ts';

export function buildProgram(): Command {
  const program = new Command('siteaudit')
    .description('Audit websites for AI readiness, marketing signal and security.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  serveCommand(program);
  mcpCommand(program);
  mcpConfigCommand(program);
  auditCommand(program);
  whoamiCommand(program);
  dashboardCommand(program);
  loginCommands(program);
  monitorCommand(program);
  webhooksCommand(program);
  adminCommands(program);
  return program;
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage mistakes were already printed by commander.
      process.exitCode = error.exitCode;
      return;
    }
    const known = error instanceof CliError;
    const code = known ? error.code : 'internal_error';
    const message = (error as Error).message ?? String(error);
    if (wantsJson(argv)) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    if (known) process.stderr.write(`siteaudit: ${message}\n`);
    else process.stderr.write(`siteaudit: ${(error as Error).stack ?? message}\n`);
    process.exitCode = 1;
  }
}
