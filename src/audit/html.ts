// A page's facts, read from the HTML5 tree a browser would build (parse5 follows the WHATWG tree
// construction: head and body placement, implied and misnested tags, foster parenting). Text taken
// from the page is untrusted: every string kept is bounded (PAGE_TEXT_MAX) and never interpreted.
import { createHash } from 'node:crypto';
import { type DefaultTreeAdapterMap, parse } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

export const PAGE_TEXT_MAX = 300;
const LIST_MAX = 500;
const SELECTOR_MAX = 120;
const SNIPPET_MAX = 160;

/** Where an element is on its page: a short CSS selector path and its start tag. */
export interface ElementRef {
  selector: string;
  snippet: string;
}
export interface PageLink {
  href: string;
  text: string;
  rel: string;
  element: ElementRef;
}
export interface PageImage {
  src: string;
  alt: string | null;
  hasDimensions: boolean;
  element: ElementRef;
}
export interface PageScript {
  src: string | null;
  inHead: boolean;
  async: boolean;
  defer: boolean;
  module: boolean;
  integrity: boolean;
  type: string;
  element: ElementRef;
}
export interface FormField {
  type: string;
  name: string;
  labelled: boolean;
  autocomplete: string | null;
  element: ElementRef;
}
export interface PageForm {
  action: string;
  method: string;
  toolname: string | null;
  tooldescription: string | null;
  /** It has an action or a submit control, so a browser submits it without the page's scripts. */
  submits: boolean;
  fields: FormField[];
}
export interface PageButton {
  name: string;
  element: ElementRef;
}
export interface MixedContent {
  url: string;
  element: ElementRef;
}
export interface PageFacts {
  lang: string | null;
  titles: string[];
  /** `inHead`: whether the HTML5 parser keeps it in <head> (an unknown element there ends the head). */
  metas: Array<{ name: string; content: string; inHead: boolean }>;
  links: Array<{ rel: string; href: string; hreflang: string | null; type: string | null }>;
  headings: Array<{ level: number; text: string }>;
  anchors: PageLink[];
  images: PageImage[];
  scripts: PageScript[];
  inlineScripts: string[];
  jsonLd: string[];
  forms: PageForm[];
  /** Every form field on the page, in a <form> or not (scripted pages submit fields without one). */
  fields: FormField[];
  landmarks: Set<string>;
  iframes: string[];
  /** Characters of visible text (outside head, script, style, template, noscript, svg). */
  textLength: number;
  /** The first visible text, bounded, for answerability checks. */
  textSample: string;
  /** A hash of all visible text with numbers masked, when asked for (`parseHtml(html, {textDigest})`). */
  textDigest?: string;
  /** Phone numbers and email addresses written in visible text (not only as tel: or mailto: links). */
  visibleContacts: number;
  buttons: PageButton[];
  hasViewport: boolean;
  mixedContent: MixedContent[];
  /** The doctype as written (null: none), and the mode it puts the browser in. */
  doctype: { name: string; publicId: string; systemId: string } | null;
  documentMode: 'no-quirks' | 'quirks' | 'limited-quirks';
  /** Frames (iframe, frame) with the accessible name their title or ARIA gives them. */
  frames: Array<{ src: string; name: string; element: ElementRef }>;
  /** Lists whose structure assistive technology cannot follow (a ul/ol child that is not an li; an li outside a list). */
  listOffences: Array<{ what: string; element: ElementRef }>;
  /** Ids given to more than one element while a label or an ARIA reference points at them. */
  duplicateIds: Array<{ id: string; element: ElementRef }>;
}

export const bound = (text: string, max = PAGE_TEXT_MAX) => {
  // Most strings (attribute values, short names) need no change: skip the replace for them.
  if (text.length <= max && !/\s/.test(text)) return text;
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

const LANDMARK_TAGS = new Set(['main', 'nav', 'header', 'footer', 'aside']);
const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Elements whose text is not shown (noscript is raw text with scripting on, as browsers parse it). */
const HIDDEN_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg', 'head']);
/** A phone number as people write one: international (+...), an area code in brackets, or after a label. */
const PHONE_TEXT =
  /\+\d{1,3}[\s.-]?\(?\d{1,5}\)?(?:[\s.-]?\d{2,5}){2,4}|\(\d{2,5}\)\s?\d{3,4}[\s.-]?\d{3,4}|\b(?:tel|phone|telephone|call(?: us)?|fon|telefon|téléphone)\.?:?\s*\d[\d\s()./-]{5,18}\d/i;
// Only tested (never extracted), so one local character before the @ and two TLD letters decide as
// the full address would; a longer local part ([\w.%+-]{1,64}@) rescans 64 characters from every
// start, which recheck finds super-linear. Labels stay bounded, each ends at its dot.
const EMAIL_TEXT = /[\w.%+-]@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2}/i;
const SCRIPT_TEXT_MAX = 20_000;
const SAMPLE_MAX = 2000;
/** Elements whose attributes or content a fact reads (the switch in parseHtml, and mixed content). */
const READ_TAGS = new Set([
  'html',
  'title',
  'meta',
  'link',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'button',
  'img',
  'iframe',
  'script',
  'form',
  'label',
  'input',
  'select',
  'textarea',
  'source',
  'frame',
  'video',
  'audio',
  'track',
  'embed',
  'object',
]);
/** Elements that change the context their descendants are read in. */
const CONTEXT_TAGS = new Set([...HIDDEN_TEXT_TAGS, 'label', 'form']);
/** Enough name text (whitespace collapsed) for any check: names are bounded to PAGE_TEXT_MAX or less. */
const NAME_TEXT_MAX = 2 * PAGE_TEXT_MAX;
const CSS_IDENT = /^-?[A-Za-z_][\w-]*$/;
const NO_REF: ElementRef = { selector: '', snippet: '' };

/**
 * Attributes whose URL an HTTPS page loads or navigates to, which browsers block or warn about over
 * http:// (the Mixed Content spec's blockable and upgradeable requests, plus form submission).
 */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  link: ['href'], // stylesheets only: see insecureUrls
  script: ['src'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  iframe: ['src'],
  frame: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
  form: ['action'],
  input: ['src', 'formaction'],
  button: ['formaction'],
};

/** The http:// URLs among an element's loaded or submitted URLs (srcset lists several). */
export function insecureUrls(tag: string, attrs: Record<string, string>): string[] {
  if (tag === 'link' && (attrs.rel ?? '').toLowerCase() !== 'stylesheet') return [];
  const urls: string[] = [];
  for (const attribute of URL_ATTRIBUTES[tag] ?? []) {
    const value = attrs[attribute];
    if (!value) continue;
    const candidates =
      attribute === 'srcset' ? value.split(',').map((entry) => entry.trim().split(/\s+/)[0] ?? '') : [value.trim()];
    for (const url of candidates) if (/^http:\/\//i.test(url)) urls.push(url);
  }
  return urls;
}

const isElement = (node: Node): node is Element => 'tagName' in node;

function attributes(element: Element): Record<string, string> {
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

function attr(element: Element, name: string): string | undefined {
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

type Step = { step: string; anchored: boolean };

/**
 * What one parse has worked out, so that nothing is worked out twice: evidence shares ancestors,
 * and names share subtrees (a heading in a heading, an svg <a> in another, many fields pointing at
 * one aria-labelledby target). Maps for one parse, not WeakMaps: those cost garbage collection.
 */
interface Memo {
  /** The first element with each id (what `#id` and a label's `for` find). */
  ids: Map<string, Element>;
  steps: Map<Element, Step>;
  places: Map<ParentNode, Map<Element, number>>;
  /** Content text with descendants' aria-labels, and as readers see it (see contentText). */
  names: Map<Element, NameText>;
  visibleNames: Map<Element, NameText>;
  references: Map<Element, string>;
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
function selectorOf(element: Element, memo: Memo): string {
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
function snippetOf(element: Element): string {
  let tag = `<${element.tagName}`;
  for (const { name, value } of element.attrs) {
    tag += value === '' ? ` ${name}` : ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    if (tag.length > SNIPPET_MAX) break;
  }
  return bound(`${tag}>`, SNIPPET_MAX);
}

const hiddenFromNames = (element: Element) =>
  attr(element, 'aria-hidden') === 'true' ||
  attr(element, 'hidden') !== undefined ||
  element.tagName === 'script' ||
  element.tagName === 'style' ||
  element.tagName === 'template';

/** Name text, whitespace collapsed: the text without outer spaces, and whether spaces were there. */
interface NameText {
  text: string;
  lead: boolean;
  trail: boolean;
}

/** A piece of name text (whitespace collapsed, as every reader of names does); `spaced`: set apart. */
function namePiece(raw: string, spaced = false): NameText {
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
function contentText(root: Element, memo: Memo, visible = false): string {
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
      append(current, namePiece((node as DefaultTreeAdapterMap['textNode']).value));
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
function referenceText(element: Element, memo: Memo): string {
  let text = memo.references.get(element);
  if (text === undefined) {
    const label = attr(element, 'aria-label');
    text = label === undefined ? contentText(element, memo) : namePiece(label).text;
    memo.references.set(element, text);
  }
  return text;
}

/** The accname order for links, buttons and fields: aria-labelledby, aria-label, content, title. */
function accessibleName(element: Element, memo: Memo, fromContent: boolean): string {
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

interface Context {
  inHead: boolean;
  hidden: boolean;
  inLabel: boolean;
  inSvg: boolean;
  form: PageForm | null;
}

function childContext(name: string, context: Context): Context {
  return {
    inHead: context.inHead || name === 'head',
    hidden: context.hidden || HIDDEN_TEXT_TAGS.has(name),
    inLabel: context.inLabel || name === 'label',
    inSvg: context.inSvg || name === 'svg',
    form: context.form,
  };
}

/**
 * `textDigest`: also hash all visible text, numbers masked (monitoring compares pages by it; an
 * audit does not need it).
 */
export function parseHtml(html: string, options: { textDigest?: boolean } = {}): PageFacts {
  const facts: PageFacts = {
    lang: null,
    titles: [],
    metas: [],
    links: [],
    headings: [],
    anchors: [],
    images: [],
    scripts: [],
    inlineScripts: [],
    jsonLd: [],
    forms: [],
    fields: [],
    landmarks: new Set(),
    iframes: [],
    textLength: 0,
    textSample: '',
    visibleContacts: 0,
    buttons: [],
    hasViewport: false,
    mixedContent: [],
    doctype: null,
    documentMode: 'no-quirks',
    frames: [],
    listOffences: [],
    duplicateIds: [],
  };
  const document = parse(html);
  facts.documentMode = document.mode;
  const doctype = document.childNodes.find(
    (n): n is DefaultTreeAdapterMap['documentType'] => n.nodeName === '#documentType',
  );
  if (doctype)
    facts.doctype = {
      name: bound(doctype.name ?? '', 40),
      publicId: bound(doctype.publicId ?? '', 120),
      systemId: bound(doctype.systemId ?? '', 120),
    };
  // Ids seen again after their first element, and the ids labels and ARIA references point at.
  const repeatedIds = new Map<string, Element>();
  const referencedIds = new Set<string>();
  const ids = new Map<string, Element>();
  const memo: Memo = {
    ids,
    steps: new Map(),
    places: new Map(),
    names: new Map(),
    visibleNames: new Map(),
    references: new Map(),
  };
  const labelFor = new Set<string>();
  // Names can point forward (aria-labelledby, label for): resolved once the whole tree is read.
  const named: Array<{ element: Element; fill: (name: string) => void; fromContent: boolean }> = [];
  const fields: Array<{ element: Element; field: FormField }> = [];
  // The forms in facts.forms: a field of a form past LIST_MAX is kept only if facts.fields has room.
  const keptForms = new Set<PageForm>();
  const ref = (element: Element): ElementRef => ({ selector: selectorOf(element, memo), snippet: snippetOf(element) });
  // Evidence for an element the walk has not reached (a list's child) waits for it: only then is it
  // known whether its id is the first (a step, once built, is kept).
  const laterRefs: Array<{ holder: { element: ElementRef }; element: Element }> = [];
  // An item is made only when the list keeps it: evidence (a selector, a name) costs nothing past LIST_MAX.
  const keep = <T>(list: T[], make: () => T) => {
    if (list.length < LIST_MAX) list.push(make());
  };
  let sample = '';
  const digest = options.textDigest ? createHash('sha256') : undefined;

  const visitText = (value: string, context: Context) => {
    if (context.hidden) return;
    const text = value.trim();
    // Whitespace between tags, most text nodes of an indented page: nothing to count.
    if (text === '') return;
    // The cheap tests first: most text has no @ and no digit.
    if (
      facts.visibleContacts < LIST_MAX &&
      ((/\d/.test(text) && PHONE_TEXT.test(text)) || (text.includes('@') && EMAIL_TEXT.test(text)))
    )
      facts.visibleContacts++;
    const collapsed = /\s\s|[\t\n\r\f]/.test(text) ? text.replace(/\s+/g, ' ') : text;
    facts.textLength += collapsed.length;
    if (sample.length < SAMPLE_MAX) sample += `${sample ? ' ' : ''}${collapsed.slice(0, SAMPLE_MAX - sample.length)}`;
    // A clock, a counter or a view count changes on every load: digits do not make a change.
    digest?.update(collapsed.replace(/\d+/g, '#')).update('\n');
  };

  /** axe's list and listitem rules: a list holds only li (script and template aside); an li sits in a list. */
  const listStructure = (element: Element) => {
    if (facts.listOffences.length >= LIST_MAX) return;
    if (element.tagName === 'li') {
      const parent = element.parentNode;
      const inList =
        parent &&
        isElement(parent) &&
        (['ul', 'ol', 'menu'].includes(parent.tagName) || attr(parent, 'role') === 'list');
      if (!inList && attr(element, 'role') === undefined)
        facts.listOffences.push({ what: '<li> outside a <ul>, <ol> or <menu>', element: ref(element) });
      return;
    }
    if (attr(element, 'role') !== undefined) return;
    for (const child of element.childNodes) {
      if (!isElement(child) || ['li', 'script', 'template'].includes(child.tagName)) continue;
      const offence = { what: `<${child.tagName}> directly inside <${element.tagName}>`, element: NO_REF };
      facts.listOffences.push(offence);
      laterRefs.push({ holder: offence, element: child });
      break;
    }
  };

  const visitElement = (element: Element, context: Context): Context => {
    const name = element.tagName;
    for (const { name: attribute, value } of element.attrs) {
      if (attribute === 'id' && value) {
        if (!ids.has(value)) ids.set(value, element);
        else if (!repeatedIds.has(value)) repeatedIds.set(value, element);
      } else if (attribute === 'role' && LANDMARK_ROLES.has(value)) facts.landmarks.add(value);
      else if (attribute === 'aria-labelledby' || attribute === 'aria-describedby')
        for (const id of value.split(/\s+/)) if (id) referencedIds.add(id);
    }
    if (LANDMARK_TAGS.has(name)) facts.landmarks.add(name);
    if (name === 'ul' || name === 'ol' || name === 'li') listStructure(element);
    // The attribute table only for the elements read below: most (div, span, p, li) are not.
    if (!READ_TAGS.has(name)) return CONTEXT_TAGS.has(name) ? childContext(name, context) : context;
    const attrs = attributes(element);
    if (name === 'html' && attrs.lang) facts.lang = bound(attrs.lang, 35);
    const insecure = insecureUrls(name, attrs);
    if (insecure.length > 0 && facts.mixedContent.length < LIST_MAX) {
      const element_ = ref(element);
      for (const url of insecure) keep(facts.mixedContent, () => ({ url: bound(url, 2000), element: element_ }));
    }
    // Most elements change nothing of the context: their children share their parent's.
    const next = CONTEXT_TAGS.has(name) ? childContext(name, context) : context;
    switch (name) {
      case 'title':
        // An <svg>'s <title> names the graphic (and a link around it), not the document.
        if (!context.inSvg) keep(facts.titles, () => bound(contentText(element, memo)));
        break;
      case 'meta': {
        const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').toLowerCase();
        if (key)
          keep(facts.metas, () => ({ name: key, content: bound(attrs.content ?? '', 1000), inHead: context.inHead }));
        if (key === 'viewport') facts.hasViewport = true;
        break;
      }
      case 'link':
        keep(facts.links, () => ({
          rel: (attrs.rel ?? '').toLowerCase(),
          href: bound(attrs.href ?? '', 2000),
          hreflang: attrs.hreflang ? bound(attrs.hreflang, 35) : null,
          type: attrs.type ?? null,
        }));
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        keep(facts.headings, () => ({ level: Number(name[1]), text: bound(contentText(element, memo, true)) }));
        break;
      case 'a':
        if (facts.anchors.length < LIST_MAX) {
          const anchor: PageLink = {
            href: bound(attrs.href ?? '', 2000),
            text: '',
            rel: (attrs.rel ?? '').toLowerCase(),
            element: ref(element),
          };
          facts.anchors.push(anchor);
          named.push({ element, fromContent: true, fill: (text) => (anchor.text = bound(text, 120)) });
        }
        break;
      case 'button':
        if (context.form && ['', 'submit'].includes((attrs.type ?? '').toLowerCase())) context.form.submits = true;
        if (facts.buttons.length < LIST_MAX) {
          const button: PageButton = { name: '', element: ref(element) };
          facts.buttons.push(button);
          named.push({ element, fromContent: true, fill: (text) => (button.name = bound(text, 80)) });
        }
        break;
      case 'img':
        keep(facts.images, () => ({
          src: bound(attrs.src ?? attrs['data-src'] ?? '', 2000),
          alt: attrs.alt === undefined ? null : bound(attrs.alt),
          hasDimensions: attrs.width !== undefined && attrs.height !== undefined,
          element: ref(element),
        }));
        break;
      case 'iframe':
      case 'frame':
        if (name === 'iframe') keep(facts.iframes, () => bound(attrs.src ?? '', 2000));
        if (facts.frames.length < LIST_MAX) {
          const frame = { src: bound(attrs.src ?? '', 2000), name: '', element: ref(element) };
          facts.frames.push(frame);
          named.push({ element, fromContent: false, fill: (text) => (frame.name = bound(text, 120)) });
        }
        break;
      case 'script': {
        const type = (attrs.type ?? '').toLowerCase();
        const text = () =>
          element.childNodes
            .map((n) => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : ''))
            .join('')
            .slice(0, SCRIPT_TEXT_MAX);
        if (type === 'application/ld+json') keep(facts.jsonLd, text);
        else {
          if (!attrs.src) keep(facts.inlineScripts, text);
          keep(facts.scripts, () => ({
            src: attrs.src ? bound(attrs.src, 2000) : null,
            inHead: context.inHead,
            async: attrs.async !== undefined,
            defer: attrs.defer !== undefined,
            module: type === 'module',
            integrity: attrs.integrity !== undefined,
            type,
            element: ref(element),
          }));
        }
        break;
      }
      case 'form':
        next.form = {
          action: bound(attrs.action ?? '', 2000),
          method: (attrs.method ?? 'get').toLowerCase(),
          toolname: attrs.toolname ?? null,
          tooldescription: attrs.tooldescription ? bound(attrs.tooldescription) : null,
          submits: (attrs.action ?? '').trim() !== '',
          fields: [],
        };
        if (facts.forms.length < LIST_MAX) {
          facts.forms.push(next.form);
          keptForms.add(next.form);
        }
        break;
      case 'label':
        if (attrs.for) labelFor.add(attrs.for);
        break;
      case 'input':
      case 'select':
      case 'textarea': {
        const type = name === 'input' ? (attrs.type ?? 'text').toLowerCase() : name;
        if ((type === 'submit' || type === 'image') && context.form) context.form.submits = true;
        if (['hidden', 'submit', 'button', 'image', 'reset'].includes(type)) {
          if ((type === 'submit' || type === 'button') && facts.buttons.length < LIST_MAX) {
            const button: PageButton = { name: '', element: ref(element) };
            facts.buttons.push(button);
            const value = attrs.value?.trim() || (type === 'submit' ? 'Submit' : '');
            named.push({ element, fromContent: false, fill: (text) => (button.name = bound(text || value, 80)) });
          }
          break;
        }
        const form =
          context.form && keptForms.has(context.form) && context.form.fields.length < 100 ? context.form : null;
        const listed = facts.fields.length < LIST_MAX;
        // Kept nowhere: no selector to build, no name to work out.
        if (!form && !listed) break;
        const field: FormField = {
          type,
          name: bound(attrs.name ?? '', 80),
          labelled: context.inLabel,
          autocomplete: attrs.autocomplete ?? null,
          element: ref(element),
        };
        fields.push({ element, field });
        if (listed) facts.fields.push(field);
        form?.fields.push(field);
        break;
      }
    }
    return next;
  };

  // Document order, without recursion: hostile markup can nest elements thousands deep.
  const root: Context = { inHead: false, hidden: false, inLabel: false, inSvg: false, form: null };
  const nodes: Node[] = [...document.childNodes].reverse();
  const contexts: Context[] = nodes.map(() => root);
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const context = contexts.pop() as Context;
    if (node.nodeName === '#text') {
      visitText((node as DefaultTreeAdapterMap['textNode']).value, context);
      continue;
    }
    if (!isElement(node)) continue;
    const inner = visitElement(node, context);
    // <template> content is inert (not rendered, not crawled): its fragment is not walked.
    for (let i = node.childNodes.length - 1; i >= 0; i--) {
      nodes.push(node.childNodes[i] as Node);
      contexts.push(inner);
    }
  }

  for (const { holder, element } of laterRefs) holder.element = ref(element);
  for (const { element, fill, fromContent } of named) fill(accessibleName(element, memo, fromContent));
  for (const { element, field } of fields) {
    const id = attr(element, 'id');
    // A <label for> names the first element with that id only (a repeated id leaves the rest unnamed).
    if ((id && labelFor.has(id) && ids.get(id) === element) || accessibleName(element, memo, false))
      field.labelled = true;
  }
  for (const [id, element] of repeatedIds)
    if ((labelFor.has(id) || referencedIds.has(id)) && facts.duplicateIds.length < LIST_MAX)
      facts.duplicateIds.push({ id: bound(id, 80), element: ref(element) });
  // Already collapsed and bounded piece by piece.
  facts.textSample = sample.length >= SAMPLE_MAX ? `${sample.slice(0, SAMPLE_MAX - 1)}…` : sample;
  if (digest) facts.textDigest = digest.digest('hex');
  return facts;
}

/**
 * The content of the first meta tag named `name` (name, property or http-equiv) in the head, as
 * browsers and crawlers read it: one the parser moved into the body does not count.
 */
export function metaContent(facts: PageFacts, name: string): string | undefined {
  return facts.metas.find((m) => m.name === name && m.inHead)?.content;
}
