// Reading requests: JSON bodies, path ids and page parameters, each failure a 4xx in the envelope.
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import { CursorQuery, type ErrorCode, LimitQuery, PAGE_LIMIT_DEFAULT, Uuid } from '../contract/index.ts';
import type { AppContext } from './context.ts';
import { ApiError, notFound } from './errors.ts';

/** The parsed JSON body, or undefined when the body is empty. */
export async function readJson(c: AppContext, invalidCode: ErrorCode = 'invalid_json'): Promise<unknown> {
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    if (error instanceof HTTPException || error instanceof ApiError) throw error;
    // The body could not be read: the client hung up mid-body (ECONNRESET, "aborted"). Its fault,
    // not the database's, whatever the error's code says.
    throw new ApiError(400, 'invalid_request', 'the request body could not be read; the client closed the request');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, invalidCode, 'request body is not valid JSON');
  }
}

function describeIssues(error: z.ZodError) {
  return error.issues.slice(0, 10).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** Parses `value` with `schema`, or throws a 400 with `code` naming the first problem. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, code: ErrorCode): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = describeIssues(result.error);
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid request';
  throw new ApiError(400, code, message, { details: { issues } });
}

/** A uuid path parameter; anything else cannot name a resource, so it is a 404 (docs/decisions.md). */
export function idParam(c: AppContext, name: string, what: string): string {
  const value = c.req.param(name) ?? '';
  if (!Uuid.safeParse(value).success) throw notFound(what);
  return value.toLowerCase();
}

export interface PageParams {
  limit: number;
  cursor: string | undefined;
}

export function pageParams(c: AppContext): PageParams {
  const limit = c.req.query('limit');
  const cursor = c.req.query('cursor');
  return {
    limit: limit === undefined ? PAGE_LIMIT_DEFAULT : parseWith(LimitQuery, limit, 'validation_failed'),
    cursor: cursor === undefined ? undefined : parseWith(CursorQuery, cursor, 'validation_failed'),
  };
}

/** An enum query parameter, undefined when absent. */
export function enumQuery<T extends string>(c: AppContext, name: string, values: readonly T[]): T | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw new ApiError(400, 'validation_failed', `${name} must be one of ${values.join(', ')}`, {
      details: { field: name },
    });
  }
  return value as T;
}

/** A whole-number query parameter within [min, max], undefined when absent. */
export function intQuery(c: AppContext, name: string, min: number, max: number): number | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  const parsed = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= min && parsed <= max)) {
    throw new ApiError(400, 'validation_failed', `${name} must be a whole number from ${min} to ${max}`, {
      details: { field: name },
    });
  }
  return parsed;
}
