// A run compared with a baseline run of the same project and product (an addition to spec 4.11,
// issue 26; docs/decisions.md "Run comparison"). Findings are matched by fingerprint. A finding the
// run no longer has is `notFound`, never "resolved": spec 2.5 forbids inferring resolution from a
// later run (the page may not have been crawled, the check may not have run the same way).
import { z } from 'zod';
import { DateTime, Severity, Uuid } from './common.ts';
import { FindingId } from './finding.ts';
import { Product } from './run.ts';

export const COMPARISON_STATES = ['new', 'persisting', 'notFound'] as const;
export const ComparisonState = z.enum(COMPARISON_STATES);
export type ComparisonState = z.infer<typeof ComparisonState>;

const Count = z.int().min(0);
export const ComparisonCounts = z.object({ new: Count, persisting: Count, notFound: Count });
export type ComparisonCounts = z.infer<typeof ComparisonCounts>;

/** Instances (pages, elements) of one finding in a run and in its baseline, counted by their keys. */
export function comparisonCounts(current: ReadonlySet<string>, baseline: ReadonlySet<string>): ComparisonCounts {
  let persisting = 0;
  for (const key of current) if (baseline.has(key)) persisting++;
  return { new: current.size - persisting, persisting, notFound: baseline.size - persisting };
}

export const ComparedFinding = z.object({
  comparison: ComparisonState,
  fingerprint: z.string(),
  checkId: z.string().optional(),
  /** The finding in the run compared (new, persisting) or in the baseline (notFound). */
  findingId: FindingId,
  runId: Uuid,
  /** persisting: the same defect's finding in the baseline. */
  baselineFindingId: FindingId.optional(),
  severity: Severity,
  /** persisting: its severity in the baseline, when it changed. */
  baselineSeverity: Severity.optional(),
  title: z.string(),
  humanUrl: z.string(),
  /**
   * The pages and elements of the finding's evidence, matched by their own fingerprints: which are
   * new, which persist and which were not found again (over the evidence each run kept).
   */
  instances: ComparisonCounts,
});
export type ComparedFinding = z.infer<typeof ComparedFinding>;

export const RunComparison = z.object({
  runId: Uuid,
  baselineRunId: Uuid,
  projectId: Uuid.nullable(),
  product: Product,
  createdAt: DateTime,
  baselineCreatedAt: DateTime,
  score: z.object({
    current: z.int().min(0).max(100).nullable(),
    baseline: z.int().min(0).max(100).nullable(),
    /** current minus baseline; null when either has no score. */
    change: z.int().nullable(),
  }),
  counts: ComparisonCounts,
  /** new first, then persisting, then notFound; worst first within each. */
  findings: z.array(ComparedFinding),
  /** What notFound means, for whoever reads the answer. */
  note: z.string(),
  humanUrl: z.string(),
});
export type RunComparison = z.infer<typeof RunComparison>;

export const NOT_FOUND_NOTE =
  'notFound means the run did not find the defect again; it is not a resolution (spec 2.5): the page may not have been crawled or judged the same way. Recheck it to confirm a fix.';
