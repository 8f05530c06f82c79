// The `node -e` scripts of the verify lines (standards.ts) read the site's page, which is hostile:
// each gives what its check judges on a page written the ways templates write fields, and ends in
// time linear in the page on markup built to stall a scan (unterminated quotes, comments and
// scripts, a million `<`).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FOLD_SCRIPT, PLACEHOLDER_ONLY_SCRIPT } from '../../src/audit/standards.ts';

const run = (script: string, input: string) => {
  const started = Date.now();
  const result = spawnSync('node', ['-e', script], { input, timeout: 20_000, maxBuffer: 1e9, encoding: 'utf8' });
  return { out: result.stdout, err: result.stderr, ms: Date.now() - started, status: result.status };
};

describe('the placeholder-only-label script', () => {
  it('prints the fields only a placeholder names, and none of the labelled ones', () => {
    const page = `<!doctype html><body><!-- <input placeholder="commented out"> -->
      <script>const t = '<input placeholder="in a script">';</script>
      <form><label for="e">Email</label><input id="e" type="email" placeholder="you@example.com">
      <input
          type="search"
          name="q"
          placeholder="Search term">
      <input type=text placeholder='Name' aria-label="Name"><label>City <input placeholder="City"></label>
      <textarea placeholder="Message"><input placeholder="textarea text"></textarea>
      <input type=hidden placeholder=x><input type="submit" placeholder="z"><input placeholder="  ">
      <input placeholder=Later id=later><label for=later>Later</label>
      <input placeholder="Hidden" hidden><input placeholder="None" style="display: none">
      <input placeholder="Titled" title="Titled"><select name="s"></select></form>`;
    const { out } = run(PLACEHOLDER_ONLY_SCRIPT, page);
    expect(out.trim().split('\n')).toEqual([
      '<input type="search" name="q" placeholder="Search term">',
      '<textarea placeholder="Message">',
    ]);
  });
});

describe('the fold script', () => {
  it('folds the page as the marketing checks fold text, percent-escapes decoded', () => {
    const { out } = run(
      FOLD_SCRIPT,
      '<a href="/%E3%81%8A%E5%95%8F%E3%81%84%E5%90%88%E3%82%8F%E3%81%9B/">Contáctenos</a>\n<b>İletişim ダウンロード %zz</b>',
    );
    expect(out).toBe('<a href="/お問い合わせ/">contactenos</a> <b>iletisim タウンロート %zz</b>\n');
  });
});

describe('the verify scripts on hostile markup', () => {
  const HOSTILE: Record<string, string> = {
    'unterminated quotes': '<a "'.repeat(250_000),
    'a million <': '<'.repeat(1_000_000),
    'an unterminated comment': `<!--${'x'.repeat(1_000_000)}`,
    'an unterminated script': `<script>${'<input placeholder=x>'.repeat(50_000)}`,
    'an unterminated value': `<input placeholder='${'a b '.repeat(250_000)}`,
    'equals signs': `<a ${'= '.repeat(500_000)}`,
    'many fields': '<input placeholder=x>'.repeat(50_000),
    'nested labels': `${'<label for=a>'.repeat(100_000)}${'</label>'.repeat(100_000)}`,
    'percent escapes': '%e3%81'.repeat(200_000),
  };
  for (const [name, input] of Object.entries(HOSTILE))
    it(`end quickly: ${name}`, () => {
      for (const script of [PLACEHOLDER_ONLY_SCRIPT, FOLD_SCRIPT]) {
        const { ms, status, err } = run(script, input);
        expect(status, err).toBe(0);
        expect(ms).toBeLessThan(5_000);
      }
    }, 30_000);
});
