// A recheck of one finding (an addition to spec 4.11, issue 26; docs/decisions.md "Recheck"): the
// checks behind the finding re-run on up to five URLs, each judged alone, answered per URL. It
// spends no credits and changes no stored run or finding: a pass is a check of a fix, not a
// resolution (spec 2.5).
import { z } from 'zod';
import { Evidence, FindingId } from './finding.ts';

export const RECHECK_URLS_MAX = 5;

export const RecheckBody = z
  .object({
    findingId: FindingId.optional(),
    fingerprint: z.string().min(1).max(64).optional(),
    /** Default: the finding's affected URLs (the first five). */
    urls: z.array(z.string().min(1).max(2048)).min(1).max(RECHECK_URLS_MAX).optional(),
  })
  .refine((body) => (body.findingId === undefined) !== (body.fingerprint === undefined), {
    message: 'name the finding by findingId or by fingerprint (one of the two)',
    path: ['findingId'],
  });
export type RecheckBody = z.infer<typeof RecheckBody>;

export const RECHECK_VERDICTS = ['pass', 'fail', 'not_evaluated', 'error'] as const;

export const RecheckedUrl = z.object({
  url: z.string(),
  finalUrl: z.string().optional(),
  status: z.enum(RECHECK_VERDICTS),
  checks: z.array(
    z.object({
      id: z.string(),
      verdict: z.enum(['pass', 'fail', 'not_evaluated']),
      detail: z.string(),
    }),
  ),
  /** The failing checks' evidence on this page, in the findings' shape, elements fingerprinted. */
  evidence: z.array(Evidence),
  detail: z.string().optional(),
  error: z.string().optional(),
});
export type RecheckedUrl = z.infer<typeof RecheckedUrl>;

export const RecheckResult = z.object({
  runId: z.string(),
  findingId: FindingId,
  fingerprint: z.string(),
  checkIds: z.array(z.string()),
  results: z.array(RecheckedUrl),
  ms: z.int().min(0),
  note: z.string(),
});
export type RecheckResult = z.infer<typeof RecheckResult>;

export const RECHECK_NOTE =
  'A recheck changes no stored run or finding: a pass shows the fix on these pages now; a new run records it.';
