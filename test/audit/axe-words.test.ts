// axe findings in our words (issue 25): every rule the installed axe-core can report has a title and
// a remediation of ours, none of them axe's help text, and text is bounded only at word boundaries.
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { measured } from '../../src/audit/checks/rendered.ts';
import { AXE_WORDS, axeWords, clip } from '../../src/audit/render/axe-words.ts';

const rules = axe.getRules();

describe('our words for axe rules', () => {
  it('cover every rule of the installed axe-core, and no rule it does not have', () => {
    expect(rules.length).toBeGreaterThan(90);
    expect(Object.keys(AXE_WORDS).sort()).toEqual(rules.map((rule) => rule.ruleId).sort());
  });

  it.each(rules.map((rule) => [rule.ruleId, rule.help] as const))(
    '%s: a title and a remediation of ours',
    (id, help) => {
      const words = AXE_WORDS[id];
      expect(words?.title).not.toBe(help);
      expect(words?.remediation.includes(help)).toBe(false);
      expect(words?.title.length).toBeLessThanOrEqual(80);
      expect(words?.title).not.toMatch(/\.$/);
      // Whole sentences, short enough that nothing bounds them (a finding's remediation keeps 1000).
      expect(words?.remediation).toMatch(/^[A-Z].*\.$/);
      expect(words?.remediation.length).toBeLessThanOrEqual(320);
    },
  );

  it('names a rule newer than the table without axe’s words', () => {
    expect(axeWords('some-future-rule')).toEqual({
      title: 'Elements that fail the accessibility rule some-future-rule',
      remediation:
        'Fix the elements listed so that axe-core’s rule some-future-rule passes; its page (in the references) explains the rule.',
    });
  });
});

describe('text bounded at word boundaries', () => {
  it('cuts at the last word that fits, with an ellipsis and no dangling punctuation', () => {
    expect(clip('Element has insufficient color contrast of 1.6 (foreground color: #c8c8c8)', 48)).toBe(
      'Element has insufficient color contrast of 1.6…',
    );
    expect(clip('references elements that are empty Elements', 40)).toBe('references elements that are empty…');
    expect(clip('short   text\nstays', 40)).toBe('short text stays');
  });

  it('cuts a single word longer than the bound where the bound falls, in linear time', () => {
    expect(clip('a'.repeat(50), 10)).toBe(`${'a'.repeat(9)}…`);
    const hostile = `${'x,'.repeat(500_000)}end`;
    const started = performance.now();
    expect(clip(hostile, 200).length).toBeLessThanOrEqual(200);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('quotes what axe measured, without its "Fix any of the following" heading', () => {
    expect(
      measured(
        'Fix any of the following:\n  Element has insufficient color contrast of 1.6 (foreground color: #c8c8c8, background color: #ffffff, font size: 12.0pt (16px), font weight: normal). Expected contrast ratio of 4.5:1',
        80,
      ),
    ).toBe('“Element has insufficient color contrast of 1.6 (foreground color: #c8c8c8…”');
    expect(measured('Fix all of the following:\n  a\nFix any of the following:\n  b')).toBe('“a; b”');
    expect(measured('')).toBe('');
  });

  // Issue 25 review: evidence quoted axe's list of the ways it looked for a name, and cut target-size
  // mid-sentence ("…instead of at…").
  it('says in our words that nothing names an element, for every way axe looked', () => {
    expect(
      measured(
        'Fix any of the following:\n  Element has no alt attribute\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute\n  Element\'s default semantics were not overridden with role="none" or role="presentation"',
      ),
    ).toBe('no alt, aria-label, aria-labelledby or title names it');
    expect(
      measured(
        'Fix any of the following:\n  Element does not have text that is visible to screen readers\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not exist, references elements that do not exist or references elements that are empty\n  Element has no title attribute',
      ),
    ).toBe('no text, aria-label, aria-labelledby or title names it');
    // One message we do not know: axe's messages are quoted, whole.
    expect(
      measured('Fix any of the following:\n  aria-label attribute does not exist or is empty\n  Something new'),
    ).toBe('“aria-label attribute does not exist or is empty; Something new”');
  });

  it('keeps axe’s messages whole with their measured values, and cuts a long one at a sentence', () => {
    const target =
      'Fix any of the following:\n  Target has insufficient size (10px by 10px, should be at least 24px by 24px)\n  Target has insufficient space to its closest neighbors. Safe clickable space has a diameter of 0px instead of at least 24px.';
    expect(measured(target)).toBe(
      '“Target has insufficient size (10px by 10px, should be at least 24px by 24px); Target has insufficient space to its closest neighbors. Safe clickable space has a diameter of 0px instead of at least 24px.”',
    );
    // Too long for both: the first message whole, never "…instead of at…".
    expect(measured(target, 150)).toBe(
      '“Target has insufficient size (10px by 10px, should be at least 24px by 24px)”',
    );
    // One message too long: its first sentences that fit.
    expect(
      measured(
        'Fix any of the following:\n  Target has insufficient space to its closest neighbors. Safe clickable space has a diameter of 0px instead of at least 24px.',
        80,
      ),
    ).toBe('“Target has insufficient space to its closest neighbors.”');
  });
});
