// The fixtures of the verify-line test (verify-lines.test.ts): for every check that has a verify
// line, a page (or a host, a DNS zone, a certificate) with the defect and the same thing fixed, and
// what the line prints in each case by its kind's convention (docs/scoring.md, "Verify lines").
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { EngineProduct } from '../../src/audit/index.ts';
import type { Zone } from '../support/dns-server.ts';
import type { FixtureRoute } from '../support/fixture-site.ts';
import type { VerifyResult } from '../support/verify-env.ts';
import { VITALS_FIXTURES, type VitalsFixture } from '../support/vitals-pages.ts';

export type Routes = Record<string, FixtureRoute>;

/**
 * How a page writes its attributes: double-quoted, single-quoted, bare as minifiers write them, or
 * double-quoted one a line as formatters (Prettier) write long tags.
 */
export type Style = 'double' | 'single' | 'unquoted' | 'multiline';
export const STYLES: readonly Style[] = ['double', 'single', 'unquoted', 'multiline'];

const QUOTE: Record<Style, string> = { double: '"', single: "'", unquoted: '', multiline: '"' };
const BARE = /^[^\s"'=<>`]+$/;

/**
 * Attributes in a style. Single-quoted and unquoted ones come in reverse order, so every pattern
 * meets its key attribute both first and last; a value a minifier could not leave bare keeps quotes.
 */
export function attrs(style: Style, pairs: ReadonlyArray<readonly [string, string]>): string {
  const ordered = style === 'double' || style === 'multiline' ? pairs : [...pairs].reverse();
  const gap = style === 'multiline' ? '\n    ' : ' ';
  return ordered
    .map(([name, value]) => {
      const q = style === 'unquoted' && !BARE.test(value) ? '"' : QUOTE[style];
      return `${gap}${name}=${q}${value}${q}`;
    })
    .join('');
}

/** An element in a style; without content it is a void element (meta, link, img, input). */
export const el = (style: Style, name: string, pairs: ReadonlyArray<readonly [string, string]>, content?: string) =>
  content === undefined ? `<${name}${attrs(style, pairs)}>` : `<${name}${attrs(style, pairs)}>${content}</${name}>`;

/** A whole document: doctype, <html lang>, a title, then the head and body given. */
export function doc(
  head: string,
  body: string,
  options: { lang?: string | null; doctype?: boolean; title?: string | null } = {},
): string {
  const lang = options.lang === null ? '' : ` lang="${options.lang ?? 'en'}"`;
  const title =
    options.title === null ? '' : `<title>${options.title ?? 'Forged garden tools for small farms'}</title>`;
  return `${options.doctype === false ? '' : '<!doctype html>'}<html${lang}><head><meta charset="utf-8">${title}${head}</head><body>${body}</body></html>`;
}

/** A document with a main landmark and one H1 around `inner`. */
export const page = (head: string, inner: string) =>
  doc(head, `<main><h1>Forged garden tools for small farms</h1>${inner}</main>`);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
  res.end(PNG);
};
const text = (body: string, type = 'text/plain; charset=utf-8'): FixtureRoute => ({
  headers: { 'content-type': type },
  body,
});
const LONG_TEXT = `<p>${'We forge garden tools by hand for small farms, and ship them across the country. '.repeat(5)}</p>`;
/** A street address alone: a way to find the business, not a path to a conversation (mk-contact-or-booking). */
const SMITHY_ADDRESS = '<address>12 Forge Lane, Springfield</address>';

// What a line prints, by kind (docs/scoring.md, "Verify lines"): each kind says when the output
// shows the defect and when it passes.
export type ConventionKind = 'offender' | 'presence' | 'value' | 'status' | 'axe' | 'lighthouse';
export interface Convention {
  kind: ConventionKind;
  defect: (r: VerifyResult) => boolean;
  fixed: (r: VerifyResult) => boolean;
}

const printed = (r: VerifyResult) => r.stdout.trim() !== '';
const test = (pattern: RegExp | ((out: string) => boolean)) => (r: VerifyResult) =>
  typeof pattern === 'function' ? pattern(r.stdout) : pattern.test(r.stdout);

/** Lines for something that must go: they print it (the offending markup, header or record); nothing once fixed. */
export const offender = (shows?: RegExp): Convention => ({
  kind: 'offender',
  defect: (r) => printed(r) && (!shows || shows.test(r.stdout)),
  fixed: (r) => !printed(r),
});

/** Lines for something that must be there: nothing (or curl's error) while it is missing; it, once there. */
export const presence = (shows?: RegExp): Convention => ({
  kind: 'presence',
  defect: (r) => !printed(r),
  fixed: (r) => printed(r) && (!shows || shows.test(r.stdout)),
});

/** Lines that print the value the check reads (a tag, a header, a file, a record): the defect is in it. */
export const value = (
  defect: RegExp | ((out: string) => boolean),
  fixed: RegExp | ((out: string) => boolean),
): Convention => ({ kind: 'value', defect: test(defect), fixed: test(fixed) });

/** Lines that print an HTTP status code: the failing code before, 200 after. */
export const status = (before: number, after = 200): Convention => ({
  kind: 'status',
  defect: (r) => r.stdout.trim() === String(before),
  fixed: (r) => r.stdout.trim() === String(after),
});

/** `npx @axe-core/cli URL --rules ...`: "N Accessibility issues detected." before, "0 violations found!" after. */
export const axeKind: Convention = {
  kind: 'axe',
  defect: (r) => /\b[1-9]\d* Accessibility issues detected\./.test(r.stdout),
  fixed: (r) => /\b0 violations found!/.test(r.stdout),
};

const score = (out: string) => /"score": (null|[\d.]+)/.exec(out)?.[1];
/** `npx lighthouse ... | grep -A3 '"id": "audit"'`: the audit's "score" below 1 before, 1 after (null: nothing to judge). */
export const lighthouseKind: Convention = {
  kind: 'lighthouse',
  defect: (r) => {
    const s = score(r.stdout);
    return s !== undefined && s !== 'null' && Number(s) < 1;
  },
  fixed: (r) => {
    const s = score(r.stdout);
    return s === '1' || s === 'null';
  },
};

const numericValue = (out: string) => /"numericValue": (-?[\d.]+)/.exec(out)?.[1];
/**
 * A lab metric's line (checks/vitals.ts): Lighthouse's `numericValue` of the audit, over the good
 * threshold before the fix, at or under it after (the fixtures keep far from it: a lab value moves
 * between runs).
 */
export const labMetric = (good: number): Convention => ({
  kind: 'lighthouse',
  defect: (r) => {
    const v = numericValue(r.stdout);
    return v !== undefined && Number(v) > good;
  },
  fixed: (r) => {
    const v = numericValue(r.stdout);
    return v !== undefined && Number(v) <= good;
  },
});

/** What a check says once fixed: it passes, it informs with no finding, or its informational finding stays. */
export type After = 'pass' | 'info' | 'informs';

/** A case whose page is served on loopback over plain HTTP (fixture-site.ts). */
export interface PageCase {
  check: string;
  /** Which failure of the check the fixture shows, when a check has several. */
  mode?: string;
  product: EngineProduct;
  shows: Convention;
  /** The line reads markup: the fixture runs in each attribute style (double, single, unquoted). */
  styles?: boolean;
  /** An informational check that never gives a finding: the line is the catalogue's, filled for the page. */
  noFinding?: boolean;
  /** The check judges the rendered page (Chromium). */
  render?: boolean;
  /** The case runs by itself, no other case at the same time: it measures timing (Core Web Vitals). */
  alone?: boolean;
  /** The finding carries a line of its own in place of the catalogue's (FailInput `verify`). */
  ownLine?: boolean;
  /** What the check says once fixed: pass (default), info without a finding, or an informational finding still. */
  after?: After;
  site: (style: Style) => { before: Routes; after: Routes };
}

/** A host of the secure fixture: HTTPS and HTTP routes, its certificate, its DNS zones. */
export interface HostSetup {
  https?: Routes;
  http?: Routes;
  /** The certificate: for other names, expiring in `days`, an RSA key of `rsaBits`. */
  cert?: { names?: string[]; days?: number; rsaBits?: number };
  /** Served by a server that still accepts TLS 1.0 and 1.1. */
  legacyTls?: boolean;
  /** DNS zones besides the host's A record (names relative to the host: '' is the host itself). */
  zones?: Record<string, Zone>;
  /** More hosts under this one (`mta-sts`), each with its routes. */
  subhosts?: Record<string, { https: Routes }>;
}

/** A case on named hosts over HTTPS, with our DNS server and CA (secure-sites.ts). */
export interface SecureCase {
  check: string;
  mode?: string;
  product: EngineProduct;
  shows: Convention;
  styles?: boolean;
  noFinding?: boolean;
  after?: After;
  /** The audit starts at http:// (a check of whether the site serves HTTPS at all). */
  plainStart?: boolean;
  host: (style: Style, name: string) => { before: HostSetup; after: HostSetup };
}

const seeOther = (location: string): FixtureRoute => ({ status: 301, headers: { location } });
const toHttps = (name: string): Routes => ({ '/': seeOther(`https://${name}/`) });
const securePage = (inner: string) => page('', inner);

/**
 * A Japanese site's fix (issue 25): a link to its contact page, お問い合わせ, which the contact
 * checks and the call to action read from their word lists, and their lines from the same lists.
 * `shown`: what the page already has (a postal address reaches the business, but is no conversation).
 */
const japaneseContact = (check: string, shown = ''): PageCase => ({
  check,
  mode: 'Japanese link',
  product: 'marketing_signal',
  styles: true,
  shows: presence(/お問い合わせ/),
  site: (s) => ({
    before: { '/': { body: page('', `${LONG_TEXT}${shown}<a href="/kaisha.html">会社概要</a>`) } },
    after: {
      '/': {
        body: page(
          '',
          `${LONG_TEXT}${shown}${el(
            s,
            'a',
            [
              ['href', '/toiawase.html'],
              ['class', 'nav'],
            ],
            'お問い合わせ',
          )}`,
        ),
      },
    },
  }),
});

/** The Core Web Vitals of both reports on the fixture page poor in each, rendered and measured (vitals-pages.ts). */
const VITALS_CASES: PageCase[] = (
  [
    ['lcp', 'largest-contentful-paint', 2500],
    ['cls', 'cumulative-layout-shift', 0.1],
    ['tbt', 'total-blocking-time', 200],
  ] as const
).flatMap(([poor, id, good]) => {
  const fixture = VITALS_FIXTURES.find((f) => f.poor === poor) as VitalsFixture;
  const site = () => ({ before: fixture.before, after: fixture.after });
  return [
    { check: id, product: 'ai_readiness' as const, render: true, alone: true, shows: labMetric(good), site },
    {
      check: `mk-${id}`,
      product: 'marketing_signal' as const,
      render: true,
      alone: true,
      shows: labMetric(good),
      site,
    },
  ];
});

// AI readiness and marketing signal on plain loopback pages.
export const PAGE_CASES: PageCase[] = [
  {
    check: 'robots-txt-valid',
    mode: 'invalid line',
    product: 'ai_readiness',
    shows: value(/Disalow: \/private/, (out) => !/Disalow/.test(out) && /Disallow: \/private/.test(out)),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': text('User-agent: *\nDisalow: /private\n') },
      after: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': text('User-agent: *\nDisallow: /private\n') },
    }),
  },
  {
    check: 'robots-txt-valid',
    mode: 'missing',
    product: 'ai_readiness',
    shows: presence(/User-agent/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': text('User-agent: *\nAllow: /\n') },
    }),
  },
  {
    check: 'robots-allows-search',
    product: 'ai_readiness',
    // CRLF line ends, as many servers send robots.txt; another agent's group stays refused after the fix.
    shows: value(/User-agent: \*/i, (out) => !/User-agent: \*/i.test(out)),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': text('User-agent: *\r\nDisallow: /\r\n') },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: BadBot\r\nDisallow: /\r\n\r\nUser-agent: *\r\nAllow: /\r\n'),
      },
    }),
  },
  {
    check: 'robots-allows-ai-answer-bots',
    product: 'ai_readiness',
    shows: value(/Disallow: \//, (out) => !/Disallow: \//.test(out) && /OAI-SearchBot/.test(out)),
    site: () => ({
      before: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text(
          'User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
        ),
      },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text(
          'User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nAllow: /\n\nUser-agent: *\nAllow: /\n',
        ),
      },
    }),
  },
  {
    check: 'ai-access-by-purpose',
    product: 'ai_readiness',
    after: 'informs',
    // Before: AI search refused while training is allowed (the finding calls it unintended).
    shows: value(/PerplexityBot/, (out) => !/PerplexityBot/.test(out) && /GPTBot/.test(out)),
    site: () => ({
      before: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'),
      },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'),
      },
    }),
  },
  {
    check: 'ai-agents-answered',
    product: 'ai_readiness',
    shows: status(403),
    site: () => {
      const body = page('', LONG_TEXT);
      return {
        before: {
          '/': (req, res) => {
            const agent = req.headers['user-agent'] ?? '';
            res.writeHead(/ChatGPT-User/.test(agent) ? 403 : 200, { 'content-type': 'text/html' });
            res.end(/ChatGPT-User/.test(agent) ? 'Forbidden' : body);
          },
        },
        after: { '/': { body } },
      };
    },
  },
  {
    check: 'robots-training-crawlers',
    product: 'ai_readiness',
    after: 'informs',
    shows: presence(/GPTBot/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': text('User-agent: *\nAllow: /\n') },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'),
      },
    }),
  },
  {
    check: 'sitemap-valid',
    mode: 'missing',
    product: 'ai_readiness',
    shows: presence(/<urlset/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/sitemap.xml': text(
          '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>SELF/</loc></url></urlset>',
          'application/xml',
        ),
      },
    }),
  },
  {
    check: 'sitemap-valid',
    mode: 'declared in robots.txt, relative <loc>',
    product: 'ai_readiness',
    shows: value(/<loc>\/about<\/loc>/, (out) => !/<loc>\//.test(out) && /<loc>http/.test(out)),
    site: () => {
      const robots = text('User-agent: *\nAllow: /\nSitemap: SELF/maps/site.xml\n');
      const map = (loc: string) =>
        text(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${loc}</loc></url></urlset>`,
          'application/xml',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': robots, '/maps/site.xml': map('/about') },
        after: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': robots, '/maps/site.xml': map('SELF/about') },
      };
    },
  },
  {
    check: 'sitemap-valid',
    mode: 'gzip, declared in robots.txt, relative <loc>',
    product: 'ai_readiness',
    shows: value(/<loc>\/about<\/loc>/, (out) => !/<loc>\//.test(out) && /<loc>http/.test(out)),
    site: () => {
      const robots = text('User-agent: *\nAllow: /\nSitemap: SELF/sitemap.xml.gz\n');
      // Gzip bytes hold the origin, so the handler writes them for the host asked (SELF is text only).
      const map =
        (loc: string): FixtureRoute =>
        (req, res) => {
          const self = `http://${req.headers.host}`;
          const body = gzipSync(
            `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${loc.replace('SELF', self)}</loc></url></urlset>`,
          );
          res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length });
          res.end(body);
        };
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': robots, '/sitemap.xml.gz': map('/about') },
        after: { '/': { body: page('', LONG_TEXT) }, '/robots.txt': robots, '/sitemap.xml.gz': map('SELF/about') },
      };
    },
  },
  {
    check: 'sitemap-urls-live',
    product: 'ai_readiness',
    shows: status(404),
    site: () => {
      const map = text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>SELF/</loc></url><url><loc>SELF/gone</loc></url></urlset>',
        'application/xml',
      );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/sitemap.xml': map },
        after: { '/': { body: page('', LONG_TEXT) }, '/sitemap.xml': map, '/gone': { body: page('', LONG_TEXT) } },
      };
    },
  },
  {
    check: 'llms-txt',
    product: 'ai_readiness',
    shows: value(/^HTTP\/[\d.]+ 404/m, /^HTTP\/[\d.]+ 200[\s\S]*# Forged tools/m),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/llms.txt': text(
          '# Forged tools\n\n> Hand-forged garden tools for small farms, made and shipped by one smithy.\n\n## Docs\n\n- [Home](SELF/): what we make\n',
        ),
      },
    }),
  },
  {
    check: 'pages-indexable',
    mode: 'meta robots',
    product: 'ai_readiness',
    styles: true,
    shows: offender(/noindex/i),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['name', 'robots'],
              ['content', 'noindex,follow'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['name', 'robots'],
              ['content', 'index,follow'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'pages-indexable',
    mode: 'X-Robots-Tag',
    product: 'ai_readiness',
    shows: offender(/x-robots-tag: noindex/i),
    site: () => ({
      before: { '/': { headers: { 'x-robots-tag': 'noindex' }, body: page('', LONG_TEXT) } },
      after: { '/': { headers: { 'x-robots-tag': 'max-snippet:50' }, body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'pages-answer-2xx',
    product: 'ai_readiness',
    shows: status(404),
    site: () => ({
      before: { '/': { body: page('', `${LONG_TEXT}<a href="/missing">Our tools</a>`) } },
      after: {
        '/': { body: page('', `${LONG_TEXT}<a href="/missing">Our tools</a>`) },
        '/missing': { body: page('', LONG_TEXT) },
      },
    }),
  },
  {
    check: 'home-redirect-chain',
    product: 'ai_readiness',
    shows: value(
      (out) => (out.match(/^HTTP\//gim) ?? []).length > 2,
      (out) => (out.match(/^HTTP\//gim) ?? []).length <= 2,
    ),
    site: () => ({
      before: { '/': seeOther('/start'), '/start': seeOther('/home'), '/home': { body: page('', LONG_TEXT) } },
      after: { '/': seeOther('/home'), '/start': seeOther('/home'), '/home': { body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'title-present',
    product: 'ai_readiness',
    shows: value(
      (out) => !/<title[^>]*>[^<]*\S[^<]*<\/title>/i.test(out),
      (out) => out.trim().split('\n').length === 1 && /<title>\s*Forged garden tools\s*<\/title>/.test(out),
    ),
    site: () => ({
      before: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`, { title: '' }) } },
      // A title written over three lines, as templates often do.
      after: {
        '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`, { title: '\n  Forged garden tools\n' }) },
      },
    }),
  },
  {
    check: 'meta-description',
    product: 'ai_readiness',
    styles: true,
    shows: presence(/description/i),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['name', 'descriptionless'],
              ['content', 'x'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'Hand-forged garden tools for small farms, shipped within a week.'],
              ['name', 'description'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'canonical-absolute',
    product: 'ai_readiness',
    styles: true,
    shows: value(
      (out) => !/href=["']?https?:\/\//i.test(out),
      (out) => /href=["']?https?:\/\//i.test(out),
    ),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'link', [
              ['rel', 'canonical'],
              ['href', '/'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'link', [
              ['href', 'SELF/'],
              ['rel', 'canonical'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'html-lang',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`, { lang: null }) } },
      after: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`) } },
    }),
  },
  {
    check: 'hreflang-valid',
    product: 'ai_readiness',
    shows: lighthouseKind,
    site: () => ({
      before: { '/': { body: page('<link rel="alternate" hreflang="english" href="/en">', LONG_TEXT) } },
      after: { '/': { body: page('<link rel="alternate" hreflang="en" href="SELF/">', LONG_TEXT) } },
    }),
  },
  {
    check: 'content-in-html',
    product: 'ai_readiness',
    shows: value(
      (out) => out.trim().length < 150,
      (out) => out.trim().length >= 200,
    ),
    site: () => ({
      before: { '/': { body: page('', '<p>Tools.</p>') } },
      after: { '/': { body: page('', `${LONG_TEXT}${LONG_TEXT}`) } },
    }),
  },
  {
    check: 'single-h1',
    product: 'ai_readiness',
    styles: true,
    shows: value(/^\s*2\s*$/, /^\s*1\s*$/),
    site: (s) => ({
      before: {
        '/': {
          body: doc('', `<main>${el(s, 'h1', [['class', 'page-title']], 'Tools')}<h1>Hoes</h1>${LONG_TEXT}</main>`),
        },
      },
      after: {
        '/': {
          body: doc('', `<main>${el(s, 'h1', [['class', 'page-title']], 'Tools')}<h2>Hoes</h2>${LONG_TEXT}</main>`),
        },
      },
    }),
  },
  {
    check: 'single-h1',
    mode: 'only H1 hidden by CSS, rendered',
    product: 'ai_readiness',
    render: true,
    // The served HTML holds one <h1>; the browser shows none. The finding's line is axe's
    // page-has-heading-one, which sees the page as the browser shows it.
    ownLine: true,
    shows: axeKind,
    site: () => {
      const body = (css: string) =>
        doc(`<style>${css}</style>`, `<main><h1 class="page-title">Tools</h1><h2>Hoes</h2>${LONG_TEXT}</main>`);
      return {
        before: { '/': { body: body('.page-title{display:none}') } },
        after: { '/': { body: body('.page-title{font-size:2rem}') } },
      };
    },
  },
  {
    check: 'heading-order',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<h3>Hoes</h3>${LONG_TEXT}`) } },
      after: { '/': { body: page('', `<h2>Hoes</h2>${LONG_TEXT}`) } },
    }),
  },
  {
    check: 'main-landmark',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: doc('', `<div><h1>Tools</h1>${LONG_TEXT}</div>`) } },
      after: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`) } },
    }),
  },
  {
    check: 'answerable-content',
    product: 'ai_readiness',
    styles: true,
    after: 'info',
    shows: presence(/\?/),
    site: (s) => ({
      before: { '/': { body: page('', `${el(s, 'h2', [['class', 'q']], 'Delivery')}${LONG_TEXT}`) } },
      after: {
        '/': { body: page('', `${el(s, 'h2', [['class', 'q']], 'How long does delivery take?')}${LONG_TEXT}`) },
      },
    }),
  },
  {
    check: 'content-dates',
    product: 'ai_readiness',
    styles: true,
    shows: presence(/article:published_time/i),
    site: (s) => ({
      before: { '/': { body: page('', `<time datetime="2024-05-01">1 May 2024</time>${LONG_TEXT}`) } },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['property', 'article:published_time'],
              ['content', '2024-05-01'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'image-alt',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: {
        '/': { body: page('', `<img src="/trowel.png" width="1" height="1">${LONG_TEXT}`) },
        '/trowel.png': png,
      },
      after: {
        '/': { body: page('', `<img src="/trowel.png" width="1" height="1" alt="Hand-forged trowel">${LONG_TEXT}`) },
        '/trowel.png': png,
      },
    }),
  },
  {
    check: 'link-name',
    mode: 'empty link',
    product: 'ai_readiness',
    shows: value(
      (out) => /[1-9]\d* Accessibility issues detected/.test(out),
      (out) => /0 violations found!/.test(out) && !/<a[\s>]/i.test(out),
    ),
    site: () => ({
      before: {
        '/': { body: page('', `<a href="/cart"><img src="/cart.png" alt=""></a>${LONG_TEXT}`) },
        '/cart.png': png,
      },
      after: {
        '/': { body: page('', `<a href="/cart" aria-label="Cart"><img src="/cart.png" alt=""></a>${LONG_TEXT}`) },
        '/cart.png': png,
      },
    }),
  },
  {
    check: 'link-name',
    mode: 'generic text',
    product: 'ai_readiness',
    styles: true,
    // axe passes "here"; the grep after it prints the link.
    shows: value(
      (out) => /<a[^>]*>\s*here\s*<\/a>/i.test(out),
      (out) => /0 violations found!/.test(out) && !/<a[\s>]/i.test(out),
    ),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `<p>Our delivery terms are ${el(
              s,
              'a',
              [
                ['href', '/delivery'],
                ['class', 'more'],
              ],
              'here',
            )}.</p>${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `<p>Read ${el(
              s,
              'a',
              [
                ['href', '/delivery'],
                ['class', 'more'],
              ],
              'our delivery terms',
            )}.</p>${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'form-labels',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: {
        '/': {
          body: page('', `<form action="/s"><input type="text" name="q"><button>Search</button></form>${LONG_TEXT}`),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `<form action="/s"><label for="q">Search</label><input id="q" type="text" name="q"><button>Search</button></form>${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'form-labels',
    mode: 'unnamed select',
    product: 'ai_readiness',
    // axe's select-name, not its label rule, fails a <select>: the line runs both.
    shows: axeKind,
    site: () => {
      const form = (label: string, id: string) =>
        page(
          '',
          `<form action="/cart">${label}<select${id} name="size"><option>Small</option><option>Large</option></select><button>Add</button></form>${LONG_TEXT}`,
        );
      return {
        before: { '/': { body: form('', '') } },
        after: { '/': { body: form('<label for="size">Size</label>', ' id="size"') } },
      };
    },
  },
  {
    check: 'button-name',
    mode: 'input button, rendered',
    product: 'ai_readiness',
    render: true,
    // axe's input-button-name, not its button-name rule, fails an <input type="submit" value="">.
    shows: axeKind,
    site: () => {
      const form = (value: string) =>
        page('', `<form action="/news"><input type="submit" value="${value}"></form>${LONG_TEXT}`);
      return { before: { '/': { body: form('') } }, after: { '/': { body: form('Subscribe') } } };
    },
  },
  {
    check: 'button-name',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<button class="close" type="button"></button>${LONG_TEXT}`) } },
      after: {
        '/': { body: page('', `<button class="close" type="button" aria-label="Close">×</button>${LONG_TEXT}`) },
      },
    }),
  },
  {
    check: 'crawlable-links',
    product: 'ai_readiness',
    styles: true,
    shows: offender(/javascript:/i),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'a',
              [
                ['href', 'javascript:void(0);'],
                ['class', 'menu'],
              ],
              'Menu',
            )}${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'a',
              [
                ['href', '/menu'],
                ['class', 'menu'],
              ],
              'Menu',
            )}${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'autocomplete-valid',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => {
      const form = (token: string) =>
        page(
          '',
          `<form action="/subscribe"><label for="e">Email</label><input id="e" type="email" name="email" autocomplete="${token}"><button type="submit">Subscribe</button></form>${LONG_TEXT}`,
        );
      return { before: { '/': { body: form('emial') } }, after: { '/': { body: form('email') } } };
    },
  },
  {
    check: 'webmcp-tools',
    product: 'ai_readiness',
    noFinding: true,
    after: 'info',
    styles: true,
    shows: presence(/toolname/i),
    site: (s) => ({
      before: { '/': { body: page('', `<form action="/s"><input name="q" aria-label="Search"></form>${LONG_TEXT}`) } },
      after: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'form',
              [
                ['toolname', 'search'],
                ['tooldescription', 'Search the catalogue'],
                ['action', '/s'],
              ],
              '<input name="q" aria-label="Search">',
            )}${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'markdown-alternates',
    product: 'ai_readiness',
    noFinding: true,
    after: 'info',
    styles: true,
    shows: presence(/text\/markdown/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            el(s, 'link', [
              ['rel', 'alternate'],
              ['type', 'text/markdown'],
              ['href', '/index.md'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'time-to-first-byte',
    product: 'ai_readiness',
    shows: value(
      (out) => Number.parseFloat(out) >= 0.8,
      (out) => Number.parseFloat(out) < 0.8,
    ),
    site: () => {
      const body = page('', LONG_TEXT);
      return {
        before: {
          '/': (_req, res) => {
            setTimeout(() => {
              res.writeHead(200, { 'content-type': 'text/html' });
              res.end(body);
            }, 1100);
          },
        },
        after: { '/': { body } },
      };
    },
  },
  {
    check: 'html-weight',
    product: 'ai_readiness',
    shows: value(
      (out) => Number.parseInt(out, 10) > 500 * 1024,
      (out) => Number.parseInt(out, 10) < 500 * 1024,
    ),
    site: () => ({
      before: { '/': { body: page('', `${LONG_TEXT}<!--${'x'.repeat(600 * 1024)}-->`) } },
      after: { '/': { body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'render-blocking-scripts',
    product: 'ai_readiness',
    shows: lighthouseKind,
    site: () => ({
      before: {
        '/': { body: page('<script src="/app.js"></script>', LONG_TEXT) },
        '/app.js': text('window.ready = true;', 'text/javascript'),
      },
      after: {
        '/': { body: page('<script src="/app.js" defer></script>', LONG_TEXT) },
        '/app.js': text('window.ready = true;', 'text/javascript'),
      },
    }),
  },
  {
    check: 'image-dimensions',
    product: 'ai_readiness',
    shows: lighthouseKind,
    site: () => ({
      before: { '/': { body: page('', `<img src="/trowel.png" alt="Trowel">${LONG_TEXT}`) }, '/trowel.png': png },
      after: {
        '/': { body: page('', `<img src="/trowel.png" alt="Trowel" width="1" height="1">${LONG_TEXT}`) },
        '/trowel.png': png,
      },
    }),
  },
  {
    check: 'doctype-standards-mode',
    product: 'ai_readiness',
    shows: value(
      (out) => !/^<!doctype html>/i.test(out),
      (out) => /^<!doctype html>/i.test(out),
    ),
    site: () => ({
      before: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`, { doctype: false }) } },
      after: { '/': { body: doc('', `<main><h1>Tools</h1>${LONG_TEXT}</main>`) } },
    }),
  },
  {
    check: 'viewport-zoomable',
    mode: 'zoom off',
    product: 'ai_readiness',
    styles: true,
    shows: value(/user-scalable=no/i, (out) => /width=device-width/i.test(out) && !/user-scalable/i.test(out)),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['name', 'viewport'],
              ['content', 'width=device-width,user-scalable=no'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'width=device-width,initial-scale=1'],
              ['name', 'viewport'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'viewport-zoomable',
    mode: 'missing',
    product: 'ai_readiness',
    shows: presence(/width=device-width/i),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: { '/': { body: page('<meta name="viewport" content="width=device-width, initial-scale=1">', LONG_TEXT) } },
    }),
  },
  {
    check: 'frame-title',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: {
        '/': { body: page('', `<iframe src="/map"></iframe>${LONG_TEXT}`) },
        '/map': { body: page('', '<p>Map</p>') },
      },
      after: {
        '/': { body: page('', `<iframe src="/map" title="Map of the smithy"></iframe>${LONG_TEXT}`) },
        '/map': { body: page('', '<p>Map</p>') },
      },
    }),
  },
  {
    check: 'list-structure',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<ul><li>Hoes</li><div>Rakes</div></ul>${LONG_TEXT}`) } },
      after: { '/': { body: page('', `<ul><li>Hoes</li><li>Rakes</li></ul>${LONG_TEXT}`) } },
    }),
  },
  {
    check: 'image-alt-meaningful',
    product: 'ai_readiness',
    styles: true,
    shows: value(/IMG_1234\.jpg/, (out) => !/IMG_1234/.test(out) && /Hand-forged trowel/.test(out)),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `${el(s, 'img', [
              ['src', '/trowel.png'],
              ['alt', 'IMG_1234.jpg'],
              ['width', '1'],
              ['height', '1'],
            ])}${LONG_TEXT}`,
          ),
        },
        '/trowel.png': png,
      },
      after: {
        '/': {
          body: page(
            '',
            `${el(s, 'img', [
              ['src', '/trowel.png'],
              ['alt', 'Hand-forged trowel'],
              ['width', '1'],
              ['height', '1'],
            ])}${LONG_TEXT}`,
          ),
        },
        '/trowel.png': png,
      },
    }),
  },
  {
    check: 'duplicate-id-references',
    product: 'ai_readiness',
    shows: offender(/^e$/m),
    site: () => ({
      before: {
        '/': {
          body: page(
            '',
            `<form action="/s"><label for="e">Email</label><input id="e" name="a" type="text"><label>Name <input id="e" name="b" type="text"></label><button>Send</button></form>${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `<form action="/s"><label for="e">Email</label><input id="e" name="a" type="text"><label>Name <input id="n" name="b" type="text"></label><button>Send</button></form>${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'aria-required-parent',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<div><div role="tab" tabindex="0">Specs</div></div>${LONG_TEXT}`) } },
      after: {
        '/': { body: page('', `<div role="tablist"><div role="tab" tabindex="0">Specs</div></div>${LONG_TEXT}`) },
      },
    }),
  },
  {
    check: 'aria-required-children',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<div role="tablist"><span>Specs</span></div>${LONG_TEXT}`) } },
      after: {
        '/': { body: page('', `<div role="tablist"><span role="tab" tabindex="0">Specs</span></div>${LONG_TEXT}`) },
      },
    }),
  },
  {
    check: 'svg-img-alt',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: {
        '/': {
          body: page(
            '',
            `<svg role="img" width="10" height="10"><circle r="5" cx="5" cy="5"></circle></svg>${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `<svg role="img" aria-label="In stock" width="10" height="10"><circle r="5" cx="5" cy="5"></circle></svg>${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'role-img-alt',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: { '/': { body: page('', `<div role="img" class="stars">★★★★☆</div>${LONG_TEXT}`) } },
      after: {
        '/': { body: page('', `<div role="img" class="stars" aria-label="Rated 4 of 5">★★★★☆</div>${LONG_TEXT}`) },
      },
    }),
  },
  {
    check: 'landmark-unique',
    product: 'ai_readiness',
    shows: axeKind,
    site: () => ({
      before: {
        '/': {
          body: doc(
            '',
            `<nav><a href="/a">Tools</a></nav><main><h1>Tools</h1>${LONG_TEXT}</main><nav><a href="/b">Help</a></nav>`,
          ),
        },
      },
      after: {
        '/': {
          body: doc(
            '',
            `<nav aria-label="Main"><a href="/a">Tools</a></nav><main><h1>Tools</h1>${LONG_TEXT}</main><nav aria-label="Footer"><a href="/b">Help</a></nav>`,
          ),
        },
      },
    }),
  },
  {
    check: 'placeholder-only-label',
    product: 'ai_readiness',
    styles: true,
    // The line prints the fields a placeholder alone names: the search box, not the labelled email field.
    shows: offender(/placeholder=["']?Search term/),
    site: (s) => {
      const email = `<label for="e">Email</label>${el(s, 'input', [
        ['id', 'e'],
        ['type', 'email'],
        ['name', 'email'],
        ['placeholder', 'you@example.com'],
      ])}`;
      const search = (labelled: boolean) =>
        `${labelled ? el(s, 'label', [['for', 'q']], 'Search') : ''}${el(s, 'input', [
          ...(labelled ? [['id', 'q'] as const] : []),
          ['type', 'text'],
          ['name', 'q'],
          ['placeholder', 'Search term'],
        ])}`;
      const body = (labelled: boolean) =>
        page(
          '',
          `<form action="/s">${search(labelled)}<button>Go</button></form><form action="/news">${email}<button>Subscribe</button></form>${LONG_TEXT}`,
        );
      return { before: { '/': { body: body(false) } }, after: { '/': { body: body(true) } } };
    },
  },
  {
    check: 'llms-txt-structure',
    product: 'ai_readiness',
    shows: value(/content-type: text\/html/i, (out) => /content-type: text\/plain/i.test(out) && /^> /m.test(out)),
    site: () => {
      const good =
        '# Forged tools\n\n> Hand-forged garden tools for small farms, made and shipped by one smithy.\n\n## Docs\n\n- [Home](SELF/): what we make\n';
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/llms.txt': text('# Forged tools\n\nTools.\n', 'text/html') },
        after: { '/': { body: page('', LONG_TEXT) }, '/llms.txt': text(good) },
      };
    },
  },
  {
    check: 'markdown-negotiation',
    product: 'ai_readiness',
    shows: value(
      (out) => /^content-type: text\/markdown/im.test(out) && !/^vary:.*accept/im.test(out),
      /^vary:.*accept/im,
    ),
    site: () => {
      const body = page('', LONG_TEXT);
      const negotiate =
        (vary: boolean) =>
        (req: IncomingMessage, res: ServerResponse): void => {
          const markdown = /text\/markdown/.test(req.headers.accept ?? '');
          res.writeHead(200, {
            'content-type': markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
            ...(vary ? { vary: 'Accept' } : {}),
          });
          res.end(markdown ? '# Forged garden tools\n\nHand-forged tools for small farms.\n' : body);
        };
      return { before: { '/': negotiate(false) }, after: { '/': negotiate(true) } };
    },
  },
  {
    check: 'agent-text-parity',
    product: 'ai_readiness',
    // The finding's line asks as GPTBot for at least half the words a browser shows: "short: N words"
    // while GPTBot gets an empty app shell, "ok: N words" once it is served the page (issue 29).
    ownLine: true,
    shows: value(/^short: \d+ words/m, /^ok: \d+ words/m),
    site: () => {
      const body = page('', LONG_TEXT);
      const shell = doc('<script type="module" src="/app.js"></script>', '<div id="app"></div>');
      return {
        before: {
          '/': (req, res) => {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(/GPTBot/.test(req.headers['user-agent'] ?? '') ? shell : body);
          },
        },
        after: { '/': { body } },
      };
    },
  },
  {
    check: 'page-token-weight',
    product: 'ai_readiness',
    // What an agent asking for markdown reads: "heavy: about N tokens for M tokens of text" while it is
    // the page's HTML with 45 KB of inline styles, "ok: ..." once the page answers markdown (issue 29).
    shows: value(/^heavy: about \d+ tokens/m, /^ok: about \d+ tokens/m),
    site: () => {
      const heavy = page(
        `<style>${'.tool{margin:0 auto;padding:4px 8px;color:#2a2a2a}'.repeat(900)}</style>`,
        LONG_TEXT,
      );
      const negotiate = (req: IncomingMessage, res: ServerResponse): void => {
        const markdown = /text\/markdown/.test(req.headers.accept ?? '');
        res.writeHead(200, {
          'content-type': markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
          vary: 'Accept',
        });
        res.end(markdown ? `# Forged garden tools\n\n${LONG_TEXT.replace(/<\/?p>/g, '')}\n` : heavy);
      };
      return { before: { '/': { body: heavy } }, after: { '/': negotiate } };
    },
  },
  {
    check: 'link-headers',
    product: 'ai_readiness',
    shows: presence(/rel="sitemap"/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: { '/': { headers: { link: '</sitemap.xml>; rel="sitemap"' }, body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'content-signals',
    mode: 'malformed',
    product: 'ai_readiness',
    shows: value(/ai-train=maybe/, (out) => /ai-train=no/.test(out) && !/maybe/.test(out)),
    site: () => ({
      before: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: *\nContent-Signal: search=yes, ai-train=maybe\nAllow: /\n'),
      },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/robots.txt': text('User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n'),
      },
    }),
  },
  {
    check: 'api-catalog',
    product: 'ai_readiness',
    shows: value(/content-type: text\/html/i, (out) => /application\/linkset\+json/i.test(out) && /"anchor"/.test(out)),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/api-catalog': { body: '<p>APIs</p>' } },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/.well-known/api-catalog': text(
          '{"linkset":[{"anchor":"SELF/api/","service-desc":[{"href":"SELF/api/openapi.json"}]}]}',
          'application/linkset+json',
        ),
      },
    }),
  },
  {
    check: 'oauth-discovery',
    product: 'ai_readiness',
    shows: value(/"issuer":"https:\/\/auth\.elsewhere\.example"/, (out) => !/elsewhere/.test(out) && /S256/.test(out)),
    site: () => {
      const metadata = (issuer: string) =>
        text(
          JSON.stringify({
            issuer,
            authorization_endpoint: 'SELF/authorize',
            token_endpoint: 'SELF/token',
            response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'],
          }),
          'application/json',
        );
      return {
        before: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/oauth-authorization-server': metadata('https://auth.elsewhere.example'),
        },
        after: { '/': { body: page('', LONG_TEXT) }, '/.well-known/oauth-authorization-server': metadata('SELF') },
      };
    },
  },
  {
    check: 'mcp-server-card',
    mode: 'at /.well-known/mcp.json',
    product: 'ai_readiness',
    shows: value((out) => !/"version"/.test(out), /"version"[\s\S]*"url"|"url"[\s\S]*"version"/),
    site: () => ({
      before: {
        '/': { body: page('', LONG_TEXT) },
        '/.well-known/mcp.json': text('{"name":"forge-tools"}', 'application/json'),
      },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/.well-known/mcp.json': text(
          '{"name":"forge-tools","version":"1.0.0","transport":{"type":"streamable-http","url":"SELF/mcp"}}',
          'application/json',
        ),
      },
    }),
  },
  // The agent standards of 2026 (issue 29): each line prints `missing: ...` before the fix, `ok: ...` after.
  {
    check: 'ard-catalog',
    product: 'ai_readiness',
    shows: value(/^missing: entries\[0\]\.displayName/m, /^ok: specVersion 1\.0, 1 entries/m),
    site: () => {
      const catalog = (entry: Record<string, string>) =>
        text(
          JSON.stringify({
            specVersion: '1.0',
            entries: [
              {
                identifier: 'urn:air:forge.example:agents:assistant',
                type: 'application/a2a-agent-card+json',
                url: 'SELF/.well-known/agent-card.json',
                ...entry,
              },
            ],
          }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/ai-catalog.json': catalog({}) },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/ai-catalog.json': catalog({ displayName: 'Forge assistant' }),
        },
      };
    },
  },
  {
    check: 'a2a-agent-card',
    product: 'ai_readiness',
    shows: value(/^missing: supportedInterfaces/m, /^ok: Forge assistant 1\.0\.0/m),
    site: () => {
      const card = (more: Record<string, unknown>) =>
        text(
          JSON.stringify({
            name: 'Forge assistant',
            description: 'Answers questions about our tools.',
            version: '1.0.0',
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 'tools', name: 'Tools', description: 'Which tool for which soil.', tags: ['tools'] }],
            ...more,
          }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/agent-card.json': card({}) },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/agent-card.json': card({
            supportedInterfaces: [
              { url: 'https://forge.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            ],
          }),
        },
      };
    },
  },
  {
    check: 'agent-skills-index',
    product: 'ai_readiness',
    shows: value(/^missing or wrong: skills\[0\]\.digest/m, /^ok: 1 skill/m),
    site: () => {
      const index = (digest: string) =>
        text(
          JSON.stringify({
            $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
            skills: [
              {
                name: 'tool-finder',
                type: 'skill-md',
                description: 'Find the right tool for a soil.',
                url: '/.well-known/agent-skills/tool-finder/SKILL.md',
                digest,
              },
            ],
          }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/agent-skills/index.json': index('sha256:abc') },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/agent-skills/index.json': index(`sha256:${'0f'.repeat(32)}`),
        },
      };
    },
  },
  {
    check: 'web-bot-auth',
    product: 'ai_readiness',
    after: 'info',
    shows: value(
      /^problems: keys\[0\]\.x/m,
      (out) => /^ok: 1 key/m.test(out) && /signatures-directory\+json/.test(out),
    ),
    site: () => {
      // RFC 8037 Appendix A's Ed25519 public key, its kid the RFC 7638 thumbprint (A.3).
      const key = { crv: 'Ed25519', kty: 'OKP', kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k' };
      const directory = (x?: string, type = 'application/json') =>
        text(JSON.stringify({ keys: [{ ...key, ...(x ? { x } : {}) }] }), type);
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/http-message-signatures-directory': directory() },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/http-message-signatures-directory': directory(
            '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
            'application/http-message-signatures-directory+json',
          ),
        },
      };
    },
  },
  {
    check: 'x402-payment-required',
    product: 'ai_readiness',
    after: 'info',
    shows: value(/^missing: accepts\[0\]\.network/m, /^ok: x402Version 2, 1 way\(s\) to pay/m),
    site: () => {
      const paid = (accept: Record<string, unknown>): FixtureRoute => ({
        status: 402,
        headers: {
          'content-type': 'application/json',
          'payment-required': Buffer.from(
            JSON.stringify({
              x402Version: 2,
              resource: { url: '/api/prices' },
              accepts: [{ scheme: 'exact', ...accept }],
            }),
          ).toString('base64'),
        },
        body: '{}',
      });
      const home = { body: page('', `<p><a href="/api/prices">Trade prices</a></p>${LONG_TEXT}`) };
      return {
        before: { '/': home, '/api/prices': paid({}) },
        after: {
          '/': home,
          '/api/prices': paid({
            network: 'eip155:84532',
            amount: '10000',
            asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
            payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
            maxTimeoutSeconds: 60,
          }),
        },
      };
    },
  },
  {
    check: 'ucp-profile',
    product: 'ai_readiness',
    after: 'info',
    shows: value(/^missing: ucp\.services/m, /^ok: UCP 2026-04-08, services: dev\.ucp\.shopping/m),
    site: () => {
      const services = {
        'dev.ucp.shopping': [
          {
            version: '2026-04-08',
            spec: 'https://ucp.dev/2026-04-08/specification/overview',
            transport: 'rest',
            endpoint: 'SELF/ucp/v1',
            schema: 'https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json',
          },
        ],
      };
      const profile = (more: Record<string, unknown>) =>
        text(
          JSON.stringify({ ucp: { version: '2026-04-08', capabilities: {}, payment_handlers: {}, ...more } }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/ucp': profile({}) },
        after: { '/': { body: page('', LONG_TEXT) }, '/.well-known/ucp': profile({ services }) },
      };
    },
  },
  {
    check: 'acp-discovery',
    product: 'ai_readiness',
    after: 'info',
    shows: value(/^missing: protocol\.supported_versions/m, /^ok: ACP 2026-04-17 at /m),
    site: () => {
      const discovery = (protocol: Record<string, unknown>) =>
        text(
          JSON.stringify({
            protocol: { name: 'acp', version: '2026-04-17', ...protocol },
            api_base_url: 'SELF/api',
            transports: ['rest'],
            capabilities: { services: ['checkout'] },
          }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/acp.json': discovery({}) },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/acp.json': discovery({ supported_versions: ['2026-04-17'] }),
        },
      };
    },
  },
  {
    check: 'ap2-mandates',
    product: 'ai_readiness',
    noFinding: true,
    after: 'info',
    shows: presence(/google-agentic-commerce\/ap2/),
    site: () => {
      const card = (extensions: unknown[]) =>
        text(
          JSON.stringify({
            name: 'Forge shop',
            description: 'Sells our tools to agents.',
            supportedInterfaces: [
              { url: 'https://forge.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            ],
            version: '1.0.0',
            capabilities: { extensions },
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 'buy', name: 'Buy', description: 'Buys a tool.', tags: ['shop'] }],
          }),
          'application/json',
        );
      return {
        before: { '/': { body: page('', LONG_TEXT) }, '/.well-known/agent-card.json': card([]) },
        after: {
          '/': { body: page('', LONG_TEXT) },
          '/.well-known/agent-card.json': card([
            { uri: 'https://github.com/google-agentic-commerce/ap2/v1', params: { roles: ['merchant'] } },
          ]),
        },
      };
    },
  },
  {
    check: 'webmcp-tool-schema',
    product: 'ai_readiness',
    styles: true,
    shows: value(
      (out) => /toolname/i.test(out) && !/tooldescription/i.test(out),
      (out) => /tooldescription/i.test(out),
    ),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'form',
              [
                ['toolname', 'search'],
                ['action', '/s'],
              ],
              '<input name="q" aria-label="Search">',
            )}${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'form',
              [
                ['toolname', 'search'],
                ['tooldescription', 'Search the catalogue'],
                ['action', '/s'],
              ],
              '<input name="q" aria-label="Search">',
            )}${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    // Tools registered by script, read in Chromium: before, one refused (a space in its name, thrown
    // uncaught as most pages leave it) and one whose schema is not an object schema; after, both fixed.
    check: 'webmcp-registered-tools',
    product: 'ai_readiness',
    render: true,
    shows: offender(/refused: InvalidStateError|not an object schema/),
    site: () => {
      const register = (name: string, schema: string) =>
        `document.modelContext.registerTool({ name: ${JSON.stringify(name)}, description: 'Adds a product to the cart', inputSchema: ${schema}, execute: async () => ({ content: [] }) });`;
      const tools = (first: string, schema: string) =>
        page(
          '',
          `<script>${register(first, '{ type: "object", properties: { sku: { type: "string", description: "The product code" } } }')}${register('size_guide', schema)}</script>${LONG_TEXT}`,
        );
      return {
        before: { '/': { body: tools('add to cart', '{ type: "string" }') } },
        after: {
          '/': {
            body: tools(
              'add_to_cart',
              '{ type: "object", properties: { size: { type: "string", description: "A size, as S, M or L" } } }',
            ),
          },
        },
      };
    },
  },
  {
    check: 'agent-forms',
    product: 'ai_readiness',
    styles: true,
    shows: value((out) => /type=["']?email/i.test(out) && !/autocomplete/i.test(out), /autocomplete=["']?email/i),
    site: (s) => {
      const form = (extra: Array<[string, string]>) =>
        page(
          '',
          `<form action="/subscribe"><label for="e">Email</label>${el(s, 'input', [['id', 'e'], ['type', 'email'], ['name', 'email'], ...extra])}<button type="submit">Subscribe</button></form>${LONG_TEXT}`,
        );
      return { before: { '/': { body: form([]) } }, after: { '/': { body: form([['autocomplete', 'email']]) } } };
    },
  },
  {
    check: 'agent-accessibility-tree',
    product: 'ai_readiness',
    render: true,
    shows: axeKind,
    site: () => ({
      before: { '/': { body: doc('', `<div><h1>Tools</h1><button type="button"></button>${LONG_TEXT}</div>`) } },
      after: {
        '/': { body: doc('', `<main><h1>Tools</h1><button type="button">Open the menu</button>${LONG_TEXT}</main>`) },
      },
    }),
  },
  {
    check: 'json-ld-parses',
    product: 'ai_readiness',
    styles: true,
    shows: value(/does not parse/, (out) => !/does not parse/.test(out) && /Organization: name url/.test(out)),
    site: (s) => {
      const block = (json: string) => el(s, 'script', [['type', 'application/ld+json']], json);
      return {
        before: {
          '/': {
            body: page(
              block('{"@context":"https://schema.org","@type":"Organization","name":"Forge","url":"SELF/",}'),
              LONG_TEXT,
            ),
          },
        },
        after: {
          '/': {
            body: page(
              block('{"@context":"https://schema.org","@type":"Organization","name":"Forge","url":"SELF/"}'),
              LONG_TEXT,
            ),
          },
        },
      };
    },
  },
  {
    check: 'organization-schema',
    product: 'ai_readiness',
    shows: value(
      (out) => !/(Organization|WebSite): .*\bname\b.*\burl\b/.test(out),
      /Organization: .*\bname\b.*\burl\b/,
    ),
    site: () => ({
      before: {
        '/': {
          body: page(
            '<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","name":"Forge"}</script>',
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Forge","url":"SELF/"}]}</script>',
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'schema-required-properties',
    product: 'ai_readiness',
    shows: value((out) => /Article: /.test(out) && !/Article: .*\bheadline\b/.test(out), /Article: .*\bheadline\b/),
    site: () => {
      const article = (props: string) =>
        page(
          `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article"${props}}</script>`,
          LONG_TEXT,
        );
      return {
        before: { '/': { body: article(',"datePublished":"2024-05-01"') } },
        after: { '/': { body: article(',"headline":"How we forge a trowel","datePublished":"2024-05-01"') } },
      };
    },
  },
  // Marketing signal
  {
    check: 'mk-indexable',
    product: 'marketing_signal',
    styles: true,
    shows: offender(/noindex/i),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'noindex'],
              ['name', 'robots'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'index'],
              ['name', 'robots'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-title-length',
    product: 'marketing_signal',
    shows: value(
      (out) => (/<title[^>]*>([^<]*)</i.exec(out)?.[1]?.trim().length ?? 0) < 30,
      (out) => {
        const n = /<title[^>]*>([^<]*)</i.exec(out)?.[1]?.trim().length ?? 0;
        return n >= 30 && n <= 60;
      },
    ),
    site: () => ({
      before: {
        '/': { body: doc('', `<main><h1>Forged garden tools for farms</h1>${LONG_TEXT}</main>`, { title: 'Home' }) },
      },
      after: {
        '/': {
          body: doc('', `<main><h1>Forged garden tools for farms</h1>${LONG_TEXT}</main>`, {
            title: 'Forged garden tools for small farms — Forge',
          }),
        },
      },
    }),
  },
  {
    check: 'mk-description-length',
    product: 'marketing_signal',
    styles: true,
    shows: value(
      (out) => (/content=["']?([^"'>]*)/i.exec(out)?.[1]?.length ?? 0) < 70,
      (out) => (/content=["']?([^"'>]*)/i.exec(out)?.[1]?.length ?? 0) >= 70,
    ),
    site: (s) => {
      const description = (content: string) =>
        page(
          el(s, 'meta', [
            ['name', 'description'],
            ['content', content],
          ]),
          LONG_TEXT,
        );
      return {
        before: { '/': { body: description('Garden tools.') } },
        after: {
          '/': {
            body: description(
              'Hand-forged garden tools for small farms: hoes, trowels and rakes that last decades, shipped in a week.',
            ),
          },
        },
      };
    },
  },
  {
    check: 'mk-sitemap',
    product: 'marketing_signal',
    shows: presence(/<urlset/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': { body: page('', LONG_TEXT) },
        '/sitemap.xml': text(
          '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>SELF/</loc></url></urlset>',
          'application/xml',
        ),
      },
    }),
  },
  {
    check: 'mk-site-verification',
    product: 'marketing_signal',
    noFinding: true,
    after: 'info',
    styles: true,
    shows: presence(/google-site-verification/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'abc123'],
              ['name', 'google-site-verification'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-business-schema',
    product: 'marketing_signal',
    shows: value(
      (out) => !/LocalBusiness: .*\baddress\b.*\btelephone\b/.test(out),
      /LocalBusiness: .*\bname\b.*\baddress\b.*\btelephone\b/,
    ),
    site: () => {
      const business = (props: string) =>
        page(
          `<script type="application/ld+json">{"@context":"https://schema.org","@type":"LocalBusiness","name":"Forge"${props}}</script>`,
          LONG_TEXT,
        );
      return {
        before: { '/': { body: business('') } },
        after: { '/': { body: business(',"address":"1 Anvil Lane, Sheffield","telephone":"+44 114 000 0000"') } },
      };
    },
  },
  {
    check: 'mk-open-graph',
    product: 'marketing_signal',
    styles: true,
    shows: value(
      (out) => !/og:image/.test(out),
      (out) => ['og:title', 'og:type', 'og:image', 'og:url'].every((p) => out.includes(p)),
    ),
    site: (s) => {
      const og = (props: string[]) =>
        props
          .map((p) =>
            el(s, 'meta', [
              ['property', p],
              ['content', p === 'og:image' ? 'SELF/card.png' : 'Forge'],
            ]),
          )
          .join('');
      return {
        before: { '/': { body: page(og(['og:title']), LONG_TEXT) } },
        after: { '/': { body: page(og(['og:title', 'og:type', 'og:image', 'og:url']), LONG_TEXT) } },
      };
    },
  },
  {
    check: 'mk-twitter-card',
    product: 'marketing_signal',
    styles: true,
    shows: value(/content=["']?large["' >]/i, /summary_large_image/),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['name', 'twitter:card'],
              ['content', 'large'],
            ]),
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'summary_large_image'],
              ['name', 'twitter:card'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-contact-paths',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/tel:/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}<footer>${el(
              s,
              'a',
              [
                ['href', 'tel:+441140000000'],
                ['class', 'phone'],
              ],
              'Call the smithy',
            )}</footer>`,
          ),
        },
      },
    }),
  },
  japaneseContact('mk-contact-paths'),
  // With no way at all to reach the business, "no path to get in touch" is one finding with the above.
  japaneseContact('mk-contact-or-booking', '<address>〒100-0001 東京都千代田区千代田1-1</address>'),
  japaneseContact('mk-call-to-action'),
  {
    check: 'mk-social-proof',
    product: 'marketing_signal',
    shows: presence(/testimonial/i),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}<section><h2>Testimonials</h2><blockquote>Best hoe I ever owned.</blockquote></section>`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-legal-links',
    product: 'marketing_signal',
    styles: true,
    shows: value(
      (out) => !(/privacy/i.test(out) && /terms/i.test(out)),
      (out) => /privacy/i.test(out) && /terms/i.test(out),
    ),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}<footer>${el(
              s,
              'a',
              [
                ['href', '/privacy'],
                ['class', 'f'],
              ],
              'Privacy',
            )}${el(
              s,
              'a',
              [
                ['href', '/terms'],
                ['class', 'f'],
              ],
              'Terms',
            )}</footer>`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-legal-links',
    mode: 'said by the link text',
    product: 'marketing_signal',
    shows: value(
      (out) => !(/privacy/i.test(out) && /terms/i.test(out)),
      (out) => /privacy/i.test(out) && /terms/i.test(out),
    ),
    site: () => ({
      before: { '/': { body: page('', `${LONG_TEXT}<footer><a href="/p/11">About</a></footer>`) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}<footer><a href="/p/12">Privacy notice</a> <a href="/p/13"><span>Terms of sale</span></a></footer>`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-social-profiles',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/linkedin\.com/i),
    site: (s) => ({
      before: { '/': { body: page('', `${LONG_TEXT}<a href="https://example.org/x.com-guide">A guide</a>`) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}<footer>${el(
              s,
              'a',
              [
                ['href', 'https://www.linkedin.com/company/forge'],
                ['rel', 'me'],
              ],
              'LinkedIn',
            )}</footer>`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-call-to-action',
    product: 'marketing_signal',
    styles: true,
    // The line prints the page folded as the check reads it: lowercase, accents removed.
    shows: presence(/book a demo/),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'a',
              [
                ['href', '/about'],
                ['class', 'btn'],
              ],
              '<span>About the smithy</span>',
            )}${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'a',
              [
                ['href', '/about'],
                ['class', 'btn'],
              ],
              '<span>About the smithy</span>',
            )}${el(
              s,
              'a',
              [
                ['href', '/demo'],
                ['class', 'btn primary'],
              ],
              '<span class="icon"></span><span>Book a demo</span>',
            )}${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-specific-cta-labels',
    product: 'marketing_signal',
    styles: true,
    // The issue's case: a link that says only "here".
    shows: offender(/>\s*here\s*</i),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `<p>Book a forge visit ${el(
              s,
              'a',
              [
                ['href', '/visit'],
                ['class', 'link'],
              ],
              'here',
            )}.</p>${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `<p>${el(
              s,
              'a',
              [
                ['href', '/visit'],
                ['class', 'link'],
              ],
              'Book a forge visit',
            )}.</p>${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-short-labelled-forms',
    mode: 'unlabelled field',
    product: 'marketing_signal',
    styles: true,
    shows: value(
      (out) => /name=["']?name/.test(out) && !/<label/i.test(out),
      (out) => /<label/i.test(out),
    ),
    site: (s) => ({
      before: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'form',
              [
                ['action', '/quote'],
                ['class', 'lead'],
              ],
              `${el(s, 'input', [
                ['type', 'text'],
                ['name', 'name'],
              ])}<button>Get a quote</button>`,
            )}${LONG_TEXT}`,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            '',
            `${el(
              s,
              'form',
              [
                ['action', '/quote'],
                ['class', 'lead'],
              ],
              `${el(s, 'label', [['for', 'n']], 'Name')}${el(s, 'input', [
                ['id', 'n'],
                ['type', 'text'],
                ['name', 'name'],
              ])}<button>Get a quote</button>`,
            )}${LONG_TEXT}`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-short-labelled-forms',
    mode: 'long form',
    product: 'marketing_signal',
    shows: value(
      (out) => (out.match(/<input/gi) ?? []).length > 7,
      (out) => {
        const fields = (out.match(/<input/gi) ?? []).length;
        return fields > 0 && fields <= 7;
      },
    ),
    site: () => {
      const form = (names: string[]) =>
        page(
          '',
          `<form action="/quote">${names.map((n) => `<label for="${n}">${n}</label><input id="${n}" type="text" name="${n}">`).join('')}<button>Get a quote</button></form>${LONG_TEXT}`,
        );
      return {
        before: {
          '/': { body: form(['name', 'email', 'phone', 'company', 'role', 'size', 'budget', 'city', 'country']) },
        },
        after: { '/': { body: form(['name', 'email', 'message']) } },
      };
    },
  },
  {
    check: 'mk-contact-or-booking',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/contact/i),
    // A postal address, which mk-contact-paths accepts: with no way at all to reach the business,
    // both contact checks report one defect and the finding shown is mk-contact-paths' (one defect,
    // one finding); with an address, "no path to a conversation" is this check's alone.
    site: (s) => ({
      before: { '/': { body: page('', `${LONG_TEXT}${SMITHY_ADDRESS}<a href="/about">About the smithy</a>`) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}${SMITHY_ADDRESS}${el(
              s,
              'a',
              [
                ['href', '/contact'],
                ['class', 'nav'],
              ],
              'Get in touch',
            )}`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-contact-or-booking',
    mode: 'said by the link text',
    product: 'marketing_signal',
    shows: presence(/contact us/),
    site: () => ({
      before: { '/': { body: page('', `${LONG_TEXT}${SMITHY_ADDRESS}<a href="/ueber-uns">About the smithy</a>`) } },
      after: { '/': { body: page('', `${LONG_TEXT}${SMITHY_ADDRESS}<a href="/kontakt">Contact us</a>`) } },
    }),
  },
  {
    check: 'mk-specific-h1',
    product: 'marketing_signal',
    styles: true,
    shows: value(/>\s*Welcome\s*$/m, /Hand-forged garden tools/),
    site: (s) => ({
      before: { '/': { body: doc('', `<main>${el(s, 'h1', [['class', 'hero']], 'Welcome')}${LONG_TEXT}</main>`) } },
      after: {
        '/': {
          body: doc(
            '',
            `<main>${el(s, 'h1', [['class', 'hero']], '<span>Hand-forged garden tools</span> for small farms')}${LONG_TEXT}</main>`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-pricing-visible',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/pricing/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            '',
            `${LONG_TEXT}${el(
              s,
              'a',
              [
                ['href', '/pricing'],
                ['class', 'nav'],
              ],
              'Plans',
            )}`,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-analytics',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/googletagmanager\.com/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            el(
              s,
              'script',
              [
                ['async', 'async'],
                ['src', 'https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD'],
              ],
              '',
            ),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-no-legacy-ua',
    product: 'marketing_signal',
    shows: value(
      (out) => /UA-\d+-\d+/.test(out) && !/G-[A-Z0-9]+/.test(out),
      (out) => /G-[A-Z0-9]+/.test(out) && !/UA-/.test(out),
    ),
    site: () => ({
      before: {
        '/': {
          body: page(
            `<script async src="https://www.google-analytics.com/analytics.js"></script><script>ga('create', 'UA-1234567-1', 'auto'); ga('send', 'pageview');</script>`,
            LONG_TEXT,
          ),
        },
      },
      after: {
        '/': {
          body: page(
            `<script async src="https://www.googletagmanager.com/gtag/js?id=G-AB12CD34EF"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-AB12CD34EF');</script>`,
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-no-duplicate-tags',
    product: 'marketing_signal',
    shows: value(
      /^\s*[2-9]\d* /m,
      (out) => printed({ code: 0, stdout: out, stderr: '' }) && !/^\s*([2-9]|\d\d+) /m.test(out),
    ),
    site: () => {
      const tag = '<script async src="https://www.googletagmanager.com/gtag/js?id=G-AB12CD34EF"></script>';
      return {
        before: { '/': { body: page(`${tag}${tag}`, LONG_TEXT) } },
        after: { '/': { body: page(tag, LONG_TEXT) } },
      };
    },
  },
  {
    check: 'mk-ad-pixels',
    product: 'marketing_signal',
    noFinding: true,
    after: 'info',
    shows: presence(/fbevents\.js/),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': { body: page('<script async src="https://connect.facebook.net/en_US/fbevents.js"></script>', LONG_TEXT) },
      },
    }),
  },
  {
    check: 'mk-consent-before-tracking',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/cookiebot/i),
    site: (s) => {
      const gtm = '<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD"></script>';
      return {
        before: { '/': { body: page(gtm, LONG_TEXT) } },
        after: {
          '/': {
            body: page(
              `${el(
                s,
                'script',
                [
                  ['id', 'Cookiebot'],
                  ['src', 'https://consent.cookiebot.com/uc.js'],
                  ['data-cbid', 'abc'],
                ],
                '',
              )}${gtm}`,
              LONG_TEXT,
            ),
          },
        },
      };
    },
  },
  {
    check: 'mk-no-tracking-cookies-on-first-response',
    product: 'marketing_signal',
    shows: offender(/_ga=/),
    site: () => ({
      before: {
        '/': { headers: { 'set-cookie': ['_ga=GA1.1.123.456; Path=/', 'lang=en; Path=/'] }, body: page('', LONG_TEXT) },
      },
      after: { '/': { headers: { 'set-cookie': ['lang=en; Path=/'] }, body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'mk-viewport',
    product: 'marketing_signal',
    styles: true,
    shows: presence(/width=device-width/i),
    site: (s) => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': {
          body: page(
            el(s, 'meta', [
              ['content', 'width=device-width,initial-scale=1'],
              ['name', 'viewport'],
            ]),
            LONG_TEXT,
          ),
        },
      },
    }),
  },
  {
    check: 'mk-page-weight',
    product: 'marketing_signal',
    shows: value(
      (out) => Number.parseInt(out, 10) > 500 * 1024,
      (out) => Number.parseInt(out, 10) < 500 * 1024,
    ),
    site: () => ({
      before: { '/': { body: page('', `${LONG_TEXT}<!--${'x'.repeat(600 * 1024)}-->`) } },
      after: { '/': { body: page('', LONG_TEXT) } },
    }),
  },
  {
    check: 'mk-image-dimensions',
    product: 'marketing_signal',
    shows: lighthouseKind,
    site: () => ({
      before: { '/': { body: page('', `<img src="/trowel.png" alt="Trowel">${LONG_TEXT}`) }, '/trowel.png': png },
      after: {
        '/': { body: page('', `<img src="/trowel.png" alt="Trowel" width="1" height="1">${LONG_TEXT}`) },
        '/trowel.png': png,
      },
    }),
  },
  {
    check: 'mk-experimentation-tools',
    product: 'marketing_signal',
    noFinding: true,
    after: 'info',
    shows: presence(/hotjar/i),
    site: () => ({
      before: { '/': { body: page('', LONG_TEXT) } },
      after: {
        '/': { body: page('<script async src="https://static.hotjar.com/c/hotjar-1.js?sv=6"></script>', LONG_TEXT) },
      },
    }),
  },
  ...VITALS_CASES,
];

/** A DKIM key record with an RSA key of `bits`. */
function dkimRecord(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
}

const MAIL = (name: string): Zone => ({ MX: [{ exchange: `mail.${name}`, preference: 10 }], TXT: ['v=spf1 mx -all'] });

// Website security (and HTTPS itself) on named hosts.
export const SECURE_CASES: SecureCase[] = [
  {
    check: 'served-over-https',
    product: 'ai_readiness',
    plainStart: true,
    shows: presence(/^HTTP\/[\d.]+ 200/),
    host: (_s, name) => ({
      // HTTPS answers with another site's certificate, as a shared host does for a name it does not serve.
      before: { cert: { names: ['default.invalid'] }, http: { '/': { body: page('', LONG_TEXT) } } },
      after: { https: { '/': { body: page('', LONG_TEXT) } }, http: toHttps(name) },
    }),
  },
  {
    check: 'mk-https',
    product: 'marketing_signal',
    plainStart: true,
    shows: presence(/^HTTP\/[\d.]+ 200/),
    host: (_s, name) => ({
      before: { cert: { names: ['default.invalid'] }, http: { '/': { body: page('', LONG_TEXT) } } },
      after: { https: { '/': { body: page('', LONG_TEXT) } }, http: toHttps(name) },
    }),
  },
  {
    check: 'no-mixed-content',
    product: 'ai_readiness',
    styles: true,
    shows: offender(/http:\/\/cdn\.example/),
    host: (s) => ({
      // A plain-http link is not mixed content, and must not be printed.
      before: {
        https: {
          '/': {
            body: securePage(
              `${el(s, 'img', [
                ['src', 'http://cdn.example/trowel.png'],
                ['alt', 'Trowel'],
              ])}${el(s, 'link', [
                ['rel', 'stylesheet'],
                ['href', 'http://cdn.example/site.css'],
              ])}<a href="http://example.org/">A friend</a>${LONG_TEXT}`,
            ),
          },
        },
      },
      after: {
        https: {
          '/': {
            body: securePage(
              `${el(s, 'img', [
                ['src', 'https://cdn.example/trowel.png'],
                ['alt', 'Trowel'],
              ])}${el(s, 'link', [
                ['rel', 'stylesheet'],
                ['href', 'https://cdn.example/site.css'],
              ])}<a href="http://example.org/">A friend</a>${LONG_TEXT}`,
            ),
          },
        },
      },
    }),
  },
  {
    check: 'no-mixed-content-security',
    product: 'website_security',
    styles: true,
    shows: offender(/http:\/\/cdn\.example/),
    host: (s) => ({
      before: {
        https: {
          '/': {
            body: securePage(
              `${el(
                s,
                'script',
                [
                  ['src', 'http://cdn.example/app.js'],
                  ['defer', 'defer'],
                ],
                '',
              )}${LONG_TEXT}`,
            ),
          },
        },
      },
      after: {
        https: {
          '/': {
            body: securePage(
              `${el(
                s,
                'script',
                [
                  ['src', 'https://cdn.example/app.js'],
                  ['defer', 'defer'],
                ],
                '',
              )}${LONG_TEXT}`,
            ),
          },
        },
      },
    }),
  },
  {
    check: 'mk-short-labelled-forms',
    mode: 'posts over http',
    product: 'marketing_signal',
    styles: true,
    shows: value(/action=["']?http:/i, (out) => /action=["']?https:/i.test(out) && !/action=["']?http:/i.test(out)),
    host: (s, name) => {
      const form = (action: string) =>
        securePage(
          `${el(
            s,
            'form',
            [
              ['action', action],
              ['method', 'post'],
            ],
            '<label for="n">Name</label><input id="n" type="text" name="name"><button>Get a quote</button>',
          )}${LONG_TEXT}`,
        );
      return {
        before: { https: { '/': { body: form(`http://${name}/quote`) } } },
        after: { https: { '/': { body: form(`https://${name}/quote`) } } },
      };
    },
  },
  {
    check: 'csp-present',
    product: 'website_security',
    shows: presence(/content-security-policy:/i),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { headers: { 'content-security-policy': "default-src 'self'" }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'csp-no-unsafe-inline',
    product: 'website_security',
    shows: value(/'unsafe-inline'/, (out) => /content-security-policy:/i.test(out) && !/unsafe-inline/.test(out)),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'self' 'unsafe-inline'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: { '/': { headers: { 'content-security-policy': "script-src 'self'" }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'csp-no-unsafe-eval',
    product: 'website_security',
    shows: value(/'unsafe-eval'/, (out) => /content-security-policy:/i.test(out) && !/unsafe-eval/.test(out)),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'self' 'unsafe-eval'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: { '/': { headers: { 'content-security-policy': "script-src 'self'" }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'csp-no-bypassable-sources',
    product: 'website_security',
    shows: value(/ajax\.googleapis\.com/, (out) => /content-security-policy:/i.test(out) && !/googleapis/.test(out)),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'self' https://ajax.googleapis.com; object-src 'none'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'self'; object-src 'none'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'csp-object-src',
    product: 'website_security',
    shows: value((out) => /content-security-policy:/i.test(out) && !/object-src/.test(out), /object-src 'none'/),
    host: () => ({
      before: {
        https: { '/': { headers: { 'content-security-policy': "script-src 'self'" }, body: securePage(LONG_TEXT) } },
      },
      after: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'self'; object-src 'none'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'csp-base-uri',
    product: 'website_security',
    shows: value((out) => /content-security-policy:/i.test(out) && !/base-uri/.test(out), /base-uri 'self'/),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'content-security-policy': "script-src 'nonce-R4nd0mN0nce22'; object-src 'none'" },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: {
              'content-security-policy': "script-src 'nonce-R4nd0mN0nce22'; object-src 'none'; base-uri 'self'",
            },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'clickjacking-protection',
    product: 'website_security',
    shows: presence(/x-frame-options: DENY/i),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { headers: { 'x-frame-options': 'DENY' }, body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'x-content-type-options',
    product: 'website_security',
    shows: presence(/nosniff/i),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { headers: { 'x-content-type-options': 'nosniff' }, body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'referrer-policy',
    product: 'website_security',
    shows: value(/unsafe-url/, /strict-origin-when-cross-origin/),
    host: () => ({
      before: { https: { '/': { headers: { 'referrer-policy': 'unsafe-url' }, body: securePage(LONG_TEXT) } } },
      after: {
        https: {
          '/': { headers: { 'referrer-policy': 'strict-origin-when-cross-origin' }, body: securePage(LONG_TEXT) },
        },
      },
    }),
  },
  {
    check: 'subresource-integrity',
    product: 'website_security',
    styles: true,
    // The site's own script at an absolute address needs no integrity, and must not be printed.
    shows: offender(/cdn\.example\/lib\.js/),
    host: (s, name) => {
      const own = el(
        s,
        'script',
        [
          ['src', `https://${name}/app.js`],
          ['defer', 'defer'],
        ],
        '',
      );
      return {
        before: {
          https: {
            '/': {
              body: securePage(`${el(s, 'script', [['src', 'https://cdn.example/lib.js']], '')}${own}${LONG_TEXT}`),
            },
          },
        },
        after: {
          https: {
            '/': {
              body: securePage(
                `${el(
                  s,
                  'script',
                  [
                    ['src', 'https://cdn.example/lib.js'],
                    ['integrity', 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC'],
                    ['crossorigin', 'anonymous'],
                  ],
                  '',
                )}${own}${LONG_TEXT}`,
              ),
            },
          },
        },
      };
    },
  },
  {
    check: 'cors-not-permissive',
    product: 'website_security',
    shows: offender(/access-control-allow-origin: https:\/\/cors-probe\.siteaudit\.invalid/i),
    host: () => ({
      before: {
        https: {
          '/': (req, res) => {
            res.writeHead(200, {
              'content-type': 'text/html',
              ...(req.headers.origin
                ? { 'access-control-allow-origin': req.headers.origin, 'access-control-allow-credentials': 'true' }
                : {}),
            });
            res.end(req.method === 'HEAD' ? undefined : securePage(LONG_TEXT));
          },
        },
      },
      after: { https: { '/': { body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'cross-origin-opener-policy',
    product: 'website_security',
    shows: presence(/same-origin/),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { headers: { 'cross-origin-opener-policy': 'same-origin' }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'cross-origin-isolation',
    product: 'website_security',
    noFinding: true,
    after: 'info',
    shows: presence(/cross-origin-resource-policy: same-origin/i),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { headers: { 'cross-origin-resource-policy': 'same-origin' }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'https-available',
    product: 'website_security',
    shows: presence(/^HTTP\/[\d.]+ 200/),
    host: (_s, name) => ({
      before: {
        cert: { names: ['default.invalid'] },
        https: { '/': { body: securePage(LONG_TEXT) } },
        http: toHttps(name),
      },
      after: { https: { '/': { body: securePage(LONG_TEXT) } }, http: toHttps(name) },
    }),
  },
  {
    check: 'http-redirects-to-https',
    product: 'website_security',
    shows: value((out) => !/^location: https:/im.test(out), /^location: https:/im),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } }, http: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { body: securePage(LONG_TEXT) } }, http: toHttps(name) },
    }),
  },
  {
    check: 'hsts',
    product: 'website_security',
    shows: presence(/max-age=31536000/),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { headers: { 'strict-transport-security': 'max-age=31536000' }, body: securePage(LONG_TEXT) } },
      },
    }),
  },
  {
    check: 'hsts-preload',
    product: 'website_security',
    shows: value(
      (out) => /^strict-transport-security:.*preload/im.test(out) && !/includesubdomains/i.test(out),
      (out) => /includesubdomains/i.test(out) && /^location: https:/im.test(out),
    ),
    host: (_s, name) => ({
      before: {
        https: {
          '/': { headers: { 'strict-transport-security': 'max-age=31536000; preload' }, body: securePage(LONG_TEXT) },
        },
        http: toHttps(name),
      },
      after: {
        https: {
          '/': {
            headers: { 'strict-transport-security': 'max-age=63072000; includeSubDomains; preload' },
            body: securePage(LONG_TEXT),
          },
        },
        http: toHttps(name),
      },
    }),
  },
  {
    check: 'certificate-valid',
    product: 'website_security',
    shows: value(/Verify return code: [1-9]\d* \(hostname mismatch\)/, /Verify return code: 0 \(ok\)/),
    host: (_s, name) => ({
      before: {
        cert: { names: ['default.invalid'] },
        https: { '/': { body: securePage(LONG_TEXT) } },
        http: toHttps(name),
      },
      after: { https: { '/': { body: securePage(LONG_TEXT) } }, http: toHttps(name) },
    }),
  },
  {
    check: 'certificate-expiry',
    product: 'website_security',
    shows: value(
      (out) => new Date(out.replace('notAfter=', '').trim()).getTime() < Date.now() + 30 * 86_400_000,
      (out) => new Date(out.replace('notAfter=', '').trim()).getTime() > Date.now() + 30 * 86_400_000,
    ),
    host: () => ({
      before: { cert: { days: 5 }, https: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'tls-legacy-versions-refused',
    product: 'website_security',
    shows: value((out) => /Protocol\s*: TLSv1\.1/.test(out) && !/alert/.test(out), /alert protocol version/),
    host: () => ({
      before: { legacyTls: true, https: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'certificate-key-strength',
    product: 'website_security',
    shows: value(/Public-Key: \(1024 bit\)/, /Public-Key: \(2048 bit\)/),
    host: () => ({
      before: { legacyTls: true, cert: { rsaBits: 1024 }, https: { '/': { body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'mx-records',
    product: 'website_security',
    shows: presence(/^10 mail\./m),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': { TXT: ['v=spf1 -all'] } } },
      after: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': MAIL(name) } },
    }),
  },
  {
    check: 'spf',
    product: 'website_security',
    shows: value(/v=spf1 \+all/, /v=spf1 mx -all/),
    host: (_s, name) => ({
      before: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': { ...MAIL(name), TXT: ['v=spf1 +all'] } },
      },
      after: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': MAIL(name) } },
    }),
  },
  {
    check: 'spf-lookups',
    product: 'website_security',
    shows: value(
      /^(1[1-9]|[2-9]\d|\d{3,}) DNS lookups/m,
      (out) => /^([0-9]|10) DNS lookups/m.test(out) && !/NO SPF RECORD/.test(out),
    ),
    host: (_s, name) => {
      // 12 lookups through two levels of includes; fixed by flattening the vendor's six a: terms.
      const zones = (vendor: string): Record<string, Zone> => ({
        '': { ...MAIL(name), TXT: [`v=spf1 include:_spf.${name} include:_vendor.${name} mx -all`] },
        _spf: { TXT: [`v=spf1 include:_n1.${name} include:_n2.${name} include:_n3.${name} ~all`] },
        _n1: { TXT: ['v=spf1 ip4:192.0.2.1 -all'] },
        _n2: { TXT: ['v=spf1 ip4:192.0.2.2 -all'] },
        _n3: { TXT: ['v=spf1 ip4:192.0.2.3 -all'] },
        _vendor: { TXT: [vendor] },
        ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`m${i}`, { A: [`192.0.2.${i}`] }])),
      });
      return {
        before: {
          https: { '/': { body: securePage(LONG_TEXT) } },
          zones: zones(`v=spf1 ${[1, 2, 3, 4, 5, 6].map((i) => `a:m${i}.${name}`).join(' ')} -all`),
        },
        after: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: zones('v=spf1 ip4:192.0.2.0/29 -all') },
      };
    },
  },
  {
    check: 'dmarc',
    product: 'website_security',
    shows: presence(/v=DMARC1; p=quarantine/),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': MAIL(name) } },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': MAIL(name), _dmarc: { TXT: [`v=DMARC1; p=quarantine; rua=mailto:d@${name}`] } },
      },
    }),
  },
  {
    check: 'caa',
    product: 'website_security',
    shows: presence(/issue "letsencrypt\.org"/),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': { CAA: [{ tag: 'issue', value: 'letsencrypt.org' }] } },
      },
    }),
  },
  {
    check: 'mta-sts',
    product: 'website_security',
    shows: value(
      (out) => !/v=STSv1/.test(out),
      (out) => /v=STSv1; id=/.test(out) && /mode: enforce/.test(out),
    ),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': MAIL(name) } },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: {
          '': MAIL(name),
          '_mta-sts': { TXT: ['v=STSv1; id=20260101000000Z'] },
          'mta-sts': { A: ['127.0.0.1'] },
        },
        subhosts: {
          'mta-sts': {
            https: {
              '/.well-known/mta-sts.txt': text(`version: STSv1\nmode: enforce\nmx: mail.${name}\nmax_age: 604800\n`),
            },
          },
        },
      },
    }),
  },
  {
    check: 'tls-rpt',
    product: 'website_security',
    shows: presence(/v=TLSRPTv1/),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } }, zones: { '': MAIL(name) } },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': MAIL(name), '_smtp._tls': { TXT: [`v=TLSRPTv1; rua=mailto:tls@${name}`] } },
      },
    }),
  },
  {
    check: 'dkim',
    product: 'website_security',
    shows: value(/google: \(1024 bit\)/, (out) => /google: \(2048 bit\)/.test(out) && !/1024/.test(out)),
    host: (_s, name) => ({
      before: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': MAIL(name), 'google._domainkey': { TXT: [dkimRecord(1024)] } },
      },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': MAIL(name), 'google._domainkey': { TXT: [dkimRecord(2048)] } },
      },
    }),
  },
  {
    check: 'no-mail-domain-locked',
    product: 'website_security',
    shows: value(/v=spf1 ~all/, (out) => /v=spf1 -all/.test(out) && /^0 \.$/m.test(out)),
    host: () => ({
      before: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': { MX: [{ exchange: '', preference: 0 }], TXT: ['v=spf1 ~all'] } },
      },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': { MX: [{ exchange: '', preference: 0 }], TXT: ['v=spf1 -all'] } },
      },
    }),
  },
  {
    check: 'dnssec',
    product: 'website_security',
    shows: presence(/^12345 13 2 /m),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: { '/': { body: securePage(LONG_TEXT) } },
        zones: { '': { DS: ['ab'.repeat(32)], DNSKEY: [Buffer.alloc(64, 7).toString('base64')], validated: true } },
      },
    }),
  },
  {
    check: 'cookies-secure',
    product: 'website_security',
    shows: offender(/cart=1/),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'set-cookie': ['cart=1; Path=/; SameSite=Lax', 'ok=1; Path=/; Secure; SameSite=Lax'] },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: { 'set-cookie': ['cart=1; Path=/; Secure; SameSite=Lax', 'ok=1; Path=/; Secure; SameSite=Lax'] },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'session-cookies-httponly',
    product: 'website_security',
    shows: offender(/sessionid=/),
    host: () => ({
      // An anti-CSRF cookie is read by scripts on purpose, and must not be printed.
      before: {
        https: {
          '/': {
            headers: {
              'set-cookie': [
                'sessionid=abc; Path=/; Secure; SameSite=Lax',
                'csrftoken=x; Path=/; Secure; SameSite=Lax',
              ],
            },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: {
              'set-cookie': [
                'sessionid=abc; Path=/; Secure; HttpOnly; SameSite=Lax',
                'csrftoken=x; Path=/; Secure; SameSite=Lax',
              ],
            },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'cookies-samesite',
    product: 'website_security',
    shows: offender(/pref=1/),
    host: () => ({
      // SameSite=None with Secure is valid, and must not be printed.
      before: {
        https: {
          '/': {
            headers: { 'set-cookie': ['pref=1; Path=/; Secure', 'embed=1; Path=/; Secure; SameSite=None'] },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: {
              'set-cookie': ['pref=1; Path=/; Secure; SameSite=Lax', 'embed=1; Path=/; Secure; SameSite=None'],
            },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'cookie-prefixes',
    product: 'website_security',
    shows: value(/Path=\/app/, (out) => /__Host-id=1/.test(out) && !/Path=\/app/.test(out)),
    host: () => ({
      before: {
        https: {
          '/': {
            headers: { 'set-cookie': ['__Host-id=1; Path=/app; Secure; HttpOnly; SameSite=Lax'] },
            body: securePage(LONG_TEXT),
          },
        },
      },
      after: {
        https: {
          '/': {
            headers: { 'set-cookie': ['__Host-id=1; Path=/; Secure; HttpOnly; SameSite=Lax'] },
            body: securePage(LONG_TEXT),
          },
        },
      },
    }),
  },
  {
    check: 'security-txt',
    product: 'website_security',
    shows: presence(/^Contact: mailto:/m),
    host: (_s, name) => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) } } },
      after: {
        https: {
          '/': { body: securePage(LONG_TEXT) },
          '/.well-known/security.txt': text(
            `Contact: mailto:security@${name}\nExpires: ${new Date(Date.now() + 180 * 86_400_000).toISOString()}\n`,
          ),
        },
      },
    }),
  },
  {
    check: 'version-banners',
    product: 'website_security',
    shows: value(/nginx\/1\.18\.0/, (out) => /server: nginx/i.test(out) && !/\d/.test(out)),
    host: () => ({
      before: { https: { '/': { headers: { server: 'nginx/1.18.0' }, body: securePage(LONG_TEXT) } } },
      after: { https: { '/': { headers: { server: 'nginx' }, body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'exposed-files',
    product: 'website_security',
    shows: offender(/served: \/\.env/),
    host: () => ({
      before: { https: { '/': { body: securePage(LONG_TEXT) }, '/.env': text('DB_PASSWORD=secret\n') } },
      // A site that answers every path with its page (an SPA fallback) is not exposing anything.
      after: { https: { '/': { body: securePage(LONG_TEXT) }, '/.env': { body: securePage(LONG_TEXT) } } },
    }),
  },
  {
    check: 'directory-listing',
    product: 'website_security',
    shows: offender(/index of \/files\//i),
    host: () => ({
      before: {
        https: {
          '/': { body: securePage(`<a href="/files/">Files</a>${LONG_TEXT}`) },
          '/files/': {
            body: doc('', '<h1>Index of /files/</h1><a href="a.txt">a.txt</a>', { title: 'Index of /files/' }),
          },
        },
      },
      after: {
        https: {
          '/': { body: securePage(`<a href="/files/">Files</a>${LONG_TEXT}`) },
          '/files/': {
            body: doc('', '<main><h1>Files</h1><p>Ask us for the catalogue.</p></main>', { title: 'Files' }),
          },
        },
      },
    }),
  },
  {
    check: 'outdated-libraries',
    product: 'website_security',
    styles: true,
    shows: value(/jquery-1\.12\.4/, (out) => /jquery-3\.7\.1/.test(out) && !/1\.12\.4/.test(out)),
    host: (s) => ({
      before: {
        https: {
          '/': {
            body: securePage(
              `${el(s, 'script', [['src', 'https://cdn.example/jquery-1.12.4.min.js']], '')}${LONG_TEXT}`,
            ),
          },
        },
      },
      after: {
        https: {
          '/': {
            body: securePage(
              `${el(s, 'script', [['src', 'https://cdn.example/jquery-3.7.1.min.js']], '')}${LONG_TEXT}`,
            ),
          },
        },
      },
    }),
  },
];

/**
 * Checks whose verify line is not run here, with the reason. Empty: every line is run, the tools
 * this machine lacks (dig, @axe-core/cli) replaced by their documented equivalents.
 */
export const EXCEPTIONS: Record<string, string> = {};

/** Fixture text names the site as SELF (its origin is known once it listens). */
export function withOrigin(routes: Routes, origin: string): Routes {
  const out: Routes = {};
  for (const [path, route] of Object.entries(routes))
    out[path] =
      typeof route === 'function' || route.body === undefined
        ? route
        : { ...route, body: route.body.replaceAll('SELF', origin) };
  return out;
}
