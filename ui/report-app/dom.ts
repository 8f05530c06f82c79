// The view's DOM, built node by node: every value from a tool result goes in as text, never as
// markup, and the site's words (between the server's <page-content> markers) are shown quoted.

type Child = Node | string | false | null | undefined;

/** An element with a class (or none), attributes the app chooses, and text or element children. */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  options: { class?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  if (options.class) element.className = options.class;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  for (const child of children) if (child !== false && child !== null && child !== undefined) element.append(child);
  return element;
}

const MARKED = /<page-content>([\s\S]*?)<\/page-content>/g;

/**
 * A string of the server's as nodes: the engine's words as text, each <page-content> span as a
 * quotation (`<q>`, or a `<pre>` block for a multi-line suggestion). Nothing in it becomes markup.
 */
export function siteText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(MARKED)) {
    fragment.append(text.slice(last, match.index));
    const inner = match[1] ?? '';
    if (inner.startsWith('\n')) fragment.append(h('pre', { class: 'site-block' }, inner.slice(1).replace(/\n$/, '')));
    else fragment.append(h('q', { class: 'site' }, inner));
    last = match.index + match[0].length;
  }
  fragment.append(text.slice(last));
  return fragment;
}

/** The same string with the markers taken out, for places that take plain text only (labels). */
export const plainText = (text: string) => text.replace(MARKED, '“$1”');

const SEVERITY_TEXT = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' } as const;

/** A severity as a text badge: the word says it, the color only repeats it. */
export function severityBadge(severity: keyof typeof SEVERITY_TEXT): HTMLElement {
  return h('span', { class: `badge sev-${severity}` }, SEVERITY_TEXT[severity] ?? severity);
}

/** A score bar: the number is text beside it, the bar is decoration (hidden from assistive technology). */
export function bar(label: Node | string, score: number | undefined, valueText: string, note?: string): HTMLElement {
  const fill = h('span', { class: `bar-fill ${band(score)}` });
  fill.style.width = `${Math.max(0, Math.min(100, score ?? 0))}%`;
  return h(
    'li',
    { class: 'bar' },
    h('span', { class: 'bar-label' }, label),
    h('span', { class: 'bar-track', attrs: { 'aria-hidden': 'true' } }, fill),
    h('span', { class: 'bar-value' }, valueText),
    note ? h('span', { class: 'bar-note' }, note) : null,
  );
}

/** The color band of a score (good, fair, poor), used beside its number and label, never alone. */
export function band(score: number | undefined): string {
  if (score === undefined) return 'band-none';
  return score >= 80 ? 'band-good' : score >= 50 ? 'band-fair' : 'band-poor';
}
