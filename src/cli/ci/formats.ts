// The five outputs of `siteaudit audit` (issue 27), each a pure function of the call's result.
import { counted, PRODUCT_LABEL } from '../../contract/index.ts';
import { renderReport } from '../render.ts';
import { type AuditResult, compared, findingStates, type ProductAudit } from './audit-result.ts';
import { toJunit } from './junit.ts';
import { toMarkdown } from './markdown.ts';
import type { Format } from './outputs.ts';
import { sarifText } from './sarif.ts';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The comparison in one line of text, when a baseline was asked for. */
export function comparisonLine(audit: ProductAudit): string | undefined {
  if (audit.noBaseline)
    return `Baseline: none (${audit.noBaselineReason ?? 'no earlier completed audit of this site'}): every finding counts as new`;
  const comparison = audit.comparison;
  if (!comparison) return undefined;
  const { counts, score } = comparison;
  const change =
    score.change === null
      ? ''
      : score.change === 0
        ? `; the score is unchanged at ${score.current}`
        : `; the score went from ${score.baseline} to ${score.current} (${signed(score.change)})`;
  return `Since the baseline run ${comparison.baselineRunId}: ${counts.new} new, ${counts.persisting} persisting, ${counts.notFound} not found again${change}`;
}

/** The gate's verdict as lines of text; none when no --fail-on was given. */
export function gateLines(gate: AuditResult['gate']): string[] {
  if (gate.checks.length === 0) return [];
  const tripped = gate.checks.filter((check) => check.tripped);
  return [
    tripped.length === 0
      ? `Gate passed: ${gate.checks.map((check) => check.expression).join(', ')}`
      : `Gate failed: ${counted(tripped.length, 'expression')} tripped`,
    ...gate.checks.map((check) => `  ${check.tripped ? 'tripped' : 'passed '} ${check.expression}: ${check.detail}`),
  ];
}

function toText(result: AuditResult): string {
  const blocks = result.audits.map((audit) => {
    const lines = [renderReport(audit.run, audit.report, audit.findings)];
    const line = comparisonLine(audit);
    if (line) lines.push(line);
    return lines.join('\n');
  });
  const gate = gateLines(result.gate);
  if (gate.length > 0) blocks.push(gate.join('\n'));
  return `${blocks.join('\n\n')}\n`;
}

/**
 * One JSON object: every product's audit and the gate. The first product's run, report and
 * findings also stand at the top, the shape one-product callers read before issue 27.
 */
function toJson(result: AuditResult): string {
  const [first] = result.audits;
  const audits = result.audits.map((audit) => ({
    product: audit.product,
    label: PRODUCT_LABEL[audit.product],
    run: audit.run,
    report: audit.report,
    findings: audit.findings,
    ...(audit.comparison ? { comparison: audit.comparison } : {}),
    // The findings a gate on new counts: not in the baseline, or in it but not on these pages.
    ...(compared(audit) ? { newFindings: [...findingStates(audit).values()].filter((s) => s === 'new').length } : {}),
    ...(audit.noBaseline ? { noBaseline: true } : {}),
  }));
  return `${JSON.stringify({
    target: result.target,
    passed: result.gate.passed,
    gate: result.gate.checks,
    audits,
    ...(first ? { run: first.run, report: first.report, findings: first.findings } : {}),
  })}\n`;
}

export function render(format: Format, result: AuditResult): string {
  switch (format) {
    case 'json':
      return toJson(result);
    case 'markdown':
      return toMarkdown(result);
    case 'sarif':
      return sarifText(result);
    case 'junit':
      return toJunit(result);
    default:
      return toText(result);
  }
}
