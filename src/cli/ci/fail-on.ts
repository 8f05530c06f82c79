// `--fail-on EXPR` (issue 27): the gate of `siteaudit audit` in CI. An expression compares one
// measure of the audit with a value; the gate trips when the comparison holds:
//
//   score<90                  any audited product's score below 90
//   score:website_security<80 one product's score
//   severity>=high            a finding of high severity or worse
//   findings>20               more than 20 findings
//   category:accessibility>0  a finding in that category
//   new>0                     a finding the baseline did not have (needs --baseline)
//   new:severity>=medium      a new finding of medium severity or worse
//
// Scopes narrow the findings a measure counts and may be stacked before it: `new:`, `persisting:`
// and a product (`website_security:severity>=high`). Parsed by hand in one pass: no pattern.
import { Category, PRODUCT_LABEL, PRODUCTS, type Product, SEVERITIES, type Severity } from '../../contract/index.ts';
import { CliError } from '../options.ts';
import { type AuditResult, findingStates, type GateCheck, type ProductAudit } from './audit-result.ts';

const OPERATORS = ['<=', '>=', '!=', '==', '<', '>', '='] as const;
type Operator = (typeof OPERATORS)[number];
type SetScope = 'new' | 'persisting';

type Measure =
  | { kind: 'score'; product?: Product }
  | { kind: 'severity' }
  | { kind: 'findings' }
  | { kind: 'category'; category: Category };

export interface GateExpression {
  text: string;
  measure: Measure;
  set?: SetScope;
  product?: Product;
  operator: Operator;
  /** A count or score; a severity's rank for `severity`. */
  value: number;
}

const isProduct = (word: string): word is Product => (PRODUCTS as readonly string[]).includes(word);
/** info 0 … critical 4, so `>=` reads as "this bad or worse". */
const rank = (severity: Severity) => SEVERITIES.length - 1 - SEVERITIES.indexOf(severity);

const FORMS =
  'score<90, score:PRODUCT<80, severity>=high, findings>20, category:accessibility>0, new>0, new:severity>=medium';

function malformed(text: string, why: string): CliError {
  return new CliError('invalid_argument', `--fail-on ${JSON.stringify(text)}: ${why} (forms: ${FORMS})`);
}

/** The operator and where it starts: the first of < > = ! in the text. */
function splitAtOperator(text: string): { left: string; operator: Operator; right: string } | undefined {
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    if ('<>=!'.includes(text[i] as string)) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const operator = OPERATORS.find((op) => text.startsWith(op, at));
  if (!operator) return undefined;
  return { left: text.slice(0, at), operator, right: text.slice(at + operator.length) };
}

function parseWholeNumber(text: string, expression: string, what: string): number {
  const digits = text.trim();
  let ok = digits.length > 0 && digits.length <= 9;
  for (const c of digits) if (c < '0' || c > '9') ok = false;
  if (!ok) throw malformed(expression, `${what} must be a whole number, not ${JSON.stringify(digits)}`);
  return Number(digits);
}

export function parseFailOn(raw: string): GateExpression {
  const text = raw.trim();
  const split = splitAtOperator(text);
  if (!split) throw malformed(text, 'no comparison (<, <=, >, >=, = or !=)');
  const { operator } = split;
  // Names read in any case (`SCORE<90`, like `severity>=HIGH`); categories and products are lowercase.
  const parts = split.left.split(':').map((part) => part.trim().toLowerCase());
  if (parts.some((part) => part === '')) throw malformed(text, 'an empty name before the comparison');

  if (parts[0] === 'score') {
    if (parts.length > 2) throw malformed(text, 'score takes at most one product: score:PRODUCT<80');
    const product = parts[1];
    if (product !== undefined && !isProduct(product))
      throw malformed(text, `unknown product ${JSON.stringify(product)}; one of ${PRODUCTS.join(', ')}`);
    const value = parseWholeNumber(split.right, text, 'a score');
    if (value > 100) throw malformed(text, 'a score is at most 100');
    return { text, measure: { kind: 'score', ...(product ? { product } : {}) }, operator, value };
  }

  let set: SetScope | undefined;
  let product: Product | undefined;
  let i = 0;
  for (; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === 'new' || part === 'persisting') {
      if (set) throw malformed(text, 'new and persisting cannot both scope one measure');
      set = part;
    } else if (isProduct(part)) {
      if (product) throw malformed(text, 'one product per expression');
      product = part;
    } else break;
  }
  const rest = parts.slice(i);
  const scoped = { ...(set ? { set } : {}), ...(product ? { product } : {}) };
  const [name, argument, extra] = rest;
  if (name === undefined || name === 'findings') {
    if (name === undefined && !set && !product) throw malformed(text, 'nothing to measure');
    if (argument !== undefined) throw malformed(text, `unexpected ${JSON.stringify(argument)}`);
    return {
      text,
      measure: { kind: 'findings' },
      ...scoped,
      operator,
      value: parseWholeNumber(split.right, text, 'a count'),
    };
  }
  if (name === 'severity') {
    if (argument !== undefined) throw malformed(text, `unexpected ${JSON.stringify(argument)}`);
    const severity = split.right.trim().toLowerCase();
    if (!(SEVERITIES as readonly string[]).includes(severity))
      throw malformed(text, `unknown severity ${JSON.stringify(severity)}; one of ${SEVERITIES.join(', ')}`);
    return { text, measure: { kind: 'severity' }, ...scoped, operator, value: rank(severity as Severity) };
  }
  if (name === 'category') {
    if (argument === undefined || extra !== undefined)
      throw malformed(text, 'category takes one name: category:accessibility>0');
    const category = Category.safeParse(argument);
    if (!category.success)
      throw malformed(text, `unknown category ${JSON.stringify(argument)}; one of ${Category.options.join(', ')}`);
    return {
      text,
      measure: { kind: 'category', category: category.data },
      ...scoped,
      operator,
      value: parseWholeNumber(split.right, text, 'a count'),
    };
  }
  if (name === 'score') throw malformed(text, 'score cannot be scoped; write score:PRODUCT<80');
  throw malformed(
    text,
    `unknown measure ${JSON.stringify(name)}: a measure is score, severity, findings or category, and a scope new, persisting or a product (${PRODUCTS.join(', ')})`,
  );
}

/**
 * Mistakes only the whole call shows, told before any audit starts: a product the call does not
 * audit, a comparison with no baseline.
 */
export function checkAgainstCall(
  expressions: readonly GateExpression[],
  products: readonly Product[],
  baseline: boolean,
) {
  for (const expression of expressions) {
    const product = expression.measure.kind === 'score' ? expression.measure.product : expression.product;
    if (product && !products.includes(product))
      throw malformed(expression.text, `${product} is not audited by this call; add --product ${product}`);
    if (expression.set && !baseline) throw malformed(expression.text, `${expression.set} findings need --baseline`);
  }
}

function holds(operator: Operator, measured: number, value: number): boolean {
  switch (operator) {
    case '<':
      return measured < value;
    case '<=':
      return measured <= value;
    case '>':
      return measured > value;
    case '>=':
      return measured >= value;
    case '!=':
      return measured !== value;
    default:
      return measured === value;
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function scoreCheck(expression: GateExpression, audits: readonly ProductAudit[]): GateCheck {
  const product = expression.measure.kind === 'score' ? expression.measure.product : undefined;
  const measured = audits.filter((audit) => !product || audit.product === product);
  const words: string[] = [];
  let tripped = false;
  for (const audit of measured) {
    const label = PRODUCT_LABEL[audit.product];
    // An unverified score is no number to pass a gate on: it fails closed.
    if (audit.report.scoreStatus === 'unverified' || audit.run.score === null) {
      tripped = true;
      words.push(`${label} score unverified (part of the site needs a browser to judge)`);
      continue;
    }
    const score = audit.run.score;
    if (holds(expression.operator, score, expression.value)) tripped = true;
    words.push(`${label} score ${score}`);
  }
  return { expression: expression.text, tripped, detail: words.join('; ') };
}

/** One expression judged on the call's audits. */
export function judge(expression: GateExpression, audits: readonly ProductAudit[]): GateCheck {
  if (expression.measure.kind === 'score') return scoreCheck(expression, audits);
  const { measure } = expression;
  let count = 0;
  let worst: Severity | undefined;
  const titles: string[] = [];
  for (const audit of audits) {
    if (expression.product && audit.product !== expression.product) continue;
    const states = expression.set ? findingStates(audit) : undefined;
    for (const finding of audit.findings) {
      if (states && states.get(finding.findingId) !== expression.set) continue;
      if (measure.kind === 'category' && finding.category !== measure.category) continue;
      if (measure.kind === 'severity') {
        if (!holds(expression.operator, rank(finding.severity), expression.value)) continue;
        if (!worst || rank(finding.severity) > rank(worst)) worst = finding.severity;
        if (titles.length < 3) titles.push(finding.title);
      }
      count++;
    }
  }
  const scope = [expression.set, expression.product && PRODUCT_LABEL[expression.product]].filter(Boolean).join(' ');
  const noun = `${scope ? `${scope} ` : ''}finding`;
  if (measure.kind === 'severity') {
    const severity = SEVERITIES[SEVERITIES.length - 1 - expression.value];
    const detail =
      count === 0
        ? `no ${noun} of severity ${expression.operator} ${severity}`
        : `${plural(count, noun)} of severity ${expression.operator} ${severity}, the worst ${worst}: ${titles.join('; ')}${count > titles.length ? '; …' : ''}`;
    return { expression: expression.text, tripped: count > 0, detail };
  }
  const where = measure.kind === 'category' ? ` in ${measure.category}` : '';
  return {
    expression: expression.text,
    tripped: holds(expression.operator, count, expression.value),
    detail: `${plural(count, noun)}${where}`,
  };
}

/** The gate over a whole result: passed when no expression tripped. */
export function judgeGate(
  expressions: readonly GateExpression[],
  audits: readonly ProductAudit[],
): AuditResult['gate'] {
  const checks = expressions.map((expression) => judge(expression, audits));
  return { checks, passed: checks.every((check) => !check.tripped) };
}
