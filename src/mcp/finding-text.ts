// A page of findings as text for the model: what a coding agent needs (what is wrong, the fix and
// its actions, the verify line, the pages, each element's selector and start tag as code it can
// search for) and nothing twice. Pages are paths on the site; evidence that repeats on several pages
// (a template's element, the same summary) is shown once with its pages; every list that is cut says
// how much is left ("and 3 more"). Site text is marked as page content by page-content.ts's rule.
import type { Finding } from '../contract/index.ts';
import {
  codeFence,
  codeSpan,
  commandLine,
  markQuotes,
  PAGE_CONTENT_NOTICE,
  pageCode,
  pageText,
  pageUrls,
} from './page-content.ts';
import { locationText } from './source/element-locations.ts';
import { actionText } from './views.ts';

/** Affected pages listed per finding; the rest are counted. */
const AFFECTED_SHOWN = 10;
/** Evidence lines per finding (after collapsing repeats); the rest are counted. */
const EVIDENCE_SHOWN = 5;
/** Pages named on one evidence or element line; the rest are counted. */
const PAGES_SHOWN = 4;
/** Evidence items read per finding: the API's own bound (src/audit/checks.ts). */
const EVIDENCE_READ = 10;

type Element = { selector: string; snippet: string };

/** The origin most of the findings' pages are on: they are shown as paths on it. */
export function siteOrigin(findings: readonly Finding[]): string | undefined {
  const counts = new Map<string, number>();
  for (const finding of findings)
    for (const url of [...finding.affectedUrls, ...finding.evidence.flatMap((e) => (e.url ? [e.url] : []))]) {
      const origin = originOf(url);
      if (origin) counts.set(origin, (counts.get(origin) ?? 0) + 1);
    }
  let best: string | undefined;
  for (const [origin, count] of counts) if (!best || count > (counts.get(best) ?? 0)) best = origin;
  return best;
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** A page's address as a path when it is on the site's origin, else in full. */
const pathOn = (url: string, origin: string | undefined) =>
  origin && url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;

/** Pages as text: marked, paths on the site, the first few named and the rest counted. */
function pagesText(urls: readonly string[], origin: string | undefined, shown: number): string {
  const listed = urls.slice(0, shown).map((url) => pathOn(url, origin));
  const more = urls.length - listed.length;
  return `${pageUrls(listed)}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * An evidence summary without the problem the finding's detail already states: a page check writes
 * "2 of 4 page(s): no meta description" and each page's "no meta description: no <meta ...> in <head>".
 */
function withoutProblem(summary: string, detail: string): string {
  const colon = summary.indexOf(': ');
  const head = summary.slice(0, Math.max(colon, 0));
  // Only the engine's own words go: a cut inside a quotation would leave the site's words unmarked.
  if (colon <= 0 || head.includes('“') || head.includes('”')) return summary;
  return detail.includes(`page(s): ${head}`) ? summary.slice(colon + 2) : summary;
}

/**
 * A summary that only quotes the element its line shows as code (`<img src=“/a.jpg”>` above
 * `<img src="/a.jpg">`): said once, as the code.
 */
function withoutSnippet(summary: string, elements: readonly Element[]): string {
  const quoted = summary.replaceAll('“', '"').replaceAll('”', '"').trim();
  return elements.some((element) => element.snippet === quoted) ? '' : summary;
}

interface EvidenceGroup {
  type: string;
  summary: string;
  urls: string[];
  elements: Element[];
  /** Evidence items in the group. */
  items: number;
}

const elementKey = (element: Element) => `${element.selector}\u0000${element.snippet}`;

/** Evidence items that say the same (type, summary, elements) on several pages, as one with its pages. */
function groupEvidence(finding: Finding): EvidenceGroup[] {
  const groups = new Map<string, EvidenceGroup>();
  for (const item of finding.evidence.slice(0, EVIDENCE_READ)) {
    const elements = item.elements ?? [];
    const summary = withoutSnippet(withoutProblem(item.summary, finding.detail), elements);
    const key = [item.type, summary, ...elements.map(elementKey)].join('\u0001');
    const group = groups.get(key);
    if (!group) groups.set(key, { type: item.type, summary, urls: item.url ? [item.url] : [], elements, items: 1 });
    else {
      group.items++;
      if (item.url && !group.urls.includes(item.url)) group.urls.push(item.url);
    }
  }
  return [...groups.values()];
}

/** Every page each element was found on (a template's element is on many). */
function elementPages(finding: Finding): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  for (const item of finding.evidence.slice(0, EVIDENCE_READ))
    for (const element of item.elements ?? []) {
      const key = elementKey(element);
      const urls = pages.get(key) ?? [];
      if (item.url && !urls.includes(item.url)) urls.push(item.url);
      pages.set(key, urls);
    }
  return pages;
}

/**
 * Evidence lines: each group once with its pages, each element once with the other pages it is on;
 * and whether those lines name every page of a list (the affected pages) on a page evidence line.
 */
function evidenceLines(finding: Finding, origin: string | undefined, locate?: ElementLocator) {
  const groups = groupEvidence(finding);
  const pagesOf = elementPages(finding);
  const shown = new Set<string>();
  const lines: string[] = [];
  const namedPages = new Set<string>();
  for (const group of groups.slice(0, EVIDENCE_SHOWN)) {
    if (group.type === 'page') for (const url of group.urls.slice(0, PAGES_SHOWN)) namedPages.add(url);
    const pages = pagesText(group.urls, origin, PAGES_SHOWN);
    const where =
      group.urls.length === 0
        ? ` (${group.type})`
        : group.type === 'page'
          ? ` on ${pages}`
          : ` (${group.type} ${pages})`;
    lines.push(`Evidence${where}${group.summary ? `: ${pageText(group.summary, 300)}` : ''}`);
    for (const element of group.elements) {
      const key = elementKey(element);
      if (shown.has(key)) continue;
      shown.add(key);
      const elsewhere = (pagesOf.get(key) ?? []).filter((url) => !group.urls.includes(url));
      const also = elsewhere.length > 0 ? `, also on ${pagesText(elsewhere, origin, PAGES_SHOWN)}` : '';
      const places = locate?.(element) ?? [];
      lines.push(
        `  - ${pageCode([element.selector, element.snippet])}${also}${places.length ? `; in ${locationText(places)}` : ''}`,
      );
    }
  }
  const rest = groups.slice(EVIDENCE_SHOWN).reduce((sum, group) => sum + group.items, 0);
  if (rest > 0) lines.push(`And ${rest} more evidence item(s).`);
  return { lines, named: (urls: readonly string[]) => urls.every((url) => namedPages.has(url)) };
}

/**
 * The address every finding's dashboard page is at, as the text before and after its id, when they
 * all are (a local link's `?access=` token is the run's, the same on every finding): said once for
 * the page instead of on every finding.
 */
export function dashboardPattern(findings: readonly Finding[]): { before: string; after: string } | undefined {
  const first = findings[0];
  const at = first ? first.humanUrl.indexOf(`/${first.findingId}`) : -1;
  // One finding keeps its own link: a pattern saves nothing there.
  if (!first || at < 0 || findings.length < 2) return undefined;
  const before = first.humanUrl.slice(0, at + 1);
  const after = first.humanUrl.slice(at + 1 + first.findingId.length);
  if (before.includes('?') || before.includes('#') || (after !== '' && !after.startsWith('?'))) return undefined;
  return findings.every((finding) => finding.humanUrl === `${before}${finding.findingId}${after}`)
    ? { before, after }
    : undefined;
}

/** Where one finding's text shows its pages and its dashboard page. */
export interface FindingTextContext {
  /** The site's origin: its pages are shown as paths on it. */
  origin?: string;
  /** Set when the page says once where each finding's dashboard page is. */
  dashboard?: { before: string; after: string };
  /** Where each element is in the site's source, when the server knows the source (issue 26). */
  locate?: ElementLocator;
}

/** An element's candidate places in the site's source, best first. */
export type ElementLocator = (element: Element) => ReadonlyArray<{ file: string; line: number; confidence: string }>;

/** One finding as text. */
export function findingMarkdown(finding: Finding, context: FindingTextContext = {}): string {
  const { origin } = context;
  const dashboard = context.dashboard ? '' : ` · ${finding.humanUrl}`;
  const lines = [
    `### ${finding.severity.toUpperCase()}: ${markQuotes(finding.title)}`,
    // Confidence is high unless said otherwise.
    `\`${finding.findingId}\` · ${finding.category}${finding.stage ? ` · ${finding.stage}` : ''}${finding.confidence === 'high' ? '' : ` · confidence ${finding.confidence}`}${dashboard}`,
    `Detail: ${pageText(finding.detail)}`,
    `Fix: ${markQuotes(finding.remediation)}`,
  ];
  if (finding.verify) lines.push(`Verify: ${codeSpan(commandLine(finding.verify))}`);
  for (const action of finding.agentActions.map(actionText)) {
    // A suggestion's first line says what it is and where it goes; its text (marked page content)
    // follows in a fence that nothing in it can close, so none of it renders.
    const newline = action.indexOf('\n');
    lines.push(`- Action: ${newline === -1 ? action : action.slice(0, newline)}`);
    if (newline !== -1) {
      const text = action.slice(newline + 1);
      const fence = codeFence(text);
      lines.push(fence, text, fence);
    }
  }
  const evidence = evidenceLines(finding, origin, context.locate);
  // Page checks give each affected page an evidence line: the pages are named there, once.
  if (finding.affectedUrls.length > 0 && !evidence.named(finding.affectedUrls))
    lines.push(`Affected: ${pagesText(finding.affectedUrls, origin, AFFECTED_SHOWN)}`);
  lines.push(...evidence.lines);
  return lines.join('\n');
}

export function findingsPageMarkdown(
  runId: string,
  findings: readonly Finding[],
  nextCursor: string | null,
  severity: string | undefined,
  locate?: ElementLocator,
): string {
  const context = {
    origin: siteOrigin(findings),
    dashboard: dashboardPattern(findings),
    ...(locate ? { locate } : {}),
  };
  const head = [
    `**${findings.length} finding(s)** of run \`${runId}\`${severity ? ` at severity ${severity}` : ''}.`,
    context.origin ? ` Pages are paths on ${pageUrls([context.origin])}.` : '',
    context.dashboard
      ? ` Each finding's dashboard page: ${context.dashboard.before}{findingId}${context.dashboard.after}.`
      : '',
  ].join('');
  const body = findings.map((finding) => findingMarkdown(finding, context)).join('\n\n');
  const tail = nextCursor
    ? `More remain: call page_findings again with cursor \`${nextCursor}\`.`
    : 'No more findings on this filter.';
  return [head, `> ${PAGE_CONTENT_NOTICE}`, body, tail].filter(Boolean).join('\n\n');
}
