// Shared wire primitives of spec v1: ids, timestamps, enums and pagination used by every resource.
import { z } from 'zod';

export const Uuid = z.uuid();
export const DateTime = z.iso.datetime({ offset: true });

// Names people type: well-formed Unicode (no lone surrogates), no control characters (PostgreSQL text
// cannot even hold NUL) and no noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF).
const NONCHARACTER = /[\u{FDD0}-\u{FDEF}]|[\u{FFFE}\u{FFFF}\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{10FFFE}\u{10FFFF}]/u;
export const PlainText = z
  .string()
  .refine((text) => text.isWellFormed(), 'must be well-formed Unicode text')
  .refine(
    (text) => !/\p{Cc}/u.test(text) && !NONCHARACTER.test(text),
    'must not contain control characters or noncharacters',
  );

// spec 2.5: the finding severity enum, also the keys of a severity counts object (2.6).
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

export const Confidence = z.enum(['high', 'medium', 'low']);

// spec 2.5: the category enum shared by findings, top findings and check rows.
export const Category = z.enum([
  'discoverability',
  'structured_data',
  'metadata',
  'content_structure',
  'accessibility',
  'answerability',
  'agent_operability',
  'performance',
  'security',
  'general',
  'findability',
  'measurement',
  'conversion_path',
  'offer_clarity',
  'trust_proof',
  'schema_metadata',
  'social_preview',
  'performance_ux',
  'consent_privacy_signal',
  'connected_account',
]);
export type Category = z.infer<typeof Category>;

// spec 8: page size 1 to 100, default 20.
export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 20;

export const Pagination = z.object({
  nextCursor: z.string().nullable(),
  limit: z.int().min(1).max(PAGE_LIMIT_MAX),
});
export type Pagination = z.infer<typeof Pagination>;

// Query parameters arrive as strings; a limit is digits only, so "1e2" or "20abc" are refused.
export const LimitQuery = z
  .string()
  .regex(/^\d{1,3}$/, 'limit must be a whole number from 1 to 100')
  .transform(Number)
  .pipe(z.int().min(1, 'limit must be at least 1').max(PAGE_LIMIT_MAX, 'limit must be at most 100'));

export const CursorQuery = z.string().min(1).max(512);

/** A base URL without its trailing slashes: a scan, as /\/+$/ retries at every slash of a long run (quadratic). */
export function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
