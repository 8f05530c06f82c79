// One streaming pass over a page's HTML that keeps the facts the checks read. Text taken from the
// page is untrusted: every string kept is bounded (PAGE_TEXT_MAX) and never interpreted.
import { Parser } from 'htmlparser2';

export const PAGE_TEXT_MAX = 300;
const LIST_MAX = 500;

export interface PageLink {
  href: string;
  text: string;
  rel: string;
}
export interface PageImage {
  src: string;
  alt: string | null;
  hasDimensions: boolean;
}
export interface PageScript {
  src: string | null;
  inHead: boolean;
  async: boolean;
  defer: boolean;
  module: boolean;
  integrity: boolean;
  type: string;
}
export interface FormField {
  type: string;
  name: string;
  labelled: boolean;
  autocomplete: string | null;
}
export interface PageForm {
  action: string;
  method: string;
  toolname: string | null;
  fields: FormField[];
}
export interface PageFacts {
  lang: string | null;
  titles: string[];
  /** `inHead`: where a browser's HTML5 parser puts it (an unknown element in <head> ends the head). */
  metas: Array<{ name: string; content: string; inHead: boolean }>;
  links: Array<{ rel: string; href: string; hreflang: string | null; type: string | null }>;
  headings: Array<{ level: number; text: string }>;
  anchors: PageLink[];
  images: PageImage[];
  scripts: PageScript[];
  inlineScripts: string[];
  jsonLd: string[];
  forms: PageForm[];
  landmarks: Set<string>;
  iframes: string[];
  /** Characters of visible text (outside script, style, template, noscript). */
  textLength: number;
  /** The first visible text, bounded, for answerability checks. */
  textSample: string;
  /** Phone numbers and email addresses written in visible text (not only as tel: or mailto: links). */
  visibleContacts: number;
  buttons: string[];
  hasViewport: boolean;
  mixedContentCandidates: string[];
}

export const bound = (text: string, max = PAGE_TEXT_MAX) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

const LANDMARK_TAGS = new Set(['main', 'nav', 'header', 'footer', 'aside']);
const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Start tags the HTML5 parser keeps in <head> ("in head" insertion mode); any other ends it. */
const HEAD_CONTENT = new Set([
  'html',
  'head',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
]);
/** Elements in <head> whose text is their own, not stray text that ends the head. */
const HEAD_TEXT_CONTAINERS = new Set(['title', 'style', 'script', 'noscript', 'noframes', 'template']);
/** A phone number as people write one: international (+...), an area code in brackets, or after a label. */
const PHONE_TEXT =
  /\+\d{1,3}[\s.-]?\(?\d{1,5}\)?(?:[\s.-]?\d{2,5}){2,4}|\(\d{2,5}\)\s?\d{3,4}[\s.-]?\d{3,4}|\b(?:tel|phone|telephone|call(?: us)?|fon|telefon|téléphone)\.?:?\s*\d[\d\s()./-]{5,18}\d/i;
// Bounded parts: an unbounded [\w]+@ is quadratic on a long run of word characters without an @.
const EMAIL_TEXT = /[\w.%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}/i;
const HIDDEN_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg']);
const SCRIPT_TEXT_MAX = 20_000;

interface Capture {
  kind: 'title' | 'svg-title' | 'heading' | 'anchor' | 'button';
  text: string;
  level?: number;
  /** aria-label and title, which name a link or button ahead of and after its content. */
  label?: string | undefined;
  title?: string | undefined;
  anchor?: PageLink;
}

/** Which capture a closing tag ends. */
const CLOSES: Record<string, Capture['kind']> = {
  title: 'title',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  a: 'anchor',
  button: 'button',
};

/** The accname order for links and buttons: aria-label, then the content (text, image alts), then title. */
function accessibleName(capture: Capture): string {
  const content = capture.text.replace(/\s+/g, ' ').trim();
  return capture.label?.trim() || content || capture.title?.trim() || '';
}

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

export function parseHtml(html: string): PageFacts {
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
    landmarks: new Set(),
    iframes: [],
    textLength: 0,
    textSample: '',
    visibleContacts: 0,
    buttons: [],
    hasViewport: false,
    mixedContentCandidates: [],
  };
  let inHead = false;
  let headEnded = false;
  let headTextDepth = 0;
  let hiddenDepth = 0;
  // Elements whose text is collected, innermost last: a heading holding a link fills both (issue 10:
  // with one slot, the link replaced the heading and `<h1><a>..</a></h1>` was lost).
  const captures: Capture[] = [];
  let svgDepth = 0;
  let scriptKind: 'json-ld' | 'inline' | null = null;
  let scriptText = '';
  let currentForm: PageForm | null = null;
  const labelFor = new Set<string>();
  const fieldIds: Array<{ field: FormField; id: string | null }> = [];
  let labelDepth = 0;
  let sample = '';

  const push = <T>(list: T[], item: T) => {
    if (list.length < LIST_MAX) list.push(item);
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'html' && attrs.lang) facts.lang = bound(attrs.lang, 35);
        if (name === 'head' && !headEnded) inHead = true;
        else if (inHead && (name === 'body' || (headTextDepth === 0 && !HEAD_CONTENT.has(name)))) {
          // HTML5 "in head": any other start tag closes the head and opens the body implicitly.
          inHead = false;
          headEnded = true;
        }
        if (name === 'body') headEnded = true;
        if (inHead && HEAD_TEXT_CONTAINERS.has(name)) headTextDepth++;
        if (HIDDEN_TEXT_TAGS.has(name)) hiddenDepth++;
        if (LANDMARK_TAGS.has(name)) facts.landmarks.add(name === 'main' ? 'main' : name);
        if (attrs.role && LANDMARK_ROLES.has(attrs.role))
          facts.landmarks.add(attrs.role === 'main' ? 'main' : attrs.role);
        for (const url of insecureUrls(name, attrs)) push(facts.mixedContentCandidates, bound(url, 2000));
        if (name === 'svg') svgDepth++;
        switch (name) {
          case 'title':
            // An <svg>'s <title> names the graphic (and a link around it), not the document.
            captures.push({ kind: svgDepth > 0 ? 'svg-title' : 'title', text: '' });
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').toLowerCase();
            if (key) push(facts.metas, { name: key, content: bound(attrs.content ?? '', 1000), inHead });
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
            captures.push({ kind: 'heading', text: '', level: Number(name[1]) });
            break;
          case 'a': {
            const anchor = { href: bound(attrs.href ?? '', 2000), text: '', rel: (attrs.rel ?? '').toLowerCase() };
            push(facts.anchors, anchor);
            captures.push({ kind: 'anchor', text: '', label: attrs['aria-label'], title: attrs.title, anchor });
            break;
          }
          case 'button':
            captures.push({ kind: 'button', text: '', label: attrs['aria-label'], title: attrs.title });
            break;
          case 'img':
            // An image's alt is part of the name of the link, button or heading around it (accname 2.F).
            if (attrs.alt) for (const capture of captures) capture.text += ` ${attrs.alt} `;
            push(facts.images, {
              src: bound(attrs.src ?? attrs['data-src'] ?? '', 2000),
              alt: attrs.alt === undefined ? null : bound(attrs.alt),
              hasDimensions: attrs.width !== undefined && attrs.height !== undefined,
            });
            break;
          case 'iframe':
            push(facts.iframes, bound(attrs.src ?? '', 2000));
            break;
          case 'script': {
            const type = (attrs.type ?? '').toLowerCase();
            if (type === 'application/ld+json') {
              scriptKind = 'json-ld';
            } else {
              scriptKind = attrs.src ? null : 'inline';
              push(facts.scripts, {
                src: attrs.src ? bound(attrs.src, 2000) : null,
                inHead,
                async: attrs.async !== undefined,
                defer: attrs.defer !== undefined,
                module: type === 'module',
                integrity: attrs.integrity !== undefined,
                type,
              });
            }
            scriptText = '';
            break;
          }
          case 'form':
            currentForm = {
              action: bound(attrs.action ?? '', 2000),
              method: (attrs.method ?? 'get').toLowerCase(),
              toolname: attrs.toolname ?? null,
              fields: [],
            };
            push(facts.forms, currentForm);
            break;
          case 'label':
            labelDepth++;
            if (attrs.for) labelFor.add(attrs.for);
            break;
          case 'input':
          case 'select':
          case 'textarea': {
            const type = name === 'input' ? (attrs.type ?? 'text').toLowerCase() : name;
            if (['hidden', 'submit', 'button', 'image', 'reset'].includes(type)) {
              if (type === 'submit' && attrs.value) facts.buttons.push(bound(attrs.value, 80));
              break;
            }
            const field: FormField = {
              type,
              name: bound(attrs.name ?? '', 80),
              labelled: labelDepth > 0 || attrs['aria-label'] !== undefined || attrs['aria-labelledby'] !== undefined,
              autocomplete: attrs.autocomplete ?? null,
            };
            fieldIds.push({ field, id: attrs.id ?? null });
            if (currentForm && currentForm.fields.length < 100) currentForm.fields.push(field);
            break;
          }
        }
      },
      ontext(text) {
        if (scriptKind !== null) {
          if (scriptText.length < SCRIPT_TEXT_MAX) scriptText += text;
          return;
        }
        for (const capture of captures) capture.text += text;
        // Text straight in <head> (not in its title, style or template) ends the head too.
        if (inHead && headTextDepth === 0 && text.trim()) {
          inHead = false;
          headEnded = true;
        }
        if (hiddenDepth === 0 && !inHead) {
          if (facts.visibleContacts < LIST_MAX && (PHONE_TEXT.test(text) || EMAIL_TEXT.test(text)))
            facts.visibleContacts++;
          const trimmed = text.replace(/\s+/g, ' ');
          facts.textLength += trimmed.trim().length;
          if (sample.length < 2000) sample += trimmed;
        }
      },
      onclosetag(name) {
        if (HIDDEN_TEXT_TAGS.has(name) && hiddenDepth > 0) hiddenDepth--;
        if (HEAD_TEXT_CONTAINERS.has(name) && headTextDepth > 0) headTextDepth--;
        if (name === 'head' && inHead) {
          inHead = false;
          headEnded = true;
        }
        if (name === 'label' && labelDepth > 0) labelDepth--;
        if (name === 'form') currentForm = null;
        if (name === 'script') {
          if (scriptKind === 'json-ld') push(facts.jsonLd, scriptText);
          else if (scriptKind === 'inline') push(facts.inlineScripts, scriptText.slice(0, SCRIPT_TEXT_MAX));
          scriptKind = null;
        }
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        const kind = CLOSES[name];
        if (!kind) return;
        const at = captures.findLastIndex((c) => c.kind === kind || (kind === 'title' && c.kind === 'svg-title'));
        if (at < 0) return;
        const [capture] = captures.splice(at, 1);
        if (!capture) return;
        if (capture.kind === 'svg-title') {
          // Already added to the enclosing captures as text: nothing of its own to record.
        } else if (capture.kind === 'title') push(facts.titles, bound(capture.text));
        else if (capture.kind === 'heading')
          push(facts.headings, { level: capture.level ?? 1, text: bound(capture.text) });
        else if (capture.kind === 'anchor' && capture.anchor) capture.anchor.text = bound(accessibleName(capture), 120);
        else if (capture.kind === 'button') push(facts.buttons, bound(accessibleName(capture), 80));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  for (const { field, id } of fieldIds) if (id && labelFor.has(id)) field.labelled = true;
  facts.textSample = bound(sample, 2000);
  return facts;
}

/**
 * The content of the first meta tag named `name` (name, property or http-equiv) in the head, as
 * browsers and crawlers read it: one the parser moved into the body does not count.
 */
export function metaContent(facts: PageFacts, name: string): string | undefined {
  return facts.metas.find((m) => m.name === name && m.inHead)?.content;
}
