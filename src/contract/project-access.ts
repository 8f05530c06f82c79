// Issue 29: a project's access settings, for a site behind a login or a preview wall: extra request
// headers (a preview bypass token), HTTP basic auth and cookies, sent only to the project's own
// origin. Write-only: the API lists the names it holds, never a value. No check here quotes a value
// back: a refusal names the header or cookie, never what was sent for it.
import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';

export const ACCESS_MAX_ENTRIES = 20;
export const ACCESS_NAME_MAX = 100;
export const ACCESS_VALUE_MAX = 4096;
export const ACCESS_USERNAME_MAX = 256;
export const ACCESS_PASSWORD_MAX = 1024;

/** RFC 9110 5.6.2: a header or cookie name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers the audit sets itself (it presents itself as a crawler or an agent), headers that frame
 * the request, and Cookie (the cookies part says them): refused as access headers.
 */
export const ACCESS_REFUSED_HEADERS = [
  'accept',
  'accept-encoding',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
] as const;

/** Visible ASCII, spaces and tabs inside: what a header field value may hold (RFC 9110 5.5), no CR or LF. */
function isFieldValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x09) continue;
    if (code < 0x20 || code > 0x7e) return false;
  }
  return value.trim() === value;
}

/** RFC 6265 4.1.1: cookie-octet, no spaces, quotes, commas, semicolons or backslashes. */
function isCookieValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e || code === 0x22 || code === 0x2c || code === 0x3b || code === 0x5c) return false;
  }
  return true;
}

const hasNoControls = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return text.isWellFormed();
};

/** A record's names checked as a whole: a refused name is not echoed (it may be a value in the wrong place). */
const entries = (what: string, valueOk: (value: string) => boolean, valueRule: string) =>
  z
    .record(
      z.string(),
      z
        .string({ error: `a ${what} value is a string` })
        .min(1, `a ${what} value may not be empty`)
        .max(ACCESS_VALUE_MAX, `a ${what} value is at most ${ACCESS_VALUE_MAX} characters`)
        .refine(valueOk, valueRule),
    )
    .refine(
      (record) => Object.keys(record).every((name) => name.length <= ACCESS_NAME_MAX && TOKEN.test(name)),
      `a ${what} name is a token of at most ${ACCESS_NAME_MAX} characters: letters, digits and !#$%&'*+.^_\`|~-`,
    )
    .refine((record) => Object.keys(record).length <= ACCESS_MAX_ENTRIES, `at most ${ACCESS_MAX_ENTRIES} ${what}s`);

export const BasicAuth = z.strictObject({
  username: z
    .string()
    .min(1, 'the username may not be empty')
    .max(ACCESS_USERNAME_MAX)
    .refine(
      (name) => hasNoControls(name) && !name.includes(':'),
      'the username may not hold a colon or control characters',
    ),
  password: z.string().max(ACCESS_PASSWORD_MAX).refine(hasNoControls, 'the password may not hold control characters'),
});

/** PUT /api/v1/projects/{projectId}/access: each part optional; {} clears them all. */
export const ProjectAccessBody = z
  .strictObject({
    headers: entries(
      'header',
      isFieldValue,
      'a header value is visible ASCII, with no line break and no space at either end',
    )
      .refine(
        (headers) =>
          !Object.keys(headers).some((name) =>
            (ACCESS_REFUSED_HEADERS as readonly string[]).includes(name.toLowerCase()),
          ),
        `these headers are the audit's own or frame the request, and cannot be set: ${ACCESS_REFUSED_HEADERS.join(', ')} (cookies go in "cookies")`,
      )
      .refine((headers) => {
        const names = Object.keys(headers).map((name) => name.toLowerCase());
        return new Set(names).size === names.length;
      }, 'a header is named twice (names are case-insensitive)')
      .optional(),
    basicAuth: BasicAuth.optional(),
    cookies: entries(
      'cookie',
      isCookieValue,
      'a cookie value is visible ASCII without spaces, quotes, commas, semicolons or backslashes',
    ).optional(),
  })
  .refine(
    (body) =>
      !(body.basicAuth && Object.keys(body.headers ?? {}).some((name) => name.toLowerCase() === 'authorization')),
    'send basicAuth or an Authorization header, not both',
  );
export type ProjectAccessBody = z.infer<typeof ProjectAccessBody>;

/** What the API shows of them: names only. */
export const ProjectAccess = z.object({
  projectId: Uuid,
  headers: z.array(z.string()),
  cookies: z.array(z.string()),
  basicAuth: z.boolean(),
  updatedAt: DateTime.nullable(),
});
export type ProjectAccess = z.infer<typeof ProjectAccess>;
