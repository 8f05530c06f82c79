// axe's verdict on a rendered page, for the concerns our static checks share with it (issue 25).
// On a page rendered in Chromium, axe-core judged the elements as the browser shows them, with their
// computed names and roles; where a static check asks what an axe rule asks, axe's answer on that
// page is the answer (its elements become the check's offences, in our evidence shape), and the
// static judgement stands only for what axe does not ask (generic link text, a second H1) and for
// pages judged as served. A static check passing a `<ul role="tablist"><li>` that axe fails
// (`listitem`) no longer throws axe's verdict away. The rules listed here are left out of the
// `axe-<rule>` rows (rendered.ts), so one defect is one finding.
import type { Offence } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageFacts } from '../html.ts';
import { quote } from '../quote.ts';
import type { AxeViolation } from '../render/axe.ts';

interface Shared {
  /** The axe rules that decide the concern on a rendered page. */
  rules: readonly string[];
  /** For a rule about the page as a whole (axe points at <html>): the offence, in our words. */
  page?: string;
  /** The kind of defect the static check's offences carry (defects.ts), so one defect stays one finding. */
  defect?: string;
  /** The element's role in the accessibility tree, as the static offences give it (the agent view counts by role). */
  role?: (snippet: string) => string | undefined;
  /** The static offences kept on a rendered page: the part of the check axe does not judge. */
  beyondAxe?: (offence: Offence, facts: PageFacts) => boolean;
}

/** The tag name and type of an element's start tag (`<input type="checkbox" ...>`), lowercased. */
function tagAndType(snippet: string): { tag: string; type: string } {
  let end = 1;
  while (end < snippet.length && !' \t\n\r\f/>'.includes(snippet[end] as string)) end++;
  const type = /\stype\s*=\s*["']?([a-z-]+)/i.exec(snippet)?.[1] ?? '';
  return { tag: snippet.slice(1, end).toLowerCase(), type: type.toLowerCase() };
}

/** The role a form field has in the accessibility tree, as pages.ts gives it for unlabelled fields. */
function fieldRole(snippet: string): string {
  const { tag, type } = tagAndType(snippet);
  if (tag === 'select') return 'combobox';
  if (tag === 'textarea') return 'textbox';
  const roles: Record<string, string> = {
    checkbox: 'checkbox',
    radio: 'radio',
    range: 'slider',
    number: 'spinbutton',
    search: 'searchbox',
  };
  return roles[type] ?? 'textbox';
}

/** Static checks (by id) whose concern axe decides on rendered pages, with the deciding rules. */
export const AXE_DECIDES: Record<string, Shared> = {
  'image-alt': { rules: ['image-alt'], defect: 'name' },
  'link-name': {
    rules: ['link-name'],
    defect: 'name',
    role: () => 'link',
    // Generic text ("click here") is a name axe accepts; that part stays ours.
    beyondAxe: (offence, facts) => facts.anchors.some((a) => a.element === offence.element && a.text !== ''),
  },
  'button-name': { rules: ['button-name', 'input-button-name'], defect: 'name', role: () => 'button' },
  'form-labels': { rules: ['label', 'select-name'], defect: 'name', role: fieldRole },
  'html-lang': { rules: ['html-has-lang'], page: 'no lang attribute on <html>' },
  'title-present': {
    rules: ['document-title'],
    page: 'no <title>, or an empty one',
    // A second <title> is ours to judge: axe reads the first.
    beyondAxe: (_offence, facts) => facts.titles.length > 1,
  },
  'single-h1': {
    rules: ['page-has-heading-one'],
    page: 'no H1 the browser shows',
    // More than one H1 is ours to judge: axe asks for at least one.
    beyondAxe: (_offence, facts) => facts.headings.filter((h) => h.level === 1).length > 1,
  },
  'heading-order': { rules: ['heading-order'] },
  'main-landmark': {
    rules: ['landmark-one-main'],
    page: 'no <main> element or role="main"',
    defect: 'landmark',
    role: () => 'main',
  },
  'frame-title': { rules: ['frame-title'], defect: 'name' },
  'list-structure': { rules: ['list', 'listitem'] },
  'autocomplete-valid': { rules: ['autocomplete-valid'] },
  // The ARIA rules a served page decides too (checks/aria-rules.ts): the same ids as axe's.
  'aria-required-parent': { rules: ['aria-required-parent'] },
  'aria-required-children': { rules: ['aria-required-children'] },
  'svg-img-alt': { rules: ['svg-img-alt'] },
  'role-img-alt': { rules: ['role-img-alt'] },
  'landmark-unique': { rules: ['landmark-unique'] },
};

/**
 * axe rules a static check judges whole on the rendered DOM, reading the same markup: axe's
 * meta-viewport reads the viewport's content as viewport-zoomable does (which also asks for a width),
 * and axe never fails duplicate-id-aria (it only asks for a review, `reviewOnFail`), while a repeated
 * id that a label points at leaves the second field unlabelled whatever CSS does.
 */
export const AXE_LEFT_TO_STATIC: Record<string, string> = {
  'meta-viewport': 'viewport-zoomable',
  'duplicate-id-aria': 'duplicate-id-references',
};

/** Every axe rule a static check stands for: rendered.ts makes no `axe-<rule>` row of them. */
export const AXE_RULES_OF_STATIC_CHECKS: ReadonlySet<string> = new Set([
  ...Object.values(AXE_DECIDES).flatMap((shared) => shared.rules),
  ...Object.keys(AXE_LEFT_TO_STATIC),
]);

/** Whether axe finished on the page, so that no violation of a rule means the page passes it. */
export const axeJudged = (page: CrawledPage): boolean => page.rendered !== undefined && !page.rendered.axeError;

/** The first tag of axe's HTML for an element, as our snippets are: quotes respected, one pass. */
export function firstTag(html: string, max = 160): string {
  let quoteChar = '';
  for (let i = 0; i < html.length && i < max; i++) {
    const c = html[i];
    if (quoteChar) {
      if (c === quoteChar) quoteChar = '';
    } else if (c === '"' || c === "'") quoteChar = c;
    else if (c === '>') return html.slice(0, i + 1);
  }
  return html.length <= max ? html : `${html.slice(0, max - 1)}…`;
}

function offencesOf(violation: AxeViolation, shared: Shared): Offence[] {
  return violation.nodes.map((node) => {
    const snippet = firstTag(node.html);
    const role = shared.role?.(snippet);
    const kind = { ...(shared.defect ? { defect: shared.defect } : {}), ...(role ? { role } : {}) };
    // A whole-page rule has no element of ours to point at (axe points at <html>), as the static offence.
    if (shared.page) return { what: shared.page, ...kind };
    const element = { selector: node.target.slice(0, 300), snippet };
    return { what: `${quote(snippet, 100)} (axe ${violation.id})`, element, ...kind };
  });
}

/**
 * A page's offences for a static check: on a page axe judged, axe's violations of the rules that
 * decide the check, and the static offences beyond them; elsewhere the static judgement (`judge`).
 */
export function withAxeVerdict(checkId: string, page: CrawledPage, judge: () => Offence[]): Offence[] {
  const shared = AXE_DECIDES[checkId];
  if (!shared || !axeJudged(page) || !page.facts) return judge();
  const facts = page.facts;
  const byAxe = (page.rendered?.axe ?? [])
    .filter((violation) => shared.rules.includes(violation.id))
    .flatMap((violation) => offencesOf(violation, shared));
  // A whole-page rule points at <html> once; one offence says it.
  const axeOffences = shared.page ? byAxe.slice(0, 1) : byAxe;
  const beyond = shared.beyondAxe;
  return [...axeOffences, ...(beyond ? judge().filter((offence) => beyond(offence, facts)) : [])];
}
