// The ai_readiness checks over the crawled pages' HTML and headers, each one finding listing the
// pages it affects, in catalogue order: one module per pair of categories (pages-discovery.ts,
// pages-content.ts, pages-operability.ts, pages-delivery.ts), their specs in pages-specs.ts.
import type { CheckResult } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { htmlPages, type SiteSnapshot } from '../site.ts';
import { contentRows } from './pages-content.ts';
import type { PagesContext } from './pages-context.ts';
import { deliveryRows } from './pages-delivery.ts';
import { answerRows, discoveryRows } from './pages-discovery.ts';
import { operabilityRows } from './pages-operability.ts';

export function pageChecks(site: SiteSnapshot): CheckResult[] {
  const rows = answerRows(site).filter((r): r is CheckResult => r !== undefined);
  const pages = htmlPages(site);
  if (pages.length === 0) return rows;
  const ctx: PagesContext = { site, pages, home: pages[0] as CrawledPage };
  return [...rows, ...discoveryRows(ctx), ...contentRows(ctx), ...operabilityRows(ctx), ...deliveryRows(ctx)];
}
