// Page basics of Lighthouse and axe judged on served HTML (issue 13), each with a page that fails
// and one that passes, through the engine on a fixture site: doctype, viewport, frame titles, list
// structure, meaningful alt text and repeated ids that labels point at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewportOffences } from '../../src/audit/checks/page-basics.ts';
import { parseHtml } from '../../src/audit/html.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const GOOD_HEAD = '<title>Garden tools</title><meta name="viewport" content="width=device-width, initial-scale=1">';
const good = html(
  GOOD_HEAD,
  `<main><h1>Tools</h1>
   <ul><li>Trowel</li><li>Spade</li><script></script></ul>
   <ol role="list"><div>styled item</div></ol>
   <iframe src="/map" title="Map of our shop"></iframe>
   <iframe src="/video" aria-label="Forging video"></iframe>
   <img src="/t.jpg" alt="Hand-forged trowel"><img src="/line.png" alt="">
   <label for="email">Email</label><input id="email" name="email">
   <div id="card">one</div><div id="card">two</div>
   <a href="/about">About us</a></main>`,
);

const bad = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html lang="en"><head><title>Old shop</title><meta name="viewport" content="width=device-width, user-scalable=no, maximum-scale=1"></head>
<body><main><h1>Shop</h1>
  <ul><div>Trowel</div><li>Spade</li></ul>
  <li>stray item</li>
  <iframe src="/map"></iframe>
  <img src="/IMG_0042.jpg" alt="IMG_0042.jpg"><img src="/hero.png" alt="image">
  <label for="q">Search</label><input id="q" name="q"><input id="q" name="q2">
</main></body></html>`;

describe('page basics', () => {
  let site: FixtureSite;
  let passing: AuditOutcome<unknown>;
  let failing: AuditOutcome<unknown>;
  beforeAll(async () => {
    site = await startFixtureSite({
      '/good': { body: good },
      '/bad': { body: bad },
      '/quirks': { body: '<title>x</title><p>no doctype' },
    });
    [passing, failing] = await Promise.all([
      runAudit('ai_readiness', { url: `${site.origin}/good`, local: true }, { pageBudget: 1 }),
      runAudit('ai_readiness', { url: `${site.origin}/bad`, local: true }, { pageBudget: 1 }),
    ]);
  });
  afterAll(async () => {
    await site.close();
  });
  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);
  const summary = (outcome: AuditOutcome<unknown>, id: string) =>
    row(outcome, id)
      ?.finding?.evidence.map((e) => e.summary)
      .join(' | ') ?? '';

  it.each([
    [
      'doctype-standards-mode',
      'a legacy doctype (“-//W3C//DTD HTML 4.01 Transitional//EN”) puts the browser in limited-quirks mode',
    ],
    ['viewport-zoomable', 'turns zoom off'],
    ['frame-title', 'frame “/map”'],
    ['list-structure', '<div> directly inside <ul>; <li> outside a <ul>, <ol> or <menu>'],
    ['image-alt-meaningful', 'alt=“IMG_0042.jpg” on “/IMG_0042.jpg”; alt=“image” on “/hero.png”'],
    ['duplicate-id-references', 'id “q” is used again'],
  ])('%s fails on the defective page and passes on the good one', (id, offence) => {
    expect(row(passing, id)?.status, row(passing, id)?.detail).toBe('pass');
    expect(row(failing, id)?.status).toBe('fail');
    expect(summary(failing, id)).toContain(offence);
    expect(row(failing, id)?.finding?.remediation).toBeTruthy();
  });

  it('names the elements, so a coding agent finds them', () => {
    const lists = row(failing, 'list-structure')?.finding?.evidence[0]?.elements ?? [];
    expect(lists.map((e) => e.snippet)).toEqual(['<div>', '<li>']);
    expect(row(failing, 'duplicate-id-references')?.finding?.evidence[0]?.elements?.[0]?.snippet).toBe(
      '<input id="q" name="q2">',
    );
  });

  it('reads the document mode as the HTML standard sets it', () => {
    expect(parseHtml('<title>x</title>').documentMode).toBe('quirks');
    expect(parseHtml('<!doctype html><title>x</title>').documentMode).toBe('no-quirks');
    expect(parseHtml(bad).documentMode).toBe('limited-quirks');
    // HTML 4.01 Transitional is quirks without its system identifier, limited-quirks with it.
    expect(parseHtml('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>').documentMode).toBe('quirks');
    expect(parseHtml('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><p>').documentMode).toBe('quirks');
  });

  it.each([
    ['width=device-width, initial-scale=1', []],
    ['width=device-width, initial-scale=1, maximum-scale=5', []],
    ['initial-scale=1, maximum-scale=1.5', ['caps zoom at 1.5x']],
    ['width=device-width, user-scalable=0', ['turns zoom off']],
    ['shrink-to-fit=no', ['sets neither width nor initial-scale']],
  ] as const)('viewport %s', (content, expected) => {
    const offences = viewportOffences(parseHtml(html(`<meta name="viewport" content="${content}">`, '<p>')));
    expect(offences.map((o) => o.what.replace(/^.*” /, ''))).toEqual(expected);
  });
});
