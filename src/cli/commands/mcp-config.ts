// `siteaudit mcp-config`: the MCP server entry for a host's configuration, with absolute paths to this
// installation's Node and launcher. Hosts start servers with their own working directory and often a
// minimal PATH (Claude Desktop on macOS), so a bare `siteaudit` or `node` is not found there.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { setting } from '../connect.ts';
import { binPath } from '../local-service.ts';
import { CliError, parsePositiveInt } from '../options.ts';

const HOSTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
type Host = (typeof HOSTS)[number];

function mcpServerEntry(env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: [binPath(), 'mcp'],
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

function configFor(host: Host, env: Record<string, string>): string {
  const entry = mcpServerEntry(env);
  switch (host) {
    case 'vscode':
      return JSON.stringify({ servers: { siteaudit: { type: 'stdio', ...entry } } }, null, 2);
    case 'claude-code': {
      const flags = Object.entries(env).map(([name, value]) => `-e ${shellWord(`${name}=${value}`)} `);
      return `claude mcp add siteaudit ${flags.join('')}-- ${[entry.command, ...entry.args].map(shellWord).join(' ')}`;
    }
    default:
      return JSON.stringify({ mcpServers: { siteaudit: entry } }, null, 2);
  }
}

/**
 * The local service this shell's siteaudit uses, for the entry: hosts start servers without the
 * shell's environment, so without these a host would start (or find) another local service, with
 * another organization. The data directory is made absolute (the host's working directory differs).
 */
function localServiceEnv(shell: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  const dataDir = setting(shell, 'SITEAUDIT_DATA_DIR');
  if (dataDir) env.SITEAUDIT_DATA_DIR = resolve(dataDir);
  const port = setting(shell, 'SITEAUDIT_LOCAL_PORT');
  if (port) {
    if (parsePositiveInt('SITEAUDIT_LOCAL_PORT', port) > 65_535)
      throw new CliError('invalid_argument', 'SITEAUDIT_LOCAL_PORT must be a port number (0 to 65535)');
    env.SITEAUDIT_LOCAL_PORT = port;
  }
  return env;
}

/** A word as a POSIX shell reads it back. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

export function mcpConfigCommand(program: Command): void {
  program
    .command('mcp-config')
    .description('print the MCP server entry for a host, with absolute paths to this installation')
    .option('--host <host>', `one of ${HOSTS.join(', ')}`, 'claude-desktop')
    .option('--api-url <url>', 'use this deployment instead of the local service (add SITEAUDIT_API_KEY to the entry)')
    .addHelpText(
      'after',
      '\nSITEAUDIT_DATA_DIR and SITEAUDIT_LOCAL_PORT, when set, are written into the entry, so the host uses the same local service.',
    )
    .action((flags: { host: string; apiUrl?: string }) => {
      if (!(HOSTS as readonly string[]).includes(flags.host))
        throw new CliError('invalid_argument', `--host must be one of ${HOSTS.join(', ')}`);
      const env: Record<string, string> = flags.apiUrl
        ? { SITEAUDIT_API_URL: flags.apiUrl, SITEAUDIT_API_KEY: 'svc_your_key' }
        : localServiceEnv(process.env);
      process.stdout.write(`${configFor(flags.host as Host, env)}\n`);
    });
}
