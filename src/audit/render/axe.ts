// axe-core, the accessibility engine Lighthouse and most audit tools run, on a rendered page. Its
// source is read once from the installed package and evaluated in the page's isolated world
// (isolated-world.ts), where the page's own scripts cannot reach it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IsolatedWorld } from './isolated-world.ts';

let source: string | undefined;
const axeSource = () => {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
};

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  /** axe's tags: wcag2aa, wcag143, best-practice, ... */
  tags: string[];
  nodes: Array<{ target: string; html: string; summary: string }>;
}

/** The WCAG levels and the best practices Lighthouse's accessibility category also runs. */
const RUN_ONLY = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Runs axe on the page; the session's per-page deadline bounds it (closing the page ends it). */
export async function runAxe(world: IsolatedWorld): Promise<AxeViolation[]> {
  await world.load(axeSource());
  return await world.call(async (tags: string[]): Promise<AxeViolation[]> => {
    const axe = (globalThis as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const result = (await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    })) as {
      violations: Array<{
        id: string;
        impact: AxeViolation['impact'];
        help: string;
        helpUrl: string;
        tags: string[];
        nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
      }>;
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      tags: v.tags,
      nodes: v.nodes.slice(0, 10).map((n) => ({
        target: n.target.map(String).join(' '),
        // Bounded here, cut at word boundaries where they are shown (rendered.ts).
        html: n.html.slice(0, 300),
        summary: (n.failureSummary ?? '').slice(0, 1000),
      })),
    }));
  }, RUN_ONLY);
}
