// marketing_signal: how well the public site finds, convinces, converts, measures and improves
// (spec 2.9). Stages blend 20/20/25/25/10; under public_only coverage the measure stage is at most
// medium confidence, since tags a tag manager injects later cannot be seen in the served HTML.
import { PRODUCT_LABEL, STAGES, type Stage } from '../../contract/index.ts';
import { notBuiltReason, unbuiltAfterRendering, unreadHomeReason } from '../app-shell.ts';
import { ASKED_OF, marketingChecks } from '../checks/marketing.ts';
import { kindPhrase, readSiteKind, type SiteKindReading } from '../checks/site-kind.ts';
import { type CheckResult, weightedScore } from '../checks.ts';
import { bound } from '../html.ts';
import { type AuditOutcome, buildOutcome } from '../outcome.ts';
import { appShellScripts, homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { nextTurn } from '../turns.ts';

export const STAGE_WEIGHTS: Record<Stage, number> = { find: 20, trust: 20, act: 25, measure: 25, improve: 10 };
// Stages judged from page content, which an app shell hides until a browser renders it.
const CONTENT_STAGES = new Set<Stage>(['find', 'trust', 'act']);

export interface StageScore {
  stage: Stage;
  status: 'scored' | 'unverified';
  score: number;
  checks_pass: number;
  checks_fail: number;
  finding_count: number;
  top_finding: string | null;
  confidence: 'high' | 'medium' | 'low';
}

export interface MarketingSignalDetails {
  stageScores: StageScore[];
  sourceCoverage: 'public_only';
  connectedSources: [];
  templatesAudited: number;
  /** The kind of site the pages show, and what says so (issue 25): it decides which checks are asked. */
  siteKind: SiteKindReading;
}

/**
 * Whether the home page's content is out of the audit's sight: an app shell as served, or one that
 * Chromium loaded but its scripts did not build (its framework did not load or run).
 */
export const isAppShell = (site: SiteSnapshot): boolean => {
  const home = homePage(site);
  return appShellScripts(home) > 0 || unbuiltAfterRendering(home) !== undefined;
};

/**
 * The content checks of an app shell read a page without its content: what they could not judge is
 * unverified, and says so, with no finding. "Visitors cannot see how to reach the business" or
 * "Pricing is hidden" would be claims about content the audit never saw.
 */
export function unseenContent(rows: readonly CheckResult[], why: string): CheckResult[] {
  return rows.map((row) => {
    if (row.status !== 'unverified' || !row.finding || !row.stage || !CONTENT_STAGES.has(row.stage)) return row;
    const { finding: _unseen, ...judged } = row;
    return { ...judged, detail: bound(`not judged, since ${why}. Read: ${row.detail}`, 500) };
  });
}

/** Distinct page templates, approximated by the first path segment of the crawled pages. */
export function templatesAudited(site: SiteSnapshot): number {
  return new Set(htmlPages(site).map((p) => new URL(p.url).pathname.split('/')[1] ?? '')).size;
}

export function stageScores(rows: CheckResult[], appShell: boolean): StageScore[] {
  return STAGES.map((stage) => {
    const own = rows.filter((r) => r.stage === stage);
    const judged = own.filter((r) => r.status === 'pass' || r.status === 'fail');
    const unverifiedStage = (appShell && CONTENT_STAGES.has(stage)) || judged.length === 0;
    const findings = own.filter((r) => r.finding && r.finding.severity !== 'info');
    const worst = findings.sort(
      (a, b) =>
        ['critical', 'high', 'medium', 'low'].indexOf(a.severity) -
        ['critical', 'high', 'medium', 'low'].indexOf(b.severity),
    )[0];
    let confidence: StageScore['confidence'] = unverifiedStage ? 'low' : judged.length >= 3 ? 'high' : 'medium';
    if (stage === 'measure' && confidence === 'high') confidence = 'medium'; // spec 2.9: public_only caps measure
    return {
      stage,
      status: unverifiedStage ? 'unverified' : 'scored',
      score: weightedScore(own),
      checks_pass: own.filter((r) => r.status === 'pass').length,
      checks_fail: own.filter((r) => r.status === 'fail').length,
      finding_count: own.filter((r) => r.finding).length,
      top_finding: worst?.finding?.title ?? null,
      confidence,
    };
  });
}

/** The report's word on the kind of site: read as what, and which questions were left out. */
export function kindSentence(kind: SiteKindReading, rows: readonly CheckResult[]): string {
  const skipped = rows.flatMap((r) => {
    const asked = ASKED_OF[r.id];
    return asked && !asked.kinds.includes(kind.kind) ? [asked.what] : [];
  });
  const left = skipped.length > 0 ? `; not asked for: ${skipped.join(', ')}` : '';
  return `Read as ${kindPhrase(kind)}${left}.`;
}

export async function auditMarketingSignal(site: SiteSnapshot): Promise<AuditOutcome<MarketingSignalDetails>> {
  const appShell = isAppShell(site);
  const notBuilt = unreadHomeReason(homePage(site)) ?? notBuiltReason(homePage(site));
  const siteKind = readSiteKind(site);
  const checks = unseenContent(
    await marketingChecks(site, appShell, siteKind),
    notBuilt ?? 'the home page is an app shell: its content only appears after JavaScript runs',
  );
  await nextTurn();
  const stages = stageScores(checks, appShell);
  const score = Math.round(stages.reduce((sum, s) => sum + s.score * STAGE_WEIGHTS[s.stage], 0) / 100);
  const outcome = buildOutcome<MarketingSignalDetails>({
    product: 'marketing_signal',
    productLabel: PRODUCT_LABEL.marketing_signal,
    startUrl: site.startUrl,
    checks,
    pagesCrawled: site.pages.length,
    local: site.local,
    score,
    unverified: stages.some((s) => s.status === 'unverified'),
    ...(notBuilt ? { notBuilt } : {}),
    details: {
      stageScores: stages,
      sourceCoverage: 'public_only',
      connectedSources: [],
      templatesAudited: templatesAudited(site),
      siteKind,
    },
  });
  // Only a site read as something other than a business is told so: that is when questions change.
  if (siteKind.kind === 'business') return outcome;
  return { ...outcome, execSummary: bound(`${outcome.execSummary} ${kindSentence(siteKind, checks)}`, 900) };
}
