// README.md and the docs as a reader sees them rendered (issue 24): every heading of the source is a
// heading of the output (an unclosed code fence swallows the rest of a page on GitHub), every fence
// is closed where it ends, and every relative link points at a file inside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HtmlRenderer, Parser } from 'commonmark';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe.each(pages)('%s rendered as CommonMark', (page) => {
  const source = readFileSync(join(root, page), 'utf8');
  const lines = source.split('\n');
  const tree = new Parser().parse(source);

  it('keeps every heading a heading and closes every code fence where it ends', () => {
    const headings: string[] = [];
    const unclosed: number[] = [];
    const walker = tree.walker();
    for (let step = walker.next(); step; step = walker.next()) {
      const { node, entering } = step;
      if (!entering) continue;
      if (node.type === 'heading') headings.push(lines[(node.sourcepos?.[0][0] ?? 1) - 1]?.trim() ?? '');
      const first = lines[(node.sourcepos?.[0][0] ?? 1) - 1] ?? '';
      if (node.type === 'code_block' && /^ {0,3}(`{3,}|~{3,})/.test(first)) {
        const last = lines[(node.sourcepos?.[1][0] ?? 1) - 1]?.trim() ?? '';
        if (!/^(`{3,}|~{3,})$/.test(last)) unclosed.push(node.sourcepos?.[0][0] ?? 0);
      }
    }
    expect(unclosed, 'fences opened on these lines are never closed').toEqual([]);
    // Headings of the page's own structure (two or more #; a shell comment in a block has one).
    const written = lines.filter((line) => /^#{2,6} \S/.test(line)).map((line) => line.trim());
    expect(headings).toEqual(expect.arrayContaining(written));
    expect(new HtmlRenderer().render(tree)).toContain('<h');
  });

  it('links only to files inside the repository', () => {
    const outside: string[] = [];
    const walker = tree.walker();
    for (let step = walker.next(); step; step = walker.next()) {
      const { node, entering } = step;
      if (!entering || (node.type !== 'link' && node.type !== 'image') || !node.destination) continue;
      const target = node.destination.split('#')[0] ?? '';
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const file = resolve(root, dirname(page), decodeURIComponent(target));
      if (!file.startsWith(`${root}/`) || !existsSync(file)) outside.push(node.destination);
    }
    expect(outside).toEqual([]);
  });
});

describe('docs/spec/site-audit-api-v1.md', () => {
  const shared = resolve(root, '../shared/spec/site-audit-api-v1.md');
  it.skipIf(!existsSync(shared))('is the contract of ../shared, unchanged', () => {
    expect(readFileSync(join(root, 'docs/spec/site-audit-api-v1.md'), 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});
