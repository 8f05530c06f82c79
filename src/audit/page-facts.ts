// The facts a page gives the checks (html.ts reads them from the HTML5 tree). Element-level facts
// inside a hidden subtree (`hidden`, display:none, aria-hidden="true") carry `hidden: true`, and the
// accessibility checks leave them out as axe does; what is not displayed at all is no heading, image,
// button, field or frame of the page, but its links are still followed and its resources still load.
import type { AriaFacts } from './aria-facts.ts';
import type { ElementRef } from './html-tree.ts';

export interface PageLink {
  href: string;
  text: string;
  rel: string;
  element: ElementRef;
  /** Not exposed to assistive technology (a hidden or aria-hidden subtree): still a link to follow. */
  hidden?: true;
}
export interface PageImage {
  src: string;
  alt: string | null;
  hasDimensions: boolean;
  element: ElementRef;
  /** In an aria-hidden subtree: shown, but not read. */
  hidden?: true;
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
  /** Named by a label, aria-labelledby, aria-label or title (a placeholder is not a label). */
  labelled: boolean;
  /** A non-blank placeholder, which accname takes as the name when nothing else gives one. */
  placeholder?: true;
  autocomplete: string | null;
  element: ElementRef;
  /** In an aria-hidden subtree. */
  hidden?: true;
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
  /** In an aria-hidden subtree. */
  hidden?: true;
}
export interface MixedContent {
  url: string;
  element: ElementRef;
}
export interface PageFrame {
  src: string;
  name: string;
  element: ElementRef;
  /** In an aria-hidden subtree. */
  hidden?: true;
}
export interface PageFacts {
  lang: string | null;
  titles: string[];
  /** `inHead`: whether the HTML5 parser keeps it in <head> (an unknown element there ends the head). */
  metas: Array<{ name: string; content: string; inHead: boolean }>;
  links: Array<{ rel: string; href: string; hreflang: string | null; type: string | null }>;
  /** Headings that are displayed (one in a hidden subtree is no heading of the page). */
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
  /** Characters of visible text (outside head, script, style, template, noscript, svg and hidden subtrees). */
  textLength: number;
  /** Words of visible text (page-text.ts countWords): what the agent views compare (checks/agent-views.ts). */
  textWords: number;
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
  frames: PageFrame[];
  /** Lists whose structure assistive technology cannot follow (axe list and listitem). */
  listOffences: Array<{ what: string; element: ElementRef }>;
  /** Ids given to more than one element while a label or an ARIA reference points at them. */
  duplicateIds: Array<{ id: string; element: ElementRef }>;
  /** The ARIA rules axe runs that the HTML decides (aria-facts.ts); lists are in listOffences. */
  aria: Omit<AriaFacts, 'lists'>;
  /** Where a client-side application mounts (`div#app`, `app-root`), when the body has such an element. */
  appMount: string | null;
  /** The mount point holds nothing (no element, no text): the application has not filled it. */
  appMountEmpty?: true;
}
