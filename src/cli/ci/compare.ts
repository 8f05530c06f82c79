// A run compared with a baseline run by the command itself (issue 27), so the baseline can be any
// completed run of the product: the site's last one, a run id, or the JSON of an earlier audit (an
// artifact of the main branch's job), even of another host (a preview deployment). Findings match
// by check, their pages by path and query, their elements by what they are (fingerprint.ts's
// element shape): for runs of one site this is the service's comparison (its fingerprints hash the
// same parts with the host); across hosts it still matches.
import { elementShape, pageKey, siteScope } from '../../audit/fingerprint.ts';
import {
  type ComparedFinding,
  comparisonCounts,
  type Finding,
  NOT_FOUND_NOTE,
  type Run,
  type RunComparison,
  SEVERITIES,
} from '../../contract/index.ts';

export interface ComparedRun {
  run: Run;
  findings: readonly Finding[];
}

/** A finding's identity within its product: its check (older findings: fingerprint, else title). */
export const findingKey = (finding: Finding) => finding.checkId ?? finding.fingerprint ?? `title:${finding.title}`;

/** A page with the host left out: `/pricing?plan=pro`. */
function pagePath(url: string): string {
  const key = pageKey(url);
  const scope = siteScope(url);
  return key.startsWith(scope) ? key.slice(scope.length) : key;
}

/** The instance keys of one page of a finding: each element, or the page itself when it names none. */
export function pageInstances(url: string, elements: ReadonlyArray<{ snippet: string }> | undefined): string[] {
  const path = pagePath(url);
  if (!elements || elements.length === 0) return [path];
  return elements.map((element) => `${path}\u0000${elementShape(element.snippet)}`);
}

/**
 * Every page and element a finding names, host left out: its evidence, and the affected pages its
 * evidence does not show (some checks name their pages only there).
 */
export function instancesOf(finding: Finding): Set<string> {
  const keys = new Set<string>();
  const shown = new Set<string>();
  for (const item of finding.evidence) {
    if (!item.url) continue;
    shown.add(item.url);
    for (const key of pageInstances(item.url, item.elements)) keys.add(key);
  }
  for (const url of finding.affectedUrls) if (!shown.has(url)) keys.add(pageInstances(url, undefined)[0] as string);
  return keys;
}

const rank = (finding: { severity: Finding['severity'] }) => SEVERITIES.indexOf(finding.severity);
const ORDER = { new: 0, persisting: 1, notFound: 2 } as const;

/** The comparison in the service's shape (contract/comparison.ts), worst first within each state. */
export function compareRuns(current: ComparedRun, baseline: ComparedRun): RunComparison {
  const before = new Map(baseline.findings.map((finding) => [findingKey(finding), finding]));
  const now = new Set(current.findings.map(findingKey));
  const compared: ComparedFinding[] = current.findings.map((finding) => {
    const old = before.get(findingKey(finding));
    const instances = comparisonCounts(instancesOf(finding), old ? instancesOf(old) : new Set());
    // New when the baseline did not have it, or had it but not on all these pages and elements: a
    // defect spreading to another page is a regression (it keeps its baselineFindingId).
    return {
      comparison: old && instances.new === 0 ? 'persisting' : 'new',
      fingerprint: finding.fingerprint ?? findingKey(finding),
      ...(finding.checkId ? { checkId: finding.checkId } : {}),
      findingId: finding.findingId,
      runId: current.run.runId,
      ...(old ? { baselineFindingId: old.findingId } : {}),
      severity: finding.severity,
      ...(old && old.severity !== finding.severity ? { baselineSeverity: old.severity } : {}),
      title: finding.title,
      humanUrl: finding.humanUrl,
      instances,
    };
  });
  for (const finding of baseline.findings) {
    if (now.has(findingKey(finding))) continue;
    compared.push({
      comparison: 'notFound',
      fingerprint: finding.fingerprint ?? findingKey(finding),
      ...(finding.checkId ? { checkId: finding.checkId } : {}),
      findingId: finding.findingId,
      runId: baseline.run.runId,
      severity: finding.severity,
      title: finding.title,
      humanUrl: finding.humanUrl,
      instances: comparisonCounts(new Set(), instancesOf(finding)),
    });
  }
  compared.sort((a, b) => ORDER[a.comparison] - ORDER[b.comparison] || rank(a) - rank(b));
  const total = (state: keyof typeof ORDER) => compared.filter((c) => c.comparison === state).length;
  const score = current.run.score;
  const baselineScore = baseline.run.score;
  return {
    runId: current.run.runId,
    baselineRunId: baseline.run.runId,
    projectId: current.run.projectId,
    product: current.run.product,
    createdAt: current.run.createdAt,
    baselineCreatedAt: baseline.run.createdAt,
    score: {
      current: score,
      baseline: baselineScore,
      change: score !== null && baselineScore !== null ? score - baselineScore : null,
    },
    counts: { new: total('new'), persisting: total('persisting'), notFound: total('notFound') },
    findings: compared,
    note: NOT_FOUND_NOTE,
    humanUrl: current.run.humanUrl,
  };
}
