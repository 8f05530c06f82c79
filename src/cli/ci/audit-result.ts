// What one `siteaudit audit` call learned, for its output formats (issue 27): each product's
// completed run, report and findings, the comparison with a baseline when one was asked for, and
// the gate's verdict. The formats (text, json, markdown, sarif, junit) only read this.
import type { ComparisonState, Finding, Product, ReportContext, Run, RunComparison } from '../../contract/index.ts';
import { findingKey, pageInstances } from './compare.ts';

/** A place in the site's source where an element of a finding is written (issue 26). */
export interface SourcePlace {
  /** Relative to the source root, forward slashes. */
  file: string;
  line: number;
  confidence: 'high' | 'medium' | 'low';
}

/** One product's audit: a completed run. */
export interface ProductAudit {
  product: Product;
  run: Run;
  report: ReportContext;
  /** Every finding of the run, worst first (the API's order). */
  findings: Finding[];
  /** The run against its baseline (compare.ts); absent when no baseline was asked for or there was none. */
  comparison?: RunComparison;
  /** The baseline's pages and elements of each finding (compare.ts keys), to tell which page is new. */
  baselineInstances?: ReadonlyMap<string, ReadonlySet<string>>;
  /** A baseline was asked for and there was none for this product: every finding counts as new. */
  noBaseline?: boolean;
  /** Why there was none, in words: "no earlier completed audit of this site", "no baseline given for it". */
  noBaselineReason?: string;
}

/** One `--fail-on` expression and what it found. */
export interface GateCheck {
  expression: string;
  tripped: boolean;
  /** What was measured, in words: "AI readiness score 72 is below 90", "3 new findings (more than 0)". */
  detail: string;
}

export interface AuditResult {
  /** The address given on the command line. */
  target: string;
  audits: ProductAudit[];
  gate: { checks: GateCheck[]; passed: boolean };
  /**
   * The report links point at this machine's own local service (the embedded default): they work
   * on this machine only, so a pull-request comment must not carry them.
   */
  localLinks: boolean;
  tool: { name: 'siteaudit'; version: string; informationUri: string };
  /**
   * Where an element is written in the site's source, when a source directory was given (or the
   * command ran in a git work tree); [] when it was not found.
   */
  locate?: (element: { selector: string; snippet: string }) => SourcePlace[];
}

/**
 * Each finding's state against the baseline, by findingId; empty when there was no baseline. A
 * finding the baseline had, but not on this page or element, is new (compare.ts): a defect
 * spreading to another page is a regression a gate on new findings must see.
 */
export function findingStates(audit: ProductAudit): Map<string, ComparisonState> {
  const states = new Map<string, ComparisonState>();
  if (audit.noBaseline) {
    for (const finding of audit.findings) states.set(finding.findingId, 'new');
    return states;
  }
  for (const compared of audit.comparison?.findings ?? []) {
    if (compared.comparison === 'notFound') continue;
    states.set(compared.findingId, compared.comparison);
  }
  return states;
}

/** Whether the baseline had the finding on this page (and these elements); undefined when not compared. */
export function pageState(
  audit: ProductAudit,
  finding: Finding,
  url: string,
  elements: ReadonlyArray<{ snippet: string }> | undefined,
): 'new' | 'persisting' | undefined {
  if (audit.noBaseline) return 'new';
  if (!audit.comparison) return undefined;
  const before = audit.baselineInstances?.get(findingKey(finding));
  if (!before) return findingStates(audit).get(finding.findingId) === 'persisting' ? 'persisting' : 'new';
  return pageInstances(url, elements).every((key) => before.has(key)) ? 'persisting' : 'new';
}

/** Whether this audit was compared (a baseline was asked for, found or not). */
export const compared = (audit: ProductAudit) => audit.comparison !== undefined || audit.noBaseline === true;
