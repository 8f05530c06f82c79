// A page's facts, read from the HTML5 tree a browser would build (parse5 follows the WHATWG tree
// construction: head and body placement, implied and misnested tags, foster parenting). Text taken
// from the page is untrusted: every string kept is bounded (PAGE_TEXT_MAX) and never interpreted.
// Elsewhere: the tree's helpers (evidence, hidden subtrees) in html-tree.ts, names in html-names.ts,
// the ARIA rules axe runs in aria-facts.ts, the context each element is read in in html-context.ts,
// the visible text in page-text.ts, the http:// URLs an HTTPS page loads in mixed-content.ts, and
// the facts' shape in page-facts.ts.
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { ariaFacts } from './aria-facts.ts';
import { childContext, type ReadContext, rootContext, unreadFlag } from './html-context.ts';
import { accessibleName, contentText } from './html-names.ts';
import {
  attr,
  attributes,
  bound,
  displayNone,
  type Element,
  type ElementRef,
  isElement,
  type Node,
  newMemo,
  refOf,
  type TextNode,
} from './html-tree.ts';
import { insecureUrls } from './mixed-content.ts';
import type { FormField, PageButton, PageFacts, PageForm, PageFrame, PageLink } from './page-facts.ts';
import { visibleText } from './page-text.ts';

export { bound, type ElementRef, PAGE_TEXT_MAX } from './html-tree.ts';
export type {
  FormField,
  MixedContent,
  PageButton,
  PageFacts,
  PageForm,
  PageFrame,
  PageImage,
  PageLink,
  PageScript,
} from './page-facts.ts';

const LIST_MAX = 500;
const LANDMARK_TAGS = new Set(['main', 'nav', 'header', 'footer', 'aside']);
const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'search']);
const SCRIPT_TEXT_MAX = 20_000;
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
/** Ids client-side frameworks mount their application on (Vue, docsify, React, Next, Nuxt, Gatsby, ...). */
const MOUNT_IDS = new Set(['app', 'root', '__next', '__nuxt', '___gatsby', 'svelte', 'q-app', 'react-root']);
/** Attributes a framework leaves on its mount point (Angular, AngularJS, React 17 and older, Vue 3). */
const MOUNT_ATTRIBUTES = new Set(['ng-version', 'ng-app', 'data-reactroot', 'data-v-app']);
/** A custom element that mounts an application (`<app-root>`, `<my-app>`, `<x-root>`). */
const mountTag = (tag: string) => tag.includes('-') && (tag.startsWith('app-') || /-(app|root)$/.test(tag));
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
    textWords: 0,
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
    aria: { requiredParent: [], requiredChildren: [], svgImgAlt: [], roleImgAlt: [], landmarkUnique: [] },
    appMount: null,
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
  const memo = newMemo();
  const ids = memo.ids;
  const labelFor = new Set<string>();
  // Names can point forward (aria-labelledby, label for): resolved once the whole tree is read.
  const named: Array<{ element: Element; fill: (name: string) => void; fromContent: boolean }> = [];
  const fields: Array<{ element: Element; field: FormField }> = [];
  // The forms in facts.forms: a field of a form past LIST_MAX is kept only if facts.fields has room.
  const keptForms = new Set<PageForm>();
  const ref = (element: Element): ElementRef => refOf(element, memo);
  // An item is made only when the list keeps it: evidence (a selector, a name) costs nothing past LIST_MAX.
  const keep = <T>(list: T[], make: () => T) => {
    if (list.length < LIST_MAX) list.push(make());
  };
  const pageText = visibleText(options);

  /** A button (or a button-like input) with the name filled in once the tree is read. */
  const addButton = (element: Element, context: ReadContext, fromContent: boolean, fallback = '') => {
    if (context.unshown || facts.buttons.length >= LIST_MAX) return;
    const button: PageButton = { name: '', element: ref(element), ...unreadFlag(context) };
    facts.buttons.push(button);
    named.push({ element, fromContent, fill: (text) => (button.name = bound(text || fallback, 80)) });
  };

  const visitElement = (element: Element, context: ReadContext): ReadContext => {
    const name = element.tagName;
    let unshown = false;
    let unread = false;
    let mount = mountTag(name);
    for (const { name: attribute, value } of element.attrs) {
      if (attribute === 'id' && value) {
        if (!ids.has(value)) ids.set(value, element);
        else if (!repeatedIds.has(value)) repeatedIds.set(value, element);
        mount ||= MOUNT_IDS.has(value);
      } else if (attribute === 'role' && LANDMARK_ROLES.has(value)) {
        if (!context.unshown) facts.landmarks.add(value);
      } else if (attribute === 'aria-labelledby' || attribute === 'aria-describedby') {
        for (const id of value.split(/\s+/)) if (id) referencedIds.add(id);
      } else if (attribute === 'hidden') unshown = true;
      else if (attribute === 'style') unshown ||= displayNone(value);
      else if (attribute === 'aria-hidden') unread = value.trim().toLowerCase() === 'true';
      else mount ||= MOUNT_ATTRIBUTES.has(attribute);
    }
    if (LANDMARK_TAGS.has(name) && !context.unshown && !unshown) facts.landmarks.add(name);
    if (mount && facts.appMount === null && !context.inHead && !context.unshown && name !== 'html') {
      facts.appMount = bound(`${name}${attr(element, 'id') ? `#${attr(element, 'id')}` : ''}`, 80);
      const filled = element.childNodes.some(
        (n) => isElement(n) || (n.nodeName === '#text' && (n as TextNode).value.trim()),
      );
      if (!filled) facts.appMountEmpty = true;
    }
    const next = childContext(name, context, unshown, unread);
    // The attribute table only for the elements read below: most (div, span, p, li) are not.
    if (!READ_TAGS.has(name)) return next;
    const attrs = attributes(element);
    if (name === 'html' && attrs.lang) facts.lang = bound(attrs.lang, 35);
    const insecure = insecureUrls(name, attrs);
    if (insecure.length > 0 && facts.mixedContent.length < LIST_MAX) {
      const element_ = ref(element);
      for (const url of insecure) keep(facts.mixedContent, () => ({ url: bound(url, 2000), element: element_ }));
    }
    switch (name) {
      case 'title':
        // An <svg>'s <title> names the graphic (and a link around it), not the document.
        if (!context.inSvg) keep(facts.titles, () => bound(contentText(element, memo)));
        break;
      case 'meta': {
        const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').toLowerCase();
        if (key)
          keep(facts.metas, () => ({
            name: key,
            // A policy is judged whole (csp-evaluation.ts bounds it at 16 KB); other metas are read short.
            content: bound(attrs.content ?? '', key === 'content-security-policy' ? 16_384 : 1000),
            inHead: context.inHead,
          }));
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
        // A heading that is not displayed is no heading of the page (a theme's duplicate H1 hidden by CSS).
        if (!next.unshown)
          keep(facts.headings, () => ({ level: Number(name[1]), text: bound(contentText(element, memo, true)) }));
        break;
      case 'a':
        if (facts.anchors.length < LIST_MAX) {
          const anchor: PageLink = {
            href: bound(attrs.href ?? '', 2000),
            text: '',
            rel: (attrs.rel ?? '').toLowerCase(),
            element: ref(element),
            ...unreadFlag(next),
          };
          facts.anchors.push(anchor);
          named.push({ element, fromContent: true, fill: (text) => (anchor.text = bound(text, 120)) });
        }
        break;
      case 'button':
        if (context.form && ['', 'submit'].includes((attrs.type ?? '').toLowerCase())) context.form.submits = true;
        addButton(element, next, true);
        break;
      case 'img':
        if (!next.unshown)
          keep(facts.images, () => ({
            src: bound(attrs.src ?? attrs['data-src'] ?? '', 2000),
            alt: attrs.alt === undefined ? null : bound(attrs.alt),
            hasDimensions: attrs.width !== undefined && attrs.height !== undefined,
            element: ref(element),
            ...unreadFlag(next),
          }));
        break;
      case 'iframe':
      case 'frame':
        if (name === 'iframe') keep(facts.iframes, () => bound(attrs.src ?? '', 2000));
        if (!next.unshown && facts.frames.length < LIST_MAX) {
          const frame: PageFrame = { src: bound(attrs.src ?? '', 2000), name: '', element: ref(element) };
          Object.assign(frame, unreadFlag(next));
          facts.frames.push(frame);
          named.push({ element, fromContent: false, fill: (text) => (frame.name = bound(text, 120)) });
        }
        break;
      case 'script': {
        const type = (attrs.type ?? '').toLowerCase();
        const text = () =>
          element.childNodes
            .map((n) => (n.nodeName === '#text' ? (n as TextNode).value : ''))
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
          if (type === 'submit' || type === 'button')
            addButton(element, next, false, attrs.value?.trim() || (type === 'submit' ? 'Submit' : ''));
          break;
        }
        // A field that is not displayed is no field a person or an agent fills in (a honeypot).
        if (next.unshown) break;
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
          // axe's label rule takes a placeholder as the name of an input or textarea (non-empty-placeholder).
          ...(name !== 'select' && attrs.placeholder?.trim() ? { placeholder: true as const } : {}),
          ...unreadFlag(next),
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
  const root = rootContext();
  const nodes: Node[] = [...document.childNodes].reverse();
  const contexts: ReadContext[] = nodes.map(() => root);
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const context = contexts.pop() as ReadContext;
    if (node.nodeName === '#text') {
      if (!context.hidden) pageText.add((node as TextNode).value);
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
  // The ARIA rules need every id (references point forward): a second walk, after the first.
  const { lists, ...aria } = ariaFacts(document, memo, ref);
  facts.listOffences = lists;
  facts.aria = aria;
  Object.assign(facts, pageText.facts());
  return facts;
}

/**
 * The content of the first meta tag named `name` (name, property or http-equiv) in the head, as
 * browsers and crawlers read it: one the parser moved into the body does not count.
 */
export function metaContent(facts: PageFacts, name: string): string | undefined {
  return facts.metas.find((m) => m.name === name && m.inHead)?.content;
}
