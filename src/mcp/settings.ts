// The MCP server's settings: how often wait_for_run polls, how long one call may wait, and where the
// site's source is.
export interface McpSettings {
  /** spec 4.11: poll a run about every 10 seconds. */
  pollIntervalMs: number;
  /** How long wait_for_run waits when the caller does not say; well under hosts' request timeouts. */
  defaultWaitSeconds: number;
  /** The site's repository on this machine, where findings' elements are looked up (issue 26). */
  sourceDir?: string;
  /**
   * Whether a tool call may name a source directory: on stdio, where the files are the person's
   * own; never over HTTP, where they would be the server's.
   */
  sourceDirArgument?: boolean;
}

/** The longest wait_for_run waits in one call: under the 60 s request timeout many hosts apply. */
export const MAX_WAIT_SECONDS = 50;

export const DEFAULT_MCP_SETTINGS: McpSettings = { pollIntervalMs: 10_000, defaultWaitSeconds: 25 };

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name} must be a positive number, got ${value}`);
  return number;
}

/** SITEAUDIT_MCP_POLL_MS and SITEAUDIT_MCP_WAIT_SECONDS override the defaults (tests, slow hosts). */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): McpSettings {
  const pollIntervalMs = positive(env.SITEAUDIT_MCP_POLL_MS, 'SITEAUDIT_MCP_POLL_MS');
  const waitSeconds = positive(env.SITEAUDIT_MCP_WAIT_SECONDS, 'SITEAUDIT_MCP_WAIT_SECONDS');
  return {
    pollIntervalMs: pollIntervalMs ?? DEFAULT_MCP_SETTINGS.pollIntervalMs,
    defaultWaitSeconds: Math.min(waitSeconds ?? DEFAULT_MCP_SETTINGS.defaultWaitSeconds, MAX_WAIT_SECONDS),
  };
}

/** Connections one client address may hold open on `mcp --http` (unless a proxy in front limits them). */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 64;
