// A run's findings against a baseline's, by fingerprint (issue 26): new, persisting, notFound, with
// the same matching for the pages and elements each finding's evidence names. Findings stored
// before fingerprints existed get theirs back: their findingId is a hash of the run and the check
// (spec 2.5), so the check is found by trying the catalogue's ids.
import { CATALOGUE } from '../audit/catalogue.ts';
import { findingFingerprint } from '../audit/fingerprint.ts';
import { findingId } from '../audit/report.ts';
import {
  type ComparedFinding,
  comparisonCounts,
  type Finding,
  NOT_FOUND_NOTE,
  type RunComparison,
  SEVERITIES,
} from '../contract/index.ts';
import type { RunRow } from './store/index.ts';

export interface ComparedRun {
  row: RunRow;
  findings: Finding[];
  humanUrl: string;
}

const CHECK_IDS = CATALOGUE.map(({ spec }) => spec.id);

/** The finding's check, recovered for one stored before findings carried it (undefined when none matches). */
export function checkIdOf(finding: Finding, run: RunRow): string | undefined {
  return finding.checkId ?? CHECK_IDS.find((id) => findingId(run.id, id) === finding.findingId);
}

/** The finding's fingerprint, recovered for one stored before fingerprints (undefined when no check matches). */
export function fingerprintOf(finding: Finding, run: RunRow): string | undefined {
  if (finding.fingerprint) return finding.fingerprint;
  const checkId = checkIdOf(finding, run);
  return checkId ? findingFingerprint(checkId, run.url) : undefined;
}

/** The fingerprints of a finding's pages and elements (those without one are not counted). */
function instancesOf(finding: Finding): Set<string> {
  const prints = new Set<string>();
  for (const item of finding.evidence) {
    if (item.elements?.length) {
      for (const element of item.elements) if (element.fingerprint) prints.add(element.fingerprint);
    } else if (item.fingerprint) prints.add(item.fingerprint);
  }
  return prints;
}

const rank = (f: ComparedFinding) =>
  ['new', 'persisting', 'notFound'].indexOf(f.comparison) * 10 + SEVERITIES.indexOf(f.severity);

export function compareRuns(current: ComparedRun, baseline: ComparedRun): RunComparison {
  const before = new Map<string, Finding>();
  for (const finding of baseline.findings) {
    const print = fingerprintOf(finding, baseline.row);
    if (print) before.set(print, finding);
  }
  const seen = new Set<string>();
  const findings: ComparedFinding[] = [];
  for (const finding of current.findings) {
    // A finding whose check cannot be told (none today) is new: nothing in the baseline can match it.
    const print = fingerprintOf(finding, current.row) ?? `unmatched:${finding.findingId}`;
    seen.add(print);
    const old = before.get(print);
    findings.push({
      comparison: old ? 'persisting' : 'new',
      fingerprint: print,
      ...(finding.checkId ? { checkId: finding.checkId } : {}),
      findingId: finding.findingId,
      runId: current.row.id,
      ...(old ? { baselineFindingId: old.findingId } : {}),
      severity: finding.severity,
      ...(old && old.severity !== finding.severity ? { baselineSeverity: old.severity } : {}),
      title: finding.title,
      humanUrl: finding.humanUrl,
      instances: comparisonCounts(instancesOf(finding), old ? instancesOf(old) : new Set()),
    });
  }
  for (const [print, old] of before) {
    if (seen.has(print)) continue;
    findings.push({
      comparison: 'notFound',
      fingerprint: print,
      ...(old.checkId ? { checkId: old.checkId } : {}),
      findingId: old.findingId,
      runId: baseline.row.id,
      severity: old.severity,
      title: old.title,
      humanUrl: old.humanUrl,
      instances: comparisonCounts(new Set(), instancesOf(old)),
    });
  }
  findings.sort((a, b) => rank(a) - rank(b));
  const counts = { new: 0, persisting: 0, notFound: 0 };
  for (const f of findings) counts[f.comparison]++;
  const score = current.row.score;
  const baselineScore = baseline.row.score;
  return {
    runId: current.row.id,
    baselineRunId: baseline.row.id,
    projectId: current.row.project_id,
    product: current.row.product as RunComparison['product'],
    createdAt: current.row.created_at,
    baselineCreatedAt: baseline.row.created_at,
    score: {
      current: score,
      baseline: baselineScore,
      change: score !== null && baselineScore !== null ? score - baselineScore : null,
    },
    counts,
    findings,
    note: NOT_FOUND_NOTE,
    humanUrl: current.humanUrl,
  };
}
