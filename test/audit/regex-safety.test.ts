// The ReDoS gate (issue 22): text from an audited site is hostile, and one super-linear pattern over
// it stalls a worker. Every regular expression the code builds is found with the TypeScript
// compiler (regex literals, RegExp(...) and new RegExp(...), and strings given to match, matchAll or
// search, which compile them) and judged by recheck. A vulnerable pattern fails; so does an unknown
// one or a RegExp built at run time, unless reviewed below. docs/decisions.md, "Hostile site text".
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { check } from 'recheck';
import type { Node, SourceFile } from 'typescript/unstable/ast';
import {
  isCallExpression,
  isIdentifier,
  isNewExpression,
  isNoSubstitutionTemplateLiteral,
  isPropertyAccessExpression,
  isRegularExpressionLiteral,
  isStringLiteral,
} from 'typescript/unstable/ast/is';
import { API, type Checker, type Project, type StringLiteralType, TypeFlags } from 'typescript/unstable/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// All code that ships: site text reaches src/audit, and from there the service, MCP, CLI, tools
// and prompts (titles, findings, page content). Checking everything is simpler than tracing flows.
const DIRECTORIES = ['src', 'tools', 'prompts', 'action'];

/** Patterns recheck cannot decide ('unknown'), each reviewed by hand: `/source/flags` -> why it is linear. */
const UNKNOWN_REVIEWED: Record<string, string> = {};

/**
 * RegExps built at run time (the source or the flags not a literal), each reviewed by hand: the file,
 * the call's text, and why no site text can make it super-linear.
 */
const DYNAMIC_REVIEWED: Array<{ file: string; call: string; reason: string }> = [
  // retire.js's URL patterns (data/retire-js.ts): vendored data, not site text. Each is judged by
  // recheck when the data is refreshed (its verdict stored beside it: linear, or quadratic at worst;
  // an exponential one is left out), applied only to script URLs cut at 2 KB, at most 500 a run, on
  // the CPU pool; test/audit/retire-patterns.test.ts runs every one on hostile 2 KB URLs.
  {
    file: 'src/audit/retire.ts',
    call: "new RegExp(p.source, 'g')",
    reason: 'retire.js uri patterns, recheck-judged at refresh, bounded 2 KB inputs',
  },
  {
    file: 'src/audit/retire.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the call's source text, as the test reads it
    call: 'new RegExp(`^${p.source}$`)',
    reason: 'retire.js filename patterns, recheck-judged at refresh, bounded 2 KB inputs',
  },
];

interface Found {
  source: string;
  flags: string;
  where: string;
}

interface Dynamic {
  file: string;
  call: string;
  where: string;
}

const codeFiles = (directory: string): string[] =>
  readdirSync(join(ROOT, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));

/** The text a string literal, or a constant whose type is one string, stands for. */
function constantString(node: Node | undefined, checker: Checker): string | undefined {
  if (!node) return undefined;
  if (isStringLiteral(node) || isNoSubstitutionTemplateLiteral(node)) return node.text;
  const type = checker.getTypeAtLocation(node);
  return type && type.flags & TypeFlags.StringLiteral ? (type as StringLiteralType).value : undefined;
}

/** `/source/flags` split at its last slash. */
function literalParts(text: string): { source: string; flags: string } {
  const slash = text.lastIndexOf('/');
  return { source: text.slice(1, slash), flags: text.slice(slash + 1) };
}

function extract(file: string, sourceFile: SourceFile, checker: Checker, found: Found[], dynamic: Dynamic[]) {
  const where = (node: Node) =>
    `${file}:${sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1}`;
  const isRegExp = (node: Node) => {
    if (isRegularExpressionLiteral(node)) return true;
    const type = checker.getTypeAtLocation(node);
    return type !== undefined && checker.typeToString(type) === 'RegExp';
  };
  const visit = (node: Node): void => {
    if (isRegularExpressionLiteral(node)) found.push({ ...literalParts(node.text), where: where(node) });
    else if (isNewExpression(node) || isCallExpression(node)) {
      const callee = node.expression;
      const args = node.arguments ?? [];
      const name = isIdentifier(callee) ? callee.text : isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (
        name === 'RegExp' &&
        (isIdentifier(callee) || (isPropertyAccessExpression(callee) && isIdentifier(callee.expression)))
      ) {
        // RegExp(source, flags) or globalThis.RegExp(...): both parts must be constants to be judged.
        const [sourceArg, flagsArg] = args;
        const literal = sourceArg && isRegularExpressionLiteral(sourceArg) ? literalParts(sourceArg.text) : undefined;
        const source = literal ? literal.source : constantString(sourceArg, checker);
        const flags = flagsArg ? constantString(flagsArg, checker) : (literal?.flags ?? '');
        if (source !== undefined && flags !== undefined) found.push({ source, flags, where: where(node) });
        else dynamic.push({ file, call: node.getText(sourceFile), where: where(node) });
      } else if (
        isPropertyAccessExpression(callee) &&
        (name === 'match' || name === 'matchAll' || name === 'search') &&
        args[0] !== undefined &&
        !isRegExp(args[0])
      ) {
        // String.prototype.match('...') compiles its argument: a pattern like any other.
        const receiver = checker.getTypeAtLocation(callee.expression);
        if (receiver && receiver.flags & TypeFlags.StringLike) {
          const source = constantString(args[0], checker);
          if (source !== undefined) found.push({ source, flags: name === 'matchAll' ? 'g' : '', where: where(node) });
          else dynamic.push({ file, call: node.getText(sourceFile), where: where(node) });
        }
      }
    }
    node.forEachChild(visit);
  };
  visit(sourceFile);
}

const found: Found[] = [];
const dynamic: Dynamic[] = [];
let fileCount = 0;
let api: API | undefined;
let project: Project | undefined;

beforeAll(() => {
  api = new API({ cwd: ROOT });
  const snapshot = api.updateSnapshot({ openProjects: [join(ROOT, 'tsconfig.json')] });
  project = snapshot.getProject(join(ROOT, 'tsconfig.json'));
  if (!project) throw new Error('tsconfig.json did not load');
  const inProgram = new Set(project.program.getSourceFileNames());
  for (const file of DIRECTORIES.flatMap(codeFiles)) {
    // A file outside the program would be skipped silently: refuse instead.
    if (!inProgram.has(join(ROOT, file))) throw new Error(`${file} is not in tsconfig.json's program`);
    const sourceFile = project.program.getSourceFile(join(ROOT, file));
    if (!sourceFile) throw new Error(`${file} did not parse`);
    extract(file, sourceFile, project.checker, found, dynamic);
    fileCount++;
  }
}, 60_000);

afterAll(() => api?.close());

describe('regular expressions over site text', () => {
  it('finds every way the code builds a pattern (a broken extraction would pass everything)', async () => {
    expect(fileCount).toBeGreaterThan(100);
    expect(found.length).toBeGreaterThan(200);
    const file = 'test/fixtures/regex-gate/cases.ts';
    const sourceFile = project?.program.getSourceFile(join(ROOT, file));
    if (!project || !sourceFile) throw new Error(`${file} did not parse`);
    const cases: Found[] = [];
    const built: Dynamic[] = [];
    extract(file, sourceFile, project.checker, cases, built);
    expect(cases.map(({ source, flags }) => `/${source}/${flags}`)).toEqual([
      '/^(a+)+$/',
      '/(x|x)*y/',
      '/a+b/i',
      '/\\s+$/',
    ]);
    expect(built.map((d) => d.call)).toEqual([
      expect.stringMatching(/^new RegExp\(`\^\$\{part\}`\)$/),
      'text.search(part)',
    ]);
    const verdict = await check('^(a+)+$', '');
    expect(verdict.status).toBe('vulnerable');
  });

  it('builds no RegExp at run time outside the reviewed list', () => {
    const unreviewed = dynamic.filter((d) => !DYNAMIC_REVIEWED.some((r) => r.file === d.file && r.call === d.call));
    const stale = DYNAMIC_REVIEWED.filter((r) => !dynamic.some((d) => r.file === d.file && r.call === d.call));
    expect(
      unreviewed.map((d) => `${d.where}: ${d.call}`),
      'a RegExp built from run-time text: use a literal, or review it here with a reason',
    ).toEqual([]);
    expect(
      stale.map((r) => `${r.file}: ${r.call}`),
      'reviewed entries the code no longer has',
    ).toEqual([]);
  });

  it('has no pattern recheck finds super-linear, nor one it cannot decide unreviewed', async () => {
    const patterns = new Map<string, Found[]>();
    for (const f of found) {
      const key = `/${f.source}/${f.flags}`;
      patterns.set(key, [...(patterns.get(key) ?? []), f]);
    }
    const failures: string[] = [];
    const unknown = new Set<string>();
    const started = performance.now();
    // One at a time: recheck's agent answers concurrent checks no faster on two cores.
    for (const [key, places] of patterns) {
      const first = places[0] as Found;
      // Its own time limit well above the slowest pattern (about 3 s), so a loaded machine does not fail it.
      const result = await check(first.source, first.flags, { timeout: 60_000 });
      const at = places.map((p) => p.where).join(', ');
      if (result.status === 'vulnerable')
        failures.push(
          `${at}: ${key} is ${result.complexity.summary}; attack ${result.attack.pattern} (${JSON.stringify(result.attack.string.slice(0, 120))}...)`,
        );
      else if (result.status === 'unknown') {
        unknown.add(key);
        if (!UNKNOWN_REVIEWED[key])
          failures.push(`${at}: ${key} undecided (${result.error.kind}): review it or rewrite it`);
      }
    }
    const stale = Object.keys(UNKNOWN_REVIEWED).filter((key) => !unknown.has(key));
    console.log(
      `regex-safety: ${patterns.size} patterns checked (${found.length} occurrences) in ${fileCount} files, ${dynamic.length} built at run time, in ${Math.round(performance.now() - started)} ms`,
    );
    expect(failures, 'super-linear or undecided patterns').toEqual([]);
    expect(stale, 'reviewed unknowns recheck now decides').toEqual([]);
  }, 300_000);
});
