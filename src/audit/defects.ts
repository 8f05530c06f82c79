// What a finding is about, as keys two findings can share (issue 25, "one defect, one finding"): an
// element on a page with the kind of defect it has (`name|url|<a href="/x">`), a role on a page that
// has the defect somewhere (`name-role|url|link`, for the agent view, which counts controls by
// role), or a file that is not there (`missing|url`). outcome.ts merges findings whose keys another
// finding covers. Keys are built from our own evidence, never matched against page text.
import type { ElementRef } from './html-tree.ts';

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
