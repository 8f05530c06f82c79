// The `siteaudit` command: the only place that wires the layers together, and the only one that exits.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.ts';
import { CliError } from './options.ts';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded only when that command runs (issue 26): `serve` pulls in the whole
 * service, OAuth provider and renderer, which `--version`, `audit` and a host's `mcp` never need.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  mcp: async () => (await import('./commands/mcp.ts')).mcpCommand,
  'mcp-config': async () => (await import('./commands/mcp-config.ts')).mcpConfigCommand,
  audit: async () => (await import('./commands/audit.ts')).auditCommand,
  whoami: async () => (await import('./commands/whoami.ts')).whoamiCommand,
  dashboard: async () => (await import('./commands/dashboard.ts')).dashboardCommand,
  login: async () => (await import('./commands/login.ts')).loginCommands,
  logout: async () => (await import('./commands/login.ts')).loginCommands,
  monitor: async () => (await import('./commands/monitor.ts')).monitorCommand,
  project: async () => (await import('./commands/project.ts')).projectCommand,
  webhooks: async () => (await import('./commands/webhooks.ts')).webhooksCommand,
  admin: async () => (await import('./commands/admin.ts')).adminCommands,
};

/** The commands `argv` needs: the one it names, none for the version alone, else all (help, a typo). */
function commandsFor(argv: readonly string[]): string[] {
  const named = argv.find((arg) => !arg.startsWith('-'));
  if (named !== undefined && Object.hasOwn(COMMANDS, named)) return [named];
  if (named === undefined && argv.length > 0 && argv.every((arg) => arg === '--version' || arg === '-V')) return [];
  return Object.keys(COMMANDS);
}

/** The program with the commands `argv` needs (all of them by default: help, tests, docs). */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('siteaudit')
    .description('Audit websites for AI readiness, marketing signal and security.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  const registered = new Set<Register>();
  for (const name of argv ? commandsFor(argv) : Object.keys(COMMANDS)) {
    const register = await (COMMANDS[name] as () => Promise<Register>)();
    // login and logout share one module, which registers both.
    if (registered.has(register)) continue;
    registered.add(register);
    register(program);
  }
  return program;
}

/** --json, or a --format json with no --output of its own: an error is then one JSON object too. */
function wantsJson(argv: readonly string[]): boolean {
  if (argv.includes('--json')) return true;
  return argv.some(
    (arg, i) =>
      (arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json')) &&
      !(argv[i + (arg === '--format' ? 2 : 1)] ?? '').startsWith('--output'),
  );
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync([...argv], { from: 'user' });
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
