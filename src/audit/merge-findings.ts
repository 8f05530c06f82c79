// One defect, one finding (issue 25): findings that several checks give for the same element or the
// same missing file are presented as one, with the strongest severity and every reference. Only the
// findings merge: each check keeps its own row (pass or fail), so scores, the checks ledger and the
// comparison with axe and Lighthouse rule by rule stay as they are.
import type { FindingDraft } from './checks.ts';
import { SEVERITY_ORDER } from './checks.ts';
import type { Reference } from './citations.ts';
import { elementDefect, missingFileDefect, roleDefect, roleOfStartTag } from './defects.ts';

export interface MergeableFinding extends FindingDraft {
  checkId: string;
  references: Reference[];
  /** The checks whose findings were merged into this one (their rows stand; their findings do not). */
  alsoChecks?: string[];
}

/**
 * axe rules whose violations are an element without an accessible name: the same defect our naming
 * checks (link-name, button-name, form-labels, frame-title) report for the same element.
 */
const AXE_NAME_RULES = new Set([
  'aria-command-name',
  'aria-input-field-name',
  'aria-meter-name',
  'aria-progressbar-name',
  'aria-toggle-field-name',
  'aria-tooltip-name',
  'aria-treeitem-name',
  'button-name',
  'frame-title',
  'image-alt',
  'input-button-name',
  'input-image-alt',
  'label',
  'link-name',
  'select-name',
  'summary-name',
]);

/** A file evidence item that says the file is not there (foundation checks write `status 404`). */
const ABSENT = /^(?:status|HTTP) (?:404|410)$/;

const EVIDENCE_MAX = 10;
const AFFECTED_MAX = 25;
const DETAIL_MAX = 1000;
const CONFIDENCE = ['low', 'medium', 'high'] as const;

/**
 * The keys a finding is about: its own, an axe naming rule's elements and their roles, a missing
 * file. The role is what the agent view counts an unnamed control by (it reads the accessibility
 * tree, which has no selectors or markup to match axe's elements with): an unnamed
 * `<div role="listbox">` is axe's aria-input-field-name and the agent view's "unnamed: listbox".
 */
function keysOf(finding: MergeableFinding, missing: ReadonlySet<string>): Set<string> {
  const keys = new Set(finding.defects ?? []);
  const rule = finding.checkId.startsWith('axe-') ? finding.checkId.slice(4) : undefined;
  if (rule && AXE_NAME_RULES.has(rule))
    for (const item of finding.evidence)
      for (const element of item.elements ?? []) {
        if (!item.url) continue;
        keys.add(elementDefect('name', item.url, element));
        const role = roleOfStartTag(element.snippet);
        if (role) keys.add(roleDefect('name', item.url, role));
      }
  const files = finding.evidence.filter((e) => e.type === 'file' && e.url && missing.has(e.url));
  if (files.length > 0 && files.length === finding.evidence.length)
    for (const file of files) keys.add(missingFileDefect(file.url as string));
  return keys;
}

const rank = (finding: FindingDraft) => SEVERITY_ORDER.indexOf(finding.severity);

/**
 * The detail of a finding that took others in, in words a site owner reads: its own detail as a
 * sentence, then the titles of the findings merged into it (a person knows findings by their
 * titles, not by check ids; the ids stay in `alsoChecks`). Titles are our own words, so they are not
 * quoted “like this”, which marks the site's text. Titles that do not fit are left out.
 */
export function mergedDetail(finding: Pick<FindingDraft, 'detail' | 'title'>, titles: readonly string[]): string {
  const own = finding.detail.trimEnd();
  const sentence = own === '' || '.!?'.includes(own.at(-1) as string) ? own : `${own}.`;
  const shown = [...new Set(titles.map(withoutStop))].filter((title) => title !== '' && title !== finding.title);
  while (shown.length > 0) {
    const also = ` Also reported as: ${shown.join('; ')}.`;
    if (sentence.length + also.length <= DETAIL_MAX) return `${sentence}${also}`;
    shown.pop();
  }
  return finding.detail;
}

/** A title without a closing full stop, so that the list ends with one. */
function withoutStop(title: string): string {
  let end = title.length;
  while (end > 0 && (title[end - 1] === '.' || title[end - 1] === ' ')) end--;
  return title.slice(0, end);
}

function absorb<T extends MergeableFinding>(target: T, other: T): T {
  const references = [...target.references];
  for (const reference of other.references)
    if (!references.some((r) => r.url === reference.url)) references.push(reference);
  const evidence = [...target.evidence];
  for (const item of other.evidence)
    if (evidence.length < EVIDENCE_MAX && !evidence.some((e) => e.url === item.url && e.summary === item.summary))
      evidence.push(item);
  const suggestions = [...(target.suggestions ?? [])];
  for (const suggestion of other.suggestions ?? [])
    if (!suggestions.some((s) => s.content === suggestion.content && s.target === suggestion.target))
      suggestions.push(suggestion);
  return {
    ...target,
    severity: rank(other) < rank(target) ? other.severity : target.severity,
    confidence:
      CONFIDENCE.indexOf(other.confidence) > CONFIDENCE.indexOf(target.confidence)
        ? other.confidence
        : target.confidence,
    evidence,
    affectedUrls: [...new Set([...target.affectedUrls, ...other.affectedUrls])].slice(0, AFFECTED_MAX),
    references,
    ...(suggestions.length > 0 ? { suggestions } : {}),
    defects: [...new Set([...(target.defects ?? []), ...(other.defects ?? [])])],
    alsoChecks: [...(target.alsoChecks ?? []), other.checkId, ...(other.alsoChecks ?? [])],
  };
}

/**
 * Findings (worst first) with those about the same defects merged: a finding all of whose keys other
 * findings cover goes into the one that shares most of them (then the more severe, then the first),
 * weakest first, so the finding that stays is the one with the widest reach. The result is worst
 * first again, ties in the order given.
 */
export function mergeFindings<T extends MergeableFinding>(findings: readonly T[]): T[] {
  const missing = new Set<string>();
  for (const finding of findings)
    for (const item of finding.evidence)
      if (item.type === 'file' && item.url && ABSENT.test(item.summary)) missing.add(item.url);
  const list: Array<{ finding: T; keys: Set<string>; index: number; merged: boolean; titles: string[] }> = findings.map(
    (finding, index) => ({ finding, keys: keysOf(finding, missing), index, merged: false, titles: [] }),
  );
  // Which findings hold each key: a finding is compared only with those it shares a key with.
  const holders = new Map<string, Set<number>>();
  for (const entry of list)
    for (const key of entry.keys) {
      const set = holders.get(key) ?? new Set<number>();
      set.add(entry.index);
      holders.set(key, set);
    }
  for (let i = list.length - 1; i >= 0; i--) {
    const entry = list[i] as (typeof list)[number];
    if (entry.keys.size === 0) continue;
    const shared = new Map<number, number>();
    let covered = true;
    for (const key of entry.keys) {
      let found = false;
      for (const other of holders.get(key) ?? []) {
        if (other === entry.index || (list[other] as (typeof list)[number]).merged) continue;
        shared.set(other, (shared.get(other) ?? 0) + 1);
        found = true;
      }
      if (!found) {
        covered = false;
        break;
      }
    }
    if (!covered || shared.size === 0) continue;
    const [targetIndex] = [...shared.entries()].sort(
      ([a, countA], [b, countB]) =>
        countB - countA ||
        rank((list[a] as (typeof list)[number]).finding) - rank((list[b] as (typeof list)[number]).finding) ||
        a - b,
    )[0] as [number, number];
    const target = list[targetIndex] as (typeof list)[number];
    target.finding = absorb(target.finding, entry.finding);
    target.titles.push(entry.finding.title, ...entry.titles);
    for (const key of entry.keys) {
      target.keys.add(key);
      holders.get(key)?.add(targetIndex);
    }
    entry.merged = true;
  }
  return list
    .filter((entry) => !entry.merged)
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index)
    .map((entry) =>
      entry.titles.length > 0 ? { ...entry.finding, detail: mergedDetail(entry.finding, entry.titles) } : entry.finding,
    );
}
