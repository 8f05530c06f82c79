// A page's facts, read from the HTML5 tree a browser would build (parse5 follows the WHATWG tree
// construction: head and body placement, implied and misnested tags, foster parenting). Text taken
// from the page is untrusted: every string kept is bounded (PAGE_TEXT_MAX) and never interpreted.
import { createHash } from 'node:crypto';
import { type DefaultTreeAdapterMap, parse } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

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
// Bounded parts: an unbounded [\w]+@ is quadratic on a long run of word characters without an @.
const EMAIL_TEXT = /[\w.%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}/i;
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
/** Enough name text for any check; past it the subtree walk stops. */
const NAME_TEXT_MAX = 2 * PAGE_TEXT_MAX;
const CSS_IDENT = /^-?[A-Za-z_][\w-]*$/;

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

const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;

/** One step of a selector path: the tag, an id or up to two classes, and :nth-of-type where tags repeat. */
function selectorStep(element: Element): { step: string; anchored: boolean } {
  const tag = element.tagName;
  const id = attr(element, 'id');
  if (id && CSS_IDENT.test(id) && id.length <= 40) return { step: `${tag}#${id}`, anchored: true };
  let step = tag;
  const classes = (attr(element, 'class') ?? '').split(/\s+/).filter((c) => CSS_IDENT.test(c) && c.length <= 30);
  for (const name of classes.slice(0, 2)) step += `.${name}`;
  const parent = element.parentNode;
  if (parent) {
    let same = 0;
    let position = 0;
    for (const sibling of parent.childNodes) {
      if (!isElement(sibling) || sibling.tagName !== tag) continue;
      same++;
      if (sibling === element) position = same;
    }
    if (same > 1) step += `:nth-of-type(${position})`;
  }
  return { step, anchored: false };
}

/**
 * A short selector path: up to the nearest id or the body, at most four steps and SELECTOR_MAX
 * characters (outer steps are dropped whole, so the path stays a valid selector).
 */
function selectorOf(element: Element): string {
  const steps: string[] = [];
  let current: Element | null = element;
  while (current && steps.length < 4) {
    if (current.tagName === 'html' || current.tagName === 'body' || current.tagName === 'head') {
      steps.unshift(current.tagName);
      break;
    }
    const { step, anchored } = selectorStep(current);
    steps.unshift(step);
    if (anchored) break;
    const parent: Node | null = current.parentNode;
    current = parent && isElement(parent) ? parent : null;
  }
  while (steps.length > 1 && steps.join(' > ').length > SELECTOR_MAX) steps.shift();
  return steps.join(' > ');
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

/**
 * The text an element's content gives its accessible name (accname 2F): text, an image's alt, an
 * svg's title, a descendant's own aria-label; hidden descendants skipped. `visible` leaves out the
 * aria-labels, for a heading's text as readers see it (a Docusaurus heading is "Install", not
 * "Install Direct link to Install"). Iterative: markup can nest deep.
 */
function contentText(root: Element, visible = false): string {
  let text = '';
  const stack: Node[] = [...root.childNodes].reverse();
  while (stack.length > 0 && text.length < NAME_TEXT_MAX) {
    const node = stack.pop() as Node;
    if (node.nodeName === '#text') {
      text += (node as DefaultTreeAdapterMap['textNode']).value;
      continue;
    }
    if (!isElement(node) || hiddenFromNames(node)) continue;
    const label = visible ? undefined : attr(node, 'aria-label')?.trim();
    if (label) text += ` ${label} `;
    else if (node.tagName === 'img' || (node.tagName === 'input' && attr(node, 'type') === 'image'))
      text += ` ${attr(node, 'alt') ?? ''} `;
    else if (node.tagName === 'svg') {
      const title = node.childNodes.find((n) => isElement(n) && n.tagName === 'title');
      if (title && isElement(title)) text += ` ${contentText(title)} `;
    } else for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i] as Node);
  }
  return text;
}

/** The accname order for links, buttons and fields: aria-labelledby, aria-label, content, title. */
function accessibleName(element: Element, ids: Map<string, Element>, fromContent: boolean): string {
  const labelledBy = (attr(element, 'aria-labelledby') ?? '')
    .split(/\s+/)
    .map((id) => ids.get(id))
    .filter((e): e is Element => e !== undefined)
    .map((e) => attr(e, 'aria-label') ?? contentText(e))
    .join(' ')
    .trim();
  if (labelledBy) return labelledBy;
  const label = attr(element, 'aria-label')?.trim();
  if (label) return label;
  const content = fromContent ? contentText(element).replace(/\s+/g, ' ').trim() : '';
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
  const labelFor = new Set<string>();
  // Names can point forward (aria-labelledby, label for): resolved once the whole tree is read.
  const named: Array<{ element: Element; fill: (name: string) => void; fromContent: boolean }> = [];
  const fields: Array<{ element: Element; field: FormField }> = [];
  const ref = (element: Element): ElementRef => ({ selector: selectorOf(element), snippet: snippetOf(element) });
  const push = <T>(list: T[], item: T) => {
    if (list.length < LIST_MAX) list.push(item);
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
      facts.listOffences.push({
        what: `<${child.tagName}> directly inside <${element.tagName}>`,
        element: ref(child),
      });
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
    if (insecure.length > 0) {
      const element_ = ref(element);
      for (const url of insecure) push(facts.mixedContent, { url: bound(url, 2000), element: element_ });
    }
    // Most elements change nothing of the context: their children share their parent's.
    const next = CONTEXT_TAGS.has(name) ? childContext(name, context) : context;
    switch (name) {
      case 'title':
        // An <svg>'s <title> names the graphic (and a link around it), not the document.
        if (!context.inSvg) push(facts.titles, bound(contentText(element)));
        break;
      case 'meta': {
        const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').toLowerCase();
        if (key) push(facts.metas, { name: key, content: bound(attrs.content ?? '', 1000), inHead: context.inHead });
        if (key === 'viewport') facts.hasViewport = true;
        break;
      }
      case 'link':
        push(facts.links, {
          rel: (attrs.rel ?? '').toLowerCase(),
          href: bound(attrs.href ?? '', 2000),
          hreflang: attrs.hreflang ? bound(attrs.hreflang, 35) : null,
          type: attrs.type ?? null,
        });
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        push(facts.headings, { level: Number(name[1]), text: bound(contentText(element, true)) });
        break;
      case 'a': {
        const anchor: PageLink = {
          href: bound(attrs.href ?? '', 2000),
          text: '',
          rel: (attrs.rel ?? '').toLowerCase(),
          element: ref(element),
        };
        if (facts.anchors.length < LIST_MAX) {
          facts.anchors.push(anchor);
          named.push({ element, fromContent: true, fill: (text) => (anchor.text = bound(text, 120)) });
        }
        break;
      }
      case 'button':
        if (context.form && ['', 'submit'].includes((attrs.type ?? '').toLowerCase())) context.form.submits = true;
        if (facts.buttons.length < LIST_MAX) {
          const button: PageButton = { name: '', element: ref(element) };
          facts.buttons.push(button);
          named.push({ element, fromContent: true, fill: (text) => (button.name = bound(text, 80)) });
        }
        break;
      case 'img':
        push(facts.images, {
          src: bound(attrs.src ?? attrs['data-src'] ?? '', 2000),
          alt: attrs.alt === undefined ? null : bound(attrs.alt),
          hasDimensions: attrs.width !== undefined && attrs.height !== undefined,
          element: ref(element),
        });
        break;
      case 'iframe':
      case 'frame':
        if (name === 'iframe') push(facts.iframes, bound(attrs.src ?? '', 2000));
        if (facts.frames.length < LIST_MAX) {
          const frame = { src: bound(attrs.src ?? '', 2000), name: '', element: ref(element) };
          facts.frames.push(frame);
          named.push({ element, fromContent: false, fill: (text) => (frame.name = bound(text, 120)) });
        }
        break;
      case 'script': {
        const type = (attrs.type ?? '').toLowerCase();
        const text = element.childNodes
          .map((n) => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : ''))
          .join('')
          .slice(0, SCRIPT_TEXT_MAX);
        if (type === 'application/ld+json') push(facts.jsonLd, text);
        else {
          if (!attrs.src) push(facts.inlineScripts, text);
          push(facts.scripts, {
            src: attrs.src ? bound(attrs.src, 2000) : null,
            inHead: context.inHead,
            async: attrs.async !== undefined,
            defer: attrs.defer !== undefined,
            module: type === 'module',
            integrity: attrs.integrity !== undefined,
            type,
            element: ref(element),
          });
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
        push(facts.forms, next.form);
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
        const field: FormField = {
          type,
          name: bound(attrs.name ?? '', 80),
          labelled: context.inLabel,
          autocomplete: attrs.autocomplete ?? null,
          element: ref(element),
        };
        fields.push({ element, field });
        push(facts.fields, field);
        if (context.form && context.form.fields.length < 100) context.form.fields.push(field);
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

  for (const { element, fill, fromContent } of named) fill(accessibleName(element, ids, fromContent));
  for (const { element, field } of fields) {
    const id = attr(element, 'id');
    // A <label for> names the first element with that id only (a repeated id leaves the rest unnamed).
    if ((id && labelFor.has(id) && ids.get(id) === element) || accessibleName(element, ids, false))
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
