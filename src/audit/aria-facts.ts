// The ARIA structure and naming rules axe-core runs that the served HTML decides (issue 25), read
// from the parse5 tree in one walk after the page facts: list and listitem, aria-required-parent,
// aria-required-children, svg-img-alt, role-img-alt and landmark-unique, with axe-core 4.14's
// semantics (aria-roles.ts). Hidden subtrees (hidden, display:none, aria-hidden="true", elements
// never rendered) are skipped, as axe skips what is not visible to screen readers. Where axe
// would need layout or scripts to decide (aria-owns, an empty owner it leaves for review), no
// verdict is given.
import {
  childScope,
  explicitRole,
  focusable,
  hasGlobalAria,
  LANDMARK_ROLES,
  OWN_GROUP_ROLES,
  presentational,
  REQUIRED_CONTEXT,
  REQUIRED_OWNED,
  REVIEW_EMPTY,
  ROOT_SCOPE,
  type RoleScope,
  resolveRole,
} from './aria-roles.ts';
import { accessibleName, contentText, referenceText } from './html-names.ts';
import {
  ariaHidden,
  attr,
  displayHidden,
  type Element,
  type ElementRef,
  isElement,
  type Memo,
  type Node,
  type TextNode,
} from './html-tree.ts';
import { quote } from './quote.ts';

/** One element an ARIA rule fails, and why. */
export interface AriaOffence {
  what: string;
  element: ElementRef;
}

/** What each rule finds on a page (bounded to LIST_MAX apiece). */
export interface AriaFacts {
  /** axe list and listitem: a list holding other than list items, a list item outside a list. */
  lists: AriaOffence[];
  /** axe aria-required-parent: a role outside the role it must sit in (a tab outside a tablist). */
  requiredParent: AriaOffence[];
  /** axe aria-required-children: a role without the roles it must own, or owning others. */
  requiredChildren: AriaOffence[];
  /** axe svg-img-alt: an svg graphic with role img and no name. */
  svgImgAlt: AriaOffence[];
  /** axe role-img-alt: an HTML element with role img and no name. */
  roleImgAlt: AriaOffence[];
  /** axe landmark-unique: landmarks of one role with the same name (or none). */
  landmarkUnique: AriaOffence[];
}

const LIST_MAX = 500;
/** Elements never rendered (display: none in the user agent's style sheet), which axe does not see. */
const NOT_RENDERED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'datalist',
  'param',
]);
/** Elements axe counts as content of their own (isVisualContent). */
const VISUAL_CONTENT = new Set([
  'img',
  'iframe',
  'object',
  'video',
  'audio',
  'canvas',
  'svg',
  'math',
  'button',
  'select',
  'textarea',
  'input',
  'progress',
  'meter',
]);
/** axe's landmark-unique selector: the elements it asks about (a landmark role alone is not enough). */
const LANDMARK_TAGS = new Set(['form', 'footer', 'header', 'aside', 'main', 'nav', 'section']);
const LANDMARK_ROLE_ATTRS = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'main',
  'navigation',
  'region',
  'search',
  'form',
]);
/** How far up an aria-owns target is looked for (pages with aria-owns are few, and nesting unbounded). */
const OWNS_DEPTH = 64;

/** Not visible to screen readers: axe leaves it and its subtree out of these rules. */
const unseen = (element: Element) => NOT_RENDERED.has(element.tagName) || ariaHidden(element) || displayHidden(element);

/** An ancestor with a role (none and presentation count as none), and the nearest one above a run of groups. */
interface RoleLink {
  role: string;
  parent: RoleLink | null;
  /** This link, or for a group the nearest non-group link above it. */
  beyondGroups: RoleLink | null;
}

interface Frame {
  node: Node;
  scope: RoleScope;
  /** The nearest ancestor with a role. */
  link: RoleLink | null;
  /** The parent's role (none and presentation kept), for listitem. */
  parentRole: string | null;
  inSvg: boolean;
}

const roleText = (roles: readonly string[]) => roles.join(' or ');
const tagText = (element: Element) => `<${element.tagName}>`;

/** Whether an element holds text or visual content (axe's isContent, for reviewEmpty). */
function hasContent(element: Element, memo: Memo): boolean {
  return VISUAL_CONTENT.has(element.tagName) || contentText(element, memo).trim() !== '';
}

export function ariaFacts(document: Node, memo: Memo, ref: (element: Element) => ElementRef): AriaFacts {
  const facts: AriaFacts = {
    lists: [],
    requiredParent: [],
    requiredChildren: [],
    svgImgAlt: [],
    roleImgAlt: [],
    landmarkUnique: [],
  };
  const add = (list: AriaOffence[], element: Element, what: string) => {
    if (list.length < LIST_MAX) list.push({ what, element: ref(element) });
  };
  const roleOf = (element: Element, scope: RoleScope) => resolveRole(element, scope, memo);
  // aria-owns moves elements in the tree; those it names (and their subtrees) get no verdict here.
  const owned = new Set<string>();
  const requiredParentFails: Array<{ element: Element; what: string }> = [];
  const landmarks = new Map<string, { element: Element; role: string; name: string; count: number }>();

  /** axe's list rule: a ul or ol without a role holds only list items (script and the like aside). */
  const list = (element: Element, scope: RoleScope) => {
    const inner = childScope(element, scope);
    let listitems = 0;
    let wrongRole: Element | null = null;
    for (const child of element.childNodes) {
      if (child.nodeName === '#text') {
        if ((child as TextNode).value.trim() !== '')
          return add(facts.lists, element, `text directly inside ${tagText(element)}`);
        continue;
      }
      if (!isElement(child) || unseen(child)) continue;
      const role = roleOf(child, inner);
      if (child.tagName !== 'li' && role !== 'listitem')
        return add(facts.lists, child, `${tagText(child)} directly inside ${tagText(element)}`);
      if (role === 'listitem') listitems++;
      else wrongRole ??= child;
    }
    if (listitems === 0 && wrongRole)
      add(
        facts.lists,
        wrongRole,
        `<li> of role ${quote(attr(wrongRole, 'role'))} is no list item of ${tagText(element)}`,
      );
  };

  /** axe's listitem rule: an li without a role sits in a list (or a presentational parent). */
  const listitem = (element: Element, parentRole: string | null, parent: Node | null) => {
    if (!parent || !isElement(parent)) return;
    if (parentRole === 'list' || presentational(parentRole)) return;
    // A ul, ol or menu whose role attribute makes it something else (role="tablist") is no list.
    add(
      facts.lists,
      element,
      ['ul', 'ol', 'menu'].includes(parent.tagName)
        ? `<li> inside a <${parent.tagName}> of role ${quote(attr(parent, 'role'))}, which is no list`
        : '<li> outside a <ul>, <ol> or <menu>',
    );
  };

  /** axe's aria-required-parent (getMissingContext), on the chain of ancestors with roles. */
  const requiredParent = (element: Element, role: string, link: RoleLink | null) => {
    let context = [...(REQUIRED_CONTEXT[role] ?? [])];
    const allowsGroup = context.includes('group');
    let current = link;
    if (current?.role === 'group' && allowsGroup) {
      if (OWN_GROUP_ROLES.has(role)) context.push(role);
      context = context.filter((r) => r !== 'group');
      current = current.beyondGroups;
    }
    if (current && context.includes(current.role)) return;
    // Kept for the aria-owns filter after the walk; far more than LIST_MAX would be kept anyway.
    if (requiredParentFails.length >= 4 * LIST_MAX) return;
    const nearest = current ? `its nearest role is ${current.role}` : 'no ancestor has a role';
    requiredParentFails.push({
      element,
      what: `${tagText(element)} of role ${role} is not inside ${roleText(context)} (${nearest})`,
    });
  };

  /** axe's aria-required-children (getOwnedRoles): what the element owns, through elements without a role. */
  const requiredChildren = (element: Element, role: string, scope: RoleScope) => {
    const required = REQUIRED_OWNED[role] ?? [];
    const queue: Array<{ node: Node; scope: RoleScope }> = element.childNodes.map((node) => ({
      node,
      scope: childScope(element, scope),
    }));
    const owns: Array<{ role: string | null; element: Element }> = [];
    let text = false;
    for (let i = 0; i < queue.length; i++) {
      const { node, scope: at } = queue[i] as (typeof queue)[number];
      if (node.nodeName === '#text') {
        text ||= (node as TextNode).value.trim() !== '';
        continue;
      }
      if (!isElement(node) || unseen(node)) continue;
      const childRole = roleOf(node, at);
      const ownRole = presentational(childRole) ? null : childRole;
      const marked = hasGlobalAria(node) || focusable(node);
      if ((!ownRole && !marked) || ((ownRole === 'group' || ownRole === 'rowgroup') && required.includes(ownRole))) {
        const inner = childScope(node, at);
        for (const child of node.childNodes) queue.push({ node: child, scope: inner });
      } else owns.push({ role: ownRole, element: node });
    }
    const unallowed = owns.filter(
      (o) => o.role === null || (!required.includes(o.role) && !(REQUIRED_CONTEXT[o.role] ?? []).includes(role)),
    );
    if (unallowed.length > 0) {
      const first = unallowed[0] as (typeof unallowed)[number];
      return add(
        facts.requiredChildren,
        element,
        `role ${role} owns ${tagText(first.element)}${first.role ? ` of role ${first.role}` : ' (focusable or with ARIA attributes)'}, where only ${roleText(required)} may be`,
      );
    }
    if (owns.some((o) => o.role !== null && required.includes(o.role))) return;
    if (attr(element, 'aria-busy')?.trim().toLowerCase() === 'true') return;
    if (REVIEW_EMPTY.has(role) && !text && !owns.some((o) => hasContent(o.element, memo))) return;
    add(facts.requiredChildren, element, `role ${role} owns no ${roleText(required)}`);
  };

  /** axe's svg-img-alt and role-img-alt: a graphic needs a name (svg: a <title> child too). */
  const graphic = (element: Element, inSvg: boolean) => {
    const role = attr(element, 'role');
    const svg = inSvg || element.tagName === 'svg';
    const img = role === 'img' || role === 'image';
    if (
      svg ? !(img || role === 'graphics-symbol' || (element.tagName === 'svg' && role === 'graphics-document')) : !img
    )
      return;
    if (!svg && ['img', 'area', 'input', 'object'].includes(element.tagName)) return;
    if (attr(element, 'aria-label')?.trim() || attr(element, 'title')?.trim()) return;
    for (const id of (attr(element, 'aria-labelledby') ?? '').split(/\s+/)) {
      const target = id ? memo.ids.get(id) : undefined;
      if (target && referenceText(target, memo).trim()) return;
    }
    if (svg) {
      const title = element.childNodes.find((n) => isElement(n) && n.tagName === 'title');
      if (title && isElement(title) && contentText(title, memo).trim()) return;
      return add(
        facts.svgImgAlt,
        element,
        `${tagText(element)} of role ${role} with no <title>, aria-label or aria-labelledby`,
      );
    }
    add(facts.roleImgAlt, element, `${tagText(element)} of role ${role} with no aria-label, aria-labelledby or title`);
  };

  /** axe's landmark-unique: landmarks of one role told apart by their names. */
  const landmark = (element: Element, role: string | null) => {
    if (!role || !LANDMARK_ROLES.has(role)) return;
    const roleAttr = attr(element, 'role');
    if (!LANDMARK_TAGS.has(element.tagName) && !(roleAttr !== undefined && LANDMARK_ROLE_ATTRS.has(roleAttr))) return;
    const name = accessibleName(element, memo, false);
    const key = `${role}\u0000${name.toLowerCase()}`;
    const seen = landmarks.get(key);
    if (seen) seen.count++;
    else landmarks.set(key, { element, role, name, count: 1 });
  };

  // Document order with an explicit stack: hostile markup nests deep.
  const stack: Frame[] = [{ node: document, scope: ROOT_SCOPE, link: null, parentRole: null, inSvg: false }];
  while (stack.length > 0) {
    const { node, scope, link, parentRole, inSvg } = stack.pop() as Frame;
    if (!('childNodes' in node)) continue;
    let next = { scope, link, role: null as string | null, inSvg };
    if (isElement(node)) {
      if (unseen(node)) continue;
      const owns = attr(node, 'aria-owns');
      if (owns) for (const id of owns.split(/\s+/)) if (id) owned.add(id);
      const role = roleOf(node, scope);
      const own = presentational(role) ? null : role;
      const explicit = explicitRole(node);
      if (node.tagName === 'li' && !attr(node, 'role')) listitem(node, parentRole, node.parentNode);
      if ((node.tagName === 'ul' || node.tagName === 'ol') && !attr(node, 'role')) list(node, scope);
      if (explicit && REQUIRED_CONTEXT[explicit]) requiredParent(node, explicit, link);
      if (explicit && REQUIRED_OWNED[explicit] && !owns) requiredChildren(node, explicit, scope);
      if (attr(node, 'role') !== undefined) graphic(node, inSvg);
      landmark(node, role);
      const newLink: RoleLink | null = own ? { role: own, parent: link, beyondGroups: null } : null;
      if (newLink)
        newLink.beyondGroups = own === 'group' ? (link?.role === 'group' ? link.beyondGroups : link) : newLink;
      next = { scope: childScope(node, scope), link: newLink ?? link, role, inSvg: inSvg || node.tagName === 'svg' };
    }
    for (let i = node.childNodes.length - 1; i >= 0; i--)
      stack.push({
        node: node.childNodes[i] as Node,
        scope: next.scope,
        link: next.link,
        parentRole: next.role,
        inSvg: next.inSvg,
      });
  }

  for (const { element, what } of requiredParentFails) {
    if (facts.requiredParent.length >= LIST_MAX) break;
    if (owned.size > 0 && ownedByReference(element, owned)) continue;
    add(facts.requiredParent, element, what);
  }
  for (const { element, role, name, count } of landmarks.values())
    if (count > 1)
      add(
        facts.landmarkUnique,
        element,
        `${count} ${role} landmarks ${name ? `named ${quote(name, 80)}` : 'without a name'}`,
      );
  return facts;
}

/** Whether aria-owns names the element or one of its ancestors (then axe reads another parent). */
function ownedByReference(element: Element, owned: ReadonlySet<string>): boolean {
  let current: Element | null = element;
  for (let depth = 0; current && depth < OWNS_DEPTH; depth++) {
    const id = attr(current, 'id');
    if (id && owned.has(id)) return true;
    const parent: Node | null = current.parentNode;
    current = parent && isElement(parent) ? parent : null;
  }
  return current !== null;
}
