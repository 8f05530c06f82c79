// The built-in .gitignore matcher (src/mcp/source/gitignore.ts), rule by rule as gitignore(5) states
// them, in linear time on hostile patterns, and in agreement with git's own listing of a tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS } from '../../src/mcp/source/bounds.ts';
import { listSourceFiles } from '../../src/mcp/source/files.ts';
import {
  type IgnoreFile,
  isIgnored,
  isPathIgnored,
  parseIgnoreFile,
  parseRule,
} from '../../src/mcp/source/gitignore.ts';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const rootFile = (text: string): IgnoreFile => ({ rules: parseIgnoreFile(text), prefix: [], strip: 0 });
const temporary: string[] = [];

afterAll(async () => {
  for (const root of temporary) await rm(root, { recursive: true, force: true });
});

describe('the .gitignore matcher', () => {
  // [patterns, path, is a directory, ignored]
  it.each([
    ['*.log', 'debug.log', false, true],
    ['*.log', 'logs/deep/debug.log', false, true],
    ['*.log', 'debug.log.html', false, false],
    ['dist/', 'dist', true, true],
    ['dist/', 'packages/site/dist', true, true],
    ['dist/', 'dist', false, false],
    ['/build', 'build', true, true],
    ['/build', 'src/build', true, false],
    ['doc/*.txt', 'doc/notes.txt', false, true],
    ['doc/*.txt', 'doc/deep/notes.txt', false, false],
    ['doc/*.txt', 'site/doc/notes.txt', false, false],
    ['**/foo', 'foo', true, true],
    ['**/foo', 'a/b/foo', false, true],
    ['**/foo/bar', 'x/foo/bar', false, true],
    ['a/**/b', 'a/b', false, true],
    ['a/**/b', 'a/x/y/b', false, true],
    ['a/**/b', 'a/x/c', false, false],
    ['abc/**', 'abc/x/y.html', false, true],
    ['abc/**', 'abc', true, false],
    ['file?.md', 'file1.md', false, true],
    ['file?.md', 'file10.md', false, false],
    ['[a-c]x.html', 'bx.html', false, true],
    ['[a-c]x.html', 'dx.html', false, false],
    ['[!a-c]x.html', 'dx.html', false, true],
    ['[!a-c]x.html', 'ax.html', false, false],
    ['[]]x', ']x', false, true],
    ['[a-', '[a-', false, false],
    ['\\#notes', '#notes', false, true],
    ['#notes', '#notes', false, false],
    ['\\!bang', '!bang', false, true],
    ['trail\\ ', 'trail ', false, true],
    ['trail   ', 'trail', false, true],
    ['*.html\n!keep.html', 'keep.html', false, false],
    ['*.html\n!keep.html', 'other.html', false, true],
    ['!keep.html\n*.html', 'keep.html', false, true],
    ['a*b*c*d', 'a-b-c-d', false, true],
    ['src/*', 'src/x', false, true],
    ['src/*', 'src', true, false],
  ] as const)('%j on %s (directory: %s) ignores it: %s', (patterns, path, isDir, ignored) => {
    expect(isIgnored([rootFile(patterns)], path, isDir)).toBe(ignored);
  });

  it('lets a deeper .gitignore override a shallower one', () => {
    const files: IgnoreFile[] = [rootFile('*.md'), { rules: parseIgnoreFile('!readme.md'), prefix: [], strip: 1 }];
    expect(isIgnored(files, 'docs/readme.md', false)).toBe(false);
    expect(isIgnored(files, 'docs/other.md', false)).toBe(true);
    expect(isIgnored(files, 'readme.md', false)).toBe(true);
  });

  it('reads the .gitignore of a directory above the root relative to that directory', () => {
    const files: IgnoreFile[] = [{ rules: parseIgnoreFile('/site/out/\nsite/*.tmp.html'), prefix: ['site'], strip: 0 }];
    expect(isIgnored(files, 'out', true)).toBe(true);
    expect(isIgnored(files, 'draft.tmp.html', false)).toBe(true);
    expect(isIgnored(files, 'pages/draft.tmp.html', false)).toBe(false);
  });

  it('never re-includes a file inside an excluded directory', () => {
    const files = [rootFile('secret/\n!secret/keep.html')];
    expect(isPathIgnored(files, 'secret/keep.html', false)).toBe(true);
    expect(isPathIgnored([rootFile('secret/*\n!secret/keep.html')], 'secret/keep.html', false)).toBe(false);
  });

  it('skips blank lines, comments and patterns past the length bound', () => {
    expect(parseIgnoreFile('\n# a comment\n   \n')).toEqual([]);
    expect(parseRule(`${'a'.repeat(2_000)}*`)).toBeUndefined();
  });

  it('never throws on junk patterns and paths', () => {
    const unit = (chars: string) => fc.constantFrom(...chars.split(''));
    const patterns = fc.string({ unit: unit('*?[]!^\\/-a.b# \n'), maxLength: 120 });
    const paths = fc.string({ unit: unit('ab./-[]*'), maxLength: 80 });
    fc.assert(
      fc.property(patterns, paths, fc.boolean(), (pattern, path, isDir) => {
        expect(typeof isPathIgnored([rootFile(pattern)], path, isDir)).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  });

  it('matches hostile patterns in linear time, with no backtracking blow-up', () => {
    const stars = rootFile(`${'*a'.repeat(200)}b`);
    expect(isIgnored([stars], 'a'.repeat(250), false)).toBe(false);
    const globstars = rootFile(`${'**/'.repeat(100)}x/**/y`);
    expect(isIgnored([globstars], `${'d/'.repeat(200)}z`, false)).toBe(false);
    const classes = rootFile(`${'[a-z]*'.repeat(150)}!`);
    expect(isIgnored([classes], 'q'.repeat(250), false)).toBe(false);
  });
});

describe('listing files: git and the built-in walk agree', () => {
  it.skipIf(!HAS_GIT)('lists the same files as git ls-files for the same rules', async () => {
    const root = await mkdtemp(join(tmpdir(), 'siteaudit-ignore-'));
    temporary.push(root);
    const put = async (path: string, text = '<p>x</p>\n') => {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    };
    const rules = ['*.tmp.html', '/out/', 'secret/', '!secret/keep.html', 'drafts/*', '!drafts/ok.html', '**/cache/**'];
    rules.push('[Bb]ackup*', 'abc/**', '!abc/keep.html', '[x-.html');
    await put('.gitignore', `${rules.join('\n')}\n`);
    await put('src/.gitignore', 'local-*.html\n!local-keep.html\n/only-here.html\n');
    const paths = [
      'index.html',
      'page.tmp.html',
      'out/index.html',
      'src/out/index.html',
      'secret/keep.html',
      'secret/a.html',
      'drafts/ok.html',
      'drafts/no.html',
      'a/cache/b/c.html',
      'cache.html',
      'Backup1.html',
      'backup/x.html',
      'src/local-1.html',
      'src/local-keep.html',
      'src/only-here.html',
      'src/deep/only-here.html',
      'src/deep/local-2.html',
      'node_modules/pkg/index.html',
      'abc/keep.html',
      'abc/no.html',
      '[x-.html',
      'src/App.tsx',
      'src/notes.md',
      'src/readme.txt',
    ];
    for (const path of paths) await put(path);
    execFileSync('git', ['init', '-q'], { cwd: root });

    const byGit = await listSourceFiles(root, { ...DEFAULT_BOUNDS, useGit: true });
    const byWalk = await listSourceFiles(root, { ...DEFAULT_BOUNDS, useGit: false });
    expect(byGit.via).toBe('git');
    expect(byWalk.via).toBe('walk');
    const sorted = (listing: typeof byGit) => listing.files.map((f) => f.path).sort();
    expect(sorted(byWalk)).toEqual(sorted(byGit));
    expect(sorted(byWalk)).toEqual(
      [
        'index.html',
        'src/out/index.html',
        'drafts/ok.html',
        'cache.html',
        'src/local-keep.html',
        'src/deep/only-here.html',
        'src/App.tsx',
        'src/notes.md',
        'abc/keep.html',
        '[x-.html',
      ].sort(),
    );
  });

  it('falls back to the walk where the root is not a work tree', async () => {
    const root = await mkdtemp(join(tmpdir(), 'siteaudit-ignore-plain-'));
    temporary.push(root);
    await writeFile(join(root, '.gitignore'), 'hidden.html\n');
    await writeFile(join(root, 'hidden.html'), '<p>x</p>');
    await writeFile(join(root, 'shown.html'), '<p>x</p>');
    const listing = await listSourceFiles(root, { ...DEFAULT_BOUNDS, useGit: true });
    expect(listing.via).toBe('walk');
    expect(listing.files.map((f) => f.path)).toEqual(['shown.html']);
  });
});
