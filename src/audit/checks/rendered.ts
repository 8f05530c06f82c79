// Checks on rendered evidence (issue 14): axe-core's violations on the pages rendered in Chromium,
// one row per axe rule with its WCAG criteria and the offending elements, in our words
// (render/axe-words.ts), and the agent view of the rendered home page. The rules a static check
// shares are not rows of their own: axe's verdict on them decides that check on rendered pages
// (axe-verdicts.ts), so no defect is counted twice and none of axe's is thrown away.
import { type CheckResult, type CheckSpec, fail, note, pass } from '../checks.ts';
import { axeVerify, type Reference, shellWord } from '../citations.ts';
import type { CrawledPage } from '../crawler.ts';
import { roleDefect } from '../defects.ts';
import { QUOTE_OPEN, quote } from '../quote.ts';
import type { AxeViolation } from '../render/axe.ts';
import { axeWords, clip } from '../render/axe-words.ts';
import { homePage, type SiteSnapshot } from '../site.ts';
import { axe, ref, WCAG } from '../standards.ts';
import { AXE_RULES_OF_STATIC_CHECKS, firstTag } from './axe-verdicts.ts';

// axe's impact weights are ours: critical 10, serious 7, moderate 3, minor 1 (checks.ts).
const SEVERITY = { critical: 'critical', serious: 'high', moderate: 'medium', minor: 'low' } as const;

/** WCAG 2.2 success criteria axe reports most, by number, with their Understanding pages. */
const WCAG_SLUGS: Record<string, string> = {
  '1.1.1': 'non-text-content',
  '1.2.2': 'captions-prerecorded',
  '1.3.1': 'info-and-relationships',
  '1.3.4': 'orientation',
  '1.3.5': 'identify-input-purpose',
  '1.4.1': 'use-of-color',
  '1.4.2': 'audio-control',
  '1.4.3': 'contrast-minimum',
  '1.4.4': 'resize-text',
  '1.4.10': 'reflow',
  '1.4.12': 'text-spacing',
  '2.1.1': 'keyboard',
  '2.2.1': 'timing-adjustable',
  '2.2.2': 'pause-stop-hide',
  '2.4.1': 'bypass-blocks',
  '2.4.2': 'page-titled',
  '2.4.4': 'link-purpose-in-context',
  '2.4.7': 'focus-visible',
  '2.5.3': 'label-in-name',
  '2.5.8': 'target-size-minimum',
  '3.1.1': 'language-of-page',
  '3.1.2': 'language-of-parts',
  '3.3.2': 'labels-or-instructions',
  '4.1.2': 'name-role-value',
};

/** `wcag143` → 1.4.3 (axe writes criteria as digits after "wcag"; levels are wcag2a, wcag21aa, ...). */
export function wcagCriteria(tags: readonly string[]): string[] {
  return tags
    .map((tag) => /^wcag(\d)(\d)(\d{1,2})$/.exec(tag))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}.${m[2]}.${m[3]}`);
}

/** The URL before its query: a cut at the first `?`, as /\?.*$/ rescans from every `?` (quadratic). */
const withoutQuery = (url: string) => url.split('?', 1)[0] as string;

function references(violation: AxeViolation): Reference[] {
  const criteria = wcagCriteria(violation.tags).map((sc) => ({
    title: `WCAG 2.2 SC ${sc}`,
    url: WCAG_SLUGS[sc]
      ? `https://www.w3.org/WAI/WCAG22/Understanding/${WCAG_SLUGS[sc]}.html`
      : 'https://www.w3.org/TR/WCAG22/',
  }));
  return [...criteria, { title: `axe rule ${violation.id}`, url: withoutQuery(violation.helpUrl) }];
}

const specOf = (violation: AxeViolation): CheckSpec => ({
  id: `axe-${violation.id}`,
  label: axeWords(violation.id).title,
  category: 'accessibility',
  severity: SEVERITY[violation.impact ?? 'moderate'],
  // The rule's id is one shell word: it comes from the page's own context.
  cite: { references: references(violation), verify: axe(shellWord(violation.id)), anchors: ['axe'] },
});

/**
 * axe's messages for a way an element could be named that it lacks, and our word for that way: the
 * failure summary of a naming rule lists every way it tried ("aria-label attribute does not exist
 * or is empty; aria-labelledby attribute does not exist, references elements that ..."), which we
 * say in one short sentence.
 */
const NAME_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['Element does not have text that is visible to screen readers', 'text'],
  ['Element does not have inner text that is visible to screen readers', 'text'],
  ['Element has no alt attribute', 'alt'],
  ['aria-label attribute does not exist or is empty', 'aria-label'],
  ['aria-labelledby attribute does not exist', 'aria-labelledby'],
  ['Element has no title attribute', 'title'],
  ['Element has an empty value attribute', 'value'],
  ['Element has no value attribute', 'value'],
  ['Form element does not have an implicit (wrapped) <label>', 'a wrapping <label>'],
  ['Form element does not have an explicit <label>', 'a <label for>'],
  ['Element has no placeholder attribute', 'placeholder'],
  ['Element\'s default semantics were not overridden with role="none" or role="presentation"', ''],
];

/** The lines of axe's failure summary, its "Fix any/all of the following" headings dropped. */
function messages(summary: string): string[] {
  return summary
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== '' && !line.startsWith('Fix any of the following') && !line.startsWith('Fix all of the following'),
    );
}

/** "a, b or c" */
const either = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/**
 * What axe found on an element, for a finding's evidence. A naming rule's list of the ways it tried
 * is said in our words ("no text, aria-label, aria-labelledby or title names it"); other
 * rules' messages carry the element's measured values ("insufficient color contrast of 1.6 ..."), so
 * they are quoted, whole messages while they fit, then cut at a sentence or word boundary.
 */
export function measured(summary: string, max = 250): string {
  const lines = messages(summary);
  if (lines.length === 0) return '';
  const sources = lines.map((line) => NAME_SOURCES.find(([message]) => line.startsWith(message))?.[1]);
  if (sources.every((source) => source !== undefined)) {
    const ways = [...new Set(sources.filter((source): source is string => source !== ''))];
    if (ways.length > 0) return `no ${either(ways)} names it`;
  }
  let kept = '';
  for (const line of lines) {
    const next = kept === '' ? line : `${kept}; ${line}`;
    if (next.length > max) break;
    kept = next;
  }
  return quote(kept !== '' ? kept : firstSentences(lines[0] as string, max), max + 1);
}

/** The first sentences of a message that fit (axe's end with ". "), or its words that fit. */
function firstSentences(message: string, max: number): string {
  const text = message.replace(/\s+/g, ' ');
  let end = -1;
  for (let at = text.indexOf('. '); at >= 0 && at < max; at = text.indexOf('. ', at + 2)) end = at + 1;
  return end > 0 ? text.slice(0, end) : clip(text, max);
}

/** One row per axe rule violated on any rendered page, worst impact across pages. */
export function axeChecks(pages: readonly CrawledPage[]): CheckResult[] {
  const byRule = new Map<string, Array<{ page: CrawledPage; violation: AxeViolation }>>();
  for (const page of pages)
    for (const violation of page.rendered?.axe ?? []) {
      if (AXE_RULES_OF_STATIC_CHECKS.has(violation.id)) continue;
      byRule.set(violation.id, [...(byRule.get(violation.id) ?? []), { page, violation }]);
    }
  const order = ['minor', 'moderate', 'serious', 'critical'];
  return [...byRule.values()].map((hits) => {
    const worst = hits.reduce((a, b) =>
      order.indexOf(b.violation.impact ?? '') > order.indexOf(a.violation.impact ?? '') ? b : a,
    );
    const violation = worst.violation;
    const words = axeWords(violation.id);
    const elements = hits.reduce((n, h) => n + h.violation.nodes.length, 0);
    const criteria = wcagCriteria(violation.tags);
    return fail(specOf(violation), {
      detail: `${words.title}: ${elements} element(s) on ${hits.length} rendered page(s) (axe ${violation.id}${criteria.length ? `, WCAG ${criteria.join(', ')}` : ''})`,
      title: words.title,
      remediation: words.remediation,
      agentAction: `Fix the elements listed in the evidence so axe rule "${violation.id}" passes; re-check with: ${axeVerify(worst.page.url, shellWord(violation.id))}`,
      affectedUrls: hits.map((h) => h.page.url),
      evidence: hits.slice(0, 10).map((h) => {
        const first = measured(h.violation.nodes[0]?.summary ?? '');
        const found = first.startsWith(QUOTE_OPEN) ? `axe found on the first: ${first}` : `on the first, ${first}`;
        return {
          type: 'page' as const,
          url: h.page.url,
          summary: `${h.violation.nodes.length} element(s)${first ? `; ${found}` : ''}`,
          elements: h.violation.nodes
            .slice(0, 5)
            .map((n) => ({ selector: n.target.slice(0, 120), snippet: firstTag(n.html) })),
        };
      }),
      // On the page with the most elements, the page's address one shell word as the rule id is.
      verify: axeVerify(worst.page.url, shellWord(violation.id)),
    });
  });
}

export const RENDERED_SPECS = {
  agentView: {
    id: 'agent-accessibility-tree',
    label: 'The rendered home page names its controls for agents (accessibility tree)',
    category: 'agent_operability',
    severity: 'medium',
    cite: {
      references: [
        WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
        ref('W3C Accessible Name and Description Computation 1.2', 'https://www.w3.org/TR/accname-1.2/'),
      ],
      verify: 'npx @axe-core/cli {url} --rules button-name,link-name,label,region',
      anchors: ['Lighthouse'],
    },
  },
} satisfies Record<string, CheckSpec>;

/** The accessibility tree an agent gets of the rendered home page: landmarks, named controls, forms. */
export function agentViewCheck(site: SiteSnapshot): CheckResult | undefined {
  const home = homePage(site);
  const view = home?.rendered?.agentView;
  if (!home || !view) return undefined;
  const landmarks = Object.entries(view.landmarks)
    .map(([role, n]) => `${role} ${n}`)
    .join(', ');
  // Forms counted in the rendered DOM: the tree has a form role only for a form with a name, so
  // "0 forms in the tree" said nothing true of a page with two unnamed forms.
  const forms = home.facts?.forms.length ?? 0;
  const summary = `${view.controls.named} named control(s), ${view.controls.unnamed} unnamed; landmarks: ${landmarks || 'none'}; ${forms} form(s) on the page; ${view.headings} heading(s)`;
  if (view.controls.named + view.controls.unnamed === 0)
    return note(RENDERED_SPECS.agentView, `no controls in the rendered tree; ${summary}`);
  if (view.controls.unnamed === 0 && view.landmarks.main) return pass(RENDERED_SPECS.agentView, summary);
  return fail(RENDERED_SPECS.agentView, {
    severity: view.controls.unnamed > view.controls.named ? 'high' : 'medium',
    detail: `in the accessibility tree of the rendered home page: ${summary}${view.unnamed.length ? ` (unnamed: ${view.unnamed.join('; ')})` : ''}`,
    title: 'Agents see controls they cannot name on the rendered home page',
    remediation:
      'Agents that drive a browser act on the accessibility tree: give every link, button and field an accessible name (text, aria-label or a label) and wrap the content in landmarks (main, nav), so an agent can tell what each control does.',
    agentAction: `Name the unnamed controls of ${home.url} (${view.unnamed.slice(0, 5).join('; ') || 'see evidence'}) with visible text or aria-label, and make sure the page has one <main>.`,
    affectedUrls: [home.url],
    evidence: [{ type: 'page', url: home.url, summary }],
    // The same defects the naming checks and main-landmark report for the home page, by role: the
    // findings merge (outcome.ts), so an unnamed button is one finding, not two.
    defects: [
      ...(view.unnamedRoles ?? []).map((role) => roleDefect('name', home.url, role)),
      ...(view.landmarks.main ? [] : [roleDefect('landmark', home.url, 'main')]),
    ],
  });
}
