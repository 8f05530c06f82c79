// What a finding is about, as keys two findings can share (issue 25, "one defect, one finding"): an
// element on a page with the kind of defect it has (`name|url|<a href="/x">`), a role on a page that
// has the defect somewhere (`name-role|url|link`, for the agent view, which counts controls by
// role), a file that is not there (`missing|url`), or something the site as a whole lacks
// (`absent|contact|url`: no way to reach the business on the pages read). outcome.ts merges findings
// whose keys another finding covers. Keys are built from our own evidence, never matched against
// page text.
import { parseFragment } from 'parse5';
import { ROOT_SCOPE, resolveRole } from './aria-roles.ts';
import { type ElementRef, isElement, newMemo } from './html-tree.ts';

const START_TAG_MAX = 100;

/**
 * An element's start tag, comparable across our snippets (serialized from parse5) and axe's
 * outerHTML (serialized by the browser): cut at the first `>`, lowercased, whitespace collapsed,
 * empty attribute values dropped (`disabled=""` and `disabled` alike), bounded.
 */
export function startTag(html: string): string {
  const end = html.indexOf('>');
  const tag = (end < 0 ? html : html.slice(0, end + 1)).toLowerCase().replace(/\s+/g, ' ').replaceAll('=""', '');
  return tag.length > START_TAG_MAX ? tag.slice(0, START_TAG_MAX) : tag.replace(/…$/, '');
}

export const elementDefect = (kind: string, url: string, element: Pick<ElementRef, 'snippet'>) =>
  `${kind}|${url}|${startTag(element.snippet)}`;

export const roleDefect = (kind: string, url: string, role: string) => `${kind}-role|${url}|${role}`;

export const missingFileDefect = (url: string) => `missing|${url}`;

/** Something the site lacks as a whole, judged by more than one check (`contact`: no way to reach it). */
export const absentDefect = (what: string, url: string) => `absent|${what}|${url}`;

const SNIPPET_MAX = 300;

/**
 * The role an element has in the accessibility tree, read from its start tag as axe's tables give
 * it (`<div role="listbox">` listbox, `<select>` combobox, `<input type="checkbox">` checkbox): what
 * the agent view counts an unnamed control by, so that axe's finding on the element and the agent
 * view's on its role are one defect. The tag alone: a role that depends on ancestors is not asked.
 */
export function roleOfStartTag(snippet: string): string | undefined {
  if (!snippet.startsWith('<')) return undefined;
  // The start tag's element; a tag cut mid-attribute (a bounded snippet) gives none.
  const element = parseFragment(snippet.slice(0, SNIPPET_MAX)).childNodes[0];
  if (!element || !isElement(element)) return undefined;
  return resolveRole(element, ROOT_SCOPE, newMemo()) ?? undefined;
}
