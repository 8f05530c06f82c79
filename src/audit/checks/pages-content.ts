// ai_readiness page checks of content structure and answerability: the content is in the served
// HTML (an app shell is for a browser to judge), one H1 and headings in order, a main landmark,
// questions answered on the page, and dates that say how fresh it is.
import { unbuiltAfterRendering, whyUnbuilt } from '../app-shell.ts';
import { type CheckResult, fail, info, type Offence, pass, perPage, unverified } from '../checks.ts';
import { axeVerify } from '../citations.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageFacts } from '../html.ts';
import { quote } from '../quote.ts';
import { appShellScripts, homePage, type SiteSnapshot } from '../site.ts';
import { factsOf, type PagesContext } from './pages-context.ts';
import { PAGE_SPECS as S } from './pages-specs.ts';

const THIN_TEXT = 200;
const JSON_LD_DATE = /"(datePublished|dateModified|uploadDate)"\s*:/;

function h1Offences(f: PageFacts): Offence[] {
  const h1s = f.headings.filter((h) => h.level === 1);
  if (h1s.length === 1) return [];
  if (h1s.length === 0) return [{ what: 'no H1' }];
  return [{ what: `${h1s.length} H1s: ${h1s.map((h) => quote(h.text)).join(', ')}` }];
}

const h1Count = (page: CrawledPage) => factsOf(page).headings.filter((h) => h.level === 1).length;

/**
 * One H1 per page. A page with no H1 shown is axe's page-has-heading-one to verify, which sees the
 * page as the browser shows it: the served HTML can hold an H1 that CSS hides (issue 25), which a
 * count of its <h1> tags takes for one. A page with several keeps the spec's count of <h1> tags.
 */
function h1Row(pages: CrawledPage[]): CheckResult {
  const affected = (url: string | undefined) => pages.find((p) => p.url === url);
  const none = pages.filter((p) => h1Count(p) === 0).length > 0;
  const several = pages.some((p) => h1Count(p) > 1);
  const row = perPage(S.h1, pages, h1Offences, {
    ok: 'every page has exactly one H1',
    problem: 'no H1 or more than one',
    title: 'Pages without exactly one H1',
    remediation: 'Give each page one H1 that states its topic; use H2 and below for sections.',
    agentAction: [
      ...(none ? ['Give each page without an <h1> one that states its topic (or show the one CSS hides).'] : []),
      ...(several || !none ? ['Make the page title the only <h1>; turn the other <h1> elements into <h2>.'] : []),
    ].join(' '),
  });
  const first = affected(row.finding?.affectedUrls[0]);
  if (!row.finding || !first || h1Count(first) > 0) return row;
  return { ...row, finding: { ...row.finding, verify: axeVerify(first.url, 'page-has-heading-one') } };
}

function headingOrderOffences(f: PageFacts): Offence[] {
  const offences: Offence[] = [];
  let previous = 0;
  for (const { level, text } of f.headings) {
    if (previous > 0 && level > previous + 1)
      offences.push({ what: `H${level} ${quote(text)} follows an H${previous}` });
    previous = level;
  }
  if (offences.length === 0) return [];
  const sequence = f.headings
    .slice(0, 12)
    .map((h) => `H${h.level}`)
    .join(' ');
  return [...offences, { what: `sequence ${sequence}${f.headings.length > 12 ? ' …' : ''}` }];
}

function textContent(site: SiteSnapshot, pages: CrawledPage[]): CheckResult {
  const home = homePage(site);
  const facts = home?.facts;
  if (!facts) return unverified(S.text, 'the home page has no HTML to read');
  // Still an app shell in the browser (its framework did not load or run): rendered, but not built.
  const unbuilt = unbuiltAfterRendering(home);
  if (facts.textLength >= THIN_TEXT && !unbuilt)
    return pass(
      S.text,
      `${facts.textLength} characters of text in the ${home.rendered ? 'page as Chromium rendered it' : 'served HTML'}`,
    );
  // An app shell (a mount point and scripts from any origin, app-shell.ts) is for a browser to judge.
  const scripts = unbuilt?.shellScripts ?? appShellScripts(home);
  const appShell = scripts > 0;
  const mount = facts.appMount ? ` into its mount point ${quote(facts.appMount)}` : '';
  const served = `the home page serves ${unbuilt?.servedText ?? facts.textLength} characters of text${appShell ? ` and ${scripts} script(s) that build it${mount}` : ''}`;
  const detail = unbuilt
    ? `${served}; rendered in Chromium, it still shows ${facts.textLength} characters: ${facts.appMountEmpty ? `its application left its mount point ${quote(facts.appMount)} empty` : 'its scripts did not build the content'} (${whyUnbuilt(unbuilt)}), so what it shows is unknown`
    : appShell
      ? `${served}: an app shell that only a browser fills`
      : served;
  const ssr =
    'Crawlers and AI agents often read the served HTML without running scripts. Render the main content on the server (SSR or static generation).';
  const input = {
    detail,
    title: appShell ? 'Content only appears after JavaScript runs' : 'Almost no content on the home page',
    remediation: unbuilt
      ? `${ssr} The audit’s browser could not build the page either: check that its scripts load for visitors and crawlers.`
      : appShell
        ? ssr
        : 'Add real text content: what the site offers, for whom, and how to act.',
    agentAction: appShell
      ? 'Enable server-side rendering or pre-rendering for the main routes so the HTML response already contains headings and body text.'
      : 'Add descriptive headings and paragraphs to the home page template.',
    affectedUrls: [home.url, ...pages.filter((p) => factsOf(p).textLength < THIN_TEXT).map((p) => p.url)],
    evidence: [{ type: 'page' as const, url: home.url, summary: detail }],
  };
  // Only a browser that built the page could tell what an app shell shows; the claim is unverified (spec 2.4 scoreStatus).
  return appShell ? { ...fail(S.text, { ...input, confidence: 'low' }), status: 'unverified' } : fail(S.text, input);
}

export function contentRows({ site, pages, home }: PagesContext): CheckResult[] {
  const questionHeadings = pages.flatMap((p) =>
    factsOf(p)
      .headings.filter((h) => h.text.endsWith('?'))
      .map(() => p.url),
  );
  const faqMarkup = pages.some((p) => factsOf(p).jsonLd.some((j) => /"FAQPage"/.test(j)));
  const dated = pages.some(
    (p) =>
      factsOf(p).jsonLd.some((j) => JSON_LD_DATE.test(j)) ||
      factsOf(p).metas.some((m) => m.name === 'article:published_time' || m.name === 'article:modified_time'),
  );
  return [
    textContent(site, pages),
    h1Row(pages),
    perPage(S.headingOrder, pages, headingOrderOffences, {
      ok: 'heading levels do not skip',
      problem: 'a heading level is skipped (for example H1 then H3)',
      title: 'Heading levels skip',
      remediation: 'Nest headings in order (H1, H2, H3) so the outline reads as a table of contents.',
      agentAction: 'Change skipped heading levels to the next level down (an <h3> right after an <h1> becomes <h2>).',
    }),
    perPage(
      S.main,
      pages,
      (f) =>
        // The agent view of a rendered page reports the missing main landmark too (one defect).
        f.landmarks.has('main') ? [] : [{ what: 'no <main> element or role="main"', defect: 'landmark', role: 'main' }],
      {
        ok: 'every page has a <main> landmark',
        problem: 'no <main> element or role="main"',
        title: 'No main landmark',
        remediation: 'Wrap the primary content in <main> so agents and screen readers find it without the navigation.',
        agentAction: 'Wrap each page’s primary content in a single <main> element in the layout.',
      },
    ),
    info(S.questions, {
      finding: questionHeadings.length === 0 && !faqMarkup,
      detail:
        questionHeadings.length > 0 || faqMarkup
          ? `${questionHeadings.length} question heading(s)${faqMarkup ? ' and FAQPage markup' : ''}`
          : 'no question headings or FAQ markup',
      title: 'No question-and-answer content',
      remediation:
        'Answer engines favour pages that state common questions as headings and answer them right below; mark them up with FAQPage where they are an FAQ.',
      agentAction:
        'Add an FAQ section with the customers’ real questions as <h2>/<h3> headings, each followed by a direct answer paragraph.',
      affectedUrls: [home.url],
    }),
    dated
      ? pass(S.dates, 'dates found in structured data or meta tags')
      : fail(S.dates, {
          detail: 'no datePublished or dateModified in structured data, nor article time meta tags',
          title: 'No content dates',
          remediation:
            'State when content was published and updated (datePublished, dateModified in JSON-LD) so answer engines can judge freshness.',
          agentAction: 'Add "datePublished" and "dateModified" to the page’s Article or WebPage JSON-LD.',
          affectedUrls: pages.map((p) => p.url),
          confidence: 'medium',
        }),
  ];
}
