// marketing_signal checks, by funnel stage (audit-checks.md): find, trust, act, measure, improve.
// Judged from what the public HTML, headers and cookies show (sourceCoverage public_only), for the
// kind of site the pages show (site-kind.ts): questions that do not fit it are not asked.
import type { CheckResult } from '../checks.ts';
import type { SiteSnapshot } from '../site.ts';
import { inTurns } from '../turns.ts';
import { actStage } from './marketing-act.ts';
import { marketingContext } from './marketing-context.ts';
import { findStage } from './marketing-find.ts';
import { improveStage, measureStage } from './marketing-measure.ts';
import { trustStage } from './marketing-trust.ts';
import { readSiteKind, type SiteKindReading } from './site-kind.ts';
import { marketingVitalsChecks } from './vitals.ts';

export { ASKED_OF, MARKETING_SPECS } from './marketing-specs.ts';

/** Each stage in a turn of the event loop of its own (turns.ts). */
export async function marketingChecks(
  site: SiteSnapshot,
  appShell: boolean,
  kind: SiteKindReading = readSiteKind(site),
): Promise<CheckResult[]> {
  const ctx = marketingContext(site, appShell, kind);
  if (!ctx) return [];
  return inTurns([
    () => findStage(ctx),
    () => trustStage(ctx),
    () => actStage(ctx),
    () => measureStage(ctx),
    () => improveStage(ctx),
    // The home page's lab Core Web Vitals, when the renderer measured them (vitals.ts).
    () => marketingVitalsChecks(ctx.home),
  ]);
}
