// Findings keep their identity across runs (issue 26): the same defect has the same fingerprint in
// two audits, whatever moved around it, and a different defect a different one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementFingerprint, elementShape, pageKey, siteScope } from '../../src/audit/fingerprint.ts';
import { runAudit } from '../../src/audit/index.ts';
import { toFindings } from '../../src/audit/report.ts';
import type { Finding } from '../../src/contract/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

describe('the parts of a fingerprint', () => {
  it('keys a site by its host without www, and a page without visit parameters or fragment', () => {
    expect(siteScope('https://WWW.Shop.example/a')).toBe('shop.example');
    expect(siteScope('http://localhost:3000/')).toBe('localhost:3000');
    expect(pageKey('https://www.shop.example/mugs/?utm_source=x&b=2&a=1#top')).toBe('shop.example/mugs?a=1&b=2');
    expect(pageKey('https://shop.example/mugs')).toBe(pageKey('https://shop.example/mugs/?gclid=abc'));
    expect(pageKey('https://shop.example/mugs?page=2')).not.toBe(pageKey('https://shop.example/mugs?page=3'));
  });

  it('is the same element whatever selector names it (a run, a recheck, axe)', () => {
    const snippet = '<img class="hero-img" src="/mug.jpg">';
    const byAxe = { selector: 'img', snippet };
    const byRecheck = { selector: 'body > main > img.hero-img', snippet };
    expect(elementFingerprint('image-alt', 'https://s.example/', byAxe)).toBe(
      elementFingerprint('image-alt', 'https://s.example/', byRecheck),
    );
  });

  it('reads what the element is from its start tag, in any quoting and order', () => {
    const a = elementShape('<img class="hero wide css-1x7k2ab" src="/img/mug.jpg?v=12" id="hero-image">');
    const b = elementShape("<img id='hero-image' style='x' src=/img/mug.jpg?v=13 class='wide hero'>");
    expect(a).toBe('img[class=hero.wide id=hero-image src=/img/mug.jpg]');
    expect(b).toBe(a);
    // Two nameless buttons told apart by what they are for.
    expect(elementShape('<button class="owl-dot">')).not.toBe(elementShape('<button class="menu-toggle">'));
    expect(elementShape('<input id=":r1:" name="q" type="search">')).toBe('input[name=q type=search]');
  });

  it('is linear on hostile start tags', () => {
    const hostile = `<a ${'x="'.repeat(50_000)}${"='".repeat(50_000)}>`;
    const started = performance.now();
    elementShape(hostile);
    elementShape(`<a class="${'x '.repeat(50_000)}">`);
    // Generous: a quadratic scan of 200,000 characters takes minutes, a linear one milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('tells two elements on one page apart, and the same element on two pages', () => {
    const img = { selector: 'main > img', snippet: '<img src="/a.png">' };
    const other = { selector: 'main > img', snippet: '<img src="/b.png">' };
    expect(elementFingerprint('image-alt', 'https://s.example/', img)).not.toBe(
      elementFingerprint('image-alt', 'https://s.example/', other),
    );
    expect(elementFingerprint('image-alt', 'https://s.example/', img)).not.toBe(
      elementFingerprint('image-alt', 'https://s.example/about', img),
    );
  });
});

describe('two audits of a site that changed around its defects', () => {
  let site: FixtureSite;
  let first: Finding[];
  let second: Finding[];

  const page = (extra: string) =>
    html(
      '<title>Mugs</title>',
      `<main><h1>Mugs</h1>${extra}<p>Stoneware mugs.</p><img class="hero" src="/mug.jpg"><a href="/about">About</a></main>`,
    );
  const audit = async (runId: string) => {
    const outcome = await runAudit('ai_readiness', { url: `${site.origin}/`, local: true }, { pageBudget: 2 });
    return toFindings(outcome, {
      runId,
      projectId: null,
      scanMode: null,
      createdAt: '2026-11-28T00:00:00.000Z',
      completedAt: '2026-11-28T00:00:01.000Z',
      humanUrl: 'http://127.0.0.1/runs/x',
    });
  };

  beforeAll(async () => {
    site = await startFixtureSite({
      '/': { body: page('') },
      '/about': { body: html('<title>About</title>', '<main><h1>About</h1><p>Made in Leeds.</p></main>') },
    });
    first = await audit('11111111-1111-4111-8111-111111111111');
    // An image with a name and a paragraph added above the image: its position changes, it does not.
    site.routes.set('/', { body: page('<p>New arrivals.</p><img src="/new.jpg" alt="New mugs">') });
    second = await audit('22222222-2222-4222-8222-222222222222');
  }, 60_000);
  afterAll(async () => {
    await site?.close();
  });

  it('gives the same defect the same fingerprint and a new findingId', () => {
    const alt1 = first.find((f) => f.checkId === 'image-alt');
    const alt2 = second.find((f) => f.checkId === 'image-alt');
    expect(alt1?.fingerprint).toMatch(/^fp_[0-9a-f]{16}$/);
    expect(alt2?.fingerprint).toBe(alt1?.fingerprint);
    expect(alt2?.findingId).not.toBe(alt1?.findingId);
    const element = (f: Finding | undefined) => f?.evidence[0]?.elements?.[0];
    expect(element(alt1)?.selector).not.toBe(element(alt2)?.selector);
    expect(element(alt2)?.fingerprint).toBe(element(alt1)?.fingerprint);
    expect(alt2?.evidence[0]?.fingerprint).toBe(alt1?.evidence[0]?.fingerprint);
  });

  it('gives every finding of a run its own fingerprint', () => {
    const prints = first.map((f) => f.fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
    for (const f of first) expect(f.checkId, f.title).toMatch(/\S/);
  });
});
