// Issue 22: fact extraction stays linear in the page size on hostile markup. Each page is about as
// large as a fetch keeps (2 MB) or nests as deep as markup can; the quadratic extraction took 20 s
// to minutes on each (or overflowed the stack). parseHtml runs in a worker under a bound, since a
// synchronous loop cannot be interrupted by a test timeout. The bound is generous (the extraction
// now takes well under a second): it catches a hang, it is no benchmark.
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageFacts } from '../../src/audit/html.ts';
import { openBounded } from '../support/time-bound.ts';

type Element = DefaultTreeAdapterMap['element'];

const BOUND_MS = 10_000;
const html = openBounded(new URL('../../src/audit/html.ts', import.meta.url), BOUND_MS);
afterAll(() => html.close());
const parseHtml = (page: string) => html.call<PageFacts>('parseHtml', [page]);

const many = (count: number, make: (i: number) => string) => Array.from({ length: count }, (_, i) => make(i)).join('');

/**
 * The elements a selector of parseHtml's form (`tag#id.class:nth-of-type(n)` steps joined by ` > `)
 * matches, in document order: the evidence must name one element, and the right one.
 */
function select(page: string, selector: string): Element[] {
  const steps = selector.split(' > ').map((step) => {
    const match = /^([a-z][a-z0-9-]*)(?:#([\w-]+))?((?:\.[\w-]+)*)(?::nth-of-type\((\d+)\))?$/.exec(step);
    if (!match) throw new Error(`not a selector step of parseHtml's form: ${step}`);
    const [, tag, id, classes, place] = match;
    return { tag, id, classes: classes ? classes.slice(1).split('.') : [], place: place ? Number(place) : undefined };
  });
  const places = new Map<unknown, Map<Element, number>>();
  const placeOf = (element: Element) => {
    let known = places.get(element.parentNode);
    if (!known) {
      known = new Map();
      const counts = new Map<string, number>();
      for (const child of element.parentNode?.childNodes ?? [])
        if ('tagName' in child) {
          counts.set(child.tagName, (counts.get(child.tagName) ?? 0) + 1);
          known.set(child, counts.get(child.tagName) as number);
        }
      places.set(element.parentNode, known);
    }
    return known.get(element);
  };
  const attribute = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
  const matches = (element: Element) => {
    let current: Element | null = element;
    for (let i = steps.length - 1; i >= 0; i--) {
      const step = steps[i] as (typeof steps)[number];
      if (!current || current.tagName !== step.tag) return false;
      if (step.id !== undefined && attribute(current, 'id') !== step.id) return false;
      const classes = (attribute(current, 'class') ?? '').split(/\s+/);
      if (!step.classes.every((name) => classes.includes(name))) return false;
      if (step.place !== undefined && placeOf(current) !== step.place) return false;
      const parent: DefaultTreeAdapterMap['parentNode'] | null = current.parentNode;
      current = parent && 'tagName' in parent ? parent : null;
    }
    return true;
  };
  const found: Element[] = [];
  const stack: DefaultTreeAdapterMap['node'][] = [parse(page)];
  while (stack.length > 0) {
    const node = stack.pop() as DefaultTreeAdapterMap['node'];
    if ('tagName' in node && matches(node)) found.push(node);
    if ('childNodes' in node)
      for (let i = node.childNodes.length - 1; i >= 0; i--)
        stack.push(node.childNodes[i] as DefaultTreeAdapterMap['node']);
  }
  return found;
}

/** The one element `selector` names on `page`, by an attribute that tells it apart. */
function named(page: string, selector: string, attribute: string): string | undefined {
  const found = select(page, selector);
  expect(found, selector).toHaveLength(1);
  return found[0]?.attrs.find((a) => a.name === attribute)?.value;
}

describe('parseHtml on hostile pages: linear, and the facts right', () => {
  it('reads a list of 50,000 links (~2 MB): 500 kept, and evidence deep in the list points at its element', async () => {
    const page = `<!doctype html><html lang="en"><body><ul>${many(50_000, (i) =>
      i === 39_999
        ? `<li><button name="b${i}">Buy</button></li>`
        : i === 44_999
          ? `<li><input name="q${i}"></li>`
          : `<li><a href="/p/${i}">Link ${i}</a></li>`,
    )}</ul>`;
    expect(page.length).toBeGreaterThan(1_700_000);
    const facts = await parseHtml(page);
    expect(facts.anchors).toHaveLength(500);
    expect(facts.anchors[0]).toEqual({
      href: '/p/0',
      text: 'Link 0',
      rel: '',
      element: { selector: 'body > ul > li:nth-of-type(1) > a', snippet: '<a href="/p/0">' },
    });
    expect(facts.anchors[499]?.element.selector).toBe('body > ul > li:nth-of-type(500) > a');
    expect(facts.anchors[499]?.text).toBe('Link 499');
    expect(facts.buttons).toEqual([
      {
        name: 'Buy',
        element: { selector: 'body > ul > li:nth-of-type(40000) > button', snippet: '<button name="b39999">' },
      },
    ]);
    expect(facts.fields).toEqual([
      {
        type: 'text',
        name: 'q44999',
        labelled: false,
        autocomplete: null,
        element: { selector: 'body > ul > li:nth-of-type(45000) > input', snippet: '<input name="q44999">' },
      },
    ]);
    expect(named(page, facts.buttons[0]?.element.selector ?? '', 'name')).toBe('b39999');
    expect(named(page, facts.fields[0]?.element.selector ?? '', 'name')).toBe('q44999');
    expect(named(page, facts.anchors[499]?.element.selector ?? '', 'href')).toBe('/p/499');
  });

  it('reads 50,000 images: 500 kept, and an insecure one at 45,001 is evidence by its place', async () => {
    const page = `<!doctype html><body><div>${many(50_000, (i) =>
      i === 45_000 ? `<img src="http://cdn.example/${i}.png">` : `<img src="/i/${i}.png" alt="">`,
    )}</div>`;
    const facts = await parseHtml(page);
    expect(facts.images).toHaveLength(500);
    expect(facts.images[499]).toEqual({
      src: '/i/499.png',
      alt: '',
      hasDimensions: false,
      element: { selector: 'body > div > img:nth-of-type(500)', snippet: '<img src="/i/499.png" alt>' },
    });
    expect(facts.mixedContent).toEqual([
      {
        url: 'http://cdn.example/45000.png',
        element: {
          selector: 'body > div > img:nth-of-type(45001)',
          snippet: '<img src="http://cdn.example/45000.png">',
        },
      },
    ]);
    expect(named(page, facts.mixedContent[0]?.element.selector ?? '', 'src')).toBe('http://cdn.example/45000.png');
  });

  it('reads headings, labels and inline elements nested 20,000 deep (60,000 levels)', async () => {
    const page = `<!doctype html><body>${'<h2><label><i>'.repeat(20_000)}<a href="/deep">Deep</a><input name="deep">`;
    const facts = await parseHtml(page);
    // Every heading holds the rest: each is named by the one text at the bottom.
    expect(facts.headings).toHaveLength(500);
    expect(facts.headings.every((heading) => heading.level === 2 && heading.text === 'Deep')).toBe(true);
    expect(facts.anchors).toEqual([
      {
        href: '/deep',
        text: 'Deep',
        rel: '',
        element: { selector: 'h2 > label > i > a', snippet: '<a href="/deep">' },
      },
    ]);
    expect(facts.fields).toEqual([
      {
        type: 'text',
        name: 'deep',
        labelled: true,
        autocomplete: null,
        element: { selector: 'h2 > label > i > input', snippet: '<input name="deep">' },
      },
    ]);
    expect(named(page, facts.anchors[0]?.element.selector ?? '', 'href')).toBe('/deep');
  });

  it('names a link through svg titles nested 100,000 deep without running out of stack', async () => {
    const page = `<!doctype html><body><a href="/x">${'<svg><title>'.repeat(100_000)}Logo</a>`;
    const facts = await parseHtml(page);
    expect(facts.anchors.map((a) => [a.href, a.text])).toEqual([['/x', 'Logo']]);
  });

  it('reads 40,000 nested MathML titles: 500 kept, each named by the text they share', async () => {
    const page = `<!doctype html><body><math>${'<title>'.repeat(40_000)}T</math>`;
    const facts = await parseHtml(page);
    expect(facts.titles).toEqual(Array(500).fill('T'));
  });

  it('reads 36,000 forms each with a label (~2 MB): 500 forms and 500 fields kept, labelled, placed', async () => {
    const page = `<!doctype html><body>${many(36_000, (i) => `<form action=/${i}><label>N<input><input></label></form>`)}`;
    const facts = await parseHtml(page);
    expect(facts.forms).toHaveLength(500);
    expect(facts.fields).toHaveLength(500);
    const last = facts.forms[499];
    expect(last).toMatchObject({ action: '/499', method: 'get', submits: true });
    expect(last?.fields.map((field) => [field.labelled, field.element.selector])).toEqual([
      [true, 'body > form:nth-of-type(500) > label > input:nth-of-type(1)'],
      [true, 'body > form:nth-of-type(500) > label > input:nth-of-type(2)'],
    ]);
    // The 500 listed fields are the first 250 forms'; forms past 500 keep none.
    expect(facts.fields[499]?.element.selector).toBe('body > form:nth-of-type(250) > label > input:nth-of-type(2)');
    const found = select(page, last?.fields[1]?.element.selector ?? '');
    expect(found).toHaveLength(1);
    const label = found[0]?.parentNode as Element | undefined;
    const form = label?.parentNode as Element | undefined;
    expect(form?.attrs).toEqual([{ name: 'action', value: '/499' }]);
  });

  it('reads a 2 MB text node inside 5,000 nested headings and a link: names bounded, all text counted', async () => {
    const page = `<!doctype html><body><a href="/t">${'<h2><b>'.repeat(5_000)}${'word '.repeat(400_000)}`;
    const facts = await parseHtml(page);
    expect(facts.textLength).toBe(5 * 400_000 - 1);
    expect(facts.textSample).toBe(`${'word '.repeat(400).slice(0, 1999)}…`);
    const name = (length: number) => `${'word '.repeat(100).slice(0, length - 1)}…`;
    expect(facts.headings).toHaveLength(500);
    expect(facts.headings.every((heading) => heading.text === name(300))).toBe(true);
    expect(facts.anchors.map((a) => a.text)).toEqual([name(120)]);
  });

  it('reads 20,000 duplicate ids that labels and aria-labelledby point at', async () => {
    // Every field's second copy is named by aria-labelledby: a target with 20,000 empty children.
    const page = `<!doctype html><body><div id=name>${'<i></i>'.repeat(20_000)}Name</div><div id=name>Other</div>${many(
      20_000,
      (i) => `<label for=f${i}>F</label><input id=f${i}><input id=f${i} aria-labelledby=name>`,
    )}`;
    const facts = await parseHtml(page);
    expect(facts.duplicateIds).toHaveLength(500);
    expect(facts.duplicateIds[0]).toEqual({
      id: 'name',
      element: { selector: 'body > div:nth-of-type(2)', snippet: '<div id="name">' },
    });
    // A repeated id's step is no anchor (`input#f498` would name the first copy): the place is.
    expect(facts.duplicateIds[499]).toEqual({
      id: 'f498',
      element: { selector: 'body > input:nth-of-type(998)', snippet: '<input id="f498" aria-labelledby="name">' },
    });
    expect(select(page, 'body > input:nth-of-type(998)')[0]?.attrs).toEqual([
      { name: 'id', value: 'f498' },
      { name: 'aria-labelledby', value: 'name' },
    ]);
    expect(facts.fields).toHaveLength(500);
    // The label names the first copy; the second is named by its aria-labelledby.
    expect(facts.fields.every((field) => field.labelled)).toBe(true);
  });

  it('reads an element with 150,000 attributes holding 100,000 list items', async () => {
    const page = `<!doctype html><body><div ${many(150_000, (i) => `a${i} `)}role=list>${'<li>x</li>'.repeat(100_000)}</div><section><li id=stray>z</li></section>`;
    const facts = await parseHtml(page);
    expect(facts.listOffences).toEqual([
      { what: '<li> outside a <ul>, <ol> or <menu>', element: { selector: 'li#stray', snippet: '<li id="stray">' } },
    ]);
    expect(facts.textLength).toBe(100_001);
  });
});
