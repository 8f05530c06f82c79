// The context parseHtml (html.ts) reads an element in, set by its ancestors: in the head, shown or
// not, exposed to assistive technology or not, inside a label, an <svg> or a form. One object is
// shared down a subtree until an element changes it, so most elements cost no new context.
import type { PageForm } from './page-facts.ts';

/** Elements whose text is not shown (noscript is raw text with scripting on, as browsers parse it). */
const HIDDEN_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg', 'head']);
/** Elements that change the context their descendants are read in. */
const CONTEXT_TAGS = new Set([...HIDDEN_TEXT_TAGS, 'label', 'form']);

export interface ReadContext {
  inHead: boolean;
  /** Text here is not shown: head, script, style, template, noscript, svg, or a subtree not displayed. */
  hidden: boolean;
  /** In a subtree that is not displayed (the hidden attribute, an inline display:none). */
  unshown: boolean;
  /** Not exposed to assistive technology: not displayed, or aria-hidden="true". */
  unread: boolean;
  inLabel: boolean;
  inSvg: boolean;
  form: PageForm | null;
}

/** The context of the document's own children. */
export const rootContext = (): ReadContext => ({
  inHead: false,
  hidden: false,
  unshown: false,
  unread: false,
  inLabel: false,
  inSvg: false,
  form: null,
});

/**
 * The context the children of element `name` are read in, given its own `unshown` (not displayed)
 * and `unread` (aria-hidden) attributes. A <form> gets a context of its own, whose `form` the
 * caller sets.
 */
export function childContext(name: string, context: ReadContext, unshown: boolean, unread: boolean): ReadContext {
  // Most elements change nothing of the context: their children share their parent's.
  if (!CONTEXT_TAGS.has(name) && !unshown && !unread) return context;
  return {
    inHead: context.inHead || name === 'head',
    hidden: context.hidden || HIDDEN_TEXT_TAGS.has(name) || unshown,
    unshown: context.unshown || unshown,
    unread: context.unread || unshown || unread,
    inLabel: context.inLabel || name === 'label',
    inSvg: context.inSvg || name === 'svg',
    form: context.form,
  };
}

/** `hidden: true` on an element-level fact, only where it is (most facts carry no such key). */
export const unreadFlag = (context: ReadContext): { hidden?: true } => (context.unread ? { hidden: true } : {});
