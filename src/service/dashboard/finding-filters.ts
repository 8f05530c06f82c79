// Filters of a report's findings by severity and category: plain links with GET query parameters
// (?severity=high&category=metadata), so they work with no script and under a share link too.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { Category, type Finding, SEVERITIES, type Severity } from '../../contract/index.ts';
import { categoryText } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface FindingFilter {
  severity?: Severity;
  category?: Category;
}

/** The filter a page's query asks for; values that are not a severity or a category are ignored. */
export function findingFilter(query: { severity?: string | undefined; category?: string | undefined }): FindingFilter {
  const filter: FindingFilter = {};
  if ((SEVERITIES as readonly string[]).includes(query.severity ?? '')) filter.severity = query.severity as Severity;
  const category = Category.safeParse(query.category);
  if (category.success) filter.category = category.data;
  return filter;
}

export const isFiltered = (filter: FindingFilter) => filter.severity !== undefined || filter.category !== undefined;

export const applyFilter = (findings: readonly Finding[], filter: FindingFilter) =>
  findings.filter(
    (f) =>
      (filter.severity === undefined || f.severity === filter.severity) &&
      (filter.category === undefined || f.category === filter.category),
  );

/** The address of the report with `filter` applied, at its findings. */
export function filterHref(runPath: string, filter: FindingFilter): string {
  const query = new URLSearchParams();
  if (filter.severity) query.set('severity', filter.severity);
  if (filter.category) query.set('category', filter.category);
  const search = query.toString();
  return `${runPath}${search ? `?${search}` : ''}#findings`;
}

const chip = (href: string, text: string, current: boolean) =>
  current
    ? html`<a class="chip" href="${href}" aria-current="true">${text}</a>`
    : html`<a class="chip" href="${href}">${text}</a>`;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The two rows of filter links, each severity and category present with its count, and the count shown. */
export function filterBar(findings: readonly Finding[], filter: FindingFilter, runPath: string): Content | string {
  if (findings.length === 0) return '';
  const severities = SEVERITIES.flatMap((s) => {
    const n = findings.filter((f) => f.severity === s).length;
    return n > 0 ? [{ value: s, n }] : [];
  });
  const categories = new Map<Category, number>();
  for (const f of findings) categories.set(f.category, (categories.get(f.category) ?? 0) + 1);
  const shown = applyFilter(findings, filter).length;
  return html`<nav class="filters" aria-label="Filter by severity">
      <span class="muted">Severity:</span>
      ${chip(filterHref(runPath, { ...filter, severity: undefined }), 'All', filter.severity === undefined)}
      ${severities.map((s) => chip(filterHref(runPath, { ...filter, severity: s.value }), `${capital(s.value)} (${s.n})`, filter.severity === s.value))}
    </nav>
    <nav class="filters" aria-label="Filter by category">
      <span class="muted">Category:</span>
      ${chip(filterHref(runPath, { ...filter, category: undefined }), 'All', filter.category === undefined)}
      ${[...categories].map(([c, n]) => chip(filterHref(runPath, { ...filter, category: c }), `${categoryText(c)} (${n})`, filter.category === c))}
    </nav>
    ${
      isFiltered(filter)
        ? html`<p role="status"><strong>${shown} of ${findings.length} findings</strong>${filter.severity ? ` · ${filter.severity} severity` : ''}${filter.category ? ` · ${categoryText(filter.category)}` : ''} · <a href="${filterHref(runPath, {})}">Clear filters</a></p>`
        : ''
    }`;
}
