// A project's page (issue 24): its audits per product with their dates, statuses, scores and
// findings, each product's score trend as a chart, the latest report of each product one click
// away, and the way to its monitoring. Served to members only; a share link never leads here.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import {
  type Coverage,
  PRODUCTS,
  type Product,
  partialHeadline,
  SEVERITIES,
  type Severity,
} from '../../contract/index.ts';
import type { Store } from '../store/index.ts';
import { type AccessSectionInput, accessSection, accessSummary } from './access-section.ts';
import { page } from './layout.ts';
import { type TrendPoint, trendChart } from './trend-chart.ts';
import { PRODUCT_LABEL, runStatusText, when } from './words.ts';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

/** A run as the project page lists it (no report, no findings). */
export type ProjectRunSummary = Awaited<ReturnType<Store['runs']['projectHistory']>>[number];

export interface ProjectPageInput {
  project: { id: string; domain: string; status: string; createdAt: string };
  monitoring: { enabled: boolean; effectiveIntervalMinutes: number };
  /** Per product, its newest runs first, at most `shown` of them. */
  runs: Record<Product, ProjectRunSummary[]>;
  /** Whether a product has runs older than those listed. */
  more: Record<Product, boolean>;
  /** How many runs per product the page lists at most. */
  shown: number;
  /** The Access section (issue 29): names of the access settings, and the forms for who may change them. */
  access?: Omit<AccessSectionInput, 'projectId' | 'domain'>;
  now?: Date;
}

/** A run's score as the API gives it: only when completed, and not when unverified (spec 2.4). */
const scoreOf = (run: ProjectRunSummary) =>
  run.status === 'completed' && run.score_status !== 'unverified' ? run.score : null;

const isPartial = (run: ProjectRunSummary) => run.coverage !== null;

function severityCounts(run: ProjectRunSummary): Content | string {
  if (run.status !== 'completed' || !run.severity_counts) return '—';
  const counts = JSON.parse(run.severity_counts) as Partial<Record<Severity, number>>;
  const present = SEVERITIES.filter((s) => (counts[s] ?? 0) > 0);
  if (present.length === 0) return 'none';
  return html`<span class="counts">${present.map((s) => html`<span class="badge ${s}">${counts[s]} ${s}</span>`)}</span>`;
}

function scoreCell(run: ProjectRunSummary): Content | string {
  const score = scoreOf(run);
  if (score === null) return run.status === 'completed' ? 'not verified' : '—';
  return html`${score}${isPartial(run) ? html` <span class="partial">partial</span>` : ''}`;
}

function runRow(run: ProjectRunSummary, now: Date | undefined): Content {
  return html`<tr>
    <td data-label="Started">${when(run.created_at, { relative: true, ...(now ? { now } : {}) })}</td>
    <td data-label="Status">${runStatusText(run.status)}</td>
    <td data-label="Score">${scoreCell(run)}</td>
    <td data-label="Findings">${severityCounts(run)}</td>
    <td><a href="/runs/${run.id}">Report</a></td>
  </tr>`;
}

/** The newest completed run's card: its score (partial said first, never as a large plain number) and its link. */
function latestCard(product: Product, runs: readonly ProjectRunSummary[], now: Date | undefined): Content {
  const latest = runs.find((r) => r.status === 'completed');
  const inFlight = runs[0] && (runs[0].status === 'pending' || runs[0].status === 'running') ? runs[0] : undefined;
  const score = latest ? scoreOf(latest) : null;
  return html`<div class="card">
    <p><strong>${PRODUCT_LABEL[product]}</strong></p>
    ${
      !latest
        ? html`<p class="muted">No completed audit yet.</p>`
        : html`${
            score === null
              ? html`<p>Score not verified</p>`
              : isPartial(latest)
                ? html`<p><strong>${partialHeadline(JSON.parse(latest.coverage as string) as Coverage, product)}</strong><br>Score on those checks: ${score}/100, from a local on-page scan</p>`
                : html`<div class="score">${score}<small>/100</small></div>`
          }
          <p class="muted">${when(latest.created_at, { relative: true, ...(now ? { now } : {}) })}</p>
          <p><a href="/runs/${latest.id}">Open the latest report</a></p>`
    }
    ${inFlight ? html`<p><a href="/runs/${inFlight.id}">${runStatusText(inFlight.status)}: a new audit</a></p>` : ''}
  </div>`;
}

function productSection(
  product: Product,
  runs: readonly ProjectRunSummary[],
  more: boolean,
  shown: number,
  now: Date | undefined,
): Content {
  const label = PRODUCT_LABEL[product];
  if (runs.length === 0)
    return html`<h2 id="${product}">${label}</h2>
      <p class="muted">No ${label} audits of this site yet.</p>`;
  const points: TrendPoint[] = runs
    .filter((r) => scoreOf(r) !== null)
    .map((r) => ({ at: r.created_at, score: scoreOf(r) as number, partial: isPartial(r) }))
    .reverse();
  return html`<h2 id="${product}">${label}</h2>
    ${points.length > 0 ? trendChart(`trend-${product}`, points) : html`<p class="muted">No scores yet.</p>`}
    <div class="scroll"><table class="reflow">
      <thead><tr><th>Started</th><th>Status</th><th>Score</th><th>Findings</th><th></th></tr></thead>
      <tbody>${runs.map((r) => runRow(r, now))}</tbody>
    </table></div>
    <p class="muted">${
      more
        ? `The latest ${shown} ${label} audits are listed, newest first; older ones are not shown here.`
        : `${runs.length === 1 ? 'The one audit' : `All ${runs.length} audits`}, newest first (a page lists the latest ${shown}).`
    }</p>`;
}

export function projectPage(input: ProjectPageInput): Content {
  const { project, monitoring, now } = input;
  return page(
    project.domain,
    html`<h1>${project.domain}</h1>
      <p class="muted">${project.status === 'archived' ? 'Archived project' : 'Project'} · created ${when(project.createdAt)}</p>
      <p>Monitoring: <a href="/projects/${project.id}/monitoring">${
        monitoring.enabled ? `on, every ${monitoring.effectiveIntervalMinutes} minutes` : 'off'
      }</a></p>
      ${input.access ? accessSummary(input.access.access) : ''}
      <h2>Latest reports</h2>
      <div class="latest">${PRODUCTS.map((p) => latestCard(p, input.runs[p], now))}</div>
      ${PRODUCTS.map((p) => productSection(p, input.runs[p], input.more[p], input.shown, now))}
      ${input.access ? accessSection({ ...input.access, projectId: project.id, domain: project.domain }) : ''}`,
    {
      nav: [
        { href: `/projects/${project.id}`, label: project.domain, current: true },
        { href: `/projects/${project.id}/monitoring`, label: 'Monitoring' },
      ],
    },
  );
}
