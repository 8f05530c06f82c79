// A site's JSON document judged against a JSON schema (the agent standards of 2026: ARD, A2A, UCP,
// ACP, Agent Skills, x402, Web Bot Auth; src/audit/checks/agent-standards.ts), what is wrong said in a
// site owner's words. The validator is ajv 8 (a runtime dependency: the engine does not lean on the
// MCP SDK's bundled copy): its draft-07 class with the 2019-09/2020-12 keywords
// switched on, which evaluates every keyword the vendored schemas use as their dialect says
// (scripts/refresh-agent-schemas.ts refuses any other). Documents are bounded (DOCUMENT_MAX) and so
// are the problems told; the two formats the schemas use are ours (no pattern that can backtrack on
// site text), and every `pattern` of the schemas is proven linear by test/audit/agent-standards.test.ts.
import { Ajv } from 'ajv';
import { quote } from './quote.ts';

/** Documents larger than this are not validated (a catalog or card is a few kilobytes). */
export const DOCUMENT_MAX = 256 * 1024;
/** Problems told per document; the rest are counted. */
export const PROBLEMS_TOLD = 5;

/** RFC 3339 §5.6 date-time (linear: no two quantifiers compete for the same characters). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

type Engine = InstanceType<typeof Ajv>;
const engines: { fast?: Engine; detailed?: Engine } = {};

/**
 * Two engines: `fast` stops at the first error and allocates none on the way (the verdict, linear in
 * the document); `detailed` gathers every error with its schema and data, run only on a sample of a
 * document that failed (sampleOf), for the owner's words.
 */
function ajv(kind: 'fast' | 'detailed' = 'detailed'): Engine {
  engines[kind] ??= new Ajv({
    strict: false,
    allErrors: kind === 'detailed',
    verbose: kind === 'detailed',
    validateSchema: false,
    next: true,
    unevaluated: true,
    logger: false,
    formats: {
      uri: (value: string) => value.length <= 8192 && URL.canParse(value),
      'date-time': (value: string) => value.length <= 64 && DATE_TIME.test(value),
    },
  });
  return engines[kind];
}

type Validate = ReturnType<InstanceType<typeof Ajv>['compile']>;
type SchemaError = NonNullable<Validate['errors']>[number];
type Schema = Record<string, unknown>;

const compiled = new Map<string, { fast: Validate; detailed: Validate }>();
/** Every schema object of the registered schemas, to the `$id` its relative `$ref`s resolve against. */
const baseOf = new WeakMap<object, string>();

function indexBases(node: unknown, base: string): void {
  if (Array.isArray(node)) for (const item of node) indexBases(item, base);
  else if (node && typeof node === 'object') {
    baseOf.set(node, base);
    for (const value of Object.values(node)) indexBases(value, base);
  }
}

/**
 * The validator of a schema, compiled once per process: `key` names it, `refs` are the schemas its
 * `$ref`s name by `$id` (added once, before the root is compiled). A root without an `$id` is
 * registered as `siteaudit:<key>`, so that a composite's branches can be validated one by one.
 */
function validatorOf(key: string, root: Schema, refs: readonly Schema[] = []): { fast: Validate; detailed: Validate } {
  let pair = compiled.get(key);
  if (!pair) {
    const withId = typeof root.$id === 'string' ? root : { ...root, $id: `siteaudit:${key}` };
    const compile = (engine: Engine) => {
      for (const schema of refs)
        if (typeof schema.$id === 'string' && !engine.getSchema(schema.$id)) engine.addSchema(schema);
      return engine.compile(withId);
    };
    for (const schema of refs) if (typeof schema.$id === 'string') indexBases(schema, schema.$id);
    indexBases(withId, withId.$id as string);
    pair = { fast: compile(ajv('fast')), detailed: compile(ajv('detailed')) };
    compiled.set(key, pair);
  }
  return pair;
}

/** Items of each list read in detail, and members of each object (besides those a schema requires). */
const SAMPLE_ITEMS = 20;
const SAMPLE_MEMBERS = 100;
const SAMPLE_DEPTH = 32;

/** Every member name some schema requires: a sample keeps them, so what is missing stays missing. */
function requiredNames(schemas: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === 'required' && Array.isArray(value)) for (const name of value) names.add(String(name));
        walk(value);
      }
  };
  walk(schemas);
  return names;
}

/**
 * The start of a document: each list cut to its first items and each object to its first members
 * and the ones schemas require. A document with thousands of broken entries gives thousands of
 * errors, one allocation each; its first entries say what is wrong as well (the verdict is the
 * whole document's, from the fast engine). Deeper than SAMPLE_DEPTH, the document is kept as it is.
 */
function sampleOf(value: unknown, keep: ReadonlySet<string>, cut: { any: boolean }, depth = 0): unknown {
  if (depth >= SAMPLE_DEPTH || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length > SAMPLE_ITEMS) cut.any = true;
    return value.slice(0, SAMPLE_ITEMS).map((item) => sampleOf(item, keep, cut, depth + 1));
  }
  const out: Record<string, unknown> = {};
  let members = 0;
  for (const [key, item] of Object.entries(value))
    if (members++ < SAMPLE_MEMBERS || keep.has(key)) out[key] = sampleOf(item, keep, cut, depth + 1);
    else cut.any = true;
  return out;
}

/** The value at a JSON pointer of the document (for the fast engine's error, which keeps no data). */
function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

const requiredOf = new Map<string, Set<string>>();

/** `/entries/0/identifier` as `entries[0].identifier`, quoted: the keys are the site's. */
export function pathWords(pointer: string): string {
  if (pointer === '') return 'the document';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(segment) ? `[${segment}]` : `${out === '' ? '' : '.'}${segment}`;
  }
  return quote(out);
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a JSON object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
};

const typeWords = (type: unknown) =>
  (Array.isArray(type) ? type : [type]).map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');

const valueWords = (value: unknown) => quote(typeof value === 'string' ? value : JSON.stringify(value), 80);
const names = (list: readonly unknown[]) => list.map((name) => `"${String(name)}"`).join(', ');

/** The member names a `not` forbids, when it is made of `required` lists. */
function forbidden(not: unknown): string[] {
  if (!not || typeof not !== 'object') return [];
  const schema = not as Schema;
  const lists = [schema, ...(Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [])];
  return lists.flatMap((s) => (Array.isArray(s.required) ? (s.required as string[]) : []));
}

/** Branches that only require a member (`{ required: [url], not: { required: [data] } }`): that member. */
function requiredBranches(branches: unknown): string[] | undefined {
  if (!Array.isArray(branches)) return undefined;
  const members: string[] = [];
  for (const branch of branches as Schema[]) {
    const required = Array.isArray(branch?.required) ? (branch.required as string[]) : [];
    const keys = Object.keys(branch ?? {}).filter((k) => k !== 'required' && k !== 'not');
    if (required.length !== 1 || keys.length > 0) return undefined;
    members.push(required[0] as string);
  }
  return members;
}

/** A named form (`#/$defs/business_profile`) of a composite's branches, for the owner's words. */
function branchNames(branches: unknown): string {
  if (!Array.isArray(branches)) return '';
  return (branches as Schema[])
    .map((b) => (typeof b?.$ref === 'string' ? b.$ref.slice(b.$ref.lastIndexOf('/') + 1).replaceAll('_', ' ') : ''))
    .filter(Boolean)
    .join(', ');
}

/** One ajv error in a site owner's words; undefined for errors another one already says. */
function sentence(e: SchemaError): string | undefined {
  const at = pathWords(e.instancePath);
  const params = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Schema;
  const describe = typeof parent.description === 'string' && parent.description.length <= 200 ? parent.description : '';
  switch (e.keyword) {
    case 'required':
      return e.instancePath === ''
        ? `no "${String(params.missingProperty)}"`
        : `${at} has no "${String(params.missingProperty)}"`;
    case 'type':
      return `${at} must be ${typeWords(params.type)}`;
    case 'enum':
      return `${at} is ${valueWords(e.data)}, not one of ${names((params.allowedValues as unknown[]) ?? [])}`;
    case 'const':
      return `${at} is ${valueWords(e.data)}, not ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return `${at} (${valueWords(e.data)}) does not have the required form${describe ? `: ${describe}` : ` (pattern ${String(params.pattern)})`}`;
    case 'format':
      return `${at} (${valueWords(e.data)}) is not ${params.format === 'uri' ? 'an absolute URL' : 'an RFC 3339 date and time'}`;
    case 'additionalProperties':
      return `${at} has a member the format does not define: ${quote(String(params.additionalProperty))}`;
    case 'minItems':
      return Number(params.limit) === 1
        ? `${at} is empty`
        : `${at} has ${(e.data as unknown[]).length} item(s), at least ${params.limit} needed`;
    case 'maxItems':
      return `${at} has ${(e.data as unknown[]).length} item(s), at most ${params.limit} allowed`;
    case 'minLength':
      return `${at} is empty`;
    case 'maxLength':
      return `${at} is longer than ${params.limit} characters`;
    case 'minProperties':
      return `${at} is empty`;
    case 'uniqueItems':
      return `${at} lists the same value twice (items ${params.j} and ${params.i})`;
    case 'propertyNames':
      return `${at} has a key that is not allowed: ${quote(String(params.propertyName))}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${at} is ${valueWords(e.data)}, below ${params.limit}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${at} is ${valueWords(e.data)}, above ${params.limit}`;
    case 'not': {
      const data = e.data && typeof e.data === 'object' ? e.data : {};
      const members = forbidden(e.schema).filter((m) => m in data);
      return members.length > 0 ? `${at} must not have ${names(members)}` : `${at} has a form the format forbids`;
    }
    case 'oneOf':
    case 'anyOf': {
      const members = requiredBranches(e.schema);
      if (members) {
        const data = e.data && typeof e.data === 'object' ? e.data : {};
        const present = members.filter((m) => m in data);
        if (present.length > 1 && e.keyword === 'oneOf')
          return `${at} has ${names(present)}: exactly one of ${names(members)} is allowed`;
        return `${at} needs ${e.keyword === 'oneOf' ? 'exactly' : 'at least'} one of ${names(members)}`;
      }
      if (Array.isArray(params.passingSchemas)) return `${at} matches more than one of the forms the format allows`;
      const forms = branchNames(e.schema);
      return `${at} matches none of the forms the format allows${forms ? ` (${forms})` : ''}`;
    }
    case 'if':
      // The `then` branch's own errors say what is missing.
      return undefined;
    default:
      return `${at} ${e.message ?? `fails ${e.keyword}`}`;
  }
}

/** Whether a schema holds nothing but a composite (and annotations): then every error under it is a branch's. */
function onlyComposite(schema: Schema): boolean {
  return Object.keys(schema).every((k) =>
    [
      'anyOf',
      'oneOf',
      'description',
      'title',
      '$comment',
      'examples',
      '$schema',
      '$id',
      '$defs',
      'definitions',
    ].includes(k),
  );
}

/** A failing branch's errors, and how far it is: a discriminator it misses (a const or enum) weighs most. */
function branchErrors(e: SchemaError, branch: Schema): { errors: SchemaError[]; distance: number } | undefined {
  const base = baseOf.get(e.parentSchema ?? {});
  if (typeof branch.$ref !== 'string' || !base) return undefined;
  const validate = ajv('detailed').getSchema(new URL(branch.$ref, base).href);
  if (!validate) return undefined;
  if (validate(e.data)) return { errors: [], distance: 0 };
  const errors = (validate.errors ?? []).map((inner) => ({
    ...inner,
    instancePath: `${e.instancePath}${inner.instancePath}`,
  }));
  const misses = errors.filter(
    (inner) =>
      (inner.keyword === 'const' || inner.keyword === 'enum') &&
      inner.instancePath.split('/').length <= e.instancePath.split('/').length + 1,
  );
  return { errors, distance: errors.length + 100 * misses.length };
}

/** The sentences of a list of errors (a composite of named forms said by its closest form's own errors). */
function sentences(errors: readonly SchemaError[], depth = 0): string[] {
  const out: string[] = [];
  // Errors inside a composite's inline branches are said by the composite (one sentence, not one per branch).
  const composites = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  // By the composite's instance path: its branches' errors are at or under it (a lookup per ancestor,
  // so the work stays linear in the errors when thousands of entries fail the same way).
  const inline = new Map<string, Set<string>>();
  for (const e of composites) inline.set(e.instancePath, (inline.get(e.instancePath) ?? new Set()).add(e.schemaPath));
  const inBranch = (e: SchemaError) => {
    for (let at = e.instancePath; ; at = at.slice(0, at.lastIndexOf('/'))) {
      for (const path of inline.get(at) ?? []) if (e.schemaPath.startsWith(`${path}/`)) return true;
      if (at === '') return false;
    }
  };
  // A composite of named forms ($refs), alone in its schema: said by the closest form's errors.
  const named =
    depth < 3
      ? composites
          .slice(0, PROBLEMS_TOLD)
          .filter(
            (e) =>
              !Array.isArray((e.params as { passingSchemas?: unknown }).passingSchemas) &&
              onlyComposite((e.parentSchema ?? {}) as Schema),
          )
      : [];
  const replaced = new Map<SchemaError, string[]>();
  for (const e of named) {
    const branches = (Array.isArray(e.schema) ? e.schema : []) as Schema[];
    const tried = branches.map((b) => branchErrors(e, b));
    if (tried.some((t) => t === undefined) || tried.length === 0) continue;
    let best = 0;
    for (let i = 1; i < tried.length; i++) if ((tried[i]?.distance ?? 0) < (tried[best]?.distance ?? 0)) best = i;
    const ref = String(branches[best]?.$ref ?? '');
    const form = ref.slice(ref.lastIndexOf('/') + 1).replaceAll('_', ' ');
    const lead = `${pathWords(e.instancePath)} matches none of the forms the format allows; it is closest to ${form}:`;
    replaced.set(e, [lead, ...sentences(tried[best]?.errors ?? [], depth + 1)]);
  }
  const under = (e: SchemaError, c: SchemaError) =>
    c.instancePath === '' || e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`);
  const composed = [...replaced.keys()];
  for (const e of errors) {
    const words = replaced.get(e);
    if (words) {
      out.push(...words);
      continue;
    }
    if (composed.some((c) => c !== e && under(e, c))) continue;
    if (inBranch(e)) continue;
    // A key a `propertyNames` rejects is said by that error.
    if (e.propertyName !== undefined) continue;
    const said = sentence(e);
    if (said) out.push(said);
  }
  return out;
}

/** What is wrong with `value` by the schema, in owner's words: bounded, each said once. */
export function schemaProblems(key: string, root: Schema, value: unknown, refs: readonly Schema[] = []): string[] {
  const { fast, detailed } = validatorOf(key, root, refs);
  if (fast(value)) return [];
  let keep = requiredOf.get(key);
  if (!keep) {
    keep = requiredNames([root, ...refs]);
    requiredOf.set(key, keep);
  }
  const cut = { any: false };
  const sample = sampleOf(value, keep, cut);
  const sampled = detailed(sample) ? [] : sentences(detailed.errors ?? []);
  // What the sample does not show (a duplicate or a broken item past its cut) is the fast engine's first error.
  const first = fast.errors?.[0];
  const all = [
    ...new Set(
      sampled.length > 0 ? sampled : first ? [firstWords({ ...first, data: valueAt(value, first.instancePath) })] : [],
    ),
  ];
  if (all.length === 0) return ['the document does not follow the format'];
  const told = all.slice(0, PROBLEMS_TOLD);
  if (all.length > PROBLEMS_TOLD)
    told.push(
      `and ${all.length - PROBLEMS_TOLD} more${cut.any ? ` in the first ${SAMPLE_ITEMS} items of each list (the rest were not read in detail)` : ''}`,
    );
  return told;
}

/** The fast engine's error (no schema kept): said from its keyword, parameters and data. */
function firstWords(e: SchemaError): string {
  return sentence(e) ?? `${pathWords(e.instancePath)} ${e.message ?? `fails ${e.keyword}`}`;
}

/** A fetched body read as JSON, or why it cannot be judged. */
export function readJson(body: string, oversize: boolean): { value: unknown } | { problem: string } {
  if (oversize) return { problem: `is larger than ${DOCUMENT_MAX / 1024} KB, so it was not validated` };
  try {
    return { value: JSON.parse(body) };
  } catch {
    // The parser's message quotes the body; the start is quoted here instead, as site text.
    return { problem: `is not JSON (it starts ${quote(body.trimStart().slice(0, 40), 40)})` };
  }
}
