// The one error type routes throw; the app's error handler renders it as the spec's envelope (2.1).
import type { ErrorCode } from '../contract/index.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
