// What the browser does not show, written into the rendered DOM before it is read (issue 25): the
// checks re-parse the DOM after load as HTML, where a stylesheet no longer applies, so an element
// that CSS hides (`.wide-page-title{display:none}`, a carousel's disabled dots) would be judged as if
// shown. After axe has run, every element that is not rendered gets the `hidden` attribute, which
// the page facts read as "not shown" (axe's own notion of hidden: display:none, visibility:hidden
// with nothing visible inside, the content of a closed <details> or of content-visibility:hidden).
// Elements hidden only from sight (sr-only text clipped to 1px, off-screen, zero size, opacity 0)
// stay: they are in the accessibility tree, and axe judges them too. A `hidden` attribute that CSS
// overrides (the element is rendered after all) is removed, so the attribute means one thing.
import type { IsolatedWorld } from './isolated-world.ts';

export interface VisibilityMarks {
  /** Elements given `hidden`: the roots of subtrees the browser does not render. */
  hidden: number;
  /** Elements whose `hidden` attribute was removed because CSS renders them anyway. */
  shown: number;
  /** Elements looked at (up to ELEMENTS_MAX). */
  elements: number;
  /** Set when the page had more elements than are looked at: only display:none was marked then. */
  capped?: boolean;
  /** Set when nothing was marked because the body itself is not rendered (a page still hiding itself). */
  bodyHidden?: boolean;
}

/** Elements looked at per page; a page with more keeps its later elements as served. */
export const ELEMENTS_MAX = 100_000;

/** The few DOM shapes the in-page function uses (the project compiles without the DOM library). */
interface DomElement {
  tagName: string;
  namespaceURI: string | null;
  children: ArrayLike<DomElement>;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  open?: boolean;
}
interface Style {
  display: string;
  visibility: string;
  contentVisibility: string;
}
interface InPage {
  document: { body: DomElement | null };
  getComputedStyle(element: DomElement): Style;
}

/**
 * Runs in the page's isolated world (the page cannot redefine what it calls). One pass in document order reads each element's computed style; a second, in
 * reverse, finds the largest subtrees with nothing rendered; only their roots are marked. Linear in
 * the number of elements, with no recursion (markup can nest thousands deep).
 */
function markUnrendered(max: number): VisibilityMarks {
  const page = globalThis as unknown as InPage;
  const XHTML = 'http://www.w3.org/1999/xhtml';
  // Not rendered by nature (the user agent's display:none, or no box): never marked, never counted.
  const NEUTRAL = new Set([
    'SCRIPT',
    'STYLE',
    'TEMPLATE',
    'LINK',
    'META',
    'TITLE',
    'BASE',
    'NOSCRIPT',
    'AREA',
    'DATALIST',
    'PARAM',
    'SOURCE',
    'TRACK',
    'SLOT',
  ]);
  const body = page.document.body;
  const marks: VisibilityMarks = { hidden: 0, shown: 0, elements: 0 };
  if (!body) return marks;
  const bodyStyle = page.getComputedStyle(body);
  if (bodyStyle.display === 'none' || bodyStyle.visibility !== 'visible') return { ...marks, bodyHidden: true };

  // State per element in document order: 0 neutral, 1 not rendered at all, 2 hidden (visibility), 3 shown.
  const elements: DomElement[] = [];
  const parents: number[] = [];
  const states: number[] = [];
  const stack: Array<{ element: DomElement; parent: number; unrendered: boolean }> = [];
  // Changed only once every style is read: a change in between would make the browser restyle.
  const overridden: DomElement[] = [];
  const push = (parent: DomElement, index: number, style: Style | undefined) => {
    // A closed <details> shows only its first <summary>; content-visibility:hidden shows no content.
    const closed = parent.tagName === 'DETAILS' && parent.open === false;
    const skipsContent = style?.contentVisibility === 'hidden';
    let summary = false;
    const children = parent.children;
    const batch: Array<{ element: DomElement; parent: number; unrendered: boolean }> = [];
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as DomElement;
      let unrendered = skipsContent;
      if (closed && !unrendered) {
        if (!summary && child.tagName === 'SUMMARY') summary = true;
        else unrendered = true;
      }
      batch.push({ element: child, parent: index, unrendered });
    }
    for (let i = batch.length - 1; i >= 0; i--) stack.push(batch[i] as (typeof batch)[number]);
  };
  push(body, -1, bodyStyle);
  while (stack.length > 0) {
    if (elements.length >= max) {
      marks.capped = true;
      break;
    }
    const { element, parent, unrendered } = stack.pop() as (typeof stack)[number];
    const index = elements.length;
    elements.push(element);
    parents.push(parent);
    const html = element.namespaceURI === XHTML;
    if (html && NEUTRAL.has(element.tagName)) {
      states.push(0);
      continue;
    }
    if (unrendered) {
      states.push(1);
      continue;
    }
    const style = page.getComputedStyle(element);
    if (style.display === 'none') {
      states.push(1);
      continue;
    }
    if (html && element.hasAttribute('hidden')) overridden.push(element);
    states.push(style.visibility === 'visible' ? 3 : 2);
    // An <svg> or <math> is judged as one: its insides (titles, defs, symbols) have no box of their own.
    if (html) push(element, index, style);
  }
  marks.elements = elements.length;
  // Children come after their parent in document order: in reverse, a subtree is done before its root.
  const rendered = new Array<boolean>(elements.length).fill(false);
  for (let i = elements.length - 1; i >= 0; i--) {
    const state = states[i] as number;
    if (state === 3) rendered[i] = true;
    if (marks.capped && state === 2) rendered[i] = true;
    const parent = parents[i] as number;
    if (rendered[i] && parent >= 0) rendered[parent] = true;
  }
  for (const element of overridden) element.removeAttribute('hidden');
  marks.shown = overridden.length;
  for (let i = 0; i < elements.length; i++) {
    const state = states[i] as number;
    const parent = parents[i] as number;
    // The root of a subtree with nothing rendered: its parent is rendered (or is the body).
    if (state === 0 || rendered[i] || (parent >= 0 && !rendered[parent])) continue;
    (elements[i] as DomElement).setAttribute('hidden', '');
    marks.hidden++;
  }
  return marks;
}

/** Marks what the page does not render with `hidden`, in place; the page's deadline bounds it. */
export async function markUnrenderedElements(world: IsolatedWorld): Promise<VisibilityMarks> {
  return await world.call(markUnrendered, ELEMENTS_MAX);
}
