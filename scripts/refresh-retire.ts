// Regenerates src/audit/data/retire-js.ts from retire.js's vulnerability repository
// (https://github.com/RetireJS/retire.js, repository/jsrepository-v5.json, the file the retire CLI
// reads as its 'central' repository; Apache License 2.0, Copyright 2018 Erlend Oftedal): each
// library with its advisories and the extractors the audit can apply safely.
//
//   npm run refresh:retire -- [path-or-url-of-jsrepository-v5.json] [--version <commit>]
//   npx biome check --write src/audit/data/retire-js.ts
//
// What is kept, and why:
// - `uri` and `filename` extractors, with retire's version placeholder replaced as retire does
//   (`§§version§§` -> `[0-9][0-9.a-z_\-]+`). The audit applies them as retire does: `uri` anywhere in
//   a script's URL, `filename` to the URL's last path segment from start to end. Each is judged by
//   recheck as applied; its verdict is stored beside it (the tests run every one on hostile 2 KB URLs,
//   recheck's attack among them). A pattern recheck finds exponential is left out.
// - `func` extractors only where they are plain property paths (`jQuery.fn.jquery`, the last operand
//   of `A && A.version`, each branch of `(window.jQuery || window.$).fn.jquery`): the renderer reads
//   those in the page and never evaluates an expression from this data. The rest are listed below the
//   header of the generated file as not read.
// - `filecontent`, `filecontentreplace`, `hashes` and `ast` are not kept: they run over script bodies,
//   which the audit does not download, and retire's content patterns are not written for hostile text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from 'recheck';

const DEFAULT_SOURCE = 'https://raw.githubusercontent.com/RetireJS/retire.js/master/repository/jsrepository-v5.json';
const OUT = join(import.meta.dirname, '..', 'src', 'audit', 'data', 'retire-js.ts');
/** retire's node/lib/retire.js `replaceVersion`, as a regular expression's source. */
const VERSION = '[0-9][0-9.a-z_\\-]+';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

interface RepoAdvisory {
  below?: string;
  atOrAbove?: string;
  excludes?: string[];
  severity?: string;
  identifiers?: { CVE?: string[]; githubID?: string; summary?: string };
  info?: string[];
}
interface RepoLibrary {
  npmname?: string;
  vulnerabilities?: RepoAdvisory[];
  extractors: { uri?: string[]; filename?: string[]; func?: string[] };
}

/** A func extractor as the property paths it reads, or undefined when it is more than paths. */
function propertyPaths(expression: string): string[] | undefined {
  let text = expression.replace(/\s+/g, '');
  // `A && A.b && A.b.c`: the guards only keep retire's evaluation from throwing; a path read stops at undefined.
  if (text.includes('&&')) text = text.split('&&').at(-1) ?? '';
  let branches = [text];
  // `(A || B || C).rest`: one path per branch.
  const group = /^\(([^()]+)\)((?:\.[A-Za-z_$][\w$]*)+)$/.exec(text);
  if (group?.[1] && group[2]) branches = group[1].split('||').map((b) => `${b}${group[2]}`);
  const paths = branches.map((b) => b.replace(/^window\./, ''));
  return paths.every((p) => p.split('.').every((s) => IDENTIFIER.test(s))) ? paths : undefined;
}

interface Judged {
  source: string;
  complexity: string;
  attack?: { prefix: string; pump: string; suffix: string };
}

/** recheck's verdict on a pattern as the audit applies it. */
async function judged(source: string, applied: string, flags: string): Promise<Judged | string> {
  try {
    new RegExp(applied, flags);
  } catch (error) {
    return `does not compile: ${(error as Error).message}`;
  }
  const result = await check(applied, flags, { timeout: 60_000 });
  if (result.status === 'safe') return { source, complexity: result.complexity.summary };
  if (result.status === 'unknown') return `recheck could not decide (${result.error.kind})`;
  if (result.complexity.type === 'exponential') return `exponential (${result.attack.pattern.slice(0, 80)})`;
  const pump = result.attack.pumps[0];
  return {
    source,
    complexity: result.complexity.summary,
    attack: { prefix: pump?.prefix ?? '', pump: pump?.pump ?? '', suffix: result.attack.suffix },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const versionAt = args.indexOf('--version');
  const version = versionAt >= 0 ? args[versionAt + 1] : new Date().toISOString().slice(0, 10);
  const source = args.find((a, i) => !a.startsWith('--') && i !== versionAt + 1) ?? DEFAULT_SOURCE;
  const text = /^https?:/.test(source) ? await (await fetch(source)).text() : readFileSync(source, 'utf8');
  const repo = JSON.parse(text) as Record<string, RepoLibrary>;
  const libraries: unknown[] = [];
  const left: string[] = [];
  const notRead: string[] = [];
  let patterns = 0;
  for (const [name, library] of Object.entries(repo).sort(([a], [b]) => a.localeCompare(b, 'en'))) {
    if (name === 'retire-example') continue;
    const uri: Judged[] = [];
    const filename: Judged[] = [];
    for (const [kind, list, out] of [
      ['uri', library.extractors.uri ?? [], uri],
      ['filename', library.extractors.filename ?? [], filename],
    ] as const) {
      for (const raw of list) {
        const pattern = raw.replaceAll('§§version§§', VERSION);
        const verdict = await judged(pattern, kind === 'uri' ? pattern : `^${pattern}$`, kind === 'uri' ? 'g' : '');
        if (typeof verdict === 'string') left.push(`${name} ${kind} ${JSON.stringify(raw)}: ${verdict}`);
        else out.push(verdict);
        patterns++;
      }
    }
    const globals: string[] = [];
    for (const func of library.extractors.func ?? []) {
      const paths = propertyPaths(func);
      if (paths) globals.push(...paths.filter((p) => !globals.includes(p)));
      else notRead.push(`${name}: ${func}`);
    }
    const advisories = (library.vulnerabilities ?? [])
      .filter((v) => v.below !== undefined)
      .map((v) => ({
        below: v.below,
        ...(v.atOrAbove ? { atOrAbove: v.atOrAbove } : {}),
        ...(v.excludes?.length ? { excludes: v.excludes } : {}),
        severity: ['low', 'medium', 'high', 'critical'].includes(v.severity ?? '') ? v.severity : 'medium',
        cves: (v.identifiers?.CVE ?? []).filter((c) => /^CVE-\d{4}-\d+$/.test(c)),
        ...(v.identifiers?.githubID ? { ghsa: v.identifiers.githubID } : {}),
        ...(v.identifiers?.summary ? { summary: v.identifiers.summary.replace(/\s+/g, ' ').trim().slice(0, 160) } : {}),
        ...(v.info?.[0] ? { info: v.info[0] } : {}),
      }));
    libraries.push({
      name,
      ...(library.npmname ? { npm: library.npmname } : {}),
      uri,
      filename,
      globals,
      advisories,
    });
  }
  const comment = (lines: string[]) => lines.map((l) => `//   ${l.replaceAll('*/', '* /')}`).join('\n');
  const body = `// Generated by scripts/refresh-retire.ts: do not edit by hand.
// Source: retire.js's repository/jsrepository-v5.json (https://github.com/RetireJS/retire.js,
// Apache License 2.0, Copyright 2018 Erlend Oftedal), version ${version}, ${libraries.length} libraries.
// Patterns are retire's, with its version placeholder replaced; \`complexity\` is recheck's verdict on
// each as the audit applies it (src/audit/retire.ts), \`attack\` the input recheck found for the
// super-linear ones. \`globals\` are retire's func extractors that are plain property paths.
// Patterns left out (${left.length}):
${comment(left.length ? left : ['none'])}
// Func extractors not read (more than a property path):
${comment(notRead.length ? notRead : ['none'])}

export type RetireSeverity = 'low' | 'medium' | 'high' | 'critical';

export interface RetireAdvisory {
  /** Vulnerable below this version ... */
  below: string;
  /** ... and at or above this one. */
  atOrAbove?: string;
  /** Versions in the range that are not vulnerable (vendor builds). */
  excludes?: string[];
  severity: RetireSeverity;
  cves: string[];
  ghsa?: string;
  summary?: string;
  info?: string;
}

export interface RetirePattern {
  source: string;
  complexity: string;
  attack?: { prefix: string; pump: string; suffix: string };
}

export interface RetireLibrary {
  /** retire's component name. */
  name: string;
  npm?: string;
  /** Matched anywhere in a script URL. */
  uri: RetirePattern[];
  /** Matched against a script URL's last path segment, whole. */
  filename: RetirePattern[];
  /** Property paths of the page's globals that hold the library's version. */
  globals: string[];
  advisories: RetireAdvisory[];
}

export const RETIRE_SOURCE = {
  project: 'RetireJS/retire.js',
  file: 'repository/jsrepository-v5.json',
  version: ${JSON.stringify(version)},
} as const;

export const RETIRE_LIBRARIES: readonly RetireLibrary[] = ${JSON.stringify(libraries, null, 2)};
`;
  writeFileSync(OUT, body);
  process.stderr.write(
    `wrote ${libraries.length} libraries, ${patterns - left.length} of ${patterns} patterns (version ${version}) to ${OUT}\n`,
  );
}

await main();
