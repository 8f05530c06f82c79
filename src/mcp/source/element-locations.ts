// The elements of a tool result located in the site's source (issue 26): one index per call (the
// agent edits files between calls, so lines are read afresh), each distinct element looked up once,
// the whole call bounded in time.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { codeSpan } from '../page-content.ts';
import { createSourceIndex, locate, type SourceLocation } from './locate.ts';

/** The time one tool call may spend locating all its elements. */
export const CALL_BUDGET_MS = 4_000;
/** The time one element may take of it. */
const ELEMENT_BUDGET_MS = 1_500;

export interface LocatedElement {
  selector: string;
  snippet: string;
}

const keyOf = (element: LocatedElement) => `${element.selector}\u0000${element.snippet}`;

/** Each element's candidate places, in the order given (the same element gets the same answer). */
export async function locateElements(
  root: string,
  elements: readonly LocatedElement[],
  signal?: AbortSignal,
): Promise<Map<string, SourceLocation[]>> {
  const found = new Map<string, SourceLocation[]>();
  if (elements.length === 0) return found;
  const started = performance.now();
  const index = await createSourceIndex(root);
  for (const element of elements) {
    const key = keyOf(element);
    if (found.has(key)) continue;
    const left = CALL_BUDGET_MS - (performance.now() - started);
    if (left <= 0 || signal?.aborted) break;
    found.set(
      key,
      await locate(index, element, {
        budgetMs: Math.min(ELEMENT_BUDGET_MS, left),
        ...(signal ? { signal } : {}),
      }),
    );
  }
  return found;
}

export const locationsOf = (found: Map<string, SourceLocation[]>, element: LocatedElement) =>
  found.get(keyOf(element)) ?? [];

/** A directory given by a person or a tool call, made absolute; undefined when it is not a directory. */
export async function sourceDirectory(dir: string): Promise<string | undefined> {
  const absolute = resolve(dir);
  const info = await stat(absolute).catch(() => undefined);
  return info?.isDirectory() ? absolute : undefined;
}

/** Locations in a tool's text: `file:line` in code spans, with the confidence. */
export const locationText = (locations: ReadonlyArray<{ file: string; line: number; confidence: string }>) =>
  locations.map((l) => `${codeSpan(`${l.file}:${l.line}`)} (${l.confidence})`).join(', ');
