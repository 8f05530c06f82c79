// What every marketing check reads, worked out once per audit: the home page, the pages, their
// links and structured data, the kind of site, and the ways to reach it. Also the rules every
// marketing row follows: a question that does not fit the kind of site is not asked, a content
// check cannot fail an app shell (only be unverified), and every finding carries evidence.
import {
  type CheckResult,
  type CheckSpec,
  type Evidence,
  type FailInput,
  fail,
  note,
  type Offence,
  pageEvidence,
  pass,
} from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageFacts, PageLink } from '../html.ts';
import { homePage, htmlPages, type SiteSnapshot } from '../site.ts';
import { type ContactSignal, declaredLanguages, findContacts } from './contact.ts';
import { ASKED_OF } from './marketing-specs.ts';
import { kindPhrase, type SiteKindReading } from './site-kind.ts';
import { type JsonLdNode, jsonLdNodes } from './structured-data.ts';

export interface MarketingContext {
  site: SiteSnapshot;
  home: CrawledPage;
  facts: PageFacts;
  url: string;
  pages: CrawledPage[];
  /** Every link of every page, with the page it is on. */
  anchors: Array<PageLink & { page: string }>;
  nodes: JsonLdNode[];
  kind: SiteKindReading;
  contacts: ContactSignal[];
  /** The languages the pages declare, for what a finding says it read. */
  languages: string[];
  appShell: boolean;
}

export function marketingContext(
  site: SiteSnapshot,
  appShell: boolean,
  kind: SiteKindReading,
): MarketingContext | undefined {
  const home = homePage(site);
  if (!home?.facts) return undefined;
  const pages = htmlPages(site);
  return {
    site,
    home,
    facts: home.facts,
    url: home.url,
    pages,
    anchors: pages.flatMap((p) => (p.facts?.anchors ?? []).map((a) => ({ ...a, page: p.url }))),
    nodes: pages.flatMap((p) => jsonLdNodes(p).nodes),
    kind,
    contacts: findContacts(pages),
    languages: declaredLanguages(pages),
    appShell,
  };
}

/** What a check judged, as evidence: the text it read, on the page it read it. */
export const judged = (url: string, summary: string): Evidence => ({ type: 'page', url, summary });

/**
 * What a check read and the elements it read, as evidence: `problem: “a”; “b”` with the elements,
 * or, with nothing to list, `none` (or `problem` alone) as a sentence of its own, never a sentence
 * ending on a colon.
 */
export const readEvidence = (url: string, problem: string, offences: readonly Offence[], none = problem): Evidence =>
  offences.length > 0 ? pageEvidence(url, problem, offences) : judged(url, none);

/** A check's row: pass, or a finding that must carry evidence. */
export function result(
  spec: CheckSpec,
  ok: boolean,
  okDetail: string,
  problem: FailInput & { evidence: Evidence[] },
): CheckResult {
  return ok ? pass(spec, okDetail) : fail(spec, problem);
}

/** Content checks cannot be judged from an app shell: a browser would have to render it. */
export function content(ctx: MarketingContext, row: CheckResult): CheckResult {
  return ctx.appShell && row.status === 'fail' ? { ...row, status: 'unverified' } : row;
}

/** Whether the check fits the kind of site (ASKED_OF); a check asked of every site always does. */
export const asks = (ctx: MarketingContext, spec: CheckSpec): boolean =>
  ASKED_OF[spec.id]?.kinds.includes(ctx.kind.kind) ?? true;

/** The row of a question that does not fit the site: informational, naming the kind and why. */
export const notAsked = (ctx: MarketingContext, spec: CheckSpec, why: string): CheckResult =>
  note(spec, `not asked of ${kindPhrase(ctx.kind)}: ${why}`);

/** Where the site's text was read, for evidence: pages, and the languages they declare. */
export function readWhere(ctx: MarketingContext): string {
  const languages = ctx.languages.length > 0 ? ` (declared language: ${ctx.languages.join(', ')})` : '';
  return `${ctx.pages.length} page(s)${languages}`;
}
