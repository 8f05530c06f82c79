// Monitoring's judgement of one page (issue 11): what counts as a change, what does not, and which
// pages a crawl finds most important.
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/audit/net/fetcher.ts';
import { createResolver } from '../../src/audit/net/resolver.ts';
import { judgeLook, lookAtPage, nextState, type PageLook } from '../../src/audit/page-watch.ts';
import { html, startFixtureSite } from '../support/fixture-site.ts';

const at = '2026-11-23T10:00:00.000Z';

describe('a monitored page', () => {
  it('is judged by status class and meaningful content, not by markup, scripts or numbers', async () => {
    const page = (head: string, body: string) => ({ body: html(head, body) });
    const site = await startFixtureSite({
      '/': page('<title>Home</title>', '<h1>Home</h1><p>Hello</p>'),
      '/markup': page(
        '<title>Home</title><script>var nonce="a81f"</script><style>p{color:red}</style>',
        '<div class="x"><h1>Home</h1></div><p data-x="1">Hello</p>',
      ),
      '/noindex': page('<title>Home</title><meta name="robots" content="noindex">', '<h1>Home</h1><p>Hello</p>'),
      '/canonical': page('<title>Home</title><link rel="canonical" href="/other">', '<h1>Home</h1><p>Hello</p>'),
      '/described': page('<title>Home</title><meta name="description" content="New">', '<h1>Home</h1><p>Hello</p>'),
      '/moved': { status: 301, headers: { location: '/elsewhere' } },
      '/elsewhere': page('<title>Home</title>', '<h1>Home</h1><p>Hello</p>'),
      '/feed.json': { headers: { 'content-type': 'application/json' }, body: '{"items":[1]}' },
    });
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 1000 });
    const look = (path: string) => lookAtPage(fetcher, `${site.origin}${path}`, { confirmAfterMs: 5 });
    try {
      const base = await look('/');
      const state = nextState(undefined, base, null, at);
      // Each variant is served at its own path: compared as if it were the home page's new answer.
      const changesOf = async (path: string, redirected = false) => {
        const variant = await look(path);
        const fingerprint = variant.fingerprint && {
          ...variant.fingerprint,
          finalUrl: redirected ? variant.fingerprint.finalUrl : base.url,
        };
        return judgeLook(state, { ...variant, url: base.url, fingerprint });
      };
      expect(judgeLook(undefined, base)).toEqual({ kind: null, changes: [] });
      expect(await changesOf('/markup')).toEqual({ kind: null, changes: [] });
      expect(await changesOf('/noindex')).toEqual({ kind: 'changed', changes: ['robots'] });
      expect(await changesOf('/canonical')).toEqual({ kind: 'changed', changes: ['canonical'] });
      expect(await changesOf('/described')).toEqual({ kind: 'changed', changes: ['description'] });
      expect(await changesOf('/moved', true)).toEqual({ kind: 'changed', changes: ['final_url'] });
      const feed = await look('/feed.json');
      site.routes.set('/feed.json', { headers: { 'content-type': 'application/json' }, body: '{"items":[]}' });
      expect(judgeLook(nextState(undefined, feed, null, at), await look('/feed.json'))).toEqual({
        kind: 'changed',
        changes: ['text'],
      });
      // A page first seen down is reported; a missing page is down with its status.
      const missing = await look('/nowhere');
      expect(missing).toMatchObject({ up: false, httpStatus: 404, error: 'answered 404', fingerprint: null });
      expect(judgeLook(undefined, missing)).toEqual({ kind: 'failed', changes: ['status'] });
    } finally {
      await fetcher.close();
      await site.close();
    }
  });

  it('is looked at twice before it counts as down, so one dropped answer is not an outage', async () => {
    let calls = 0;
    const site = await startFixtureSite({
      '/': (_req, res) => {
        calls++;
        if (calls === 1) res.destroy();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>');
      },
    });
    const fetcher = createFetcher({ resolver: createResolver(), allowPrivate: true, timeoutMs: 1000 });
    try {
      expect(await lookAtPage(fetcher, `${site.origin}/`, { confirmAfterMs: 5 })).toMatchObject({
        up: true,
        httpStatus: 200,
      });
      expect(calls).toBe(2);
    } finally {
      await fetcher.close();
      await site.close();
    }
  });

  it('keeps the content of its last time up while down, so a recovery reports what changed meanwhile', () => {
    const up = (text: string): PageLook => ({
      url: 'https://a.test/',
      httpStatus: 200,
      up: true,
      error: null,
      durationMs: 1,
      fingerprint: {
        finalUrl: 'https://a.test/',
        title: 't',
        description: null,
        canonical: null,
        robots: null,
        headings: 'h',
        text,
      },
    });
    const down: PageLook = { ...up('x'), httpStatus: 503, up: false, error: 'answered 503', fingerprint: null };
    const first = nextState(undefined, up('one'), null, at);
    const during = nextState(first, down, 'failed', at);
    expect(during.fingerprint?.text).toBe('one');
    expect(judgeLook(during, up('two'))).toEqual({ kind: 'recovered', changes: ['status', 'text'] });
    // A network failure (no status) after a 503 is another way of failing: reported.
    expect(judgeLook(during, { ...down, httpStatus: null, error: 'refused' })).toEqual({
      kind: 'failed',
      changes: ['status'],
    });
  });
});
