// Facts from real-world markup patterns (issue 10): headings that hold links (MkDocs headerlinks,
// Hugo linked titles), links and buttons named by an image's alt, an svg title or aria-label.
import { describe, expect, it } from 'vitest';
import { metaContent, parseHtml } from '../../src/audit/html.ts';

const page = (body: string, head = '<title>Doc</title>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('headings with links inside', () => {
  it('keeps an MkDocs heading with its headerlink, once', () => {
    const facts = parseHtml(
      page(
        '<h1 id="intro">Introduction<a class="headerlink" href="#intro" title="Permanent link">¶</a></h1><h2 id="a">Setup<a class="headerlink" href="#a">¶</a></h2>',
      ),
    );
    expect(facts.headings).toEqual([
      { level: 1, text: 'Introduction¶' },
      { level: 2, text: 'Setup¶' },
    ]);
    expect(facts.anchors.map((a) => a.text)).toEqual(['¶', '¶']);
  });

  it('counts every linked post title of a Hugo list page as its own h1', () => {
    const posts = Array.from(
      { length: 7 },
      (_, n) => `<article><h1><a href="/posts/${n}/">Post ${n}</a></h1></article>`,
    );
    const facts = parseHtml(page(posts.join('')));
    expect(facts.headings.filter((h) => h.level === 1)).toHaveLength(7);
    expect(facts.headings[3]).toEqual({ level: 1, text: 'Post 3' });
    expect(facts.anchors.map((a) => a.text)).toEqual(posts.map((_, n) => `Post ${n}`));
  });

  it('keeps a heading’s visible text apart from the aria-label of its hash link (Docusaurus)', () => {
    const facts = parseHtml(
      page(
        '<h2 id="install">Install<a href="#install" class="hash-link" aria-label="Direct link to Install">&#8203;</a></h2>',
      ),
    );
    expect(facts.headings).toEqual([{ level: 2, text: 'Install\u200b' }]);
    expect(facts.anchors.map((a) => a.text)).toEqual(['Direct link to Install']);
  });

  it('sees a skipped level behind links', () => {
    const facts = parseHtml(page('<h1><a href="/">Site</a></h1><h3><a href="/x">Deep</a></h3>'));
    expect(facts.headings.map((h) => h.level)).toEqual([1, 3]);
  });
});

describe('accessible names of links and buttons', () => {
  it.each([
    ['an image alt', '<a href="/"><img src="/logo.png" alt="Acme home"></a>', 'Acme home'],
    ['aria-label over the content', '<a href="/" aria-label="Home">⌂</a>', 'Home'],
    ['an svg title', '<a href="/cart"><svg viewBox="0 0 1 1"><title>Cart</title><path d=""/></svg></a>', 'Cart'],
    ['title when nothing else names it', '<a href="/help" title="Help"></a>', 'Help'],
    ['text and an image together', '<a href="/x">Read <img src="/i.png" alt="more"></a>', 'Read more'],
    ['nothing at all', '<a href="/x"><img src="/i.png" alt=""></a>', ''],
  ])('names a link by %s', (_what, body, name) => {
    expect(parseHtml(page(body)).anchors[0]?.text).toBe(name);
  });

  it('names a button by its image alt, and an svg title is not the document title', () => {
    const facts = parseHtml(
      page('<button><img src="/s.png" alt="Search"></button><a href="/"><svg><title>Logo</title></svg></a>'),
    );
    expect(facts.buttons.map((b) => b.name)).toEqual(['Search']);
    expect(facts.titles).toEqual(['Doc']);
  });
});

// Found on real sites (issue 10): a meta description after an unknown element in <head> was accepted,
// though the HTML5 parser moves it into <body>, where browsers and Lighthouse do not read it.
describe('head placement as the HTML5 parser does it', () => {
  const description = (head: string) =>
    metaContent(parseHtml(`<!doctype html><html><head>${head}</head><body><p>x</p></body></html>`), 'description');

  it.each([
    ['a plain head', '<title>t</title><meta name="description" content="kept">', 'kept'],
    [
      'a meta after link, style, script and base',
      '<base href="/"><link rel="icon" href="/i.png"><style>p{}</style><script>1</script><meta name="description" content="kept">',
      'kept',
    ],
    [
      'a meta after noscript content (scripting on)',
      '<noscript><img src="/p.gif"></noscript><meta name="description" content="kept">',
      'kept',
    ],
    [
      'a meta after an unknown element',
      '<title>t</title><custom-widget></custom-widget><meta name="description" content="moved">',
      undefined,
    ],
    ['a meta after a div', '<div>banner</div><meta name="description" content="moved">', undefined],
    ['a meta after stray text', 'stray words<meta name="description" content="moved">', undefined],
  ])('%s', (_what, head, expected) => {
    expect(description(head)).toBe(expected);
  });

  it('counts a moved meta as in the body, and its text as page text', () => {
    const facts = parseHtml(
      '<html><head><custom-el>Hello there</custom-el><meta name="description" content="d"></head><body></body></html>',
    );
    expect(facts.metas).toEqual([{ name: 'description', content: 'd', inHead: false }]);
    expect(facts.textLength).toBeGreaterThan(0);
  });
});

// Found on real sites (issue 10): a phone number in the footer, written out, was not seen as a way
// to reach the business; only tel:, mailto: and <address> counted.
describe('phone numbers and emails written in the text', () => {
  it.each([
    ['an international number', '<footer>+44 20 7946 0958</footer>'],
    ['an area code in brackets', '<p>(555) 123-4567</p>'],
    ['a labelled number', '<p>Tel. 0521 123456</p>'],
    ['a labelled number, call us', '<p>Call us: 030 1234 5678</p>'],
    ['an email address', '<p>Write to info@bakery.example</p>'],
  ])('sees %s', (_what, body) => {
    expect(parseHtml(page(body)).visibleContacts).toBe(1);
  });

  it.each([
    ['a date', '<p>Posted 2024-01-15, updated 2024-02-01</p>'],
    ['a price and a year', '<p>Only 1999 EUR in 2025</p>'],
    ['an order number', '<p>Order 12345678 shipped</p>'],
    ['a number inside a script', '<script>var t = "+44 20 7946 0958";</script>'],
  ])('does not take %s for one', (_what, body) => {
    expect(parseHtml(page(body)).visibleContacts).toBe(0);
  });
});

// Issue 22: evidence and names, kept once per element so that extraction stays linear, stay right.
describe('evidence for repeated ids, and names in indented markup', () => {
  it('points a repeated id’s evidence at its own copy, not at the first one `#id` finds', () => {
    const facts = parseHtml(
      page(
        '<header><form><label for="s">Search</label><input id="s" name="s"></form></header>' +
          '<footer><form><input id="s" name="s"></form></footer>',
      ),
    );
    expect(facts.fields.map((f) => [f.element.selector, f.labelled])).toEqual([
      ['input#s', true],
      ['body > footer > form > input', false],
    ]);
    expect(facts.duplicateIds).toEqual([
      { id: 's', element: { selector: 'body > footer > form > input', snippet: '<input id="s" name="s">' } },
    ]);
  });

  it('places a list’s stray child by its id only if the id is its own (decided after the walk)', () => {
    const facts = parseHtml(page('<ul><li><div id="d"></div></li><div id="d">x</div></ul><ul><p id="p">y</p></ul>'));
    expect(facts.listOffences.map((o) => o.element.selector)).toEqual(['body > ul:nth-of-type(1) > div', 'p#p']);
  });

  it('names a link past its markup’s indentation (whitespace counts once toward the name’s bound)', () => {
    const indent = `\n${' '.repeat(100)}`;
    const card = `<div>${indent}<span>${indent}</span>${indent}<img alt="">${indent}${'<div>'.repeat(5)}${indent}<h3>${indent}Read the card title${indent}</h3>${'</div>'.repeat(5)}</div>`;
    expect(parseHtml(page(`<a href="/x">${indent}${card}${indent}</a>`)).anchors[0]?.text).toBe('Read the card title');
  });
});
