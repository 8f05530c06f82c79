// Lab Core Web Vitals of a page the renderer loads (issue 29): Largest Contentful Paint, Cumulative
// Layout Shift and Total Blocking Time, read from Chromium's performance timeline by observers that
// start with the document in the audit's isolated world (isolated-world.ts: the page's scripts cannot
// reach or fake them), while the load runs under a throttling profile (throttle.ts: the network where
// the renderer answers requests, the CPU through Emulation.setCPUThrottlingRate). The measurement
// ends once the page has loaded and its main thread has been quiet for a second, or when the
// throttled window runs out; throttling is then lifted, so axe and the reads after it run at full
// speed. Definitions: web.dev for LCP and CLS (session windows of shifts without recent input, 1 s
// gap, 5 s cap), Lighthouse for TBT (each main-thread task's time over 50 ms, from First Contentful
// Paint to the end of the window).
import type { CDPSession, Page } from 'playwright-core';
import type { ElementRef } from '../html.ts';
import { WORLD_NAME } from './isolated-world.ts';
import { MOBILE_SLOW_4G, type ThrottledLink, type ThrottlingProfile, throttledLink } from './throttle.ts';

/** A lab value; `atLeast` when throttling was lifted before the page settled, so the true value is this or more. */
export interface LabValue {
  value: number;
  atLeast?: true;
}

export interface ShiftedElements {
  /** The shift's score (its share of the worst session window). */
  score: number;
  /** When it happened, in ms after navigation. */
  atMs: number;
  elements: ElementRef[];
}

export interface PageVitals {
  /** The throttling profile measured under (throttle.ts). */
  profile: string;
  fcpMs?: number;
  /** Absent when nothing contentful was painted in the window. */
  lcp?: LabValue & {
    /** The LCP element: its selector and start tag, as the axe rows name elements. */
    element?: ElementRef;
    /** The image's address, for an image. */
    url?: string;
  };
  cls: LabValue & {
    /** The shifts of the worst session window, largest first (the first few). */
    shifts: ShiftedElements[];
    /** Layout shifts without recent input, in all. */
    count: number;
  };
  tbt: LabValue & { longTasks: number; longestMs: number };
  /** Where the window ended, in ms after navigation. */
  windowMs: number;
  /** Throttling was lifted before the page settled (the window's cap): `atLeast` values are bounds. */
  cut?: true;
}

/** The longest the throttled window may run, as a share of the page's deadline (and at most 6 s). */
export const VITALS_WINDOW_SHARE = 0.4;
const VITALS_WINDOW_MAX_MS = 6000;
/** A main thread with no long task for this long is quiet (Lighthouse's cpuQuietThresholdMs). */
export const CPU_QUIET_MS = 1000;
/** Long tasks kept for TBT: each is over 50 ms, so a window of a few seconds holds far fewer. */
const LONG_TASKS_KEPT = 1000;
const STATE = '__siteauditVitals';

export const vitalsWindowMs = (pageDeadlineMs: number) =>
  Math.min(VITALS_WINDOW_MAX_MS, Math.round(pageDeadlineMs * VITALS_WINDOW_SHARE));

// --- in the page's isolated world: self-contained functions, serialized into it ---

/** Started with every document, before any of its scripts: observers of the main frame's timeline. */
function observe(arg: { state: string; kept: number }): void {
  const g = globalThis as unknown as Record<string, unknown> & {
    window: unknown;
    top: unknown;
    PerformanceObserver?: new (
      callback: (list: { getEntries(): Array<Record<string, unknown>> }) => void,
    ) => { observe(options: { type: string; buffered: boolean }): void };
  };
  if (g[arg.state] || g.window !== g.top || !g.PerformanceObserver) return;
  interface Shift {
    score: number;
    at: number;
    nodes: unknown[];
  }
  interface Window {
    value: number;
    first: number;
    last: number;
    top: Shift[];
  }
  const fresh = (): Window => ({ value: 0, first: -1e9, last: -1e9, top: [] });
  const state = {
    frozen: false,
    fcp: undefined as number | undefined,
    lcp: undefined as { time: number; element: unknown; url: string } | undefined,
    current: fresh(),
    worst: fresh(),
    shifts: 0,
    tasks: [] as Array<[number, number]>,
    taskCount: 0,
    lastTaskEnd: 0,
    longest: 0,
  };
  g[arg.state] = state;
  const Observer = g.PerformanceObserver;
  const watch = (type: string, each: (entry: Record<string, unknown>) => void) => {
    try {
      new Observer((list) => {
        if (state.frozen) return;
        for (const entry of list.getEntries()) each(entry);
      }).observe({ type, buffered: true });
    } catch {
      // an entry type this browser does not have: its metric stays empty
    }
  };
  const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  watch('paint', (e) => {
    if (e.name === 'first-contentful-paint') state.fcp = num(e.startTime);
  });
  watch('largest-contentful-paint', (e) => {
    state.lcp = { time: num(e.startTime), element: e.element, url: typeof e.url === 'string' ? e.url : '' };
  });
  // web.dev's CLS: the largest session window of shifts without recent input (1 s gap, 5 s at most).
  watch('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    const at = num(e.startTime);
    const score = num(e.value);
    state.shifts++;
    let win = state.current;
    if (at - win.last > 1000 || at - win.first > 5000) {
      win = fresh();
      win.first = at;
      state.current = win;
    }
    win.value += score;
    win.last = at;
    // The three largest shifts of the window, each with its first sources: a bounded list.
    const sources = Array.isArray(e.sources) ? (e.sources as Array<{ node?: unknown }>).slice(0, 5) : [];
    win.top.push({ score, at, nodes: sources.map((s) => s.node).filter(Boolean) });
    win.top.sort((a, b) => b.score - a.score);
    if (win.top.length > 3) win.top.length = 3;
    if (win.value > state.worst.value) state.worst = win;
  });
  watch('longtask', (e) => {
    const start = num(e.startTime);
    const duration = num(e.duration);
    state.taskCount++;
    state.lastTaskEnd = Math.max(state.lastTaskEnd, start + duration);
    state.longest = Math.max(state.longest, duration);
    if (state.tasks.length < arg.kept) state.tasks.push([start, duration]);
  });
}

interface Snapshot {
  end: number;
  fcp?: number;
  lcp?: { time: number; url: string; element?: { selector: string; html: string } };
  cls: number;
  shifts: Array<{ score: number; at: number; elements: Array<{ selector: string; html: string }> }>;
  shiftCount: number;
  tbt: number;
  longTasks: number;
  longest: number;
  lastTaskEnd: number;
}

/**
 * Waits for a quiet main thread (no long task for `quietMs`) or `untilMs` after navigation, then
 * stops the observers and reads the metrics, the elements named as the static checks name them (a
 * short selector path to the nearest id, the start tag).
 */
function settleAndRead(arg: { state: string; quietMs: number; untilMs: number }): Promise<Snapshot | undefined> {
  const g = globalThis as unknown as Record<string, unknown> & {
    performance: { now(): number };
    setTimeout(fn: () => void, ms: number): unknown;
  };
  interface El {
    nodeType: number;
    tagName: string;
    id: string;
    classList?: { length: number; [index: number]: string };
    parentElement: El | null;
    firstElementChild: El | null;
    nextElementSibling: El | null;
    attributes: { length: number; [index: number]: unknown };
    isConnected: boolean;
    ownerDocument: { getElementById(id: string): unknown };
  }
  const state = g[arg.state] as
    | {
        frozen: boolean;
        fcp?: number;
        lcp?: { time: number; element: unknown; url: string };
        worst: { value: number; top: Array<{ score: number; at: number; nodes: unknown[] }> };
        shifts: number;
        tasks: Array<[number, number]>;
        taskCount: number;
        lastTaskEnd: number;
        longest: number;
      }
    | undefined;
  if (!state) return Promise.resolve(undefined);
  const IDENT = /^-?[A-Za-z_][\w-]*$/;
  const step = (el: El): { step: string; anchored: boolean } => {
    const tag = el.tagName.toLowerCase();
    if (el.id && el.id.length <= 40 && IDENT.test(el.id) && el.ownerDocument.getElementById(el.id) === el)
      return { step: `${tag}#${el.id}`, anchored: true };
    let out = tag;
    let kept = 0;
    for (let i = 0; el.classList && i < el.classList.length && i < 20 && kept < 2; i++) {
      const name = el.classList[i] as string;
      if (name.length <= 30 && IDENT.test(name)) {
        out += `.${name}`;
        kept++;
      }
    }
    let place = 0;
    let same = 0;
    for (let c = el.parentElement?.firstElementChild ?? null; c; c = c.nextElementSibling) {
      if (c.tagName !== el.tagName) continue;
      same++;
      if (c === el) place = same;
    }
    if (same > 1) out += `:nth-of-type(${place})`;
    return { step: out, anchored: false };
  };
  // The start tag, serialized from the attributes as the static checks write it (html-tree.ts
  // snippetOf), and cut as they cut it: outerHTML would serialize the whole subtree first.
  const startTag = (el: El): string => {
    let tag = `<${el.tagName.toLowerCase()}`;
    for (let i = 0; i < el.attributes.length && tag.length <= 160; i++) {
      const { name, value } = el.attributes[i] as { name: string; value: string };
      tag +=
        value === '' ? ` ${name}` : ` ${name}="${value.slice(0, 200).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    }
    tag += '>';
    return tag.length <= 160 ? tag : `${tag.slice(0, 159)}…`;
  };
  const describe = (node: unknown): { selector: string; html: string } | undefined => {
    let el = node as El | null;
    if (el && el.nodeType !== 1) el = el.parentElement;
    if (!el || typeof el.tagName !== 'string') return undefined;
    const steps: string[] = [];
    for (let current: El | null = el; current && steps.length < 4; current = current.parentElement) {
      const tag = current.tagName.toLowerCase();
      if (tag === 'html' || tag === 'body' || tag === 'head') {
        steps.unshift(tag);
        break;
      }
      const s = step(current);
      steps.unshift(s.step);
      if (s.anchored) break;
    }
    while (steps.length > 1 && steps.join(' > ').length > 120) steps.shift();
    return { selector: (el.isConnected ? '' : '(removed) ') + steps.join(' > '), html: startTag(el) };
  };
  const read = (): Snapshot => {
    state.frozen = true;
    const end = g.performance.now();
    // Lighthouse's TBT: each long task's part from FCP to the window's end, less 50 ms when over it.
    let tbt = 0;
    const from = state.fcp;
    if (from !== undefined)
      for (const [start, duration] of state.tasks) {
        const clipped = Math.min(start + duration, end) - Math.max(start, from);
        if (clipped > 50) tbt += clipped - 50;
      }
    const lcp = state.lcp;
    const element = lcp ? describe(lcp.element) : undefined;
    return {
      end,
      ...(from !== undefined ? { fcp: from } : {}),
      ...(lcp ? { lcp: { time: lcp.time, url: lcp.url.slice(0, 500), ...(element ? { element } : {}) } } : {}),
      cls: state.worst.value,
      shifts: state.worst.top.map((s) => ({
        score: s.score,
        at: s.at,
        elements: s.nodes.map(describe).filter((d): d is { selector: string; html: string } => d !== undefined),
      })),
      shiftCount: state.shifts,
      tbt,
      longTasks: state.taskCount,
      longest: state.longest,
      lastTaskEnd: state.lastTaskEnd,
    };
  };
  return new Promise((resolve) => {
    const check = () => {
      const now = g.performance.now();
      const quietFor = now - state.lastTaskEnd;
      if (quietFor >= arg.quietMs || now >= arg.untilMs) return resolve(read());
      g.setTimeout(check, Math.max(10, Math.min(arg.quietMs - quietFor, arg.untilMs - now)));
    };
    check();
  });
}

// --- in the service ---

export interface VitalsMeasurement {
  /** The network half of the profile, for the route handler to answer through. */
  link: ThrottledLink;
  /**
   * Waits for the page to settle, reads the metrics and lifts throttling. Undefined when they could
   * not be read (a page that navigated away, a main thread that never answers): no metric is guessed.
   */
  finish(): Promise<PageVitals | undefined>;
  /** Lifts throttling and detaches, whatever state the page is in. */
  close(): Promise<void>;
}

const detach = (session: CDPSession) => session.detach().catch(() => undefined);

/**
 * Starts measuring on a page about to navigate: the observers are set to run with its next document,
 * the CPU slowed; the caller holds responses on `link`. Throttling is lifted after `windowMs` if the
 * page has not settled by then.
 */
export async function startVitals(
  page: Page,
  windowMs: number,
  profile: ThrottlingProfile = MOBILE_SLOW_4G,
): Promise<VitalsMeasurement> {
  const session = await page.context().newCDPSession(page);
  const link = throttledLink(profile);
  const started = performance.now();
  let liftedAt: number | undefined;
  let lifting: Promise<void> | undefined;
  const lift = () => {
    if (!lifting) {
      liftedAt = performance.now();
      link.release();
      lifting = session
        .send('Emulation.setCPUThrottlingRate', { rate: 1 })
        .then(() => undefined)
        .catch(() => undefined);
    }
    return lifting;
  };
  const cap = setTimeout(lift, windowMs);
  try {
    await session.send('Page.enable');
    const source = `(${observe.toString()})(${JSON.stringify({ state: STATE, kept: LONG_TASKS_KEPT })})`;
    await session.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: WORLD_NAME });
    await session.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdownMultiplier });
  } catch (error) {
    clearTimeout(cap);
    await lift();
    await detach(session);
    throw error;
  }

  async function read(): Promise<Snapshot | undefined> {
    const { frameTree } = await session.send('Page.getFrameTree');
    const { executionContextId } = await session.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD_NAME,
    });
    // In page time, which starts with the navigation, just after the measurement did.
    const arg = { state: STATE, quietMs: CPU_QUIET_MS, untilMs: windowMs };
    const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
      expression: `(${settleAndRead.toString()})(${JSON.stringify(arg)})`,
      contextId: executionContextId,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) return undefined;
    return result.value as Snapshot | undefined;
  }

  return {
    link,
    async finish() {
      // A main thread that never yields does not hold the render: the read gives up with the window.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), Math.max(0, started + windowMs - performance.now()) + 1000);
      });
      try {
        const snapshot = await Promise.race([read().catch(() => undefined), late]);
        const cutAt = liftedAt === undefined ? undefined : liftedAt - started;
        return snapshot && vitalsOf(snapshot, profile, cutAt);
      } finally {
        clearTimeout(timer);
        await lift();
      }
    },
    async close() {
      clearTimeout(cap);
      await lift();
      await detach(session);
    },
  };
}

const round = (ms: number) => Math.round(ms);
const toRef = (e: { selector: string; html: string }): ElementRef => ({ selector: e.selector, snippet: e.html });

/** The snapshot as the checks read it; with throttling cut at `cutAt`, what came later is a bound. */
export function vitalsOf(snapshot: Snapshot, profile: ThrottlingProfile, cutAt?: number): PageVitals {
  const cut = cutAt !== undefined && cutAt < snapshot.end;
  const lcp = snapshot.lcp;
  return {
    profile: profile.name,
    ...(snapshot.fcp !== undefined ? { fcpMs: round(snapshot.fcp) } : {}),
    ...(lcp
      ? {
          lcp: {
            value: round(lcp.time),
            // Painted after the cut: under throttling it would have come later still.
            ...(cut && lcp.time >= (cutAt as number) ? { atLeast: true as const } : {}),
            ...(lcp.element ? { element: toRef(lcp.element) } : {}),
            ...(lcp.url && !lcp.url.startsWith('data:') ? { url: lcp.url } : {}),
          },
        }
      : {}),
    cls: {
      value: Math.round(snapshot.cls * 10_000) / 10_000,
      shifts: snapshot.shifts.map((s) => ({
        score: Math.round(s.score * 10_000) / 10_000,
        atMs: round(s.at),
        elements: s.elements.slice(0, 5).map(toRef),
      })),
      count: snapshot.shiftCount,
    },
    tbt: {
      value: round(snapshot.tbt),
      // Tasks after the cut ran at full speed: blocking time is then at least this.
      ...(cut && snapshot.lastTaskEnd > (cutAt as number) ? { atLeast: true as const } : {}),
      longTasks: snapshot.longTasks,
      longestMs: round(snapshot.longest),
    },
    windowMs: round(snapshot.end),
    ...(cut ? { cut: true as const } : {}),
  };
}
