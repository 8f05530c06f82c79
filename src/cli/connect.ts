// Which service the command-line client talks to: SITEAUDIT_API_URL with SITEAUDIT_API_KEY, or else
// the embedded default on this machine (started on demand).
import type { Command } from 'commander';
import { deferredClient } from '../client/deferred.ts';
import { ApiClientError, createClient, type SiteAuditClient } from '../client/index.ts';
import type { PacingOptions } from '../client/pacing.ts';
import { trimTrailingSlashes } from '../contract/index.ts';
import { VERSION } from '../version.ts';
import { readSavedLogin } from './credentials.ts';
import { connectLocalService } from './local-service.ts';
import { CliError, defaultDataDir } from './options.ts';

/** Where the key in use came from (spec 5.2.3): `whoami` says so. */
export type KeySource = 'flag' | 'environment' | 'login' | 'local';

export interface Connection {
  client: SiteAuditClient;
  baseUrl: string;
  embedded: boolean;
  keySource: KeySource;
}

export const KEY_SOURCE_TEXT: Record<KeySource, string> = {
  flag: 'the --api-key option',
  environment: 'SITEAUDIT_API_KEY',
  login: 'the key saved by siteaudit login',
  local: "the local service's own key",
};

/**
 * The service and key to use: a key given with --api-key or SITEAUDIT_API_KEY (with SITEAUDIT_API_URL
 * or the saved login's address), else the key `siteaudit login` saved (for its address, unless
 * SITEAUDIT_API_URL names another), else the local service of the data directory.
 */
export async function connect(
  flags: { dataDir?: string; apiKey?: string },
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  tuning: {
    userAgent?: string;
    maxRetryWaitMs?: number;
    savedLogin?: boolean;
    /**
     * Answer at once on the embedded default, with a client that starts (or finds) the local service
     * in the background and waits for it at its first call: an MCP host's first message is answered
     * without waiting for the service (issue 26). The connection's baseUrl is then unknown ('').
     */
    lazyLocal?: boolean;
  } = {},
): Promise<Connection> {
  const userAgent = tuning.userAgent ?? `siteaudit-cli/${VERSION}`;
  const extra = {
    ...pacingFromEnv(env),
    // A wait of a second or more is said, with its reason, so the command never sits silent.
    onRetryWait: (waitMs: number, error: ApiClientError) => {
      if (waitMs >= 1000)
        log(
          `${error.status === 429 ? 'the service asks this key to slow down' : `the service answered ${error.status}`}: waiting ${Math.ceil(waitMs / 1000)} s, then trying again`,
        );
    },
    ...(tuning.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: tuning.maxRetryWaitMs } : {}),
  };
  const remote = (baseUrl: string, apiKey: string, keySource: KeySource): Connection => ({
    client: createClient({ baseUrl, apiKey, userAgent, ...extra }),
    baseUrl,
    embedded: false,
    keySource,
  });
  const apiUrl = serviceRoot(setting(env, 'SITEAUDIT_API_URL'));
  if (apiUrl !== undefined && !/^https?:\/\/[^/]/i.test(apiUrl))
    throw new CliError(
      'invalid_argument',
      `SITEAUDIT_API_URL must be the service's http or https address, not ${JSON.stringify(apiUrl)}`,
    );
  const givenKey = flags.apiKey?.trim() || setting(env, 'SITEAUDIT_API_KEY');
  const saved = tuning.savedLogin === false ? undefined : readSavedLogin(env);
  const sameService = (url: string | undefined) =>
    saved !== undefined && (url === undefined || trimTrailingSlashes(url) === trimTrailingSlashes(saved.apiUrl));
  if (givenKey) {
    const baseUrl = apiUrl ?? (saved ? saved.apiUrl : undefined);
    if (!baseUrl)
      throw new CliError(
        'invalid_argument',
        'a key needs the address of its service: set SITEAUDIT_API_URL too (or use no key, for the local service)',
      );
    return remote(baseUrl, givenKey, flags.apiKey?.trim() ? 'flag' : 'environment');
  }
  if (saved && sameService(apiUrl)) return remote(saved.apiUrl, saved.apiKey, 'login');
  if (apiUrl)
    throw new CliError(
      'invalid_argument',
      `no key for ${apiUrl}: run siteaudit login, or set SITEAUDIT_API_KEY (unset SITEAUDIT_API_URL for the local service)`,
    );
  const dataDir = flags.dataDir ?? defaultDataDir(env);
  const localClient = (local: { url: string; apiKey: string }) =>
    createClient({
      baseUrl: local.url,
      apiKey: local.apiKey,
      userAgent,
      reconnect: localReconnect(dataDir, log),
      ...extra,
    });
  if (tuning.lazyLocal) {
    const started = () =>
      connectLocalService(dataDir, log).then(localClient, (error: Error) => {
        throw unavailable(dataDir, error);
      });
    return { client: deferredClient(started), baseUrl: '', embedded: true, keySource: 'local' };
  }
  const local = await connectLocalService(dataDir, log);
  return { client: localClient(local), baseUrl: local.url, embedded: true, keySource: 'local' };
}

/** A local service that could not be found or started, as the API client's own error (503). */
function unavailable(dataDir: string, error: Error): ApiClientError {
  return new ApiClientError('GET', dataDir, 503, 'local_service_unavailable', error.message, { cause: error });
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
      throw unavailable(dataDir, error as Error);
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

/** The service's root: an address given with the API's path (`https://audit.example/api/v1`) means the same service. */
function serviceRoot(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const trimmed = trimTrailingSlashes(url);
  return trimmed.endsWith('/api/v1') ? trimmed.slice(0, -'/api/v1'.length) : trimmed;
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/**
 * The service's own words; for an address that did not answer as a siteaudit service (none there,
 * a proxy's error page, a path that is not the service's root), which address and what to check.
 */
function serviceErrorWords(error: ApiClientError): string {
  if (error.code === 'connection_failed')
    return `cannot reach the siteaudit service at ${originOf(error.url)} (${error.serviceMessage}); check SITEAUDIT_API_URL`;
  if (error.code === 'http_error')
    return `${originOf(error.url)} answered HTTP ${error.status}, not as a siteaudit service: SITEAUDIT_API_URL should be the service's own address (where /openapi.json is)`;
  if (error.code === 'unauthorized')
    return `${error.serviceMessage} (the key given for ${originOf(error.url)}: SITEAUDIT_API_KEY, --api-key or the saved login)`;
  return error.serviceMessage;
}

/** An answer that is not the service's JSON (a sign-in page, another API behind the address). */
const notTheService = (error: unknown) =>
  error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError');

/**
 * Runs `work`, turning the service's errors into command-line errors that keep its code and words;
 * an answer that is no siteaudit service's (`service` is the address asked) says what to check.
 */
export async function withServiceErrors<T>(work: () => Promise<T>, service?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiClientError) throw new CliError(error.code, serviceErrorWords(error));
    if (service && notTheService(error))
      throw new CliError(
        'not_a_service',
        `${service} did not answer as a siteaudit service (its answer was not the API's JSON): SITEAUDIT_API_URL should be the service's own address (where /openapi.json is)`,
      );
    throw error;
  }
}

/** The flags of a command that talks to a service: the local service's data directory, and --json. */
export interface ConnectionFlags {
  dataDir?: string;
  apiKey?: string;
  json?: boolean;
}

export function withConnectionOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--api-key <key>', 'the API key to use (else SITEAUDIT_API_KEY, the saved login, or the local service)')
    .option('--json', 'print JSON');
}
