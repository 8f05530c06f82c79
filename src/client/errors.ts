// The error envelope (spec 2.1) as typed errors: callers branch on `code`, never on message text.
export class ApiClientError extends Error {
  override readonly name: string = 'ApiClientError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** Seconds the service asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** The address asked, so a caller can say which service did not answer as one. */
  readonly url: string;

  constructor(
    method: string,
    url: string,
    status: number,
    code: string,
    message: string,
    options: { details?: Record<string, unknown>; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(`[${method}] ${url}: ${status} ${code}: ${message}`, { cause: options.cause });
    this.url = url;
    this.status = status;
    this.code = code;
    this.details = options.details ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The service's own words, without the request line. */
  get serviceMessage(): string {
    return this.message.replace(/^\[[A-Z]+\] \S+: \d+ [a-z_]+: /, '');
  }
}

/** The service could not be reached at all (refused, reset, timed out). */
export class ApiConnectionError extends ApiClientError {
  override readonly name = 'ApiConnectionError';
  constructor(method: string, url: string, cause: unknown) {
    super(method, url, 0, 'connection_failed', (cause as Error)?.message ?? String(cause), { cause });
  }
}
