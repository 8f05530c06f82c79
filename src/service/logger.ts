// The service's log (issue 28): pino records on stderr, one JSON object a line for a collector or
// `siteaudit: ...` text for a person at a terminal, with keys, tokens, passwords and secrets never
// written (spec 5.2.1: a key is shown only as its prefix).
import { hostname } from 'node:os';
import pino from 'pino';
import { maskKeys } from '../contract/index.ts';

export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type Logger = pino.Logger;

export interface LogSettings {
  format: LogFormat;
  level: LogLevel;
}

/** Field names whose value is a credential wherever it is found (at the top and two levels down). */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'passphrase',
  'secret',
  'token',
  'key',
  'apiKey',
  'accessToken',
  'refreshToken',
  'clientSecret',
  'access_token',
  'refresh_token',
  'client_secret',
  'api_key',
];
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);
export const REDACTED = '[redacted]';

// A webhook signing secret (routes/webhooks.ts) cut like a key: the name of the kind, never the value.
const WEBHOOK_SECRET_LIKE = /whsec_[A-Za-z0-9_-]+/g;

/**
 * Text with anything shaped like a key, an OAuth code or token (maskKeys), or a webhook secret cut
 * short; masking it again changes nothing.
 */
export function maskSecrets(text: string): string {
  // A key masked before (a path the audit log cut) gets maskKeys' mark again: one is enough.
  return maskKeys(text).replace(/…{2,}/g, '…').replace(WEBHOOK_SECRET_LIKE, 'whsec_…');
}

/** The record's values with secret-shaped strings masked; bounded in depth (a record is ours, not a site's). */
function masked(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  // An error is left to the err serializer, which masks its message and stack.
  if (depth >= 4 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => masked(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) out[name] = masked(item, depth + 1);
  return out;
}

const OWN_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/** A record as the line a person reads: `siteaudit: [level: ]msg name=value ...`, a stack under it. */
export function textLine(record: Record<string, unknown>): string {
  const label = record.level === 'info' ? '' : `${String(record.level)}: `;
  let fields = '';
  let stack = '';
  for (const [name, value] of Object.entries(record)) {
    if (OWN_FIELDS.has(name) || value === null || value === undefined) continue;
    const err = value as { stack?: unknown };
    if (name === 'err' && typeof err.stack === 'string') stack = `\n${err.stack}`;
    else fields += ` ${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
  }
  return `siteaudit: ${label}${String(record.msg ?? '')}${fields}${stack}\n`;
}

/** A logger of these settings whose lines go to `write` (stderr unless a test says otherwise). */
export function createLogger(settings: LogSettings, write: (line: string) => void = rawStderr()): Logger {
  const destination =
    settings.format === 'json' ? { write } : { write: (line: string) => write(textLine(JSON.parse(line))) };
  return pino(
    {
      level: settings.level,
      base: { pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (record) => masked(record, 0) as Record<string, unknown>,
      },
      serializers: {
        err: (error: unknown) => {
          if (!(error instanceof Error)) return maskSecrets(String(error));
          const out = pino.stdSerializers.err(error);
          return { ...out, message: maskSecrets(out.message), stack: maskSecrets(out.stack) };
        },
      },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        // The message and its format arguments: masked like the record's fields.
        logMethod(args, method) {
          const safe = args.map((arg) => (typeof arg === 'string' ? maskSecrets(arg) : arg));
          method.apply(this, safe as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

/** stderr's write from before captureStderr took it over; until then, stderr's write of the moment. */
let ownWrite: typeof process.stderr.write | undefined;
const rawStderr = () => (line: string) => {
  (ownWrite ?? process.stderr.write).call(process.stderr, line);
};

/**
 * The format and level `serve` logs in: the flag, else the environment, else JSON when stderr is
 * not a terminal (a supervisor or a collector reads it) and text when it is; level info. Throws on
 * a value it does not know.
 */
export function logSettingsOf(
  flags: { format?: string; level?: string },
  env: NodeJS.ProcessEnv = process.env,
  terminal = process.stderr.isTTY === true,
): LogSettings {
  const format = flags.format ?? (env.SITEAUDIT_LOG_FORMAT || (terminal ? 'text' : 'json'));
  const level = flags.level ?? (env.SITEAUDIT_LOG_LEVEL || 'info');
  if (!(LOG_FORMATS as readonly string[]).includes(format))
    throw new Error(`the log format must be json or text, not "${format}"`);
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`the log level must be one of ${LOG_LEVELS.join(', ')}, not "${level}"`);
  return { format: format as LogFormat, level: level as LogLevel };
}

let current: Logger | undefined;

/**
 * The process's logger. Until `serve` configures it (the service embedded in a test or a tool), it
 * writes text and only warnings and errors, so requests are not logged one by one there.
 */
export function logger(): Logger {
  if (!current) {
    const asked = process.env.SITEAUDIT_LOG_LEVEL ?? '';
    const level = (LOG_LEVELS as readonly string[]).includes(asked) ? (asked as LogLevel) : 'warn';
    current = createLogger({ format: 'text', level });
  }
  return current;
}

/** The old `siteaudit: ` prefix: the logger adds its own (text) or has a field for it (JSON). */
const unprefixed = (line: string) => (line.startsWith('siteaudit: ') ? line.slice(11) : line);

/** The `log: (line) => void` the service's modules take: each line an info record. */
export const logLine = (line: string): void => {
  logger().info(unprefixed(line.endsWith('\n') ? line.slice(0, -1) : line));
};

/** Makes `settings` the process's logging (`serve`, before its first line). */
export function configureLogging(settings: LogSettings): Logger {
  current = createLogger(settings);
  return current;
}

/**
 * For a running JSON service: whatever else writes to stderr from now on (a module that writes its
 * own line, a dependency's console, Node's warnings) becomes a record too, one a write, for a
 * collector reading stderr as JSON lines must not meet a line of text. Called once `serve` is up:
 * one that cannot start says why in text, as every command does.
 */
export function captureStderr(): void {
  if (ownWrite) return;
  ownWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    const text =
      typeof chunk === 'string'
        ? chunk
        : Buffer.from(chunk).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    if (text.trim()) logLine(text);
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') process.nextTick(callback as () => void);
    return true;
  }) as typeof process.stderr.write;
}
