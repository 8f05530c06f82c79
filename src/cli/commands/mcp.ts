// `siteaudit mcp`: the MCP server. stdio by default (one host, the configured key); with --http,
// streamable HTTP at /mcp where each request brings its own key. With no SITEAUDIT_API_URL it uses
// the embedded local service, started on demand and shared by every MCP process on the machine.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import type { Command } from 'commander';
import { MCP_SECRET_ENV } from '../../contract/forwarded-address.ts';
import { maskKeys } from '../../contract/index.ts';
import { MCP_MAX_RETRY_WAIT_MS } from '../../mcp/clients.ts';
import { DEFAULT_CONNECTIONS_PER_ADDRESS, settingsFromEnv } from '../../mcp/settings.ts';
import { mcpSecret } from '../../service/client-address.ts';
import { VERSION } from '../../version.ts';
import { connect, localReconnect, pacingFromEnv, setting } from '../connect.ts';
import { CliError, defaultDataDir, parsePositiveInt } from '../options.ts';

interface McpFlags {
  http?: boolean;
  host: string;
  port: string;
  allowedHost: string[];
  publicUrl?: string;
  dataDir?: string;
  trustProxy?: boolean;
  connectionsPerAddress: string;
  sourceDir?: string;
}

const DEFAULT_MCP_PORT = 3333;
// stdout is the protocol channel on stdio: every other line goes to stderr, with any key in it cut to
// its prefix (the SDK logs what clients send, such as an unsupported protocol version, verbatim).
const log = (line: string) =>
  process.stderr.write(maskKeys(`${line.startsWith('siteaudit') ? '' : 'siteaudit mcp: '}${line}\n`));

/** Whatever the SDK or a dependency prints on the console goes the same way: stderr, keys masked. */
function routeConsoleToLog(): void {
  const write = (...parts: unknown[]) =>
    log(parts.map((part) => (typeof part === 'string' ? part : inspect(part, { depth: 3 }))).join(' '));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = write;
}

/**
 * Where the site's source is: --source-dir, or on stdio the current directory when it is a git work
 * tree (a host started the server inside the site's repository). Only on stdio may a tool call name
 * another: over HTTP the files would be the server's, not the caller's.
 */
async function sourceSettings(flags: McpFlags): Promise<{ sourceDir?: string; sourceDirArgument: boolean }> {
  const argument = !flags.http;
  if (flags.sourceDir) {
    const dir = resolve(flags.sourceDir);
    if (!(await stat(dir).catch(() => undefined))?.isDirectory())
      throw new CliError('invalid_argument', `--source-dir ${flags.sourceDir} is not a directory`);
    return { sourceDir: dir, sourceDirArgument: argument };
  }
  if (argument && existsSync(join(process.cwd(), '.git'))) return { sourceDir: process.cwd(), sourceDirArgument: true };
  return { sourceDirArgument: argument };
}

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server: stdio for a local host, or streamable HTTP at /mcp with --http')
    .option('--http', 'serve streamable HTTP instead of stdio; each request sends Authorization: Bearer svc_...')
    .option('--host <host>', 'address to listen on with --http', '127.0.0.1')
    .option('--port <port>', 'port to listen on with --http (0 picks a free one)', String(DEFAULT_MCP_PORT))
    .option(
      '--allowed-host <name>',
      'with --http, a host name besides loopback accepted in Host and Origin (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--public-url <url>',
      "with --http, this server's public address, as clients reach it (its OAuth resource is this plus /mcp)",
    )
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option(
      '--source-dir <dir>',
      "the site's repository, where findings' elements are located (on stdio, default: the current directory when it is a git work tree)",
    )
    .option(
      '--trust-proxy',
      "with --http, behind a reverse proxy: a client's address is the last X-Forwarded-For hop (the proxy limits connections per client)",
    )
    .option(
      '--connections-per-address <n>',
      'with --http, connections one client address may hold open',
      String(DEFAULT_CONNECTIONS_PER_ADDRESS),
    )
    .action(async (flags: McpFlags) => {
      routeConsoleToLog();
      let settings: ReturnType<typeof settingsFromEnv>;
      try {
        settings = settingsFromEnv();
      } catch (error) {
        throw new CliError('invalid_argument', (error as Error).message);
      }
      settings = { ...settings, ...(await sourceSettings(flags)) };
      if (!flags.http) {
        const connection = await connect(flags, log, process.env, {
          userAgent: `siteaudit-mcp/${VERSION}`,
          maxRetryWaitMs: MCP_MAX_RETRY_WAIT_MS,
          lazyLocal: true,
        });
        const { startMcpStdio } = await import('../../mcp/stdio.ts');
        const stdio = startMcpStdio({ client: connection.client, version: VERSION, settings, log });
        await stdio.closed;
        return;
      }
      const port = flags.port === '0' ? 0 : parsePositiveInt('--port', flags.port, 1);
      // Over HTTP the key comes with each request; only the address is configured here.
      const env = { ...process.env };
      // An empty SITEAUDIT_API_URL means unset, as for the other commands.
      const configured = setting(env, 'SITEAUDIT_API_URL');
      const local = configured
        ? undefined
        : await connect(flags, log, { ...env, SITEAUDIT_API_KEY: '' }, { savedLogin: false });
      const apiUrl = local?.baseUrl ?? (configured as string);
      const connectionsPerAddress = parsePositiveInt('--connections-per-address', flags.connectionsPerAddress, 1);
      // Signs each client's address for the service's refusal throttle: the deployment's shared
      // secret, or the local service's own.
      let forwardSecret: string | undefined;
      try {
        forwardSecret = mcpSecret(env, local ? (flags.dataDir ?? defaultDataDir(env)) : undefined);
      } catch (error) {
        throw new CliError('invalid_argument', (error as Error).message);
      }
      if (!forwardSecret)
        log(
          `${MCP_SECRET_ENV} is not set: the service counts the keys it refuses through this server against this server's own address (set the same secret on the service)`,
        );
      const { startMcpHttpServer } = await import('../../mcp/http.ts');
      const server = await startMcpHttpServer({
        apiUrl,
        ...(local ? { reconnect: localReconnect(flags.dataDir ?? defaultDataDir(env), log) } : {}),
        host: flags.host,
        port,
        version: VERSION,
        settings,
        allowedHosts: flags.allowedHost,
        ...(flags.publicUrl ? { publicUrl: flags.publicUrl } : {}),
        ...(forwardSecret ? { forwardSecret } : {}),
        trustProxy: flags.trustProxy ?? false,
        connectionsPerAddress,
        ...pacingFromEnv(),
        log,
      });
      log(`serving MCP (streamable HTTP) at ${server.url} for the API at ${apiUrl}`);
      const stop = async (signal: string) => {
        log(`${signal}: stopping`);
        await server.close();
        setTimeout(() => process.exit(0), 2000).unref();
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    });
}
