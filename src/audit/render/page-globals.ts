// The versions a rendered page's libraries report in its own globals (`jQuery.fn.jquery`), for the
// vulnerable-libraries check: retire.js's `func` extractors that are plain property paths
// (data/retire-js.ts `globals`). No expression from that data is evaluated: each path is checked
// here to be identifiers joined by dots, and the audit writes the reading code itself.
//
// A page's globals live in its main world, which the audit's isolated world (isolated-world.ts)
// cannot see, so they are read there, through the DevTools protocol, with these bounds: property
// reads only; V8's side-effect check on (`throwOnSideEffect`: a getter or Proxy trap that would
// change any state throws instead of running); a timeout per read; only a string of at most
// VALUE_MAX characters or a number comes back. A page can still answer any version it likes, as it
// can name any script URL: it can only mislead the audit about its own libraries.
import type { CDPSession, Page } from 'playwright-core';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Segments per path: the longest retire.js reads is four (`jQuery.ui.dialog.version`). */
const SEGMENTS_MAX = 8;
/** The longest value kept: a version string. */
export const VALUE_MAX = 64;
/** Paths read per page. */
export const PATHS_MAX = 200;
/** One read's time in the page's main thread (CDP Runtime.evaluate `timeout`). */
const READ_TIMEOUT_MS = 200;
/** All reads of one page: a page whose getters spin costs this, not a read per path. */
const READ_BUDGET_MS = 1000;

/** A path's segments, or undefined when it is not identifiers joined by dots. */
export function pathSegments(path: string): string[] | undefined {
  const segments = path.split('.');
  return segments.length <= SEGMENTS_MAX && segments.every((s) => IDENTIFIER.test(s)) ? segments : undefined;
}

/** The reading code for one path: optional property reads from the global object, a bounded primitive out. */
export function readExpression(segments: readonly string[]): string {
  const access = segments.map((s) => `?.[${JSON.stringify(s)}]`).join('');
  return `(() => { const v = globalThis${access}; return typeof v === "string" ? (v.length <= ${VALUE_MAX} ? v : null) : typeof v === "number" ? v : null; })()`;
}

async function read(session: CDPSession, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
    throwOnSideEffect: true,
    timeout: READ_TIMEOUT_MS,
    silent: true,
  });
  return exceptionDetails ? undefined : result.value;
}

/**
 * The values the page's globals hold at `paths` (`{"jQuery.fn.jquery": "1.8.3"}`): strings as they
 * are (bounded), numbers as text; paths that hold nothing else, throw or time out are left out.
 */
export async function readPageGlobals(page: Page, paths: readonly string[]): Promise<Record<string, string>> {
  const wanted = paths
    .slice(0, PATHS_MAX)
    .map((path) => ({ path, segments: pathSegments(path) }))
    .filter((p): p is { path: string; segments: string[] } => p.segments !== undefined);
  const values: Record<string, string> = {};
  if (wanted.length === 0) return values;
  const session = await page.context().newCDPSession(page);
  try {
    // The roots first, in one read: most pages have none of the libraries, and a path is read only under a root that is there.
    const roots = [...new Set(wanted.map((p) => p.segments[0] as string))];
    const present = await read(
      session,
      `[${roots.map((r) => `typeof globalThis?.[${JSON.stringify(r)}] !== "undefined"`).join(',')}]`,
    );
    const there = new Set(Array.isArray(present) ? roots.filter((_, i) => present[i] === true) : roots);
    const started = performance.now();
    for (const { path, segments } of wanted) {
      if (performance.now() - started > READ_BUDGET_MS) break;
      if (!there.has(segments[0] as string)) continue;
      const value = await read(session, readExpression(segments));
      if (typeof value === 'string' && value.length <= VALUE_MAX) values[path] = value;
      else if (typeof value === 'number' && Number.isFinite(value)) values[path] = String(value);
    }
    return values;
  } finally {
    await session.detach().catch(() => undefined);
  }
}
