// `siteaudit audit --format sarif` (issue 27): SARIF 2.1.0 for GitHub code scanning. One run per
// product, a rule per check, a result per finding and page; GitHub's reading of each property and its
// limits are on https://docs.github.com/en/code-security/reference/code-scanning/sarif-files/sarif-support-for-code-scanning
// and https://docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { type Finding, SEVERITIES } from '../../contract/index.ts';
import {
  type AuditResult,
  compared,
  findingStates,
  type ProductAudit,
  pageState,
  type SourcePlace,
} from './audit-result.ts';
import { findingKey as checkKeyOf, pageInstances } from './compare.ts';
import { LEVEL, ruleIdOf, runRules } from './sarif-rules.ts';

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/**
 * GitHub keeps the top 5,000 results of a run (by severity) and rejects a file over 10 MB gzipped:
 * the cut is made here, worst kept, so that it is told rather than silent.
 */
export const SARIF_LIMITS: SarifLimits = { resultsPerRun: 5_000, gzipBytes: 10_000_000 };

export interface SarifLimits {
  resultsPerRun: number;
  gzipBytes: number;
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
const SOURCE_PLACES_MAX = 10;
const CONFIDENCE_RANK = { high: 0, medium: 1, low: 2 };

interface Page {
  url: string;
  fingerprint?: string;
  elements: Array<{ selector: string; snippet: string }>;
}

/** A finding at one page: one result. */
interface Entry {
  finding: Finding;
  page: Page;
  ruleId: string;
  findingKey: string;
  pageKey: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The pages a finding is at: its page evidence, else its affected addresses, else the run's address. */
function pagesOf(finding: Finding, runUrl: string): Page[] {
  const pages = new Map<string, Page>();
  for (const item of finding.evidence)
    if (item.type === 'page' && item.url && !pages.has(item.url))
      pages.set(item.url, {
        url: item.url,
        elements: item.elements ?? [],
        ...(item.fingerprint ? { fingerprint: item.fingerprint } : {}),
      });
  if (pages.size === 0)
    for (const url of finding.affectedUrls) if (!pages.has(url)) pages.set(url, { url, elements: [] });
  if (pages.size === 0) pages.set(runUrl, { url: runUrl, elements: [] });
  return [...pages.values()];
}

const HEX = '0123456789abcdefABCDEF';

/**
 * Text as part of an RFC 3986 reference: letters, digits and the `keep` characters kept, a valid
 * `%XX` kept, anything else percent-encoded (as UTF-8). Linear in the text.
 */
function uriPart(text: string, keep: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = String.fromCodePoint(text.codePointAt(i) as number);
    const alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || keep.includes(c)) out += c;
    else if (c === '%' && HEX.includes(text[i + 1] ?? 'x') && HEX.includes(text[i + 2] ?? 'x')) out += c;
    else out += c.isWellFormed() ? encodeURIComponent(c) : '%EF%BF%BD';
    i += c.length;
  }
  return out;
}

const PATH_CHARS = "-._~!$&'()*+,;=@/";

/**
 * A page's address as the artifact's URI: `host/path?query`, without its scheme. GitHub rejects the
 * whole upload when a result's URI has a scheme other than the checkout's `file`
 * (github/codeql-action#754), so the page stays the first location as a relative reference, its
 * address in full in the location's message and the result's `page` property.
 */
export function pageUri(url: string): string {
  if (URL.canParse(url)) {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:')
      // The host's `:port` and `[...]` are encoded: `localhost:8080/` would read as a scheme.
      return `${encodeURIComponent(parsed.host)}${uriPart(parsed.pathname, `${PATH_CHARS}:`)}${uriPart(parsed.search, `${PATH_CHARS}:?`)}`;
  }
  return `page/${uriPart(url, '-._~')}`;
}

/** A source file's path (relative to the source root) as a URI reference; '' when there is none. */
const fileUri = (file: string) => uriPart(file.replace(/^\/+/, ''), PATH_CHARS);

function sourcePlaces(locate: AuditResult['locate'], page: Page) {
  if (!locate) return [];
  return page.elements
    .flatMap((element) => locate(element).map((place) => ({ ...place, selector: element.selector })))
    .filter((place) => Number.isInteger(place.line) && place.line >= 1 && fileUri(place.file) !== '');
}

const bestPlace = (places: readonly SourcePlace[]) =>
  places.reduce<SourcePlace | undefined>(
    (best, place) => (!best || CONFIDENCE_RANK[place.confidence] < CONFIDENCE_RANK[best.confidence] ? place : best),
    undefined,
  );

function sentence(title: string, detail: string): string {
  if (title === '' || detail === '') return title || detail;
  // Some details already open with their title ("Touch targets too small…: 1 element(s) …").
  if (detail.startsWith(title)) return detail;
  return `${title}${'.!?'.includes(title.at(-1) as string) ? '' : '.'} ${detail}`;
}

function resultOf(
  result: AuditResult,
  audit: ProductAudit,
  ruleIndex: number,
  entry: Entry,
  states: Map<string, string>,
) {
  const { finding, page } = entry;
  const [first] = page.elements;
  const places = sourcePlaces(result.locate, page);
  const place = bestPlace(places);
  // Per page: a finding the baseline had elsewhere is new on a page it did not have.
  const state = compared(audit)
    ? (pageState(audit, finding, page.url, page.elements) ?? states.get(finding.findingId))
    : undefined;
  // SARIF's baselineState, where persisting is `unchanged`. notFound findings are not written as
  // `absent` results: GitHub ignores baselineState, so they would open alerts for defects no longer
  // seen; an upload without them is what closes those alerts. The run's properties count them.
  const baselineState = state === 'new' ? 'new' : state === 'persisting' ? 'unchanged' : undefined;
  return {
    ruleId: entry.ruleId,
    ruleIndex,
    level: LEVEL[finding.severity],
    message: { text: sentence(finding.title, finding.detail) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pageUri(page.url) },
          // GitHub and the schema want a line; a page's is not known, so the region is its first line
          // and the element is named by its selector (properties) and start tag (snippet).
          region: { startLine: 1, ...(first?.snippet ? { snippet: { text: first.snippet } } : {}) },
        },
        message: { text: page.url },
      },
      ...(place
        ? [
            {
              physicalLocation: {
                artifactLocation: { uri: fileUri(place.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: place.line },
              },
            },
          ]
        : []),
    ],
    // The identity GitHub tracks: it uses primaryLocationLineHash with the rule and the file path; the
    // two named keys are ours. All from fingerprints equal across runs of an unchanged site.
    partialFingerprints: {
      'siteauditFinding/v1': entry.findingKey,
      'siteauditPage/v1': entry.pageKey,
      primaryLocationLineHash: `${digest(`${entry.findingKey}\n${entry.pageKey}`)}:1`,
    },
    ...(baselineState ? { baselineState } : {}),
    properties: {
      page: page.url,
      findingId: finding.findingId,
      category: finding.category,
      confidence: finding.confidence,
      ...(first
        ? { selector: first.selector, elements: page.elements.map(({ selector, snippet }) => ({ selector, snippet })) }
        : {}),
      ...(places.length > 0 ? { sourcePlaces: places.slice(0, SOURCE_PLACES_MAX) } : {}),
      ...(finding.verify ? { verify: finding.verify } : {}),
      ...(finding.alsoChecks?.length ? { alsoChecks: finding.alsoChecks } : {}),
      ...(state ? { comparison: state } : {}),
      ...(result.localLinks ? {} : { humanUrl: finding.humanUrl }),
    },
  };
}

/** The run's finding-page pairs, worst first, then by check, page and finding: the order of the cut. */
function entriesOf(audit: ProductAudit): Entry[] {
  const rank = (entry: Entry) => SEVERITIES.indexOf(entry.finding.severity);
  return audit.findings
    .flatMap((finding) => {
      const ruleId = ruleIdOf(finding);
      // Host-neutral (compare.ts's keys: the check, the page's path): a pull request's preview on
      // a host of its own keeps the alerts of the main branch's audit.
      const findingKey = `k_${digest(`${audit.product}\n${checkKeyOf(finding)}`)}`;
      return pagesOf(finding, audit.run.url).map((page) => ({
        finding,
        page,
        ruleId,
        findingKey,
        pageKey: `p_${digest(`${findingKey}\n${pageInstances(page.url, undefined).join('')}`)}`,
      }));
    })
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        order(a.ruleId, b.ruleId) ||
        order(a.page.url, b.page.url) ||
        order(a.findingKey, b.findingKey) ||
        order(a.finding.findingId, b.finding.findingId),
    );
}

function runOf(result: AuditResult, audit: ProductAudit, limits: SarifLimits) {
  const { rules, index } = runRules(audit);
  const entries = entriesOf(audit);
  const states = findingStates(audit);
  const built = entries
    .slice(0, limits.resultsPerRun)
    .map((entry) => resultOf(result, audit, index.get(entry.ruleId) as number, entry, states));
  return (kept: number) => {
    const results = built.slice(0, kept);
    const leftOut = entries.length - results.length;
    const { run, comparison } = audit;
    const counts =
      comparison?.counts ?? (audit.noBaseline ? { new: audit.findings.length, persisting: 0, notFound: 0 } : undefined);
    const baselineGuid = comparison && GUID.test(comparison.baselineRunId) ? comparison.baselineRunId : undefined;
    return {
      tool: {
        driver: {
          name: result.tool.name,
          version: result.tool.version,
          informationUri: result.tool.informationUri,
          rules,
        },
      },
      invocations: [
        {
          executionSuccessful: true,
          ...(leftOut > 0
            ? {
                toolExecutionNotifications: [
                  {
                    level: 'warning',
                    message: {
                      text: `${leftOut} of ${entries.length} results left out, the least severe: GitHub code scanning keeps ${limits.resultsPerRun} per run and takes files up to ${limits.gzipBytes / 1_000_000} MB gzipped. --format json carries every finding.`,
                    },
                  },
                ],
              }
            : {}),
        },
      ],
      // GitHub's category: everything before the last slash. One per product and site, so that each
      // upload closes only its own alerts; no run id after the slash.
      automationDetails: {
        // Per product, not per host: a preview's upload is compared with main's in one category.
        id: `siteaudit/${audit.product}/`,
        ...(GUID.test(run.runId) ? { guid: run.runId } : {}),
      },
      ...(baselineGuid ? { baselineGuid } : {}),
      ...(results.some((r) => r.locations.length > 1)
        ? {
            originalUriBaseIds: {
              '%SRCROOT%': {
                description: { text: "The site's source (--source-dir), which the files are relative to." },
              },
            },
          }
        : {}),
      results,
      properties: {
        product: audit.product,
        url: run.url,
        runId: run.runId,
        score: run.score,
        ...(result.localLinks ? {} : { humanUrl: run.humanUrl }),
        ...(counts ? { comparison: { baselineRunId: comparison?.baselineRunId ?? null, ...counts } } : {}),
        ...(leftOut > 0 ? { resultsLeftOut: leftOut } : {}),
      },
    };
  };
}

/** The text's gzipped size, or its plain size when that is well under the limit (no need to compress). */
const sizeOf = (text: string, gzipBytes: number) => {
  const plain = Buffer.byteLength(text);
  return plain <= gzipBytes - 65_536 ? plain : gzipSync(text).length;
};

/** The log and its text; results cut worst-last until the file fits GitHub's size. */
function build(result: AuditResult, limits: SarifLimits): { log: object; text: string } {
  const runs = result.audits.map((audit) => runOf(result, audit, limits));
  let kept = result.audits.map(() => limits.resultsPerRun);
  for (;;) {
    const log = { $schema: SARIF_SCHEMA, version: '2.1.0', runs: runs.map((run, i) => run(kept[i] as number)) };
    const text = `${JSON.stringify(log, null, 2)}\n`;
    const size = sizeOf(text, limits.gzipBytes);
    if (size <= limits.gzipBytes || kept.every((k) => k === 0)) return { log, text };
    const ratio = limits.gzipBytes / size;
    kept = log.runs.map((run) => Math.floor(run.results.length * ratio * 0.9));
  }
}

export const toSarif = (result: AuditResult, limits = SARIF_LIMITS): object => build(result, limits).log;

/** The SARIF file: JSON with a two-space indent and a trailing newline. */
export const sarifText = (result: AuditResult, limits = SARIF_LIMITS): string => build(result, limits).text;
