// A product's score over its audits, drawn server-side as an inline SVG (the pages run no script):
// one point per scored audit, oldest on the left; partial scores (local on-page scans) hollow. The
// chart is an image with a text alternative that says the trend in words.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { counted, dateText } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface TrendPoint {
  /** When the audit started (ISO 8601). */
  at: string;
  score: number;
  /** A partial score: a local on-page scan that left checks out. */
  partial: boolean;
}

const WIDTH = 600;
const HEIGHT = 190;
const LEFT = 42;
const RIGHT = 14;
const TOP = 12;
const BOTTOM = 32;

/** The trend in words: `Score from 62 to 81 over 4 audits`. */
export function trendText(points: readonly TrendPoint[]): string {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return 'No scores yet';
  const partial = points.filter((p) => p.partial).length;
  const note = partial > 0 ? ` (${partial === points.length ? 'all' : partial} partial)` : '';
  if (points.length === 1) return `Score ${first.score} from one audit${note}`;
  return `Score from ${first.score} to ${last.score} over ${counted(points.length, 'audit')}${note}`;
}

const shortDate = (iso: string) => dateText(iso).split(',')[0] ?? '';
/** The day, or the time of day when both ends fall on the same day (two labels reading "26 Nov 2026" say nothing). */
const axisLabels = (first: string, last: string): [string, string] =>
  shortDate(first) === shortDate(last)
    ? [dateText(first).split(', ')[1] ?? '', dateText(last).split(', ')[1] ?? '']
    : [shortDate(first), shortDate(last)];

/** The chart, or nothing when no audit has a score yet. `id` makes its title's id unique on the page. */
export function trendChart(id: string, points: readonly TrendPoint[]): Content | string {
  if (points.length === 0) return '';
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (i: number) => (points.length === 1 ? LEFT + plotWidth / 2 : LEFT + (i * plotWidth) / (points.length - 1));
  const y = (score: number) => TOP + ((100 - score) * plotHeight) / 100;
  const fixed = (n: number) => n.toFixed(1);
  const line = points.map((p, i) => `${fixed(x(i))},${fixed(y(p.score))}`).join(' ');
  const description = trendText(points);
  const first = points[0] as TrendPoint;
  const last = points.at(-1) as TrendPoint;
  return html`<svg class="trend" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="xMidYMid meet">
    <title id="${id}-title">${description}</title>
    ${[0, 50, 100].map(
      (v) =>
        html`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${fixed(y(v))}" y2="${fixed(y(v))}"></line><text x="${LEFT - 6}" y="${fixed(y(v) + 4)}" text-anchor="end">${v}</text>`,
    )}
    ${points.length > 1 ? html`<polyline class="line" points="${line}"></polyline>` : ''}
    ${points.map(
      (p, i) =>
        html`<circle class="dot${p.partial ? ' part' : ''}" cx="${fixed(x(i))}" cy="${fixed(y(p.score))}" r="4.5"><title>${dateText(p.at)}: ${p.score}${p.partial ? ' (partial)' : ''}</title></circle>`,
    )}
    ${
      points.length === 1
        ? html`<text x="${fixed(x(0))}" y="${HEIGHT - 8}" text-anchor="middle">${shortDate(first.at)}</text>`
        : html`<text x="${LEFT}" y="${HEIGHT - 8}" text-anchor="start">${axisLabels(first.at, last.at)[0]}</text><text x="${WIDTH - RIGHT}" y="${HEIGHT - 8}" text-anchor="end">${axisLabels(first.at, last.at)[1]}</text>`
    }
  </svg>`;
}
