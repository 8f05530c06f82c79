// The parse5 tree as the page facts read it: attributes, what hides an element, and where an
// element is (a short selector path and its start tag, for evidence). Work done once per parse is
// kept in a Memo, so evidence and names stay linear in the page.
import type { DefaultTreeAdapterMap } from 'parse5';

export type Node = DefaultTreeAdapterMap['node'];
export type Element = DefaultTreeAdapterMap['element'];
export type ParentNode = DefaultTreeAdapterMap['parentNode'];
export type TextNode = DefaultTreeAdapterMap['textNode'];

export const PAGE_TEXT_MAX = 300;
const SELECTOR_MAX = 120;
const SNIPPET_MAX = 160;
const CSS_IDENT = /^-?[A-Za-z_][\w-]*$/;

/** Where an element is on its page: a short CSS selector path and its start tag. */
export interface ElementRef {
  selector: string;
  snippet: string;
}

export const NO_REF: ElementRef = { selector: '', snippet: '' };

export const bound = (text: string, max = PAGE_TEXT_MAX) => {
  // Most strings (attribute values, short names) need no change: skip the replace for them.
  if (text.length <= max && !/\s/.test(text)) return text;
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

export const isElement = (node: Node): node is Element => 'tagName' in node;

export function attributes(element: Element): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const { name, value } of element.attrs) if (!(name in attrs)) attrs[name] = value;
  return attrs;
}

/**
 * Tables for elements with many attributes: some look-ups repeat per element (an li asks its
 * parent's role), and a scan each time would cost attributes × look-ups. A few attributes are
 * scanned: cheaper than a table.
 */
const attributeTables = new WeakMap<Element, Map<string, string>>();

export function attr(element: Element, name: string): string | undefined {
  const list = element.attrs;
  if (list.length <= 8) {
    for (const attribute of list) if (attribute.name === name) return attribute.value;
    return undefined;
  }
  let table = attributeTables.get(element);
  if (!table) {
    table = new Map();
    for (const attribute of list) if (!table.has(attribute.name)) table.set(attribute.name, attribute.value);
    attributeTables.set(element, table);
  }
  return table.get(name);
}

/** An inline `display: none` (declarations split, not matched by a pattern: the text is the site's). */
export function displayNone(style: string): boolean {
  if (!style.toLowerCase().includes('none')) return false;
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    if (declaration.slice(0, colon).trim().toLowerCase() !== 'display') continue;
    const value = declaration
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (value === 'none' || value.startsWith('none ') || value.startsWith('none!')) return true;
  }
  return false;
}

/**
 * Not displayed, for everyone: the `hidden` attribute (which the renderer also stamps on what the
 * browser's CSS hides) or an inline display:none. Its whole subtree is neither shown nor read.
 */
export function displayHidden(element: Element): boolean {
  if (attr(element, 'hidden') !== undefined) return true;
  const style = attr(element, 'style');
  return style !== undefined && displayNone(style);
}

/** aria-hidden="true": shown, but left out of the accessibility tree with its subtree (axe skips it). */
export const ariaHidden = (element: Element) => attr(element, 'aria-hidden')?.trim().toLowerCase() === 'true';

type Step = { step: string; anchored: boolean };

/** Accessible name text, whitespace collapsed: the text, and whether spaces were around it. */
export interface NameText {
  text: string;
  lead: boolean;
  trail: boolean;
}

/**
 * What one parse has worked out, so that nothing is worked out twice: evidence shares ancestors,
 * and names share subtrees (a heading in a heading, an svg <a> in another, many fields pointing at
 * one aria-labelledby target). Maps for one parse, not WeakMaps: those cost garbage collection.
 */
export interface Memo {
  /** The first element with each id (what `#id` and a label's `for` find). */
  ids: Map<string, Element>;
  steps: Map<Element, Step>;
  places: Map<ParentNode, Map<Element, number>>;
  /** Content text with descendants' aria-labels, and as readers see it (see contentText). */
  names: Map<Element, NameText>;
  visibleNames: Map<Element, NameText>;
  references: Map<Element, string>;
}

export function newMemo(): Memo {
  return {
    ids: new Map(),
    steps: new Map(),
    places: new Map(),
    names: new Map(),
    visibleNames: new Map(),
    references: new Map(),
  };
}

/** Below this many children, finding an element's place by a scan costs less than a table. */
const SCAN_CHILDREN_MAX = 16;

/**
 * An element's place among its parent's children of the same tag, 0 where the tag does not repeat.
 * A parent with many children gets a table, filled in one pass the first time one of them is asked
 * for: a scan per element would cost siblings², and a list can hold 50,000 links.
 */
function typePlace(element: Element, memo: Memo): number {
  const parent = element.parentNode;
  if (!parent) return 0;
  if (parent.childNodes.length <= SCAN_CHILDREN_MAX) {
    let same = 0;
    let place = 0;
    for (const sibling of parent.childNodes) {
      if (!isElement(sibling) || sibling.tagName !== element.tagName) continue;
      same++;
      if (sibling === element) place = same;
    }
    return same > 1 ? place : 0;
  }
  let places = memo.places.get(parent);
  if (!places) {
    places = new Map();
    const counts = new Map<string, number>();
    for (const child of parent.childNodes) {
      if (!isElement(child)) continue;
      const count = (counts.get(child.tagName) ?? 0) + 1;
      counts.set(child.tagName, count);
      places.set(child, count);
    }
    for (const [child, place] of places) if (place === 1 && counts.get(child.tagName) === 1) places.set(child, 0);
    memo.places.set(parent, places);
  }
  return places.get(element) ?? 0;
}

/**
 * One step of a selector path: the tag, an id or up to two classes, and :nth-of-type where tags
 * repeat. An id anchors the step only on its first element: a later one is not what `#id` finds.
 */
function selectorStep(element: Element, memo: Memo): Step {
  const known = memo.steps.get(element);
  if (known) return known;
  const tag = element.tagName;
  const id = attr(element, 'id');
  let result: Step;
  if (id && memo.ids.get(id) === element && CSS_IDENT.test(id) && id.length <= 40)
    result = { step: `${tag}#${id}`, anchored: true };
  else {
    let step = tag;
    const classes = (attr(element, 'class') ?? '').split(/\s+/).filter((c) => CSS_IDENT.test(c) && c.length <= 30);
    for (const name of classes.slice(0, 2)) step += `.${name}`;
    const place = typePlace(element, memo);
    if (place > 0) step += `:nth-of-type(${place})`;
    result = { step, anchored: false };
  }
  memo.steps.set(element, result);
  return result;
}

/**
 * A short selector path: up to the nearest id or the body, at most four steps and SELECTOR_MAX
 * characters (outer steps are dropped whole, so the path stays a valid selector). The element and
 * its ancestors must have been walked (their ids in memo.ids): a step is kept once built.
 */
export function selectorOf(element: Element, memo: Memo): string {
  const steps: string[] = [];
  let current: Element | null = element;
  while (current && steps.length < 4) {
    if (current.tagName === 'html' || current.tagName === 'body' || current.tagName === 'head') {
      steps.unshift(current.tagName);
      break;
    }
    const { step, anchored } = selectorStep(current, memo);
    steps.unshift(step);
    if (anchored) break;
    const parent: Node | null = current.parentNode;
    current = parent && isElement(parent) ? parent : null;
  }
  // Lengths counted, not joined: an ancestor's step can be long (a custom tag name).
  let length = steps.reduce((sum, step) => sum + step.length + 3, -3);
  let first = 0;
  while (steps.length - first > 1 && length > SELECTOR_MAX) length -= (steps[first++] as string).length + 3;
  return steps.slice(first).join(' > ');
}

/**
 * The element's start tag, serialized from the tree (tag and attributes as the parser read them,
 * values double-quoted and escaped): what a person searches the source for. Serializing costs
 * less than keeping every node's source location.
 */
export function snippetOf(element: Element): string {
  let tag = `<${element.tagName}`;
  for (const { name, value } of element.attrs) {
    tag += value === '' ? ` ${name}` : ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    if (tag.length > SNIPPET_MAX) break;
  }
  return bound(`${tag}>`, SNIPPET_MAX);
}

export const refOf = (element: Element, memo: Memo): ElementRef => ({
  selector: selectorOf(element, memo),
  snippet: snippetOf(element),
});
