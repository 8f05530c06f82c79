// Which service the command-line client talks to: SITEAUDIT_API_URL with SITEAUDIT_API_KEY, or else
// the embedded default on this machine (started on demand).
import type { Command } from 'commander';
import { ApiClientError, createClient, type SiteAuditClient } from '../client/index.ts';
import type { PacingOptions } from '../client/pacing.ts';
import { VERSION } from '../version.ts';
import { connectLocalService } from './local-service.ts';
import { CliError, defaultDataDir } from './options.ts';

export interface Connection {
  client: SiteAuditClient;
  baseUrl: string;
  embedded: boolean;
}

export async function connect(
  flags: { dataDir?: string },
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  tuning: { userAgent?: string; maxRetryWaitMs?: number } = {},
): Promise<Connection> {
  const userAgent = tuning.userAgent ?? `siteaudit-cli/${VERSION}`;
  const extra = {
    ...pacingFromEnv(env),
    ...(tuning.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: tuning.maxRetryWaitMs } : {}),
  };
  const apiUrl = setting(env, 'SITEAUDIT_API_URL');
  const apiKey = setting(env, 'SITEAUDIT_API_KEY');
  if (apiUrl || apiKey) {
    if (!apiUrl || !apiKey)
      throw new CliError(
        'invalid_argument',
        'set both SITEAUDIT_API_URL and SITEAUDIT_API_KEY, or neither for the local service',
      );
    return {
      client: createClient({ baseUrl: apiUrl, apiKey, userAgent, ...extra }),
      baseUrl: apiUrl,
      embedded: false,
    };
  }
  const dataDir = flags.dataDir ?? defaultDataDir(env);
  const local = await connectLocalService(dataDir, log);
  return {
    client: createClient({
      baseUrl: local.url,
      apiKey: local.apiKey,
      userAgent,
      reconnect: localReconnect(dataDir, log),
      ...extra,
    }),
    baseUrl: local.url,
    embedded: true,
  };
}

/**
 * How a long-lived client (an MCP process) follows the local service: when a request is refused
 * because the service stopped, it is found again (or started) and the request repeated there.
 */
export function localReconnect(dataDir: string, log: (line: string) => void): () => Promise<string> {
  return async () => {
    try {
      return (await connectLocalService(dataDir, log)).url;
    } catch (error) {
      throw new ApiClientError('GET', dataDir, 503, 'local_service_unavailable', (error as Error).message, {
        cause: error,
      });
    }
  };
}

/**
 * An environment setting, or undefined when empty or left as a host's unfilled placeholder (an MCP
 * Bundle's optional `${user_config.api_url}` that the person never set).
 */
export function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value && !/^\$\{[^}]*\}$/.test(value) ? value : undefined;
}

/**
 * SITEAUDIT_API_RATE_LIMIT: requests a minute the client allows itself per key, for a deployment
 * whose limit is not the spec's 60 (`serve --rate-limit`); 0 turns pacing off.
 */
export function pacingFromEnv(env: NodeJS.ProcessEnv = process.env): { pacing?: PacingOptions | false } {
  const value = env.SITEAUDIT_API_RATE_LIMIT;
  if (value === undefined || value === '') return {};
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 0)
    throw new CliError('invalid_argument', `SITEAUDIT_API_RATE_LIMIT must be a whole number, got ${value}`);
  return { pacing: limit === 0 ? false : { limit, windowMs: 60_000 } };
}

/** Runs `work`, turning the service's errors into command-line errors that keep its code and words. */
export async function withServiceErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiClientError) throw new CliError(error.code, error.serviceMessage);
    throw error;
  }
}

/** The flags of a command that talks to a service: the local service's data directory, and --json. */
export interface ConnectionFlags {
  dataDir?: string;
  json?: boolean;
}

export function withConnectionOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--json', 'print JSON');
}
