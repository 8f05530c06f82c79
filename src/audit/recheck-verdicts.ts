// What a recheck (issue 26) must fetch for the checks it re-runs, and how a one-page audit's row
// answers "is the finding still there?" on that page: pass, fail, or not evaluated with the reason.
// A row is judged on the page the recheck fetched alone, so a page that answered no HTML, a check
// that needs a browser, a fact with no pass or fail, or a question not asked of the page is said so,
// never passed.
import type { Product } from '../contract/index.ts';
import { CATALOGUE } from './catalogue.ts';
import { AGENT_SPECS } from './checks/agent-readiness.ts';
import { AGENT_STANDARD_SPECS } from './checks/agent-standards.ts';
import { AGENT_VIEW_SPECS } from './checks/agent-views.ts';
import { AXE_DECIDES, AXE_LEFT_TO_STATIC, AXE_RULES_OF_STATIC_CHECKS, axeJudged } from './checks/axe-verdicts.ts';
import { FOUNDATION_SPECS } from './checks/foundation.ts';
import { ASKED_OF, MARKETING_SPECS } from './checks/marketing.ts';
import { PAGE_SPECS } from './checks/pages-specs.ts';
import { RENDERED_SPECS } from './checks/rendered.ts';
import { BROWSER_SPECS } from './checks/security/browser-defenses.ts';
import { COOKIE_SPECS } from './checks/security/cookies.ts';
import { DNS_SPECS } from './checks/security/dns-email.ts';
import { EXPOSURE_SPECS } from './checks/security/exposure.ts';
import { MAIL_SPECS } from './checks/security/mail-hardening.ts';
import { TRANSPORT_SPECS } from './checks/security/transport.ts';
import { MARKETING_VITALS_SPECS, VITALS_SPECS } from './checks/vitals.ts';
import { WEBMCP_REGISTERED_SPEC } from './checks/webmcp-registered.ts';
import type { CheckResult, CheckSpec, CheckStatus } from './checks.ts';
import type { CrawledPage } from './crawler.ts';
import { bound } from './html.ts';
import { AXE_WORDS } from './render/axe-words.ts';
import type { RenderingSummary } from './render/render-site.ts';

export type RecheckVerdict = 'pass' | 'fail' | 'not_evaluated';

export interface RecheckedCheck {
  id: string;
  verdict: RecheckVerdict;
  /** The one-page audit's own row status, or null when it gave the check no row. */
  status: CheckStatus | null;
  /** Why: the row's detail, or why there is no verdict. */
  detail: string;
}

const ids = (specs: Record<string, CheckSpec>) => Object.values(specs).map((spec) => spec.id);

/**
 * Checks that read robots.txt, the sitemap or llms.txt (site.ts reads them before the crawl): a
 * recheck fetches them only for these. The whole foundation and agent-readiness groups, since their
 * functions read the files, and the marketing sitemap check; test/audit/recheck-verdicts.test.ts holds the
 * other checks' rows equal with and without the files.
 */
const FILE_CHECKS: ReadonlySet<string> = new Set([
  ...ids(FOUNDATION_SPECS),
  ...ids(AGENT_SPECS),
  ...ids(AGENT_STANDARD_SPECS),
  MARKETING_SPECS.sitemap.id,
]);

/** Checks that read how the home page answers AI agents' user agents and the documents agents look for. */
const AGENT_CHECKS: ReadonlySet<string> = new Set([
  FOUNDATION_SPECS.agentAnswers.id,
  AGENT_SPECS.markdown.id,
  AGENT_SPECS.apiCatalog.id,
  AGENT_SPECS.oauth.id,
  AGENT_SPECS.mcpCard.id,
  ...ids(AGENT_STANDARD_SPECS),
  // What each agent gets of the page, and whether it answers markdown (checks/agent-views.ts).
  ...ids(AGENT_VIEW_SPECS),
]);

/** Lab Core Web Vitals, measured only as Chromium loads the page (checks/vitals.ts). */
const VITALS_CHECKS: ReadonlySet<string> = new Set([...ids(VITALS_SPECS), ...ids(MARKETING_VITALS_SPECS)]);

/** Checks made only of the rendered page (axe's own rules, the agent view, the Core Web Vitals, scripted WebMCP tools). */
export const needsBrowser = (checkId: string): boolean =>
  checkId.startsWith('axe-') ||
  checkId === RENDERED_SPECS.agentView.id ||
  checkId === WEBMCP_REGISTERED_SPEC.id ||
  VITALS_CHECKS.has(checkId);

/** Checks of the groups below that read the page's HTML all the same (scripts, titles, forms). */
const READ_HTML: ReadonlySet<string> = new Set([
  BROWSER_SPECS.sri.id,
  EXPOSURE_SPECS.listing.id,
  EXPOSURE_SPECS.libraries.id,
  TRANSPORT_SPECS.mixed.id,
  AGENT_SPECS.webmcpSchema.id,
  AGENT_SPECS.agentForms.id,
]);

/**
 * Checks whose verdict stands on a page that answered no HTML (a 404, a file): they judge the
 * response, site files, TLS or DNS. Every other check judges the page's HTML, and its pass on a page
 * without any would judge nothing.
 */
const JUDGED_WITHOUT_HTML: ReadonlySet<string> = new Set(
  [
    ...FILE_CHECKS,
    PAGE_SPECS.status.id,
    PAGE_SPECS.redirects.id,
    PAGE_SPECS.ttfb.id,
    PAGE_SPECS.https.id,
    MARKETING_SPECS.https.id,
    ...[BROWSER_SPECS, TRANSPORT_SPECS, DNS_SPECS, MAIL_SPECS, COOKIE_SPECS, EXPOSURE_SPECS].flatMap(ids),
  ].filter((id) => !READ_HTML.has(id)),
);

export interface RecheckNeeds {
  /** robots.txt, the sitemap and llms.txt. */
  files: boolean;
  /** The home page asked as AI agents, and the documents agents look for. */
  agents: boolean;
  /** The page rendered in Chromium (when the service has a renderer). */
  render: boolean;
}

/** What a one-page audit must fetch for `checkIds`; `rendered` overrides the guess from the ids. */
export function recheckNeeds(product: Product, checkIds: readonly string[], rendered?: boolean): RecheckNeeds {
  // Security reads no site file; it renders only to read the page's library versions (retire.ts),
  // when the run did so for the finding's pages (headers and transport are what a browser does not change).
  if (product === 'website_security')
    return {
      files: false,
      agents: false,
      render: (rendered ?? false) && checkIds.includes(EXPOSURE_SPECS.libraries.id),
    };
  return {
    files: checkIds.some((id) => FILE_CHECKS.has(id)),
    // Only AI readiness asks as agents (index.ts).
    agents: product === 'ai_readiness' && checkIds.some((id) => AGENT_CHECKS.has(id)),
    render: rendered ?? checkIds.some(needsBrowser),
  };
}

/** The catalogue's checks of each product, by id. */
const SPECS = new Map<string, CheckSpec>(CATALOGUE.map(({ product, spec }) => [`${product}/${spec.id}`, spec]));

/** What the one-page audit saw, for the verdicts of its rows. */
export interface PageSeen {
  product: Product;
  local: boolean;
  /** The page fetched (after redirects). */
  page: CrawledPage | undefined;
  /** Whether it answered 2xx with HTML (site.ts htmlPages). */
  html: boolean;
  rendering?: RenderingSummary;
  /** Whether the recheck asked for the page rendered. */
  renderAsked: boolean;
}

const verdict = (id: string, v: RecheckVerdict, status: CheckStatus | null, detail: string): RecheckedCheck => ({
  id,
  verdict: v,
  status,
  detail: bound(detail, 500),
});

/** Why the page has no rendered verdicts. */
function notRendered(seen: PageSeen): string {
  if (!seen.renderAsked)
    return 'it needs the page rendered in Chromium, and this recheck rendered nothing (no renderer, or rendered: false)';
  const reason = seen.rendering?.reason ?? seen.rendering?.pages[0]?.error;
  return `it needs the page rendered in Chromium, which did not happen${reason ? `: ${reason}` : ''}`;
}

/** An axe rule with no row: passed where axe finished on the rendered page. */
function axeRule(id: string, seen: PageSeen): RecheckedCheck {
  const rule = id.slice('axe-'.length);
  if (!(rule in AXE_WORDS) || seen.product !== 'ai_readiness')
    return verdict(id, 'not_evaluated', null, `${id} is not a check of ${seen.product}`);
  if (AXE_RULES_OF_STATIC_CHECKS.has(rule)) {
    const by =
      AXE_LEFT_TO_STATIC[rule] ?? Object.keys(AXE_DECIDES).find((check) => AXE_DECIDES[check]?.rules.includes(rule));
    return verdict(id, 'not_evaluated', null, `axe's rule ${rule} is judged by the check ${by}: recheck that one`);
  }
  const page = seen.page;
  if (page?.rendered && axeJudged(page))
    return verdict(id, 'pass', null, `axe found no violation of ${rule} on the rendered page`);
  if (page?.rendered?.axeError)
    return verdict(id, 'not_evaluated', null, `axe did not finish on the page: ${page.rendered.axeError}`);
  return verdict(id, 'not_evaluated', null, notRendered(seen));
}

/** No row for the check: why the one-page audit gave none. */
function noRow(id: string, seen: PageSeen): RecheckedCheck {
  if (id.startsWith('axe-')) return axeRule(id, seen);
  if (!SPECS.has(`${seen.product}/${id}`))
    return verdict(id, 'not_evaluated', null, `${id} is not a check of ${seen.product}`);
  if (needsBrowser(id) && !seen.page?.rendered) return verdict(id, 'not_evaluated', null, notRendered(seen));
  if (!seen.html) return verdict(id, 'not_evaluated', null, pageWithoutHtml(seen));
  return verdict(
    id,
    'not_evaluated',
    null,
    seen.local
      ? 'no verdict from a local on-page scan of this page: a local scan does not run this check, or the page has nothing it judges'
      : 'no verdict from a one-page audit of this page: the page has nothing this check judges',
  );
}

function pageWithoutHtml(seen: PageSeen): string {
  const fetched = seen.page?.fetched;
  const answer = fetched
    ? fetched.status >= 300
      ? `answered ${fetched.status}`
      : `answered ${fetched.status} with ${fetched.headers['content-type'] || 'no media type'}, not HTML`
    : 'was not fetched';
  return `the page ${answer}: there is no HTML for this check to judge`;
}

/** The verdict on one asked check from the one-page audit's rows. */
export function recheckVerdict(id: string, row: CheckResult | undefined, seen: PageSeen): RecheckedCheck {
  if (!row) return noRow(id, seen);
  // A failure is a verdict wherever it comes from (a page that answers 404 fails pages-answer-2xx).
  if (row.status === 'fail') return verdict(id, 'fail', row.status, row.detail);
  if (!seen.html && !JUDGED_WITHOUT_HTML.has(id))
    return verdict(id, 'not_evaluated', row.status, pageWithoutHtml(seen));
  if (row.status === 'unverified') return verdict(id, 'not_evaluated', row.status, row.detail);
  if (row.status === 'pass') return verdict(id, 'pass', row.status, row.detail);
  // An info row: a fact, a question not asked of this page, or nothing left to fix.
  if (SPECS.get(`${seen.product}/${id}`)?.severity === 'info')
    return verdict(
      id,
      'not_evaluated',
      row.status,
      `informational: it states a fact and has no pass or fail (${row.detail})`,
    );
  if (seen.product === 'marketing_signal' && ASKED_OF[id] && !row.finding)
    return verdict(id, 'not_evaluated', row.status, `${row.detail} (the kind of site is read from this page alone)`);
  // A weighted check that still reports something to act on (no Content Signals): the finding is there.
  if (row.finding) return verdict(id, 'fail', row.status, row.detail);
  return verdict(id, 'pass', row.status, `nothing to fix: ${row.detail}`);
}
