// `siteaudit audit --format markdown`: the audit as a pull-request comment (issue 27). The gate's
// verdict, each product's score with its change since the baseline, then new findings first. Site
// text is made inert (markdown-escape.ts) and the comment stays under GitHub's limit whatever the run:
// the lowest-ranked findings are dropped first and counted.
import { type Finding, PRODUCT_LABEL, partialHeadline, partialScoreNote, SEVERITIES } from '../../contract/index.ts';
import { type AuditResult, compared, findingStates, type ProductAudit } from './audit-result.ts';
import { codeSpan, firstSentences, markdownText, oneLine } from './markdown-escape.ts';

/** Our bound on a comment's length in UTF-16 units (GitHub refuses a body over 65,536 characters). */
export const MARKDOWN_MAX_LENGTH = 65_000;

const TITLE_MAX = 200;
const FIX_MAX = 240;
const URL_MAX = 160;
const DETAIL_MAX = 300;
const PAGES_SHOWN = 3;
const GATE_CHECKS_SHOWN = 20;

/**
 * A finding's line, ranked: main lists before persisting titles, then worst first, then each
 * product's first before any product's second, so that every product keeps its worst.
 */
interface Item {
  text: string;
  tier: number;
  severity: number;
  order: number;
  product: number;
}

/** A list that may be cut: its items kept best first, the rest counted in one closing line. */
interface List {
  open: string[];
  items: Item[];
  close: string[];
  more: (count: number) => string;
  /** Left out whole (its count is said elsewhere) when none of its items fits. */
  optional: boolean;
  kept: number;
}

type Block = string[] | List;

const severityRank = (finding: Finding) => SEVERITIES.indexOf(finding.severity);
const bySeverity = (a: Finding, b: Finding) => severityRank(a) - severityRank(b);

/** An http(s) address of our own service as a link destination; `href` encodes what would end it. */
function linkTo(text: string, url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return `[${text}](<${parsed.href}>)`;
  } catch {
    return undefined;
  }
}

function pagesText(urls: readonly string[]): string {
  const shown = urls.slice(0, PAGES_SHOWN).map((url) => codeSpan(url, URL_MAX));
  const more = urls.length > PAGES_SHOWN ? ` and ${urls.length - PAGES_SHOWN} more` : '';
  return `${urls.length === 1 ? 'Page' : `${urls.length} pages`}: ${shown.join(', ')}${more}.`;
}

function findingText(finding: Finding, links: boolean): string {
  const link = links ? linkTo('report', finding.humanUrl) : undefined;
  const head = `- **${finding.severity}** ${markdownText(finding.title, TITLE_MAX)}${link ? ` (${link})` : ''}`;
  const fix = markdownText(firstSentences(oneLine(finding.remediation), FIX_MAX), FIX_MAX + 1);
  const body = [finding.affectedUrls.length > 0 ? pagesText(finding.affectedUrls) : '', fix ? `Fix: ${fix}` : '']
    .filter(Boolean)
    .join(' ');
  return body ? `${head}\n  ${body}` : head;
}

function gateBlock(result: AuditResult): string[] {
  const { checks, passed } = result.gate;
  if (checks.length === 0) return [];
  if (passed) {
    const shown = checks.slice(0, GATE_CHECKS_SHOWN).map((check) => codeSpan(check.expression, DETAIL_MAX));
    const more = checks.length > GATE_CHECKS_SHOWN ? ` and ${checks.length - GATE_CHECKS_SHOWN} more` : '';
    return [`**Gate passed**: ${shown.join(', ')}${more}.`, ''];
  }
  const tripped = checks.filter((check) => check.tripped);
  const lines = ['**Gate failed**:'];
  for (const check of tripped.slice(0, GATE_CHECKS_SHOWN))
    lines.push(`- ${codeSpan(check.expression, DETAIL_MAX)}: ${markdownText(check.detail, DETAIL_MAX)}`);
  if (tripped.length > GATE_CHECKS_SHOWN) lines.push(`- and ${tripped.length - GATE_CHECKS_SHOWN} more`);
  return [...lines, ''];
}

function sinceBaseline(audit: ProductAudit): string {
  const change = audit.comparison?.score.change;
  if (change === null || change === undefined) return '';
  if (change === 0) return ' (no change since the baseline)';
  return ` (${change > 0 ? '+' : ''}${change} since the baseline)`;
}

/** The score as the other surfaces word it: a partial score names what it stands on, an unverified one is no number. */
function scoreLines(audit: ProductAudit): string[] {
  const { report, run, product } = audit;
  const label = PRODUCT_LABEL[product];
  const coverage = report.coverage ?? run.coverage;
  if (report.scoreStatus === 'unverified' || run.scoreStatus === 'unverified') {
    const lines = [
      `### ${label}: score unverified`,
      'Part of the content needs a browser to confirm: the served HTML alone gives no score to trust.',
    ];
    if (coverage) lines.push(`${markdownText(partialScoreNote(coverage.notEvaluated), DETAIL_MAX)}.`);
    return lines;
  }
  if (coverage)
    return [
      `### ${label}: ${markdownText(partialHeadline(coverage, product, report.scoreLabel), DETAIL_MAX)}; score ${report.score}/100 on those checks${sinceBaseline(audit)}`,
    ];
  return [`### ${label}: ${report.score}/100, ${markdownText(report.scoreLabel, 60)}${sinceBaseline(audit)}`];
}

const FULL_LIST = 'the full list is in the JSON or SARIF output and in the report';

function productBlocks(audit: ProductAudit, index: number, links: boolean): Block[] {
  const head = scoreLines(audit);
  const reportLink = links ? linkTo('Full report', audit.run.humanUrl) : undefined;
  if (reportLink) head.push(reportLink);
  head.push('');
  const item = (tier: number) => (finding: Finding, order: number) => ({
    text:
      tier === 0 ? findingText(finding, links) : `- **${finding.severity}** ${markdownText(finding.title, TITLE_MAX)}`,
    tier,
    severity: severityRank(finding),
    order,
    product: index,
  });
  const sorted = [...audit.findings].sort(bySeverity);
  if (!compared(audit)) {
    if (sorted.length === 0) return [[...head, 'No findings.', '']];
    return [
      head,
      {
        open: [`**Findings (${sorted.length}), worst first**`, ''],
        items: sorted.map(item(0)),
        close: [''],
        more: (count) => `- … and ${count} more findings: ${FULL_LIST}.`,
        optional: false,
        kept: 0,
      },
    ];
  }
  const states = findingStates(audit);
  // A finding the comparison does not name is shown as new rather than hidden.
  const fresh = sorted.filter((f) => (states.get(f.findingId) ?? 'new') === 'new');
  const persisting = sorted.filter((f) => states.get(f.findingId) === 'persisting');
  const notFound = audit.comparison?.counts.notFound ?? 0;
  if (audit.noBaseline)
    head.push(
      `No baseline (${audit.noBaselineReason ?? 'no earlier completed audit of this site'}): every finding counts as new.`,
      '',
    );
  const blocks: Block[] = [head];
  if (fresh.length === 0) blocks.push(['No new findings.', '']);
  else
    blocks.push({
      open: [`**New findings (${fresh.length})**`, ''],
      items: fresh.map(item(0)),
      close: [''],
      more: (count) => `- … and ${count} more new findings: ${FULL_LIST}.`,
      optional: false,
      kept: 0,
    });
  if (audit.noBaseline) return blocks;
  const counts = `${persisting.length} persisting, ${notFound} no longer found.`;
  blocks.push([
    notFound > 0
      ? `${counts} Not found is not proof of a fix: the page may not have been crawled or judged the same way; a recheck confirms it.`
      : counts,
    '',
  ]);
  if (persisting.length > 0)
    blocks.push({
      open: [`<details><summary>Persisting findings (${persisting.length})</summary>`, ''],
      items: persisting.map(item(1)),
      close: ['', '</details>', ''],
      more: (count) => `- … and ${count} more persisting findings`,
      optional: true,
      kept: 0,
    });
  return blocks;
}

/** Every block as lines; `bound` renders each list with no item and its closing count, its longest frame. */
function render(blocks: Block[], bound: boolean): string[] {
  const lines: string[] = [];
  for (const block of blocks) {
    if (Array.isArray(block)) {
      lines.push(...block);
      continue;
    }
    const kept = bound ? 0 : block.kept;
    if (!bound && kept === 0 && block.optional) continue;
    lines.push(...block.open, ...block.items.slice(0, kept).map((item) => item.text));
    if (kept < block.items.length) lines.push(block.more(block.items.length - kept));
    lines.push(...block.close);
  }
  return lines;
}

export function toMarkdown(result: AuditResult): string {
  const links = !result.localLinks;
  const blocks: Block[] = [[`## siteaudit: ${codeSpan(result.target, URL_MAX)}`, ''], gateBlock(result)];
  // A local service's links work on the runner only: said once, and no link is given.
  if (!links)
    blocks.push(["The reports are on the runner's local service: their links work on that machine only.", '']);
  result.audits.forEach((audit, index) => {
    blocks.push(...productBlocks(audit, index, links));
  });
  blocks.push([`<sub>${markdownText(`${result.tool.name} ${result.tool.version}`, 60)}</sub>`]);

  // Each item costs its text and a line break; the frame with every closing count is the most the
  // rest can take, so what fits in the difference keeps the whole under the bound.
  const lists = blocks.filter((block): block is List => !Array.isArray(block));
  const ranked = lists
    .flatMap((list) => list.items.map((item) => ({ item, list })))
    .sort(
      (x, y) =>
        x.item.tier - y.item.tier ||
        x.item.severity - y.item.severity ||
        x.item.order - y.item.order ||
        x.item.product - y.item.product,
    );
  let room = MARKDOWN_MAX_LENGTH - 1 - render(blocks, true).join('\n').length;
  for (const { item, list } of ranked) {
    room -= item.text.length + 1;
    if (room < 0) break;
    list.kept++;
  }
  return render(blocks, false).join('\n');
}
