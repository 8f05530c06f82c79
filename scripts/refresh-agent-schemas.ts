// Regenerates src/audit/data/agent-schemas.ts: the JSON schemas the agent-standards checks
// (src/audit/checks/agent-standards.ts) validate a site's documents against, each from its public
// repository at a pinned tag or commit, with the commit recorded.
//
//   - ARD ai-catalog.json: ards-project/ard-spec spec/schemas/ai-catalog.schema.json, as published.
//   - A2A agent card 1.x: a2aproject/A2A specification/a2a.proto, the normative definition (the
//     project's own JSON Schema is a build artifact it does not commit). AgentCard and the messages
//     it reaches become a JSON Schema 2020-12 by the proto3 JSON mapping the A2A pipeline uses
//     (lowerCamelCase names), with `required` from `[(google.api.field_behavior) = REQUIRED]`, a
//     required array needing one element and a required string a non-empty value (spec §5.7), and
//     unknown members allowed (spec §5.7: implementations ignore unrecognized fields).
//   - A2A agent card 0.3: a2aproject/A2A v0.3.0 specification/json/a2a.json, AgentCard and the
//     definitions it reaches, as published.
//   - UCP business profile (/.well-known/ucp): Universal-Commerce-Protocol/ucp
//     source/discovery/profile_schema.json and every schema file it references, as published.
//   - ACP discovery (/.well-known/acp.json): agentic-commerce-protocol/agentic-commerce-protocol
//     spec/<version>/json-schema/schema.agentic_checkout.json, DiscoveryResponse and the $defs it
//     reaches, as published.
//
// Every schema is checked for keywords the validator (ajv's draft-07 class with the 2019/2020
// additions, src/audit/schema-check.ts) evaluates as the declared dialect does; the run fails on any
// other keyword, and on a proto construct the conversion does not know.
//
//   npm run refresh:agent-schemas -- [--ref key=tag-or-commit]... [--git owner/name=/path/to/git-dir]...
//
// Without --git a repository is read from raw.githubusercontent.com and its commit from the GitHub
// API; with it, from a local clone (`git show`), which is how the pinned versions were vendored.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const OUT = join(import.meta.dirname, '..', 'src', 'audit', 'data', 'agent-schemas.ts');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Pin {
  repo: string;
  ref: string;
  version: string;
  license: string;
}

const PINS: Record<'ard' | 'a2a' | 'a2a03' | 'ucp' | 'acp', Pin> = {
  ard: {
    repo: 'ards-project/ard-spec',
    ref: '5fa2f5aef790b478319f6a3b43adf4661b0ed0e0',
    version: 'ARD specification v0.9 (draft), ai-catalog specVersion 1.0',
    license: 'Apache-2.0',
  },
  a2a: { repo: 'a2aproject/A2A', ref: 'v1.0.1', version: 'A2A 1.0.1', license: 'Apache-2.0' },
  a2a03: { repo: 'a2aproject/A2A', ref: 'v0.3.0', version: 'A2A 0.3.0', license: 'Apache-2.0' },
  ucp: {
    repo: 'Universal-Commerce-Protocol/ucp',
    ref: 'v2026-04-08',
    version: 'UCP 2026-04-08',
    license: 'Apache-2.0',
  },
  acp: {
    repo: 'agentic-commerce-protocol/agentic-commerce-protocol',
    ref: 'c2afc863b46b6bb64fbc2be969bff25ee6eab652',
    version: 'ACP 2026-04-17',
    license: 'Apache-2.0',
  },
};
const ACP_VERSION = '2026-04-17';

const args = process.argv.slice(2);
const gitDirs = new Map<string, string>();
for (let i = 0; i < args.length; i++) {
  const [flag, value = ''] = [args[i], args[i + 1]];
  const [key = '', setting = ''] = value.split(/=(.*)/s);
  if (flag === '--git') gitDirs.set(key, setting);
  else if (flag === '--ref' && key in PINS) PINS[key as keyof typeof PINS].ref = setting;
  else continue;
  i++;
}

async function commitOf(pin: Pin): Promise<string> {
  const dir = gitDirs.get(pin.repo);
  if (dir) return execFileSync('git', ['-C', dir, 'rev-parse', `${pin.ref}^{commit}`], { encoding: 'utf8' }).trim();
  const answer = await fetch(`https://api.github.com/repos/${pin.repo}/commits/${pin.ref}`);
  if (!answer.ok) throw new Error(`${pin.repo}@${pin.ref}: GitHub API answered ${answer.status}`);
  return ((await answer.json()) as { sha: string }).sha;
}

async function read(pin: Pin, commit: string, path: string): Promise<string> {
  const dir = gitDirs.get(pin.repo);
  if (dir) return execFileSync('git', ['-C', dir, 'show', `${commit}:${path}`], { encoding: 'utf8' });
  const answer = await fetch(`https://raw.githubusercontent.com/${pin.repo}/${commit}/${path}`);
  if (!answer.ok) throw new Error(`${pin.repo}/${path}@${commit}: ${answer.status}`);
  return answer.text();
}

const readJson = async (pin: Pin, commit: string, path: string) =>
  JSON.parse(await read(pin, commit, path)) as JsonObject;

// Keywords the validator evaluates as their dialect says (draft-07 and 2020-12 agree on all of them
// in the forms these schemas use: `items` with one schema). Annotations are ignored by it.
const EVALUATED = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'enum',
  'const',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
]);
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'default', '$comment', 'deprecated']);
const FORMATS = new Set(['uri', 'date-time']);
/** Keywords whose value is a map of names to schemas (the names are not keywords). */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

function checkKeywords(name: string, schema: Json, at = '#'): void {
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) checkKeywords(name, item, `${at}/${i}`);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (!EVALUATED.has(key)) throw new Error(`${name}: keyword ${key} at ${at} is not one the validator evaluates`);
    if (key === 'items' && Array.isArray(value)) throw new Error(`${name}: array-form items at ${at}`);
    if (key === 'format' && !FORMATS.has(String(value))) throw new Error(`${name}: format ${value} at ${at}`);
    if (MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value))
      for (const [member, sub] of Object.entries(value)) checkKeywords(name, sub, `${at}/${key}/${member}`);
    else if (typeof value === 'object') checkKeywords(name, value, `${at}/${key}`);
  }
}

/** The named definition and every one it reaches by `#/<container>/<name>` references. */
function reachable(defs: JsonObject, root: string, container: string): JsonObject {
  const out: JsonObject = {};
  const pending = [root];
  const prefix = `#/${container}/`;
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name in out) continue;
    const def = defs[name];
    if (def === undefined) throw new Error(`no definition ${name}`);
    out[name] = def;
    const text = JSON.stringify(def);
    let at = text.indexOf(prefix);
    while (at >= 0) {
      const end = text.indexOf('"', at);
      pending.push(text.slice(at + prefix.length, end));
      at = text.indexOf(prefix, end);
    }
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k] as Json]),
  );
}

// --- A2A: the proto's AgentCard as JSON Schema ---

interface ProtoField {
  label: 'repeated' | 'optional' | '';
  type: string;
  mapValue?: string;
  name: string;
  required: boolean;
  oneof?: string;
}

/** Messages of a proto3 file (top level only; the A2A file nests none), comments removed. */
function protoMessages(text: string): Map<string, ProtoField[]> {
  const code = text
    .split('\n')
    .map((line) => {
      const comment = line.indexOf('//');
      return comment >= 0 ? line.slice(0, comment) : line;
    })
    .join('\n');
  const messages = new Map<string, ProtoField[]>();
  const head = /\bmessage\s+(\w+)\s*\{/g;
  for (let match = head.exec(code); match; match = head.exec(code)) {
    let depth = 1;
    let at = head.lastIndex;
    while (depth > 0 && at < code.length) {
      if (code[at] === '{') depth++;
      else if (code[at] === '}') depth--;
      at++;
    }
    const body = code.slice(head.lastIndex, at - 1);
    const fields: ProtoField[] = [];
    let oneof: string | undefined;
    // One statement per chunk: a field ends at `;`, a oneof group opens at `{` and closes at `}`.
    const statements = body
      .replace(/\boneof\s+(\w+)\s*\{/g, ';oneof $1;')
      .replace(/\}/g, ';};')
      .split(';')
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    for (const line of statements) {
      const group = /^oneof (\w+)$/.exec(line);
      if (group) {
        oneof = group[1];
        continue;
      }
      if (line === '}') {
        oneof = undefined;
        continue;
      }
      if (/^(reserved|option)\b/.test(line)) continue;
      if (/^(message|enum)\b/.test(line)) throw new Error(`${match[1]}: nested ${line}`);
      const field = /^(repeated |optional )?(map< ?(\w+) ?, ?([\w.]+) ?>|[\w.]+) (\w+) ?= ?\d+ ?(\[.*\])?$/.exec(line);
      if (!field) throw new Error(`${match[1]}: cannot read ${JSON.stringify(line)}`);
      const options = field[6] ?? '';
      fields.push({
        label: (field[1]?.trim() ?? '') as ProtoField['label'],
        type: field[3] ? 'map' : (field[2] as string),
        ...(field[4] ? { mapValue: field[4] } : {}),
        name: field[5] as string,
        required: /\(google\.api\.field_behavior\) ?= ?REQUIRED/.test(options),
        ...(oneof ? { oneof } : {}),
      });
    }
    messages.set(match[1] as string, fields);
  }
  return messages;
}

/** protobuf's JSON name: lowerCamelCase of the field name. */
const jsonName = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const SCALARS: Record<string, JsonObject> = {
  string: { type: 'string' },
  bytes: { type: 'string' },
  bool: { type: 'boolean' },
  double: { type: 'number' },
  float: { type: 'number' },
  int32: { type: 'integer' },
  uint32: { type: 'integer', minimum: 0 },
  sint32: { type: 'integer' },
  int64: { type: ['integer', 'string'] },
  uint64: { type: ['integer', 'string'] },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
};

function protoCardSchema(proto: string): JsonObject {
  const messages = protoMessages(proto);
  const defs: JsonObject = {};
  const pending = ['AgentCard'];
  const typeOf = (type: string): JsonObject => {
    const scalar = SCALARS[type];
    if (scalar) return { ...scalar };
    if (!messages.has(type)) throw new Error(`unknown proto type ${type}`);
    pending.push(type);
    return { $ref: `#/$defs/${type}` };
  };
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name in defs) continue;
    const fields = messages.get(name) as ProtoField[];
    defs[name] = {};
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const field of fields) {
      let schema: JsonObject;
      if (field.type === 'map') schema = { type: 'object', additionalProperties: typeOf(field.mapValue as string) };
      else if (field.label === 'repeated') schema = { type: 'array', items: typeOf(field.type) };
      else schema = typeOf(field.type);
      if (field.required) {
        required.push(jsonName(field.name));
        if (schema.type === 'array') schema.minItems = 1;
        if (schema.type === 'string') schema.minLength = 1;
      }
      properties[jsonName(field.name)] = schema;
    }
    const def: JsonObject = { type: 'object', properties };
    if (required.length > 0) def.required = required;
    const oneofs = new Set(fields.flatMap((f) => (f.oneof ? [f.oneof] : [])));
    if (oneofs.size > 0) {
      // A discriminated union (SecurityScheme, OAuthFlows): exactly one of its members.
      if (oneofs.size > 1 || fields.some((f) => !f.oneof))
        throw new Error(`${name}: a oneof beside other fields, which the conversion does not handle`);
      def.oneOf = fields.map((f) => ({ required: [jsonName(f.name)] }));
    }
    defs[name] = def;
  }
  const sorted = Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((k) => [k, defs[k] as Json]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'A2A AgentCard',
    $ref: '#/$defs/AgentCard',
    $defs: sorted,
  };
}

// --- the rest, as published ---

/**
 * The profile schema and every file it references. The files refer to each other by relative paths
 * of the repository (source/discovery/ to source/schemas/), which their `$id`s do not mirror
 * (../schemas/ucp.json from https://ucp.dev/schemas/discovery/profile.json would be
 * .../schemas/schemas/ucp.json), so each such reference is written as the `$id` of the file it names.
 */
async function ucpSchemas(pin: Pin, commit: string): Promise<JsonObject[]> {
  const files = new Map<string, JsonObject>();
  const pending = ['source/discovery/profile_schema.json'];
  const target = (from: string, ref: string) => posix.normalize(posix.join(posix.dirname(from), ref));
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (files.has(path)) continue;
    const schema = await readJson(pin, commit, path);
    files.set(path, schema);
    for (const ref of JSON.stringify(schema).matchAll(/"\$ref":"([^"#]+)/g))
      pending.push(target(path, ref[1] as string));
  }
  const idOf = (path: string) => {
    const id = files.get(path)?.$id;
    if (typeof id !== 'string') throw new Error(`${path} has no $id`);
    return id;
  };
  const rewrite = (from: string, node: Json): Json => {
    if (Array.isArray(node)) return node.map((item) => rewrite(from, item));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key !== '$ref' || typeof value !== 'string' || value.startsWith('#')) return [key, rewrite(from, value)];
        const hash = value.indexOf('#');
        const [file, fragment] = hash < 0 ? [value, ''] : [value.slice(0, hash), value.slice(hash)];
        return [key, `${idOf(target(from, file))}${fragment}`];
      }),
    );
  };
  return [...files].map(([path, schema]) => rewrite(path, schema) as JsonObject);
}

async function main(): Promise<void> {
  const commits = Object.fromEntries(
    await Promise.all(Object.entries(PINS).map(async ([key, pin]) => [key, await commitOf(pin)] as const)),
  ) as Record<keyof typeof PINS, string>;

  const ard = await readJson(PINS.ard, commits.ard, 'spec/schemas/ai-catalog.schema.json');
  const a2a = protoCardSchema(await read(PINS.a2a, commits.a2a, 'specification/a2a.proto'));
  const a2a03All = await readJson(PINS.a2a03, commits.a2a03, 'specification/json/a2a.json');
  const a2a03: JsonObject = {
    $schema: a2a03All.$schema as string,
    title: 'A2A AgentCard (0.3.0)',
    $ref: '#/definitions/AgentCard',
    definitions: reachable(a2a03All.definitions as JsonObject, 'AgentCard', 'definitions'),
  };
  const ucp = await ucpSchemas(PINS.ucp, commits.ucp);
  const acpAll = await readJson(PINS.acp, commits.acp, `spec/${ACP_VERSION}/json-schema/schema.agentic_checkout.json`);
  const acp: JsonObject = {
    $schema: acpAll.$schema as string,
    title: 'ACP DiscoveryResponse',
    $ref: '#/$defs/DiscoveryResponse',
    $defs: reachable(acpAll.$defs as JsonObject, 'DiscoveryResponse', '$defs'),
  };

  const all: Array<[string, Json]> = [
    ['ard', ard],
    ['a2a', a2a],
    ['a2a03', a2a03],
    ['acp', acp],
    ...ucp.map((s, i) => [`ucp ${i}`, s] as [string, Json]),
  ];
  for (const [name, schema] of all) checkKeywords(name, schema);

  const source = (key: keyof typeof PINS, path: string, note?: string) => ({
    project: PINS[key].repo,
    path,
    ref: PINS[key].ref,
    commit: commits[key],
    version: PINS[key].version,
    license: PINS[key].license,
    ...(note ? { note } : {}),
  });
  const sources = {
    ard: source('ard', 'spec/schemas/ai-catalog.schema.json'),
    a2a: source(
      'a2a',
      'specification/a2a.proto',
      'AgentCard converted from the normative proto (required from google.api.field_behavior)',
    ),
    a2a03: source('a2a03', 'specification/json/a2a.json', 'AgentCard and the definitions it references'),
    ucp: source(
      'ucp',
      'source/discovery/profile_schema.json',
      'with every schema file it references; references by repository path written as the $id of the file they name',
    ),
    acp: source(
      'acp',
      `spec/${ACP_VERSION}/json-schema/schema.agentic_checkout.json`,
      'DiscoveryResponse and the definitions it references',
    ),
  };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const body = `// Generated by scripts/refresh-agent-schemas.ts: do not edit by hand.
// The JSON schemas the agent-standards checks validate documents against, each from its public
// repository (all Apache License 2.0; the copyright stays with each project):
${Object.values(sources)
  .map(
    (s) => `//   ${s.project} ${s.path} at ${s.ref === s.commit ? s.commit : `${s.ref} (${s.commit})`}, ${s.version}`,
  )
  .join('\n')}

export interface SchemaSource {
  project: string;
  path: string;
  ref: string;
  commit: string;
  version: string;
  license: string;
  note?: string;
}

export const AGENT_SCHEMA_SOURCES: Readonly<Record<'ard' | 'a2a' | 'a2a03' | 'ucp' | 'acp', SchemaSource>> = ${json(sources)};

/** ai-catalog.json (Agentic Resource Discovery), as published. */
export const ARD_CATALOG_SCHEMA = ${json(ard)};

/** The A2A 1.x AgentCard, from the proto. */
export const A2A_AGENT_CARD_SCHEMA = ${json(a2a)};

/** The A2A 0.3.0 AgentCard, as published. */
export const A2A_03_AGENT_CARD_SCHEMA = ${json(a2a03)};

/** The UCP discovery profile (/.well-known/ucp): the root first, then the files it references. */
export const UCP_PROFILE_SCHEMAS = ${json(ucp)};

/** The ACP discovery document (/.well-known/acp.json). */
export const ACP_DISCOVERY_SCHEMA = ${json(acp)};
`;
  writeFileSync(OUT, body);
  execFileSync('npx', ['biome', 'format', '--write', OUT], { stdio: 'inherit' });
  process.stderr.write(`wrote ${OUT}: ${Object.values(commits).join(', ')}\n`);
}

await main();
