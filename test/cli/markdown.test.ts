// `siteaudit audit --format markdown` (issue 27): the pull-request comment, read back with
// CommonMark's reference parser. Hostile site text must come out as plain text, the comment must
// stay under GitHub's limit whatever the run, and the words must be the honest ones.
import { type Node, Parser } from 'commonmark';
import { describe, expect, it } from 'vitest';
import type { ProductAudit } from '../../src/cli/ci/audit-result.ts';
import { MARKDOWN_MAX_LENGTH, toMarkdown } from '../../src/cli/ci/markdown.ts';
import { codeSpan, escapeLine, firstSentences, oneLine } from '../../src/cli/ci/markdown-escape.ts';
import { type Finding, SEVERITIES } from '../../src/contract/index.ts';
import { syntheticAudit, syntheticFinding, syntheticResult } from '../support/audit-result.ts';

const ZWSP = '\u200B';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '![](http://tracker.example/p.gif)',
  '[a][ref]\n\n[ref]: http://evil.example',
  'hi @octocat and @org/team, mail me@evil.example',
  '#1 fixes it, so does owner/repo#12 and GH-34',
  'a | b | c\n|---|---|',
  'line one\nline two\r\n# heading\n> quote\n- item\n1. one\n2) two',
  '`code` and ``double`` and a lone `',
  '<!-- the rest of the comment is hidden',
  '<details><summary>click</summary>',
  '**bold** _em_ ~~strike~~ $x^2$',
  'visit www.evil.example or https://evil.example/a_b or ftp://evil.example',
  '<https://evil.example>',
  '&#64;octocat &lt;b&gt; &amp;',
  '\\[not a link\\](x) trailing backslash \\',
  '---',
  '===',
  '    indented code',
  '\u202Eevil\u202C bidi \u200Bzero width \u0000nul \uD800lone',
  `${'x'.repeat(50)}\u0007bell`,
];

/** A markdown document's nodes, depth first, as CommonMark reads them. */
function nodes(markdown: string): Node[] {
  const all: Node[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let step = walker.next(); step; step = walker.next()) if (step.entering) all.push(step.node);
  return all;
}

/** The text a one-line markdown document shows, failing on any node but a paragraph of text. */
function shownText(markdown: string): string {
  const document = new Parser().parse(markdown);
  const paragraph = document.firstChild as Node;
  expect(paragraph.type).toBe('paragraph');
  expect(paragraph.next).toBeNull();
  let text = '';
  for (let node = paragraph.firstChild; node; node = node.next) {
    expect(node.type).toBe('text');
    text += node.literal;
  }
  return text;
}

describe('escapeLine', () => {
  it.each(HOSTILE)('shows %j as the text it is, on one line, and nothing else', (hostile) => {
    const line = oneLine(hostile);
    const escaped = escapeLine(line);
    expect(escaped).not.toMatch(/[\n\r]/);
    // Every character survives as text: no tag, link, image, entity, code span, emphasis or block.
    expect(shownText(escaped).replaceAll(ZWSP, '')).toBe(line);
  });

  it.each(HOSTILE)('leaves GitHub nothing to mention, reference, autolink or split into cells in %j', (hostile) => {
    const escaped = escapeLine(oneLine(hostile));
    const shown = shownText(escaped);
    // GitHub's second pass reads the rendered text, where escapes are gone: each opener is broken there.
    expect(shown).not.toMatch(/[@#][^\u200B]|[@#]$/);
    expect(shown).not.toMatch(/:\/\/|www\.|gh-\d/i);
    // In a table row, an unescaped pipe would end the cell.
    expect(escaped).not.toMatch(/(^|[^\\])\|/);
  });

  it('breaks each opener with a zero-width space only', () => {
    expect(escapeLine('@octocat #1 GH-2 http://a.example www.b.example')).toBe(
      `@${ZWSP}octocat #${ZWSP}1 GH${ZWSP}-2 http:${ZWSP}//a.example www${ZWSP}.b.example`,
    );
    expect(escapeLine('plain words, kept as written: 1.5 (a) a-b!')).toBe('plain words, kept as written: 1.5 (a) a-b!');
  });

  it('keeps a text that starts a line from opening a block', () => {
    for (const start of ['- item', '+ item', '= x', '1. one', '12) two', '# title', '> quote', '* star'])
      expect(shownText(escapeLine(start)).replaceAll(ZWSP, '')).toBe(start);
  });

  it('drops invisible and bidi characters and replaces a lone surrogate', () => {
    expect(oneLine('\u202Eab\u200Bc\u2066d\uD800e\uDC00')).toBe('abcd\uFFFDe\uFFFD');
    expect(oneLine('  a \n\n\t b\u2028c  ')).toBe('a b c');
  });

  it('cuts at a bound by code points, never inside a surrogate pair', () => {
    expect(oneLine('abcdef', 3)).toBe('abc…');
    expect(oneLine('😀😀😀', 2)).toBe('😀😀…');
    expect(oneLine('abc', 3)).toBe('abc');
  });

  it('runs in linear time on long hostile text', () => {
    // Quadratic work or backtracking on 400,000 characters would take minutes.
    const long = '@#[<`|://www.gh-\u00e9\u200b'.repeat(22_000);
    const started = performance.now();
    escapeLine(oneLine(long));
    codeSpan(long, 5_000_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('codeSpan', () => {
  it.each([
    'https://shop.example/a?b=1#c',
    'https://shop.example/`tick`',
    '`https://shop.example/',
    'https://shop.example/```` ``',
    'https://shop.example/<img src=x>@octocat#1',
  ])('shows %j verbatim in one code span', (url) => {
    const [code, ...rest] = nodes(codeSpan(url, 500)).filter((node) => node.type !== 'document');
    expect(code?.type).toBe('paragraph');
    expect(rest.map((node) => node.type)).toEqual(['code']);
    expect(rest[0]?.literal).toBe(url);
  });

  it('keeps a URL on one line', () => {
    expect(codeSpan('https://a.example/\n# heading', 500)).toBe('`https://a.example/ # heading`');
  });
});

describe('firstSentences', () => {
  it('keeps a short fix whole', () => {
    expect(firstSentences('Add alt text. Then check.', 100)).toBe('Add alt text. Then check.');
  });
  it('cuts a long one where a sentence ends', () => {
    expect(firstSentences(`Add alt text. ${'word '.repeat(50)}`, 40)).toBe('Add alt text.');
  });
  it('cuts at a space with … when no sentence ends in reach', () => {
    expect(firstSentences('one two three four', 12)).toBe('one two…');
  });
});

/** An audit of another product from the synthetic one, with its own run id kept. */
const asProduct = (audit: ProductAudit, product: ProductAudit['product']): ProductAudit => ({ ...audit, product });

describe('toMarkdown', () => {
  const findings = [
    syntheticFinding(1, { severity: 'low', title: 'Low one' }),
    syntheticFinding(2, { severity: 'critical', title: 'Critical one' }),
    syntheticFinding(3, { severity: 'medium', title: 'Medium one' }),
    syntheticFinding(4, { severity: 'high', title: 'High one' }),
  ];

  it('opens with the site, then the gate, then the score with its change since the baseline', () => {
    const audit = syntheticAudit(findings, { score: 72, baselineScore: 68, states: ['new'] });
    const text = toMarkdown(
      syntheticResult([audit], {
        gate: {
          passed: false,
          checks: [
            { expression: 'score<90', tripped: true, detail: 'AI readiness score 72 is below 90' },
            { expression: 'findings>20', tripped: false, detail: '4 findings (not more than 20)' },
          ],
        },
      }),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('## siteaudit: `https://shop.example/`');
    expect(text).toContain('**Gate failed**:\n- `score<90`: AI readiness score 72 is below 90\n');
    expect(text).not.toContain('findings>20');
    expect(text).toContain('### AI readiness: 72/100, Good (+4 since the baseline)');
    expect(text.indexOf('Gate failed')).toBeLessThan(text.indexOf('### AI readiness'));
  });

  it('says a passed gate, and nothing when no gate was given', () => {
    const audit = syntheticAudit(findings);
    const passed = syntheticResult([audit], {
      gate: { passed: true, checks: [{ expression: 'new>0', tripped: false, detail: '0 new findings' }] },
    });
    expect(toMarkdown(passed)).toContain('**Gate passed**: `new>0`.');
    expect(toMarkdown(syntheticResult([audit]))).not.toContain('Gate');
  });

  it.each([
    [70, 70, '(no change since the baseline)'],
    [60, 63, '(-3 since the baseline)'],
  ])('words a score of %i against a baseline of %i as %s', (score, baselineScore, words) => {
    const audit = syntheticAudit(findings, { score, baselineScore, states: ['new'] });
    expect(toMarkdown(syntheticResult([audit]))).toContain(`### AI readiness: ${score}/100, Good ${words}`);
  });

  it('lists new findings worst first, then counts persisting and not found with an honest note', () => {
    const audit = syntheticAudit(findings, { states: ['new', 'persisting'], notFound: 2 });
    const text = toMarkdown(syntheticResult([audit]));
    // Findings 1 and 3 are new (low, medium); 2 and 4 persist (critical, high).
    expect(text).toContain('**New findings (2)**');
    expect(text.indexOf('**medium** Medium one')).toBeLessThan(text.indexOf('**low** Low one'));
    expect(text).toContain('2 persisting, 2 no longer found. Not found is not proof of a fix');
    const details = text.slice(text.indexOf('<details>'), text.indexOf('</details>'));
    expect(details).toContain('<summary>Persisting findings (2)</summary>');
    expect(details.indexOf('Critical one')).toBeLessThan(details.indexOf('High one'));
    // Persisting findings come after the new ones, not among them.
    expect(text.indexOf('Critical one')).toBeGreaterThan(text.indexOf('**low** Low one'));
  });

  it('shows pages as code, a few then a count, and the fix cut at a sentence end', () => {
    const pages = Array.from({ length: 5 }, (_, i) => `https://shop.example/p${i}`);
    const finding = {
      ...syntheticFinding(1, { pages }),
      remediation: `Add alt text. ${'More words here. '.repeat(40)}`,
    };
    const text = toMarkdown(syntheticResult([syntheticAudit([finding])]));
    expect(text).toContain(
      '5 pages: `https://shop.example/p0`, `https://shop.example/p1`, `https://shop.example/p2` and 2 more. Fix: Add alt text.',
    );
    const fix = text.slice(text.indexOf('Fix: '));
    expect(fix.slice(0, fix.indexOf('\n'))).toMatch(/\.$/);
    expect(fix.indexOf('\n')).toBeLessThan(260);
  });

  it('without a baseline, lists every finding worst first', () => {
    const text = toMarkdown(syntheticResult([syntheticAudit(findings)]));
    expect(text).toContain('**Findings (4), worst first**');
    const order = ['Critical one', 'High one', 'Medium one', 'Low one'].map((title) => text.indexOf(title));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).not.toContain('persisting');
  });

  it('says a first audit has no baseline and counts every finding as new', () => {
    const audit = { ...syntheticAudit(findings), noBaseline: true };
    const text = toMarkdown(syntheticResult([audit]));
    expect(text).toContain('No baseline (no earlier completed audit of this site): every finding counts as new.');
    expect(text).toContain('**New findings (4)**');
    expect(text).not.toContain('since the baseline');
  });

  it('names what a partial score stands on, and gives an unverified score no number', () => {
    const audit = syntheticAudit(findings, { states: ['new'] });
    const coverage = {
      mode: 'local_on_page' as const,
      notEvaluated: ['dns', 'tls'],
      evaluatedChecks: 4,
      totalChecks: 36,
    };
    const partial = { ...audit, report: { ...audit.report, coverage } };
    expect(toMarkdown(syntheticResult([partial]))).toContain(
      '### AI readiness: Partial: 4 of 36 AI readiness checks evaluated; score 72/100 on those checks (+2 since the baseline)',
    );
    // The report or the run may say it (a report stored before the run's field, or the other way).
    const unverified: ProductAudit[] = [
      { ...audit, report: { ...audit.report, coverage, scoreStatus: 'unverified' } },
      {
        ...audit,
        report: { ...audit.report, coverage },
        run: { ...audit.run, score: null, scoreStatus: 'unverified' },
      },
    ];
    for (const one of unverified) {
      const text = toMarkdown(syntheticResult([one]));
      expect(text).toContain('### AI readiness: score unverified\n');
      expect(text).toContain('no score to trust');
      expect(text).toContain('not evaluated: DNS and TLS (HTTPS).');
      expect(text).not.toMatch(/72|since the baseline/);
    }
  });

  it('links the reports, or on a local service says once that they are on the runner', () => {
    const audit = syntheticAudit(findings, { states: ['new'] });
    const linked = toMarkdown(syntheticResult([audit]));
    expect(linked).toContain('[Full report](<http://127.0.0.1:8787/runs/11111111-1111-4111-8111-111111111111>)');
    expect(linked).toContain(
      '([report](<http://127.0.0.1:8787/runs/11111111-1111-4111-8111-111111111111#f_00000002>))',
    );
    const local = toMarkdown(syntheticResult([audit, asProduct(audit, 'marketing_signal')], { localLinks: true }));
    expect(local).not.toContain('127.0.0.1');
    expect(local).not.toContain('](');
    expect(local.split("runner's local service").length).toBe(2);
  });

  it('renders hostile findings as text: no link, image or tag but our own', () => {
    const hostile = HOSTILE.map((title, i) => ({
      ...syntheticFinding(i, { title, pages: [`https://evil.example/${title}`, `javascript:${title}`] }),
      remediation: title,
    }));
    const audit = syntheticAudit(hostile, { states: ['new', 'persisting'] });
    const text = toMarkdown(syntheticResult([audit]));
    const all = nodes(text);
    expect(all.filter((node) => node.type === 'image')).toEqual([]);
    const links = all.filter((node) => node.type === 'link').map((node) => node.destination);
    expect(links.every((href) => href?.startsWith('http://127.0.0.1:8787/runs/'))).toBe(true);
    const html = all.filter((node) => node.type === 'html_inline' || node.type === 'html_block');
    expect(html.map((node) => node.literal?.trim())).toEqual([
      expect.stringMatching(/^<details><summary>Persisting findings \(\d+\)<\/summary>$/),
      '</details>',
      '<sub>',
      '</sub>',
    ]);
    expect(all.filter((node) => node.type === 'heading')).toHaveLength(2);
    expect(all.filter((node) => node.type === 'code_block' || node.type === 'block_quote')).toEqual([]);
    // GitHub's second pass: no mention, issue reference or bare address outside code spans.
    for (const node of all)
      if (node.type === 'text') expect(node.literal).not.toMatch(/@[^\u200B]|#[^\u200B]|:\/\/|www\./);
  });

  it('keeps the worst findings of every product when the worst alone overflow the bound', () => {
    const critical = Array.from({ length: 150 }, (_, i) =>
      syntheticFinding(i, { severity: 'critical', title: `${'Critical and long '.repeat(10)}${i}` }),
    );
    const audits = [
      syntheticAudit(critical),
      asProduct(syntheticAudit(critical), 'marketing_signal'),
      asProduct(syntheticAudit(critical), 'website_security'),
    ];
    const text = toMarkdown(syntheticResult(audits));
    expect(text.length).toBeLessThan(MARKDOWN_MAX_LENGTH);
    const kept = text
      .split('\n### ')
      .slice(1)
      .map((section) => section.split('\n- **critical** ').length - 1);
    // Each product's first before any product's second: the three differ by one at most.
    expect(Math.max(...kept) - Math.min(...kept)).toBeLessThanOrEqual(1);
    expect(Math.min(...kept)).toBeGreaterThan(20);
    expect(Math.max(...kept)).toBeLessThan(150);
  });

  describe('stays under the bound', () => {
    const longTitle = (n: number) => `${'A very long title of a finding about images '.repeat(10)}${n}`;
    const pages = Array.from({ length: 1000 }, (_, i) => `https://shop.example/${'deep/'.repeat(20)}page-${i}`);
    // Out of the API's order on purpose: 20 critical and 20 high among 960 milder ones.
    const severityOf = (i: number) => (i % 50 === 7 ? 'critical' : i % 50 === 3 ? 'high' : SEVERITIES[2 + (i % 3)]);
    let built: Finding[] | undefined;
    /** Built once: a thousand findings of a thousand pages each take seconds to parse. */
    const thousand = () => {
      built ??= Array.from({ length: 1000 }, (_, i) =>
        syntheticFinding(i, { title: longTitle(i), pages, severity: severityOf(i) }),
      );
      return built;
    };

    /** The severities of the new findings listed, and the count of those left out. */
    function listed(text: string): { severities: string[]; more: number } {
      const severities = [...text.matchAll(/^- \*\*(\w+)\*\* A very long/gm)].map((match) => match[1] as string);
      const more = [...text.matchAll(/… and (\d+) more new findings/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      return { severities, more };
    }

    it('with 1,000 findings of long titles and 1,000 pages each, dropping the lowest first', () => {
      const audit = syntheticAudit(thousand(), { states: ['new'] });
      const text = toMarkdown(syntheticResult([audit]));
      expect(MARKDOWN_MAX_LENGTH).toBe(65_000);
      expect(text.length).toBeLessThan(MARKDOWN_MAX_LENGTH);
      // Cut as late as the bound allows, not far before it.
      expect(text.length).toBeGreaterThan(MARKDOWN_MAX_LENGTH - 3_000);
      const { severities, more } = listed(text);
      expect(severities.length + more).toBe(1000);
      expect(severities.length).toBeGreaterThan(40);
      expect(text).toContain(`… and ${more} more new findings: the full list is in the JSON or SARIF output`);
      // Every critical and high one first, then the milder ones worst first.
      expect(severities.slice(0, 40)).toEqual([...Array(20).fill('critical'), ...Array(20).fill('high')]);
      expect(severities).toEqual(
        [...severities].sort((a, b) => SEVERITIES.indexOf(a as never) - SEVERITIES.indexOf(b as never)),
      );
      expect(text).toContain('<sub>siteaudit 0.1.0</sub>');
    });

    it('with several products, keeping the worst findings of all of them', () => {
      const first = syntheticAudit(thousand(), { states: ['new', 'persisting'], notFound: 50 });
      const second = asProduct(syntheticAudit(thousand(), { states: ['new'] }), 'marketing_signal');
      const third = asProduct(syntheticAudit(thousand()), 'website_security');
      const text = toMarkdown(syntheticResult([first, second, third], { localLinks: true }));
      expect(text.length).toBeLessThan(MARKDOWN_MAX_LENGTH);
      for (const label of ['AI readiness', 'Marketing signal', 'Website security'])
        expect(text).toContain(`### ${label}: 72/100`);
      // Ranked across products: the mildest severity listed anywhere is no milder than the worst left out anywhere.
      const sections = text.split('\n### ').slice(1);
      const total = (i: number, severity: number) =>
        thousand().filter((f, n) => SEVERITIES.indexOf(f.severity) === severity && (i > 0 || n % 2 === 0)).length;
      let mildestKept = -1;
      let worstDropped: number = SEVERITIES.length;
      sections.forEach((section, i) => {
        const kept = [...section.matchAll(/^- \*\*(\w+)\*\* A very long/gm)].map((m) =>
          SEVERITIES.indexOf(m[1] as never),
        );
        // The first product's new findings are every other one (states alternate).
        expect(kept.filter((s) => s === 0)).toHaveLength(total(i, 0));
        for (const [severity] of SEVERITIES.entries()) {
          const count = kept.filter((s) => s === severity).length;
          if (count > 0) mildestKept = Math.max(mildestKept, severity);
          if (count < total(i, severity)) worstDropped = Math.min(worstDropped, severity);
        }
      });
      expect(worstDropped).toBeLessThan(SEVERITIES.length);
      expect(mildestKept).toBeLessThanOrEqual(worstDropped);
      expect(text).toMatch(/… and \d+ more new findings/);
      expect(text).toMatch(/… and \d+ more findings/);
      // Persisting titles rank below every new finding: with new ones cut, none is listed.
      expect(text).not.toContain('<details>');
      expect(text).toContain('500 persisting, 50 no longer found.');
    });
  });
});
