// ARIA roles as axe-core 4.14.1 resolves them on an element (lib/standards/aria-roles.js,
// lib/commons/aria/get-role.js, implicit-html-roles.js), for the static ARIA rules: which role an
// element has (explicit, implicit, or presentational by inheritance), which roles a role must sit
// in and must own. The tables are axe-core's own, vendored; test/audit/aria-rules.test.ts holds
// them equal to the installed axe-core's standards, so an upgrade that changes them fails a test.

import { referenceText } from './html-names.ts';
import { attr, type Element, type Memo } from './html-tree.ts';

export const AXE_CORE_VERSION = '4.14.1';

/** Every role axe-core 4.14.1 takes as valid in a role attribute (abstract and doc-* roles aside). */
export const VALID_ROLES: ReadonlySet<string> = new Set(
  'alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo comment definition deletion dialog directory document emphasis feed figure form grid gridcell group heading image img insertion link list listbox listitem log main marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter mark navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox sectionfooter sectionheader separator slider spinbutton status strong subscript superscript switch suggestion tab table tablist tabpanel term text textbox time timer toolbar tooltip tree treegrid treeitem graphics-document graphics-object graphics-symbol'.split(
    ' ',
  ),
);

/** axe's requiredContext: the roles an element of this role must sit in (aria-required-parent). */
export const REQUIRED_CONTEXT: Readonly<Record<string, readonly string[]>> = {
  caption: ['figure', 'table', 'grid', 'treegrid'],
  cell: ['row'],
  columnheader: ['row'],
  gridcell: ['row'],
  listitem: ['list'],
  menuitem: ['menu', 'menubar', 'group'],
  menuitemcheckbox: ['menu', 'menubar', 'group'],
  menuitemradio: ['menu', 'menubar', 'group'],
  option: ['group', 'listbox'],
  row: ['grid', 'rowgroup', 'table', 'treegrid'],
  rowgroup: ['grid', 'table', 'treegrid'],
  rowheader: ['row'],
  tab: ['tablist'],
  treeitem: ['group', 'tree'],
};

/** axe's requiredOwned: the roles an element of this role must own (aria-required-children). */
export const REQUIRED_OWNED: Readonly<Record<string, readonly string[]>> = {
  feed: ['article'],
  grid: ['rowgroup', 'row'],
  list: ['listitem'],
  listbox: ['group', 'option'],
  menu: ['group', 'menuitemradio', 'menuitem', 'menuitemcheckbox', 'menu', 'separator'],
  menubar: ['group', 'menuitemradio', 'menuitem', 'menuitemcheckbox', 'menu', 'separator'],
  row: ['cell', 'columnheader', 'gridcell', 'rowheader'],
  rowgroup: ['row'],
  suggestion: ['insertion', 'deletion'],
  table: ['rowgroup', 'row'],
  tablist: ['tab'],
  tree: ['group', 'treeitem'],
  treegrid: ['rowgroup', 'row'],
};

/** aria-required-children's reviewEmpty option: an empty owner of these roles is for review, no violation. */
export const REVIEW_EMPTY: ReadonlySet<string> = new Set([
  'doc-bibliography',
  'doc-endnotes',
  'grid',
  'list',
  'listbox',
  'menu',
  'menubar',
  'table',
  'tablist',
  'tree',
  'treegrid',
  'rowgroup',
]);

/** aria-required-parent's ownGroupRoles option. */
export const OWN_GROUP_ROLES: ReadonlySet<string> = new Set(['listitem', 'treeitem']);

/** Roles of type landmark (doc-* roles aside, which get-role does not resolve without dpub). */
export const LANDMARK_ROLES: ReadonlySet<string> = new Set([
  'application',
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'main',
  'navigation',
  'region',
  'search',
]);

/** ARIA attributes that apply to every element (axe's getGlobalAriaAttrs). */
export const GLOBAL_ARIA_ATTRS: readonly string[] = [
  'aria-actions',
  'aria-atomic',
  'aria-braillelabel',
  'aria-brailleroledescription',
  'aria-busy',
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-description',
  'aria-details',
  'aria-disabled',
  'aria-dropeffect',
  'aria-errormessage',
  'aria-flowto',
  'aria-grabbed',
  'aria-haspopup',
  'aria-hidden',
  'aria-invalid',
  'aria-keyshortcuts',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'aria-owns',
  'aria-relevant',
  'aria-roledescription',
];
const GLOBAL_ARIA = new Set(GLOBAL_ARIA_ATTRS);

/** Where an element sits, as far as its implicit role depends on it. */
export interface RoleScope {
  /** Inside article, aside, nav or section (without a role), or an element of role article, complementary, navigation or region. */
  sectioning: boolean;
  /** The same, or inside main (without a role) or role main. */
  sectioningOrMain: boolean;
  /** The explicit role of the nearest table, which makes a td a cell or a gridcell. */
  tableRole: string | null;
}

export const ROOT_SCOPE: RoleScope = { sectioning: false, sectioningOrMain: false, tableRole: null };

const SECTIONING_TAGS = new Set(['article', 'aside', 'nav', 'section']);
const SECTIONING_ROLES = new Set(['article', 'complementary', 'navigation', 'region']);

/** The scope an element's children are in. */
export function childScope(element: Element, scope: RoleScope): RoleScope {
  const role = attr(element, 'role');
  const sectioning =
    (role === undefined && SECTIONING_TAGS.has(element.tagName)) || (role !== undefined && SECTIONING_ROLES.has(role));
  const main = (role === undefined && element.tagName === 'main') || role === 'main';
  const table = element.tagName === 'table';
  if (!sectioning && !main && !table) return scope;
  return {
    sectioning: scope.sectioning || sectioning,
    sectioningOrMain: scope.sectioningOrMain || sectioning || main,
    tableRole: table ? explicitRole(element) : scope.tableRole,
  };
}

/** The role attribute taken whole (as axe does without `fallback`), when it names a valid role. */
export function explicitRole(element: Element): string | null {
  const value = attr(element, 'role');
  if (value === undefined) return null;
  const role = value.trim().toLowerCase();
  return VALID_ROLES.has(role) ? role : null;
}

export const hasGlobalAria = (element: Element) => element.attrs.some((a) => GLOBAL_ARIA.has(a.name));

/** axe's isFocusable, without layout: natively focusable or a tabindex, and not disabled. */
export function focusable(element: Element): boolean {
  const tag = element.tagName;
  if (['button', 'input', 'select', 'textarea', 'fieldset'].includes(tag) && attr(element, 'disabled') !== undefined)
    return false;
  if (attr(element, 'tabindex') !== undefined && /^\s*-?\d+/.test(attr(element, 'tabindex') ?? '')) return true;
  switch (tag) {
    case 'a':
    case 'area':
      return attr(element, 'href') !== undefined;
    case 'input':
      return (attr(element, 'type') ?? '').toLowerCase() !== 'hidden';
    case 'textarea':
    case 'select':
    case 'summary':
    case 'button':
      return true;
    default:
      return false;
  }
}

const conflict = (element: Element) => hasGlobalAria(element) || focusable(element);

/** A name from aria-labelledby or aria-label (axe's hasAccessibleName; title with `checkTitle`). */
function named(element: Element, memo: Memo, checkTitle: boolean): boolean {
  for (const id of (attr(element, 'aria-labelledby') ?? '').split(/\s+/)) {
    const target = id ? memo.ids.get(id) : undefined;
    if (target && referenceText(target, memo).trim()) return true;
  }
  if (attr(element, 'aria-label')?.trim()) return true;
  return checkTitle && Boolean(attr(element, 'title')?.trim());
}

const FIXED_IMPLICIT: Readonly<Record<string, string>> = {
  article: 'article',
  body: 'document',
  button: 'button',
  datalist: 'listbox',
  dd: 'definition',
  dfn: 'term',
  details: 'group',
  dialog: 'dialog',
  dt: 'term',
  fieldset: 'group',
  figure: 'figure',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  hr: 'separator',
  li: 'listitem',
  main: 'main',
  math: 'math',
  menu: 'list',
  meter: 'meter',
  nav: 'navigation',
  ol: 'list',
  optgroup: 'group',
  option: 'option',
  output: 'status',
  progress: 'progressbar',
  search: 'search',
  summary: 'button',
  table: 'table',
  tbody: 'rowgroup',
  textarea: 'textbox',
  tfoot: 'rowgroup',
  thead: 'rowgroup',
  tr: 'row',
  ul: 'list',
};

const INPUT_ROLES: Readonly<Record<string, string>> = {
  checkbox: 'checkbox',
  number: 'spinbutton',
  radio: 'radio',
  range: 'slider',
  button: 'button',
  image: 'button',
  reset: 'button',
  submit: 'button',
};

/** axe's implicitHtmlRoles for the element, in its scope. */
export function implicitRole(element: Element, scope: RoleScope, memo: Memo): string | null {
  const tag = element.tagName;
  const fixed = FIXED_IMPLICIT[tag];
  if (fixed) return fixed;
  switch (tag) {
    case 'a':
    case 'area':
      return attr(element, 'href') !== undefined ? 'link' : null;
    case 'aside':
      return scope.sectioning && !named(element, memo, true) ? null : 'complementary';
    case 'footer':
      return scope.sectioningOrMain ? null : 'contentinfo';
    case 'header':
      return scope.sectioningOrMain ? null : 'banner';
    case 'form':
      return named(element, memo, false) ? 'form' : null;
    case 'section':
      return named(element, memo, false) ? 'region' : null;
    case 'img':
      return attr(element, 'alt') === '' && !conflict(element) ? 'presentation' : 'img';
    case 'input': {
      const type = (attr(element, 'type') ?? '').trim().toLowerCase();
      const list = attr(element, 'list');
      const suggestions = list !== undefined && memo.ids.get(list)?.tagName === 'datalist';
      if (type === 'search') return suggestions ? 'combobox' : 'searchbox';
      if (['text', 'tel', 'url', 'email', ''].includes(type)) return suggestions ? 'combobox' : 'textbox';
      return INPUT_ROLES[type] ?? 'textbox';
    }
    case 'select': {
      const size = Number.parseInt(attr(element, 'size') ?? '', 10);
      return attr(element, 'multiple') !== undefined || size > 1 ? 'listbox' : 'combobox';
    }
    case 'td':
      return scope.tableRole === 'grid' || scope.tableRole === 'treegrid' ? 'gridcell' : 'cell';
    case 'th': {
      const cellScope = attr(element, 'scope');
      return cellScope === 'row' || cellScope === 'rowgroup' ? 'rowheader' : 'columnheader';
    }
    default:
      return null;
  }
}

/** Elements that take a presentational role from their parent (axe's inheritsPresentationChain). */
const INHERITS_FROM: Readonly<Record<string, readonly string[]>> = {
  td: ['tr'],
  th: ['tr'],
  tr: ['thead', 'tbody', 'tfoot', 'table'],
  thead: ['table'],
  tbody: ['table'],
  tfoot: ['table'],
  li: ['ol', 'ul'],
  dt: ['dl', 'div'],
  dd: ['dl', 'div'],
  div: ['dl'],
};

/** none or presentation, when an element's table or list ancestors make it presentational (at most four steps). */
function inheritedRole(element: Element): string | null {
  let current = element;
  for (let step = 0; step < 4; step++) {
    const parents = INHERITS_FROM[current.tagName];
    const parent = current.parentNode;
    if (!parents || !parent || !('tagName' in parent) || !parents.includes(parent.tagName)) return null;
    const role = explicitRole(parent);
    if ((role === 'none' || role === 'presentation') && !conflict(parent)) return role;
    if (role) return null;
    current = parent;
  }
  return null;
}

/** axe's getRole: the explicit role, or the implicit one; none and presentation kept. */
export function resolveRole(element: Element, scope: RoleScope, memo: Memo): string | null {
  const explicit = explicitRole(element);
  if (explicit && explicit !== 'none' && explicit !== 'presentation') return explicit;
  if (explicit && !conflict(element)) return explicit;
  // A presentational role on a focusable element or one with global ARIA is ignored (a custom element gets none).
  if (explicit && element.tagName.includes('-')) return null;
  const implicit = implicitRole(element, scope, memo);
  return implicit ? (inheritedRole(element) ?? implicit) : null;
}

/** get-role's `noPresentational`: none and presentation count as no role. */
export const presentational = (role: string | null) => role === 'none' || role === 'presentation';
