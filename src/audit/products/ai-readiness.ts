// ai_readiness: can search engines and AI agents find, read, understand and act on the site?
import { type AgentViews, PRODUCT_LABEL } from '../../contract/index.ts';
import { notBuiltReason } from '../app-shell.ts';
import { agentReadinessChecks } from '../checks/agent-readiness.ts';
import { agentViewChecks, agentViewsReport } from '../checks/agent-views.ts';
import { foundationChecks } from '../checks/foundation.ts';
import { pageBasicsChecks } from '../checks/page-basics.ts';
import { pageChecks } from '../checks/pages.ts';
import { agentViewCheck, axeChecks } from '../checks/rendered.ts';
import { structuredDataChecks } from '../checks/structured-data.ts';
import { vitalsChecks } from '../checks/vitals.ts';
import { webmcpRegisteredChecks } from '../checks/webmcp-registered.ts';
import { type AuditOutcome, buildOutcome } from '../outcome.ts';
import { homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { answersSitemap } from '../sitemaps.ts';
import { inTurns, nextTurn } from '../turns.ts';

interface FoundationItem {
  present: boolean;
  notes: string;
}

export interface AiReadinessDetails {
  foundation: { sitemap: FoundationItem; robotsTxt: FoundationItem; llmsTxt: FoundationItem };
  /** What a browser, each AI agent and a request for markdown get of a few pages (checks/agent-views.ts). */
  agentViews?: AgentViews;
}

const NOT_EVALUATED = { present: false, notes: 'not evaluated: local on-page scan' };

function foundation(site: SiteSnapshot): AiReadinessDetails['foundation'] {
  if (site.local) return { sitemap: NOT_EVALUATED, robotsTxt: NOT_EVALUATED, llmsTxt: NOT_EVALUATED };
  const { robots, sitemap, llms } = site;
  return {
    robotsTxt: {
      present: robots?.status === 200,
      notes:
        robots?.status === 200
          ? `${robots.parsed?.groups.length ?? 0} group(s), ${robots.parsed?.sitemaps.length ?? 0} sitemap line(s)`
          : robots?.status === 'unreachable'
            ? `unknown: could not be fetched (${robots.error ?? 'no answer'})`
            : `status ${robots?.status}`,
    },
    sitemap: {
      // Any sitemap read (every Sitemap: line, their indexes' entries) that answers as one.
      present: (sitemap?.files ?? (sitemap ? [sitemap] : [])).some(answersSitemap),
      notes: sitemap?.parsed
        ? `${sitemap.parsed.kind}, ${sitemap.parsed.locs.length} URL(s) at ${sitemap.url}${(sitemap.files?.length ?? 1) > 1 ? ` (${sitemap.files.length} sitemaps read)` : ''}`
        : sitemap?.status === 'unreachable'
          ? `unknown: could not be fetched at ${sitemap.url} (${sitemap.error ?? 'no answer'})`
          : `status ${sitemap?.status} at ${sitemap?.url}`,
    },
    llmsTxt: {
      present: llms?.status === 200 && llms.parsed !== undefined,
      notes: llms?.parsed
        ? `${llms.parsed.wellFormed ? 'well formed' : 'not well formed'}, ${llms.parsed.links.length} link(s)`
        : llms?.status === 'unreachable'
          ? `unknown: could not be fetched (${llms.error ?? 'no answer'})`
          : `status ${llms?.status}`,
    },
  };
}

const agentViewsOf = (site: SiteSnapshot): { agentViews?: AgentViews } => {
  const agentViews = agentViewsReport(site);
  return agentViews ? { agentViews } : {};
};

export async function auditAiReadiness(site: SiteSnapshot): Promise<AuditOutcome<AiReadinessDetails>> {
  // A home page Chromium loaded but its scripts did not build: content-in-html is unverified, and the summary says why.
  const notBuilt = notBuiltReason(homePage(site));
  const checks = await inTurns([
    () => foundationChecks(site),
    () => pageChecks(site),
    () => pageBasicsChecks(htmlPages(site)),
    () => agentReadinessChecks(site, htmlPages(site)),
    () => webmcpRegisteredChecks(htmlPages(site)),
    () => structuredDataChecks(site),
    () => axeChecks(htmlPages(site)),
    () => [agentViewCheck(site)].filter((row) => row !== undefined),
    () => vitalsChecks(htmlPages(site)),
    () => agentViewChecks(site),
  ]);
  await nextTurn();
  return buildOutcome({
    product: 'ai_readiness',
    productLabel: PRODUCT_LABEL.ai_readiness,
    startUrl: site.startUrl,
    checks,
    pagesCrawled: site.pages.length,
    local: site.local,
    ...(notBuilt ? { notBuilt } : {}),
    details: { foundation: foundation(site), ...agentViewsOf(site) },
  });
}
