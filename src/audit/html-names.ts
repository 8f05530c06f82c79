// Accessible names as accname 1.2 computes them for links, buttons, fields and frames: from
// aria-labelledby, aria-label, the content (text, an image's alt, an svg's title, a descendant's own
// aria-label) and title; hidden content left out. Read with explicit stacks: markup can nest deep.
import {
  ariaHidden,
  attr,
  displayHidden,
  type Element,
  isElement,
  type Memo,
  type NameText,
  type Node,
  PAGE_TEXT_MAX,
  type TextNode,
} from './html-tree.ts';

/** Enough name text (whitespace collapsed) for any check: names are bounded to PAGE_TEXT_MAX or less. */
export const NAME_TEXT_MAX = 2 * PAGE_TEXT_MAX;

/** What a name leaves out: hidden content (ariaHidden, displayHidden) and elements never shown. */
const hiddenFromNames = (element: Element) =>
  element.tagName === 'script' ||
  element.tagName === 'style' ||
  element.tagName === 'template' ||
  ariaHidden(element) ||
  displayHidden(element);

/** A piece of name text (whitespace collapsed, as every reader of names does); `spaced`: set apart. */
export function namePiece(raw: string, spaced = false): NameText {
  const collapsed = raw.replace(/\s+/g, ' ');
  const text = collapsed.trim();
  return {
    text: text.length > NAME_TEXT_MAX ? text.slice(0, NAME_TEXT_MAX) : text,
    lead: spaced || collapsed.startsWith(' '),
    trail: spaced || collapsed.endsWith(' '),
  };
}

interface NameFrame {
  element: Element;
  visible: boolean;
  /** The next child to read. */
  index: number;
  text: string;
  lead: boolean;
  /** Whitespace since the text's last character. */
  space: boolean;
  /** An svg's title: set apart by spaces in the svg's parent. */
  svgTitle: boolean;
}

/** Spaces merged at the joins, so that NAME_TEXT_MAX counts what a reader is shown. */
function append(frame: NameFrame, piece: NameText): void {
  if (piece.text === '') {
    if (piece.lead || piece.trail) {
      if (frame.text === '') frame.lead = true;
      else frame.space = true;
    }
    return;
  }
  if (frame.text === '') frame.lead ||= piece.lead;
  else if (frame.space || piece.lead) frame.text += ' ';
  frame.text += piece.text;
  frame.space = piece.trail;
}

/**
 * The text an element's content gives its accessible name (accname 2F): text, an image's alt, an
 * svg's title, a descendant's own aria-label; hidden descendants skipped. `visible` leaves out the
 * aria-labels, for a heading's text as readers see it (a Docusaurus heading is "Install", not
 * "Install Direct link to Install"). Whitespace collapsed and trimmed, NAME_TEXT_MAX characters at
 * most (a reading stops there). Each element's text is kept (memo.names: a subtree is read once,
 * not once per name that covers it), and read with an explicit stack: markup can nest deep.
 */
export function contentText(root: Element, memo: Memo, visible = false): string {
  return nameText(root, visible, memo).text;
}

function nameText(root: Element, visible: boolean, memo: Memo): NameText {
  const known = (visible ? memo.visibleNames : memo.names).get(root);
  if (known) return known;
  const frame = (element: Element, visible: boolean, svgTitle: boolean): NameFrame => ({
    element,
    visible,
    index: 0,
    text: '',
    lead: false,
    space: false,
    svgTitle,
  });
  const frames: NameFrame[] = [frame(root, visible, false)];
  for (;;) {
    const current = frames[frames.length - 1] as NameFrame;
    const children = current.element.childNodes;
    if (current.text.length >= NAME_TEXT_MAX || current.index >= children.length) {
      const { text, lead, space } = current;
      const done: NameText = {
        text: text.length > NAME_TEXT_MAX ? text.slice(0, NAME_TEXT_MAX) : text,
        lead,
        trail: text === '' ? lead : space,
      };
      (current.visible ? memo.visibleNames : memo.names).set(current.element, done);
      frames.pop();
      const parent = frames[frames.length - 1];
      if (!parent) return done;
      append(parent, current.svgTitle ? { text: done.text, lead: true, trail: true } : done);
      continue;
    }
    const node = children[current.index++] as Node;
    if (node.nodeName === '#text') {
      append(current, namePiece((node as TextNode).value));
      continue;
    }
    if (!isElement(node) || hiddenFromNames(node)) continue;
    const label = current.visible ? undefined : attr(node, 'aria-label')?.trim();
    if (label) append(current, namePiece(label, true));
    else if (node.tagName === 'img' || (node.tagName === 'input' && attr(node, 'type') === 'image'))
      append(current, namePiece(attr(node, 'alt') ?? '', true));
    else {
      // An svg gives its title's text, aria-labels and all (the title names the graphic).
      const svgTitle = node.tagName === 'svg';
      const inner = svgTitle ? node.childNodes.find((n) => isElement(n) && n.tagName === 'title') : node;
      if (!inner || !isElement(inner)) continue;
      const innerVisible = svgTitle ? false : current.visible;
      const text = (innerVisible ? memo.visibleNames : memo.names).get(inner);
      if (!text) frames.push(frame(inner, innerVisible, svgTitle));
      else append(current, svgTitle ? { text: text.text, lead: true, trail: true } : text);
    }
  }
}

/** What an aria-labelledby reference to an element reads: its aria-label, else its content. */
export function referenceText(element: Element, memo: Memo): string {
  let text = memo.references.get(element);
  if (text === undefined) {
    const label = attr(element, 'aria-label');
    text = label === undefined ? contentText(element, memo) : namePiece(label).text;
    memo.references.set(element, text);
  }
  return text;
}

/** The accname order for links, buttons and fields: aria-labelledby, aria-label, content, title. */
export function accessibleName(element: Element, memo: Memo, fromContent: boolean): string {
  // Blank references add only whitespace, and past NAME_TEXT_MAX no more text is shown.
  let labelledBy = '';
  for (const id of (attr(element, 'aria-labelledby') ?? '').split(/\s+/)) {
    const target = memo.ids.get(id);
    const text = target ? referenceText(target, memo) : '';
    if (text) labelledBy += labelledBy ? ` ${text}` : text;
    if (labelledBy.length >= NAME_TEXT_MAX) break;
  }
  if (labelledBy) return labelledBy;
  const label = attr(element, 'aria-label')?.trim();
  if (label) return label;
  const content = fromContent ? contentText(element, memo) : '';
  return content || attr(element, 'title')?.trim() || '';
}
