// The WebMCP tools a rendered page registers by script (issue 29), beside the tool forms the markup
// declares: Chromium offers `document.modelContext` with its WebMCP feature (chromium.ts), and the
// page's `registerTool()` calls are read two ways, both bounded before anything reaches this process.
// - Refused registrations: the browser rejects a tool with an invalid or taken name, an empty
//   description or a schema it cannot serialize, and the tool never exists; no list shows it. A
//   script installed in the page's own world before its scripts wraps `registerTool` and reports
//   each rejection through a DevTools binding (a page can fake or hide a report: only of its own tools).
// - Registered tools: read after load from the audit's isolated world with `getTools()`, as
//   Playwright's WebMCP support reads them; the main frame's only, at most TOOLS_KEPT, each cut to size
//   there (a schema kept only under SCHEMA_MAX characters of JSON).
import type { CDPSession, Page } from 'playwright-core';
import type { IsolatedWorld } from './isolated-world.ts';

/** Tools kept per page (Lighthouse warns over 40 on a page); all are counted. */
export const TOOLS_KEPT = 50;
/** The longest input schema kept, in characters of JSON; a longer one is reported by its length. */
export const SCHEMA_MAX = 20_000;
/** Characters of a description kept (its length is reported whole). */
const DESCRIPTION_KEPT = 1000;
/** Refused registrations reported per page, and the longest report taken. */
const REFUSALS_KEPT = 20;
const REPORT_MAX = 1000;
/** The binding the page-world wrapper reports through. */
const BINDING = '__siteauditWebmcpRefused';

export interface RegisteredTool {
  name: string;
  title?: string;
  /** The description, cut to DESCRIPTION_KEPT characters. */
  description: string;
  descriptionLength: number;
  /** The input schema as the browser holds it (JSON), when it has one under SCHEMA_MAX characters. */
  inputSchema?: unknown;
  /** Characters of the schema's JSON, when it has one. */
  schemaLength?: number;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
  /** A form[toolname] of the page declares it (not a script). */
  declarative: boolean;
}

export interface RefusedRegistration {
  /** The name the script asked for, as text (cut to 128 characters). */
  name: string;
  /** The DOMException's name and message (`InvalidStateError: Invalid tool name`). */
  reason: string;
}

export interface WebmcpReading {
  /** False when this Chromium offers no `document.modelContext` (the feature is off, or not a secure context). */
  available: boolean;
  tools: RegisteredTool[];
  /** Tools the main frame registered, `tools` holding the first TOOLS_KEPT. */
  toolCount: number;
  refused: RefusedRegistration[];
}

/** Runs in the page's own world before its scripts: reports registrations the browser rejects. */
function wrapRegisterTool(arg: { binding: string; kept: number; max: number }): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const report = g[arg.binding] as ((payload: string) => void) | undefined;
  // The binding stays reachable through this closure only.
  delete g[arg.binding];
  const proto = (g.ModelContext as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  const original = proto?.registerTool as ((...args: unknown[]) => unknown) | undefined;
  if (!proto || typeof original !== 'function' || typeof report !== 'function' || g.top !== g) return;
  // Taken now, before any of the page's scripts can replace them.
  const apply = Reflect.apply;
  const PromiseOf = Promise;
  const then = Promise.prototype.then;
  const stringify = JSON.stringify;
  const text = String;
  let sent = 0;
  const registerTool = function (this: unknown, ...args: unknown[]) {
    const result = apply(original, this, args);
    if (result instanceof PromiseOf && sent < arg.kept)
      apply(then, result, [
        undefined,
        (error: unknown) => {
          if (sent >= arg.kept) return;
          sent++;
          let name = '';
          try {
            name = text((args[0] as { name?: unknown } | undefined)?.name ?? '').slice(0, 128);
          } catch {}
          let reason = 'rejected';
          try {
            const e = error as { name?: unknown; message?: unknown };
            reason = `${text(e?.name ?? 'Error')}: ${text(e?.message ?? '')}`.slice(0, 300);
          } catch {}
          try {
            report(stringify({ name, reason }).slice(0, arg.max));
          } catch {}
        },
      ]);
    return result;
  };
  Object.defineProperty(proto, 'registerTool', { value: registerTool, writable: true, configurable: true });
}

/** Runs in the audit's isolated world after load: the main frame's tools, cut to size. */
async function readTools(arg: { kept: number; schemaMax: number; descriptionKept: number }): Promise<{
  available: boolean;
  count: number;
  tools: RegisteredTool[];
}> {
  // The isolated world's own globals: the DOM the page shares, none of its JavaScript.
  const page = globalThis as unknown as {
    window: unknown;
    document: {
      modelContext?: { getTools?: () => Promise<unknown[]> };
      querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
    };
  };
  const context = page.document.modelContext;
  if (!context || typeof context.getTools !== 'function') return { available: false, count: 0, tools: [] };
  const all = (await context.getTools()) ?? [];
  // Tools of the page's frames come with another window: the main frame's only.
  const own = all.filter(
    (tool) => !(tool && typeof tool === 'object' && 'window' in tool) || tool.window === page.window,
  );
  const forms = new Set(
    Array.from(page.document.querySelectorAll('form[toolname]'), (f) => f.getAttribute('toolname')),
  );
  const tools: RegisteredTool[] = [];
  for (const raw of own.slice(0, arg.kept)) {
    const tool = raw as Record<string, unknown>;
    const description = typeof tool.description === 'string' ? tool.description : '';
    const name = String(tool.name ?? '').slice(0, 128);
    const entry: RegisteredTool = {
      name,
      description: description.slice(0, arg.descriptionKept),
      descriptionLength: description.length,
      declarative: forms.has(name),
    };
    if (typeof tool.title === 'string' && tool.title) entry.title = tool.title.slice(0, 200);
    if (tool.inputSchema !== undefined && tool.inputSchema !== null) {
      const json = typeof tool.inputSchema === 'string' ? tool.inputSchema : JSON.stringify(tool.inputSchema);
      entry.schemaLength = json.length;
      if (json.length <= arg.schemaMax) entry.inputSchema = JSON.parse(json);
    }
    const a = tool.annotations as Record<string, unknown> | undefined;
    if (a && typeof a === 'object')
      entry.annotations = {
        readOnlyHint: a.readOnlyHint === true,
        untrustedContentHint: a.untrustedContentHint === true,
        consequentialHint: a.consequentialHint === true,
      };
    tools.push(entry);
  }
  return { available: true, count: own.length, tools };
}

export interface WebmcpWatch {
  /** The tools registered now and the registrations refused since the page began loading. */
  read(world: IsolatedWorld): Promise<WebmcpReading>;
  close(): Promise<void>;
}

/** Starts watching a page about to navigate: the wrapper runs with its next document. */
export async function watchWebmcp(page: Page): Promise<WebmcpWatch> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const refused: RefusedRegistration[] = [];
  session.on('Runtime.bindingCalled', (event) => {
    if (event.name !== BINDING || refused.length >= REFUSALS_KEPT || event.payload.length > REPORT_MAX) return;
    try {
      const { name, reason } = JSON.parse(event.payload) as Partial<RefusedRegistration>;
      if (typeof name === 'string' && typeof reason === 'string') refused.push({ name, reason });
    } catch {}
  });
  try {
    await session.send('Runtime.enable');
    await session.send('Runtime.addBinding', { name: BINDING });
    await session.send('Page.enable');
    await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: `(${wrapRegisterTool.toString()})(${JSON.stringify({ binding: BINDING, kept: REFUSALS_KEPT, max: REPORT_MAX })})`,
    });
  } catch (error) {
    await session.detach().catch(() => undefined);
    throw error;
  }
  return {
    async read(world) {
      const found = await world.call(readTools, {
        kept: TOOLS_KEPT,
        schemaMax: SCHEMA_MAX,
        descriptionKept: DESCRIPTION_KEPT,
      });
      return { available: found.available, tools: found.tools, toolCount: found.count, refused: [...refused] };
    },
    close: () => session.detach().catch(() => undefined),
  };
}
