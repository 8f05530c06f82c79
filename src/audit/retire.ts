// JavaScript libraries with known vulnerabilities, found as retire.js finds them (its repository is
// vendored in data/retire-js.ts): a script URL matched by a library's `uri` pattern (anywhere in it)
// or `filename` pattern (its last path segment, whole), and, on a rendered page, the version the
// library reports in the page's globals (retire's `func` extractors that are plain property paths,
// read by the renderer: render/page-globals.ts). A version is vulnerable as retire.js decides it
// (node/lib/retire.js `check` and `isAtOrAbove`, Apache License 2.0): below an advisory's `below`,
// at or above its `atOrAbove`, and not one of its `excludes`.
//
// retire's patterns are written for its own scanner, not for hostile text: they are applied only to
// script URLs bounded at URL_MAX (never to page bodies), to at most SCRIPT_URLS_MAX distinct URLs a
// run, on the engine's CPU pool (cpu/tasks.ts). recheck finds most of them linear; the others are
// quadratic at worst (data/retire-js.ts, `complexity`), which on 2 KB is a few million steps, a few
// milliseconds. The tests run every pattern on hostile 2 KB URLs (test/audit/retire-patterns.test.ts).
import { RETIRE_LIBRARIES, type RetireAdvisory, type RetireLibrary } from './data/retire-js.ts';

/** The longest script URL matched: longer ones are cut (a real script URL is far shorter). */
export const URL_MAX = 2048;
/** Distinct script URLs matched in one run; the rest are not judged (said in the check's detail). */
export const SCRIPT_URLS_MAX = 500;
/** A version string as retire's placeholder matches it, bounded: what a page's global may report. */
const VERSION_SHAPE = /^[0-9][0-9.a-z_-]{0,39}$/;

export interface DetectedLibrary {
  /** retire's component name. */
  library: string;
  version: string;
  /** How it was found: a URL pattern, or the version the page reported (`jQuery.fn.jquery`). */
  via: 'uri' | 'filename' | 'global';
  /** The script URL, or the property path that reported the version. */
  where: string;
}

interface Compiled {
  library: RetireLibrary;
  kind: 'uri' | 'filename';
  pattern: RegExp;
}

let compiled: Compiled[] | undefined;

/** retire's patterns compiled once, as retire applies them (`uri` anywhere, `filename` whole). */
function patterns(): Compiled[] {
  compiled ??= RETIRE_LIBRARIES.flatMap((library) => [
    ...library.uri.map((p) => ({ library, kind: 'uri' as const, pattern: new RegExp(p.source, 'g') })),
    ...library.filename.map((p) => ({ library, kind: 'filename' as const, pattern: new RegExp(`^${p.source}$`) })),
  ]);
  return compiled;
}

/** retire's version clean-up: a `.min` or `-min` suffix is not part of the version. */
const cleanVersion = (version: string) =>
  version.endsWith('.min') || version.endsWith('-min') ? version.slice(0, -4) : version;

/** The libraries and versions a script URL names (bounded at URL_MAX). */
export function librariesInUrl(url: string): DetectedLibrary[] {
  const text = url.slice(0, URL_MAX);
  // retire splits on both slashes (node/lib/retire.js splitAndMatchAll): the segment after the last one.
  const cut = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
  const segment = text.slice(cut + 1);
  const found: DetectedLibrary[] = [];
  for (const { library, kind, pattern } of patterns()) {
    const subject = kind === 'uri' ? text : segment;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(subject); match; match = pattern.global ? pattern.exec(subject) : null) {
      const version = match[1];
      if (version) found.push({ library: library.name, version: cleanVersion(version), via: kind, where: url });
      if (match[0] === '') pattern.lastIndex++;
    }
  }
  return unique(found);
}

const unique = (found: DetectedLibrary[]) => {
  const seen = new Set<string>();
  return found.filter((d) => {
    const key = `${d.library} ${d.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

export interface ScriptUrlScan {
  found: DetectedLibrary[];
  /** Distinct URLs matched. */
  judged: number;
  /** Distinct URLs past SCRIPT_URLS_MAX, not matched. */
  skipped: number;
}

/** The script URLs of the pages (resolved against each page), and the pages each is on. */
export function scriptUrlsOf(
  pages: ReadonlyArray<{ url: string; facts?: { scripts: Array<{ src: string | null }> } }>,
): {
  urls: string[];
  pagesOf: Map<string, string[]>;
} {
  const pagesOf = new Map<string, string[]>();
  for (const page of pages)
    for (const script of page.facts?.scripts ?? []) {
      if (!script.src) continue;
      let url: string;
      try {
        url = new URL(script.src, page.url).href;
      } catch {
        continue;
      }
      const on = pagesOf.get(url) ?? [];
      if (!on.includes(page.url)) on.push(page.url);
      pagesOf.set(url, on);
    }
  return { urls: [...pagesOf.keys()], pagesOf };
}

/** The libraries named by a run's script URLs (a CPU task): each distinct URL once, up to SCRIPT_URLS_MAX. */
export function scanScriptUrls(urls: string[]): ScriptUrlScan {
  const distinct = [...new Set(urls)];
  const judged = distinct.slice(0, SCRIPT_URLS_MAX);
  const found: DetectedLibrary[] = [];
  for (const url of judged) for (const d of librariesInUrl(url)) found.push(d);
  return { found, judged: judged.length, skipped: distinct.length - judged.length };
}

/** Every property path the renderer reads, once (data/retire-js.ts `globals`). */
export const LIBRARY_GLOBALS: readonly string[] = [...new Set(RETIRE_LIBRARIES.flatMap((l) => l.globals))];

/** The libraries a rendered page reported through its globals (`{"jQuery.fn.jquery": "1.8.3"}`). */
export function librariesFromGlobals(values: Readonly<Record<string, string>>): DetectedLibrary[] {
  const found: DetectedLibrary[] = [];
  for (const library of RETIRE_LIBRARIES)
    for (const path of library.globals) {
      const value = values[path];
      if (typeof value !== 'string' || !VERSION_SHAPE.test(value)) continue;
      found.push({ library: library.name, version: cleanVersion(value), via: 'global', where: path });
    }
  return unique(found);
}

/** retire's version order (node/lib/retire.js `isAtOrAbove`): numbers by value, other parts as text, a number above text. */
export function isAtOrAbove(version: string, than: string): boolean {
  const a = version.split(/[.-]/);
  const b = than.split(/[.-]/);
  const length = Math.max(a.length, b.length);
  const comparable = (part: string | undefined) =>
    part === undefined ? 0 : /^[0-9]+$/.test(part) ? Number.parseInt(part, 10) : part;
  for (let i = 0; i < length; i++) {
    const x = comparable(a[i]);
    const y = comparable(b[i]);
    if (typeof x !== typeof y) return typeof x === 'number';
    if (x > y) return true;
    if (x < y) return false;
  }
  return true;
}

const affects = (advisory: RetireAdvisory, version: string) =>
  !isAtOrAbove(version, advisory.below) &&
  (advisory.atOrAbove === undefined || isAtOrAbove(version, advisory.atOrAbove)) &&
  !advisory.excludes?.includes(version);

/** retire's "no upper bound known" (999.0.0, 2.999.999 for an end-of-life major line). */
const NO_FIX = /^(\d+)\.999\.999$/;

export interface LibraryVerdict {
  library: string;
  npm?: string;
  version: string;
  advisories: RetireAdvisory[];
  /** The lowest version no listed advisory affects, at or above every fix; undefined when none is known. */
  fixedIn?: string;
}

/** The advisories that affect a library's version, and the version to upgrade to. */
export function vulnerabilitiesOf(name: string, version: string): LibraryVerdict | undefined {
  const library = RETIRE_LIBRARIES.find((l) => l.name === name);
  if (!library) return undefined;
  const advisories = library.advisories.filter((a) => affects(a, version));
  if (advisories.length === 0) return undefined;
  // From the highest fix, past any advisory that still affects it (a later range starting there).
  let candidate = version;
  for (let step = 0; step < 20; step++) {
    const open = library.advisories.filter((a) => affects(a, candidate));
    if (open.length === 0) break;
    const next = open.map((a) => a.below).reduce((x, y) => (isAtOrAbove(x, y) ? x : y));
    const major = NO_FIX.exec(next);
    candidate = major ? `${Number(major[1]) + 1}.0.0` : next;
  }
  const known = !library.advisories.some((a) => affects(a, candidate)) && !candidate.startsWith('999');
  return {
    library: library.name,
    ...(library.npm ? { npm: library.npm } : {}),
    version,
    advisories,
    ...(known ? { fixedIn: candidate } : {}),
  };
}
