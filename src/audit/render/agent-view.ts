// What an agent driving a browser sees of a rendered page: the accessibility tree (Playwright's
// aria snapshot, the tree agents such as Playwright MCP are given), summarized as landmarks, named
// and unnamed controls, and the forms it could operate.

export interface AgentView {
  landmarks: Record<string, number>;
  headings: number;
  controls: { named: number; unnamed: number };
  /** The first few controls with no accessible name: an agent cannot tell what they do. */
  unnamed: string[];
  /** Every role that has a control with no name (the same defect our naming checks report, by role). */
  unnamedRoles?: string[];
  /** Forms exposed in the tree (a form needs an accessible name to be one), and whether each can be submitted by a named button. */
  forms: Array<{ name: string; controls: number; unnamed: number; submit: boolean }>;
}

interface AriaNode {
  role?: string;
  name?: string;
  url?: string;
  children?: Array<AriaNode | string>;
}

const LANDMARKS = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'search', 'form', 'region']);
const CONTROLS = new Set([
  'link',
  'button',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'menuitem',
  'tab',
  'listbox',
]);
const UNNAMED_SHOWN = 10;

export function summarizeAriaTree(tree: unknown): AgentView {
  const view: AgentView = { landmarks: {}, headings: 0, controls: { named: 0, unnamed: 0 }, unnamed: [], forms: [] };
  // An explicit stack, not recursion: a page nested a hundred thousand deep must not overflow ours.
  const stack: Array<{ node: AriaNode | string; form: AgentView['forms'][number] | undefined }> = [];
  const roots = (Array.isArray(tree) ? tree : [tree]) as AriaNode[];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i] as AriaNode, form: undefined });
  while (stack.length > 0) {
    const { node, form } = stack.pop() as (typeof stack)[number];
    if (typeof node === 'string' || !node) continue;
    const role = node.role ?? '';
    const named = Boolean(node.name?.trim());
    let inForm = form;
    if (LANDMARKS.has(role)) view.landmarks[role] = (view.landmarks[role] ?? 0) + 1;
    if (role === 'heading') view.headings++;
    if (role === 'form') {
      inForm = { name: node.name ?? '', controls: 0, unnamed: 0, submit: false };
      view.forms.push(inForm);
    }
    if (CONTROLS.has(role)) {
      if (named) view.controls.named++;
      else {
        view.controls.unnamed++;
        if (!view.unnamedRoles?.includes(role)) view.unnamedRoles = [...(view.unnamedRoles ?? []), role];
        if (view.unnamed.length < UNNAMED_SHOWN) view.unnamed.push(`${role}${node.url ? ` ${node.url}` : ''}`);
      }
      if (inForm) {
        inForm.controls++;
        if (!named) inForm.unnamed++;
        if (role === 'button' && named) inForm.submit = true;
      }
    }
    // Children pushed in reverse so they are visited in document order, as the recursion did.
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] as AriaNode | string, form: inForm });
  }
  return view;
}
