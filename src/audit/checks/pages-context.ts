// What every page check reads (the site, its HTML pages, the first of them), and the two helpers
// the page checks of every category share, so each category's module stands on its own.
import type { Offence } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageFacts } from '../html.ts';
import type { SiteSnapshot } from '../site.ts';

export interface PagesContext {
  site: SiteSnapshot;
  /** The crawled pages that are HTML (htmlPages), at least one. */
  pages: CrawledPage[];
  /** The first of `pages`. */
  home: CrawledPage;
}

/** A page's facts: every page of `htmlPages` has them. */
export const factsOf = (page: CrawledPage) => page.facts as PageFacts;

/** The page's own defect, which no single element carries (a missing title, language, landmark). */
export const whole = (bad: boolean, what: string): Offence[] => (bad ? [{ what }] : []);
