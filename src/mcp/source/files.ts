// The files of a site's source worth searching for an element, listed once: `git ls-files` where git
// and a work tree are there (it knows every ignore rule, global excludes included), else a bounded
// walk that reads .gitignore files at every level itself. Either way dependency and tool directories
// are skipped, only template, content and script files are kept, and build output is marked
// `generated` (searched after the sources, and ranked below them).
import { execFile } from 'node:child_process';
import { open, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { MAX_GIT_OUTPUT_BYTES, MAX_IGNORE_FILE_BYTES, type SourceBounds } from './bounds.ts';
import { type IgnoreFile, isIgnored, parseIgnoreFile } from './gitignore.ts';

export interface SourceFile {
  /** Relative to the root, with forward slashes. */
  path: string;
  /** Build output (dist/, _site/, a minified file): a match here points to its source less surely. */
  generated: boolean;
  /** Search order: templates, then content, then scripts; generated files after all of them. */
  rank: number;
}

export interface FileListing {
  files: SourceFile[];
  via: 'git' | 'walk';
  /** A bound cut the listing short (files, directories or time). */
  truncated: boolean;
}

/** Never searched, ignored or not: dependencies, version control, and tools' caches and output. */
// biome-ignore format: a list
const ALWAYS_SKIPPED = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', 'jspm_packages', '.yarn', '.pnpm-store',
  '.next', '.nuxt', '.svelte-kit', '.astro', '.output', '.vercel', '.netlify', '.cache', '.turbo',
  '.parcel-cache', '.angular', '.docusaurus', '.expo', '.vite', 'coverage', '__pycache__', '.venv',
  '.idea', '.vscode',
]);

/** Directories that hold build output when they are committed (when ignored they are not listed at all). */
const GENERATED_DIRECTORIES = new Set(['dist', 'build', '_site', 'storybook-static', 'out']);
/** Config files of generators whose output is `public/` (Hugo, Gatsby); elsewhere public/ holds sources. */
// biome-ignore format: a list
const PUBLIC_IS_OUTPUT = [
  'hugo.toml', 'hugo.yaml', 'hugo.json', 'config.toml', 'gatsby-config.js', 'gatsby-config.ts', 'gatsby-config.mjs',
];

/** Extensions searched, by rank: templates and components, then content, then scripts that may build markup. */
const RANKS = new Map<string, number>();
const TEMPLATES =
  'html htm xhtml shtml astro vue svelte jsx tsx liquid njk nunjucks hbs handlebars mustache ejs erb php';
for (const ext of `${TEMPLATES} twig pug jade haml slim cshtml razor jinja jinja2 j2 tmpl tpl gohtml mdx marko`.split(
  ' ',
))
  RANKS.set(ext, 0);
for (const ext of ['md', 'markdown']) RANKS.set(ext, 1);
for (const ext of ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts']) RANKS.set(ext, 2);
const GENERATED_RANK = 10;

/** The search rank of a file name, or undefined when it is not searched (other types, minified, .d.ts). */
export function rankOf(name: string): number | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const rank = RANKS.get(name.slice(dot + 1).toLowerCase());
  if (rank === undefined || name.includes('.min.') || name.endsWith('.d.ts')) return undefined;
  return rank;
}

function isSkipped(path: string): boolean {
  for (const segment of path.split('/')) if (ALWAYS_SKIPPED.has(segment)) return true;
  return false;
}

function isGenerated(path: string, publicIsOutput: boolean): boolean {
  const segments = path.split('/');
  for (let i = 0; i < segments.length - 1; i++) if (GENERATED_DIRECTORIES.has(segments[i] as string)) return true;
  return (
    path.startsWith('public/build/') ||
    path.startsWith('resources/_gen/') ||
    (publicIsOutput && path.startsWith('public/'))
  );
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** An ignore file's text, its first MAX_IGNORE_FILE_BYTES only. */
async function readIgnore(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(MAX_IGNORE_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_IGNORE_FILE_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `git ls-files` from the root: paths relative to it, or undefined when git or the work tree is not there. */
function gitFiles(root: string, timeout: number): Promise<string[] | undefined> {
  // core.fsmonitor off: git runs no configured program for us.
  const args = ['-c', 'core.fsmonitor=false', 'ls-files', '--cached', '--others', '--exclude-standard', '-z'];
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd: root, timeout, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: 'buffer', windowsHide: true },
      (error, stdout) => resolve(error ? undefined : stdout.toString('utf8').split('\0')),
    );
  });
}

/**
 * The ignore files above the root, when the root is inside a work tree: each .gitignore from the
 * top of the tree down to the root's parent, and the tree's .git/info/exclude (shallowest).
 */
async function ancestorIgnores(root: string): Promise<IgnoreFile[]> {
  const chain: string[] = [];
  let dir = root;
  for (let depth = 0; depth < 32; depth++) {
    if (await exists(join(dir, '.git'))) break;
    const parent = dirname(dir);
    if (parent === dir) return [];
    chain.push(parent);
    dir = parent;
  }
  if (!(await exists(join(dir, '.git')))) return [];
  const prefixOf = (ancestor: string) => relative(ancestor, root).split(sep).filter(Boolean);
  const files: IgnoreFile[] = [];
  const exclude = await readIgnore(join(dir, '.git', 'info', 'exclude'));
  if (exclude) files.push({ rules: parseIgnoreFile(exclude), prefix: prefixOf(dir), strip: 0 });
  for (const ancestor of chain.reverse()) {
    const text = await readIgnore(join(ancestor, '.gitignore'));
    if (text) files.push({ rules: parseIgnoreFile(text), prefix: prefixOf(ancestor), strip: 0 });
  }
  return files;
}

/** Breadth first, shallow files first; ignored directories are never entered. */
async function walkFiles(root: string, bounds: SourceBounds, deadline: number, limit: number) {
  const paths: string[] = [];
  const queue: Array<{ dir: string; depth: number; ignores: IgnoreFile[] }> = [
    { dir: '', depth: 0, ignores: await ancestorIgnores(root) },
  ];
  let truncated = false;
  for (let head = 0; head < queue.length; head++) {
    if (head >= bounds.maxDirectories || Date.now() > deadline || paths.length >= limit) {
      truncated = true;
      break;
    }
    const { dir, depth, ignores: inherited } = queue[head] as (typeof queue)[number];
    queue[head] = { dir: '', depth: 0, ignores: [] }; // let the walked entry's rules go
    const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let ignores = inherited;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      const text = await readIgnore(join(root, dir, '.gitignore'));
      if (text) ignores = [...inherited, { rules: parseIgnoreFile(text), prefix: [], strip: depth }];
    }
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      // Symbolic links are not followed: they can loop, or lead out of the root.
      if (entry.isDirectory()) {
        if (!ALWAYS_SKIPPED.has(entry.name) && !isIgnored(ignores, path, true))
          queue.push({ dir: path, depth: depth + 1, ignores });
      } else if (entry.isFile() && rankOf(entry.name) !== undefined && !isIgnored(ignores, path, false)) {
        paths.push(path);
      }
    }
  }
  return { paths, truncated };
}

/** The candidate files of a root, best first, within the bounds. */
export async function listSourceFiles(root: string, bounds: SourceBounds): Promise<FileListing> {
  // Listing stops early past twice the bound: enough to choose the best-ranked maxFiles among them.
  const limit = bounds.maxFiles * 2;
  const fromGit = bounds.useGit ? await gitFiles(root, bounds.listBudgetMs) : undefined;
  // The walk has its own budget: git may have spent its own failing (not a work tree, killed at its timeout).
  const walked = fromGit ? undefined : await walkFiles(root, bounds, Date.now() + bounds.listBudgetMs, limit);
  const paths = fromGit ?? walked?.paths ?? [];
  let truncated = walked?.truncated ?? false;
  let publicIsOutput = false;
  for (const name of PUBLIC_IS_OUTPUT) if (!publicIsOutput) publicIsOutput = await exists(join(root, name));

  const files: SourceFile[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < paths.length; i++) {
    if (i % 5_000 === 4_999) await yieldToLoop(); // git's list can be long: keep the loop responsive
    const path = paths[i] as string;
    if (path === '' || seen.has(path)) continue;
    const rank = rankOf(path.slice(path.lastIndexOf('/') + 1));
    if (rank === undefined || isSkipped(path)) continue;
    seen.add(path);
    const generated = isGenerated(path, publicIsOutput);
    files.push({ path, generated, rank: generated ? rank + GENERATED_RANK : rank });
    if (files.length >= limit) {
      truncated = true;
      break;
    }
  }
  // Stable: within a rank the listing's order stays (the walk's is shallow first).
  files.sort((a, b) => a.rank - b.rank);
  if (files.length > bounds.maxFiles) truncated = true;
  return { files: files.slice(0, bounds.maxFiles), via: fromGit ? 'git' : 'walk', truncated };
}
