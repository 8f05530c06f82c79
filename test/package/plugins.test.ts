// The plugins and the skill (issue 30): the Claude Code plugin and its marketplace against the schemas
// SchemaStore publishes (vendored in test/fixtures/plugins with their source), the audit-and-fix skill
// against the Agent Skills specification, the Cursor rule and the Cursor and VS Code install links
// against their docs (no schema is published for those; SOURCE.md cites each page). Every tool, field,
// flag and gate expression the skill and the rule name must exist, and every install form must start
// the same published package as README and server.json, with no key.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseFailOn } from '../../src/cli/ci/fail-on.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { PRODUCTS } from '../../src/contract/index.ts';

// CommonJS: under nodenext its default import is module.exports, whose `default` is the export.
const addFormats = formatsModule.default;

const ROOT = join(import.meta.dirname, '..', '..');
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const json = (file: string) => JSON.parse(text(file)) as Record<string, unknown>;

const PLUGIN = '.claude-plugin/plugin.json';
const MARKETPLACE = '.claude-plugin/marketplace.json';
const SKILL = 'skills/audit-and-fix/SKILL.md';
const CURSOR_RULE = '.cursor/rules/siteaudit.mdc';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const schemaErrors = (schemaFile: string) => {
  const validate = ajv.compile(json(`test/fixtures/plugins/${schemaFile}`));
  return (document: unknown): string[] =>
    validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
};
const manifestErrors = schemaErrors('claude-code-plugin-manifest.json');
const marketplaceErrors = schemaErrors('claude-code-marketplace.json');

// plugins-reference and marketplace-reference: names are kebab-case; these marketplace names are
// reserved for Anthropic's own, community and directory marketplaces.
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const RESERVED_MARKETPLACES = new Set([
  'claude-code-marketplace',
  'claude-code-plugins',
  'claude-plugins-official',
  'anthropic-marketplace',
  'anthropic-plugins',
  'agent-skills',
  'anthropic-agent-skills',
  'life-sciences',
  'knowledge-work-plugins',
  'claude-for-legal',
  'claude-for-financial-services',
  'financial-services-plugins',
  'first-party-plugins',
  'claude-tag-plugins',
  'claude-community',
  'claude-plugins-community',
  'healthcare',
  'anthropic-plugin-directory',
  'claude-plugin-directory',
]);

/** A Markdown file's YAML frontmatter and body; the frontmatter must open the file. */
function frontmatter(source: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) throw new Error('no frontmatter at the top of the file');
  return { data: (parseYaml(match[1] ?? '') ?? {}) as Record<string, unknown>, body: source.slice(match[0].length) };
}

/**
 * The Agent Skills rules for SKILL.md (agentskills.io/specification, and its reference validator
 * skills-ref): only the six fields; name 1-64 lowercase letters, digits and single hyphens, not at
 * either end, equal to the skill's directory; description 1-1024 characters; compatibility up to 500;
 * metadata a map of strings; the file under 500 lines.
 */
function skillProblems(source: string, directory: string): string[] {
  const { data, body } = frontmatter(source);
  const problems: string[] = [];
  const allowed = ['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility'];
  for (const key of Object.keys(data)) if (!allowed.includes(key)) problems.push(`unexpected field ${key}`);
  const { name, description, compatibility, metadata } = data;
  if (typeof name !== 'string' || name.trim() === '') problems.push('name must be a non-empty string');
  else {
    const normal = name.trim().normalize('NFKC');
    if (normal.length > 64) problems.push('name over 64 characters');
    if (normal !== normal.toLowerCase()) problems.push('name must be lowercase');
    if (normal.startsWith('-') || normal.endsWith('-')) problems.push('name starts or ends with a hyphen');
    if (normal.includes('--')) problems.push('name has consecutive hyphens');
    if (!/^[\p{L}\p{N}-]+$/u.test(normal)) problems.push('name has characters other than letters, digits, hyphens');
    if (normal !== directory.normalize('NFKC')) problems.push(`name ${normal} is not the directory ${directory}`);
  }
  if (typeof description !== 'string' || description.trim() === '') problems.push('description must be non-empty');
  else if (description.length > 1024) problems.push('description over 1024 characters');
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > 500))
    problems.push('compatibility must be a string of at most 500 characters');
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' ||
      metadata === null ||
      Object.values(metadata).some((value) => typeof value !== 'string'))
  )
    problems.push('metadata must map strings to strings');
  if (source.split('\n').length >= 500 || body.trim() === '') problems.push('the body must be under 500 lines');
  return problems;
}

/**
 * Cursor's rule frontmatter (cursor.com/docs/context/rules): description, globs and alwaysApply, nothing
 * else; alwaysApply a real boolean (the string "true" is read as not always); a rule that is not always
 * applied needs globs or a description, or it loads only when @-mentioned.
 */
function cursorRuleProblems(source: string): string[] {
  const { data, body } = frontmatter(source);
  const problems: string[] = [];
  for (const key of Object.keys(data))
    if (!['description', 'globs', 'alwaysApply'].includes(key)) problems.push(`unexpected field ${key}`);
  const { description, globs, alwaysApply } = data;
  if (description !== undefined && (typeof description !== 'string' || description.trim() === ''))
    problems.push('description must be a non-empty string');
  if (alwaysApply !== undefined && typeof alwaysApply !== 'boolean') problems.push('alwaysApply must be a boolean');
  const globList = typeof globs === 'string' ? globs.split(',') : Array.isArray(globs) ? globs : [];
  if (globs !== undefined && globs !== null && (globList.length === 0 || globList.some((g) => typeof g !== 'string')))
    problems.push('globs must be a comma-separated string or a list of strings');
  if (alwaysApply !== true && description === undefined && globList.length === 0)
    problems.push('never applied unless @-mentioned: give a description, globs or alwaysApply');
  if (body.trim() === '') problems.push('the rule has no body');
  return problems;
}

// VS Code's mcp.json (code.visualstudio.com/docs/copilot/reference/mcp-configuration): `servers` and
// `inputs`; a stdio server has a command, string args, a string env and an envFile.
const VsCodeStdioServer = z.strictObject({
  type: z.literal('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  envFile: z.string().optional(),
});
const VsCodeMcpJson = z.strictObject({
  servers: z.record(z.string().min(1), VsCodeStdioServer),
  inputs: z.array(z.object({ id: z.string(), type: z.string(), description: z.string() })).optional(),
});

const pkg = json('package.json') as { name: string; version: string };
const server = json('server.json') as {
  name: string;
  packages: { registryType: string; identifier: string; runtimeHint: string; packageArguments: { value: string }[] }[];
};
const plugin = json(PLUGIN) as { name: string; version: string; repository: string; mcpServers: unknown };
const marketplace = json(MARKETPLACE) as { name: string; owner: unknown; plugins: { name: string; source: unknown }[] };
const readme = text('README.md');

/** The entry every install form must carry: server.json's npm package run by npx, as README says. */
const [npmPackage] = server.packages;
const PUBLISHED_ENTRY = {
  command: npmPackage?.runtimeHint,
  args: ['-y', npmPackage?.identifier, ...(npmPackage?.packageArguments ?? []).map((a) => a.value)],
};
/** owner/name on GitHub: the MCP Registry's io.github.OWNER/NAME says whose repository it is. */
const GITHUB_REPO = server.name.replace(/^io\.github\./, '');

describe('the Claude Code plugin (.claude-plugin/)', () => {
  it('plugin.json follows the published manifest schema and the plugins reference', () => {
    expect(manifestErrors(plugin)).toEqual([]);
    expect(plugin.name).toMatch(KEBAB);
    expect(plugin.version).toBe(pkg.version);
    expect(plugin.repository).toBe(`https://github.com/${GITHUB_REPO}`);
  });

  it("marketplace.json follows the published schema, takes no reserved name and lists this repository's root", () => {
    expect(marketplaceErrors(marketplace)).toEqual([]);
    expect(marketplace.name).toMatch(KEBAB);
    expect(RESERVED_MARKETPLACES.has(marketplace.name)).toBe(false);
    expect(marketplace.plugins).toHaveLength(1);
    expect(marketplace.plugins[0]).toMatchObject({ name: plugin.name, source: './' });
  });

  it('would refuse what Claude Code refuses', () => {
    const { name: _name, ...nameless } = plugin;
    expect(manifestErrors(nameless)).not.toEqual([]);
    expect(manifestErrors({ ...plugin, mcpServers: { siteaudit: { args: ['mcp'] } } })).not.toEqual([]);
    expect(manifestErrors({ ...plugin, skills: 'skills/' })).not.toEqual([]); // paths start with ./
    const { owner: _owner, ...ownerless } = marketplace;
    expect(marketplaceErrors(ownerless)).not.toEqual([]);
    expect(marketplaceErrors({ ...marketplace, plugins: [{ name: 'siteaudit', source: '.' }] })).not.toEqual([]);
    expect('Site Audit').not.toMatch(KEBAB);
  });

  it('bundles the MCP server as README and server.json start it: the published package through npx, no key', () => {
    expect(npmPackage).toMatchObject({ registryType: 'npm', identifier: pkg.name, runtimeHint: 'npx' });
    // Inline in plugin.json: a root .mcp.json would also be this checkout's own project server in Claude Code.
    expect(plugin.mcpServers).toEqual({ siteaudit: PUBLISHED_ENTRY });
    expect(readme).toContain(`\`${[PUBLISHED_ENTRY.command, ...PUBLISHED_ENTRY.args].join(' ')}\``);
    for (const file of [PLUGIN, MARKETPLACE, SKILL, CURSOR_RULE]) expect(text(file)).not.toMatch(/svc_[A-Za-z0-9]/);
  });
});

const toolList = JSON.parse(text('test/mcp/tool-list.snapshot.json')) as { name: string }[];
const TOOL_NAMES = new Set(toolList.map((tool) => tool.name));
/** Every property name of the tools' input and output schemas, as hosts see them. */
const FIELD_NAMES = new Set<string>();
const collectKeys = (value: unknown): void => {
  if (Array.isArray(value)) for (const item of value) collectKeys(item);
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      FIELD_NAMES.add(key);
      collectKeys(inner);
    }
};
collectKeys(toolList);

const codeSpans = (source: string) => [...source.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');

/** What a guide for an agent names: tools, their fields, CLI flags, gate expressions, products, settings. */
async function namedThingsProblems(source: string): Promise<string[]> {
  const problems: string[] = [];
  const spans = codeSpans(source);
  for (const span of spans) {
    if (/^[a-z]+(_[a-z]+)+$/.test(span) && !TOOL_NAMES.has(span) && !(PRODUCTS as readonly string[]).includes(span))
      problems.push(`no tool or product ${span}`);
    if (/^[a-z]+[A-Z][A-Za-z]*$/.test(span) && !FIELD_NAMES.has(span)) problems.push(`no tool field ${span}`);
  }
  const program = await buildProgram(['audit']);
  const audit = program.commands.find((command) => command.name() === 'audit');
  const flags = new Set(audit?.options.map((option) => option.long));
  for (const [flag] of source.matchAll(/(?<![\w-])--[a-z][a-z-]*/g))
    if (!flags.has(flag)) problems.push(`siteaudit audit has no ${flag}`);
  const expressions = [
    ...[...source.matchAll(/--fail-on '([^']+)'/g)].map((m) => m[1] ?? ''),
    ...spans.filter((span) => /^[a-z][a-z_:]*(<=|>=|!=|==|<|>|=)\S+$/.test(span)),
  ];
  for (const expression of expressions)
    try {
      parseFailOn(expression);
    } catch (error) {
      problems.push(`--fail-on ${expression}: ${(error as Error).message}`);
    }
  for (const [, product] of source.matchAll(/--product (\S+)/g))
    if (!(PRODUCTS as readonly string[]).includes(product ?? '')) problems.push(`no product ${product}`);
  const settings = ['src/cli/connect.ts', 'src/cli/options.ts'].map(text).join('\n');
  for (const [variable] of source.matchAll(/SITEAUDIT_[A-Z_]+/g))
    if (!settings.includes(`'${variable}'`)) problems.push(`siteaudit reads no ${variable}`);
  return problems;
}

describe('the audit-and-fix skill', () => {
  const source = text(SKILL);

  it('follows the Agent Skills specification', () => {
    expect(skillProblems(source, basename(dirname(join(ROOT, SKILL))))).toEqual([]);
  });

  it.each([
    ['a name that is not the directory', 'name: audit-fix\ndescription: d', 'audit-and-fix'],
    ['an uppercase name', 'name: Audit-And-Fix\ndescription: d', 'Audit-And-Fix'],
    ['consecutive hyphens', 'name: audit--fix\ndescription: d', 'audit--fix'],
    ['a hyphen at the end', 'name: audit-\ndescription: d', 'audit-'],
    ['no description', 'name: audit', 'audit'],
    ['a description over 1024 characters', `name: audit\ndescription: ${'x'.repeat(1025)}`, 'audit'],
    ['a field the spec lacks', 'name: audit\ndescription: d\nversion: "1"', 'audit'],
  ])('would be refused with %s', (_case, fields, directory) => {
    expect(skillProblems(`---\n${fields}\n---\n# Body\n`, directory)).not.toEqual([]);
  });

  it('names the tools of the loop, and every tool, field, flag and gate expression it names exists', async () => {
    const named = new Set(codeSpans(source));
    for (const tool of ['start_run', 'wait_for_run', 'get_report', 'page_findings', 'recheck', 'compare_runs'])
      expect(named.has(tool), tool).toBe(true);
    expect(named.has('humanUrl')).toBe(true);
    expect(source.indexOf('`get_report` first')).toBeLessThan(source.indexOf('Then `page_findings`'));
    expect(await namedThingsProblems(source)).toEqual([]);
  });

  it('would catch a tool, field, flag or expression that does not exist', async () => {
    const made = ['`get_reports`', '`nextPage`', '--fail-when x', "--fail-on 'score<<1'", '`SITEAUDIT_TOKEN`'];
    expect(await namedThingsProblems(made.join('\n'))).toHaveLength(made.length);
  });

  it("names the GitHub Action's real inputs", () => {
    const line = source.split('\n- ').find((bullet) => bullet.includes('uses: siteaudit/siteaudit@v1')) ?? '';
    const inputs = Object.keys((parseYaml(text('action.yml')) as { inputs: object }).inputs);
    const named = codeSpans(line).filter((span) => !span.startsWith('uses:'));
    expect(named.length).toBeGreaterThan(0);
    for (const input of named) expect(inputs).toContain(input);
    expect(GITHUB_REPO).toBe('siteaudit/siteaudit');
  });
});

describe('Cursor', () => {
  it('the rule follows the rules format and names only real tools, fields and flags', async () => {
    const source = text(CURSOR_RULE);
    expect(cursorRuleProblems(source)).toEqual([]);
    expect(await namedThingsProblems(source)).toEqual([]);
    expect(cursorRuleProblems('---\nalwaysApply: "true"\n---\nbody\n')).not.toEqual([]);
    expect(cursorRuleProblems('---\nalwaysApply: false\n---\nbody\n')).not.toEqual([]);
    expect(cursorRuleProblems('---\ndescription: d\nname: x\n---\nbody\n')).not.toEqual([]);
  });

  it("README's install links decode to the published entry", () => {
    const links = [
      ...readme.matchAll(/cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?[^\s`)]+/g),
      ...readme.matchAll(/https:\/\/cursor\.com\/en\/install-mcp\?[^\s`)]+/g),
    ].map((m) => new URL(m[0]));
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.searchParams.get('name')).toBe('siteaudit');
      const config = JSON.parse(Buffer.from(link.searchParams.get('config') ?? '', 'base64').toString('utf8'));
      expect(config).toEqual(PUBLISHED_ENTRY);
    }
  });
});

describe('VS Code', () => {
  it("README's install link decodes to the published entry", () => {
    const [found] = readme.match(/https:\/\/insiders\.vscode\.dev\/redirect\?url=[^\s`)]+/) ?? [];
    const target = new URL(found ?? 'https://none.invalid/').searchParams.get('url') ?? '';
    expect(target.startsWith('vscode:mcp/install?')).toBe(true);
    const config = JSON.parse(decodeURIComponent(target.slice('vscode:mcp/install?'.length)));
    expect(config).toEqual({ name: 'siteaudit', type: 'stdio', ...PUBLISHED_ENTRY });
  });

  it("README's .vscode/mcp.json follows VS Code's format with the published entry", () => {
    const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .find((body) => body.includes('"servers"') && body.includes('"siteaudit"'));
    const config = VsCodeMcpJson.parse(JSON.parse(block ?? '{}'));
    expect(config.servers.siteaudit).toEqual({ type: 'stdio', ...PUBLISHED_ENTRY });
    const stringArgs = { ...config.servers.siteaudit, args: 'mcp' };
    expect(VsCodeMcpJson.safeParse({ servers: { siteaudit: stringArgs } }).success).toBe(false);
  });
});

describe('README', () => {
  it('shows each way in: the marketplace, the plugin, the Cursor and VS Code links, the skill and the rule', () => {
    expect(readme).toContain(`/plugin marketplace add ${GITHUB_REPO}`);
    expect(readme).toContain(`/plugin install ${plugin.name}@${marketplace.name}`);
    expect(readme).toContain('cursor://anysphere.cursor-deeplink/mcp/install?name=siteaudit&config=');
    expect(readme).toContain('https://insiders.vscode.dev/redirect?url=vscode%3Amcp%2Finstall%3F');
    expect(readme).toContain(`(${SKILL})`);
    expect(readme).toContain(`(${CURSOR_RULE})`);
  });
});
