// Findings located in the source (issue 26): where in a site's repository the element a finding points
// at is written. The element's parts (tokens.ts) are searched as plain text in every candidate file;
// each part is worth its kind (an id most, a `type` least) times its rarity across the repository, and
// a place scores the parts found within a few lines of each other (one start tag, however split).
// Work is bounded (bounds.ts): the call returns what it has when its time is up, yielding as it goes.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  LOCATE_BUDGET_MS,
  MAX_HITS_PER_FORM,
  MAX_HITS_TOTAL,
  MAX_LOCATIONS,
  READ_CONCURRENCY,
  SLICE_MS,
  TAG_LOOKBACK_CHARS,
  WINDOW_LINES,
} from './bounds.ts';
import type { SourceFile } from './files.ts';
import type { SourceIndex } from './source-index.ts';
import { type Form, isWordCode, readElement, type TokenGroup } from './tokens.ts';

export type { SourceBounds } from './bounds.ts';
export { createSourceIndex, SourceIndex } from './source-index.ts';

export type Confidence = 'high' | 'medium' | 'low';

export interface SourceLocation {
  /** Relative to the index's root, with forward slashes. */
  file: string;
  /** 1-based: where the element's start tag begins, or its first matching line. */
  line: number;
  confidence: Confidence;
  /** What matched, short: `#menu, src "/img/mug.jpg"`. Text from the site: treat as data. */
  matched: string;
}

export interface LocateOptions {
  /** Wall time for this call; the locations found by then are returned. */
  budgetMs?: number;
  /** Locations returned, at most MAX_LOCATIONS. */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * Scores: a unique id (10) or two rare parts on one start tag (a class 4 and a src 6) are high;
 * one distinctive part (a src, an aria-label, a class found in one file) is medium; less is low,
 * and a place under LOW_SCORE (a class in a hundred files, a lone `type="submit"`) is not reported.
 */
const HIGH_SCORE = 8;
const MEDIUM_SCORE = 4;
const LOW_SCORE = 1;
/** The tag's own start (`<img`) just before the parts: a small bonus, and the line reported. */
const TAG_BONUS = 0.5;
/** Generated output (dist/, minified) points to its source less surely: half the score, medium at best. */
const GENERATED_FACTOR = 0.5;
/** A form found in 1, 2, 4, 16, 100 files counts 1, 0.67, 0.5, 0.33, 0.23 of its weight. */
const rarity = (files: number) => 1 / (1 + 0.5 * Math.log2(Math.max(files, 1)));

interface SearchForm {
  group: number;
  form: Form;
  first: number;
  last: number;
}

interface Hit {
  at: number;
  form: number;
  inContext: boolean;
}

interface FileHits {
  file: SourceFile;
  text: string;
  hits: Hit[];
}

/** Files holding each form: in its context or not, among sources and among generated files. */
interface Spread {
  source: number;
  generated: number;
  sourceAny: number;
  generatedAny: number;
}

/** An attribute's name right before `at` (`class="a b`, `className={cx('a'`, `:class="`): followed by `=` or `:`. */
function hasContext(text: string, at: number, names: readonly string[], reach: number): boolean {
  const from = Math.max(0, at - reach);
  const window = text.slice(from, at);
  for (const name of names) {
    for (let i = window.lastIndexOf(name); i >= 0; i = i > 0 ? window.lastIndexOf(name, i - 1) : -1) {
      if (i > 0 && isWordCode(window.charCodeAt(i - 1))) continue;
      let j = i + name.length;
      while (j < window.length && (window[j] === ' ' || window[j] === '\t')) j++;
      if (window[j] === '=' || window[j] === ':') return true;
    }
  }
  return false;
}

/** Every bounded occurrence of a form with no word character glued to either end. */
function findForm(text: string, search: SearchForm, group: TokenGroup, found: Hit[], index: number) {
  const { form, first, last } = search;
  const needsContext = group.contextless < 1;
  let count = 0;
  for (let at = text.indexOf(form.text); at >= 0 && count < MAX_HITS_PER_FORM; at = text.indexOf(form.text, at + 1)) {
    const end = at + form.text.length;
    if (isWordCode(first) && at > 0 && isWordCode(text.charCodeAt(at - 1))) continue;
    if (!form.open && isWordCode(last) && end < text.length && isWordCode(text.charCodeAt(end))) continue;
    found.push({ at, form: index, inContext: !needsContext || hasContext(text, at, group.context, group.reach) });
    count++;
  }
}

const lineOf = (starts: Uint32Array, at: number) => {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= at) low = mid;
    else high = mid - 1;
  }
  return low;
};

/** The line (0-based) of the element's `<tag` before `at`, within the look-back, or undefined. */
function tagLine(text: string, starts: Uint32Array, at: number, line: number, tag: string | undefined) {
  if (!tag) return undefined;
  const from = Math.max(0, at - TAG_LOOKBACK_CHARS);
  const before = text.slice(from, at + 1).toLowerCase();
  for (let i = before.lastIndexOf(`<${tag}`); i >= 0; i = i > 0 ? before.lastIndexOf(`<${tag}`, i - 1) : -1) {
    const next = before.charCodeAt(i + tag.length + 1);
    if (Number.isNaN(next) || !isWordCode(next)) {
      const found = lineOf(starts, from + i);
      return line - found < WINDOW_LINES ? found : undefined;
    }
  }
  return undefined;
}

interface Place {
  file: SourceFile;
  line: number;
  score: number;
  generated: boolean;
  /** The parts found, as [value, form]: described only for the places kept. */
  parts: Array<[number, number]>;
}

const clean = (text: string) => {
  let out = '';
  for (const char of text.length > 40 ? `${text.slice(0, 39)}…` : text) out += char < ' ' ? ' ' : char;
  return out;
};

function describe(groups: readonly TokenGroup[], forms: readonly SearchForm[], found: Array<[number, number]>) {
  const parts = found
    .sort((a, b) => b[0] - a[0])
    .map(([, f]) => {
      const { group, form } = forms[f] as SearchForm;
      const label = (groups[group] as TokenGroup).label;
      return label.startsWith('#') || label.startsWith('.') || label.startsWith('<')
        ? clean(label)
        : `${label} "${clean(form.text)}"`;
    });
  let matched = '';
  for (const part of parts) if (matched.length + part.length < 120) matched += matched ? `, ${part}` : part;
  return matched;
}

/** The best places of one file: windows of WINDOW_LINES lines, each part counted once at its best. */
function placesIn(
  index: SourceIndex,
  entry: FileHits,
  groups: readonly TokenGroup[],
  forms: readonly SearchForm[],
  values: Float64Array,
  tag: string | undefined,
): Place[] {
  const starts = index.lineStarts(entry.file, entry.text);
  const lines = new Map<number, { first: number; best: Float64Array; form: Int32Array }>();
  for (const hit of entry.hits) {
    const { group } = forms[hit.form] as SearchForm;
    const value = (values[hit.form] as number) * (hit.inContext ? 1 : (groups[group] as TokenGroup).contextless);
    if (value <= 0) continue;
    const line = lineOf(starts, hit.at);
    let slot = lines.get(line);
    if (!slot) {
      slot = { first: hit.at, best: new Float64Array(groups.length), form: new Int32Array(groups.length) };
      lines.set(line, slot);
    }
    slot.first = Math.min(slot.first, hit.at);
    if (value > (slot.best[group] as number)) {
      slot.best[group] = value;
      slot.form[group] = hit.form;
    }
  }
  const sorted = [...lines.keys()].sort((a, b) => a - b);
  const generated = index.isGenerated(entry.file);
  const candidates: Place[] = [];
  for (let a = 0; a < sorted.length; a++) {
    const anchor = sorted[a] as number;
    const best = new Float64Array(groups.length);
    const form = new Int32Array(groups.length);
    for (let b = a; b < sorted.length && (sorted[b] as number) < anchor + WINDOW_LINES; b++) {
      const slot = lines.get(sorted[b] as number) as { best: Float64Array; form: Int32Array };
      for (let g = 0; g < groups.length; g++)
        if ((slot.best[g] as number) > (best[g] as number)) {
          best[g] = slot.best[g] as number;
          form[g] = slot.form[g] as number;
        }
    }
    let score = best.reduce((sum, v) => sum + v, 0);
    const start = tagLine(entry.text, starts, (lines.get(anchor) as { first: number }).first, anchor, tag);
    if (start !== undefined) score += TAG_BONUS;
    if (generated) score *= GENERATED_FACTOR;
    const parts: Array<[number, number]> = [];
    for (let g = 0; g < groups.length; g++)
      if ((best[g] as number) > 0) parts.push([best[g] as number, form[g] as number]);
    candidates.push({
      file: entry.file,
      line: (start ?? anchor) + 1,
      score,
      generated,
      parts,
    });
  }
  // One place per start tag: a window overlapping a better one of the same file is the same element.
  candidates.sort((x, y) => y.score - x.score || x.line - y.line);
  const kept: Place[] = [];
  for (const place of candidates)
    if (kept.length < MAX_LOCATIONS && !kept.some((k) => Math.abs(k.line - place.line) < WINDOW_LINES))
      kept.push(place);
  return kept;
}

const confidenceOf = (place: Place): Confidence | undefined => {
  if (place.score >= HIGH_SCORE && !place.generated) return 'high';
  if (place.score >= MEDIUM_SCORE) return 'medium';
  return place.score >= LOW_SCORE ? 'low' : undefined;
};

/**
 * Candidate places of an element in the index's source, best first, at most 3 (or options.limit):
 * [] when none of its parts is found. Never throws for what a snippet holds.
 */
export async function locate(
  index: SourceIndex,
  element: { selector: string; snippet: string },
  options: LocateOptions = {},
): Promise<SourceLocation[]> {
  const deadline = performance.now() + (options.budgetMs ?? LOCATE_BUDGET_MS);
  const limit = Math.max(0, Math.min(options.limit ?? MAX_LOCATIONS, MAX_LOCATIONS));
  const { tag, groups } = readElement({
    selector: String(element.selector ?? ''),
    snippet: String(element.snippet ?? ''),
  });
  if (groups.length === 0 || limit === 0) return [];
  const forms: SearchForm[] = groups.flatMap((g, group) =>
    g.forms.map((form) => ({
      group,
      form,
      first: form.text.charCodeAt(0),
      last: form.text.charCodeAt(form.text.length - 1),
    })),
  );
  const spread: Spread[] = forms.map(() => ({ source: 0, generated: 0, sourceAny: 0, generatedAny: 0 }));
  const withHits: FileHits[] = [];
  let kept = 0;
  let slice = performance.now();
  const outOfTime = () => performance.now() > deadline || options.signal?.aborted === true;
  const pause = async () => {
    if (performance.now() - slice < SLICE_MS) return;
    await yieldToLoop();
    slice = performance.now();
  };

  search: for (let start = 0; start < index.files.length; start += READ_CONCURRENCY) {
    if (outOfTime()) break;
    const batch = index.files.slice(start, start + READ_CONCURRENCY);
    const texts = await Promise.all(batch.map((file) => index.text(file)));
    slice = performance.now();
    for (let k = 0; k < batch.length; k++) {
      const file = batch[k] as SourceFile;
      const text = texts[k];
      if (text === undefined) continue;
      const hits: Hit[] = [];
      for (let f = 0; f < forms.length; f++) {
        const before = hits.length;
        findForm(text, forms[f] as SearchForm, groups[(forms[f] as SearchForm).group] as TokenGroup, hits, f);
        if (hits.length > before) {
          const counts = spread[f] as Spread;
          const generated = index.isGenerated(file);
          const inContext = hits.slice(before).some((h) => h.inContext);
          if (generated) counts.generatedAny++;
          else counts.sourceAny++;
          if (inContext && generated) counts.generated++;
          else if (inContext) counts.source++;
        }
        await pause();
        if (outOfTime()) break search;
      }
      // Past the bound, files still count for rarity but keep no places.
      if (hits.length > 0 && kept + hits.length <= MAX_HITS_TOTAL) {
        withHits.push({ file, text, hits });
        kept += hits.length;
      }
    }
  }

  // A form's worth: its weight times its rarity, counted among sources first, where templates are.
  const values = Float64Array.from(forms, (f, i) => {
    const s = spread[i] as Spread;
    const files = s.source || s.generated || s.sourceAny || s.generatedAny;
    return f.form.weight * rarity(files);
  });
  const places: Place[] = [];
  for (const entry of withHits) {
    places.push(...placesIn(index, entry, groups, forms, values, tag));
    await pause();
  }
  const byPath = (x: Place, y: Place) => (x.file.path < y.file.path ? -1 : x.file.path > y.file.path ? 1 : 0);
  places.sort((x, y) => y.score - x.score || x.file.rank - y.file.rank || byPath(x, y) || x.line - y.line);
  const result: SourceLocation[] = [];
  for (const place of places) {
    const confidence = confidenceOf(place);
    if (!confidence || result.length >= limit) break;
    result.push({ file: place.file.path, line: place.line, confidence, matched: describe(groups, forms, place.parts) });
  }
  return result;
}
