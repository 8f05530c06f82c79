// The marketing checks' own readers of site text (issue 25: the tracker catalogue, the contact
// detector, the site-kind reading, the words in many languages) against hostile pages of half a
// mebibyte: each finishes within the bound the parser fuzz tests hold (2 s at 500 KiB) and never
// throws. Each input aims at one scan: runs of what it looks for that never complete a match.
import { describe, expect, it } from 'vitest';
import { findContacts } from '../../src/audit/checks/contact.ts';
import { marketingChecks } from '../../src/audit/checks/marketing.ts';
import { readSiteKind } from '../../src/audit/checks/site-kind.ts';
import { findConsentManagers } from '../../src/audit/consent-managers.ts';
import type { CrawledPage } from '../../src/audit/crawler.ts';
import { parseHtml } from '../../src/audit/html.ts';
import type { SiteSnapshot } from '../../src/audit/site.ts';
import { findTrackers } from '../../src/audit/trackers.ts';

const ORIGIN = 'https://site.example';
const KiB = 1024;
const HUGE = 512 * KiB;
const run = (unit: string) => unit.repeat(Math.floor(HUGE / unit.length));
const boundFor = (length: number) => 250 + (length / KiB) * 3.5;

function siteOf(html: string): SiteSnapshot {
  const page: CrawledPage = {
    url: `${ORIGIN}/`,
    isHtml: true,
    fetched: {
      requestedUrl: `${ORIGIN}/`,
      url: `${ORIGIN}/`,
      status: 200,
      headers: { 'content-type': 'text/html' },
      setCookies: [],
      body: html,
      bytes: html.length,
      truncated: false,
      redirects: [],
      ttfbMs: 1,
    },
    facts: parseHtml(html),
  };
  return { startUrl: `${ORIGIN}/`, origin: ORIGIN, local: false, pages: [page], disallowed: [] };
}

const HOSTILE: Array<[what: string, html: string]> = [
  ['consent calls that never say default', `<script>${run("gtag( 'consent' ,")}</script>`],
  ['spaces after a consent call', `<script>gtag('consent'${run(' ')}</script>`],
  ['ids without an end', `<script>gtag(${run('G-ABCDEF')}</script>`],
  ['pixel calls with no id', `<script>${run("fbq( 'init' , '")}</script>`],
  ['tracker marks everywhere', `<script>${run('_paq.push static.hotjar.com clarity.ms/ ')}</script>`],
  ['mailto: schemes without an attribute', `<p>${run('a mailto:')}</p>`],
  ['tel: after long runs of spaces', `<p>${run('=          tel:')}</p>`],
  ['postal marks without a code', `<p>${run('〒1')}</p>`],
  ['article and time openers', run('<article><time>')],
  [
    'contact words that never start a word',
    `<a href="/x">${'xcontact'.repeat(12)}</a>${run('<a href="/acontactb">xcontactx</a>')}`,
  ],
  ['links with long encoded paths', run(`<a href="/${'%E3%81%8A'.repeat(200)}">お</a>`)],
  ['an H1 of wide characters', `<h1>${run('問')}</h1>`],
];

describe('the marketing readers on hostile pages', () => {
  it.each(HOSTILE)('read %s in linear time', async (_, html) => {
    const site = siteOf(html);
    const pages = site.pages;
    const started = performance.now();
    findTrackers(pages);
    findConsentManagers(pages);
    findContacts(pages);
    readSiteKind(site);
    const rows = await marketingChecks(site, false);
    const ms = performance.now() - started;
    expect(rows.length).toBeGreaterThan(20);
    expect(ms).toBeLessThan(boundFor(html.length));
  });
});
