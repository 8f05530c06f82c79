// Tool schemas as hosts read them: the JSON Schema zod emits, made portable and lean. Every host
// pays for tools/list in its context window, and some map schemas onto single-`type` dialects
// (the OpenAPI subset of Gemini function declarations), so:
// - `type: ["string", "null"]` becomes `anyOf` branches of one type each (the Inspector's strict
//   mode flags the array form as unportable);
// - the ±2^53 bounds zod puts on every `z.int()`, and the pattern it adds beside a `format`, are
//   dropped (they say nothing a host needs, at hundreds of characters each);
// - `$schema` is dropped, and so are, in output schemas, `additionalProperties: false`, `enum` and
//   `format` (a client on an older schema should accept a result that gained a field or a value) and
//   descriptions (each tool's description tells the model what its result means; most hosts never
//   show output schemas to the model); `required` goes too, and an object three levels down is
//   advertised as `{type: "object"}` (a finding's evidence items: their fields are the contract's,
//   docs/mcp.md), so that the whole list keeps to issue 26's 4,000 tokens with the fix loop's tools;
//   so is an output object marked `.meta(ADVERTISE_AS_OBJECT)` at any depth (severity counts: the
//   five severities page_findings' input names), and `const` goes like `enum` (issue 30 made room
//   for the report app's `_meta.ui`).
// Validation still runs on the zod schema itself; only the advertised JSON Schema changes.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type Json = { [key: string]: unknown };

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Output objects at this depth (properties and items count a level each) are advertised as `object`. */
const OUTPUT_DEPTH = 3;

/** zod `.meta()` for an output object advertised as `{type: "object"}` wherever it is. */
export const ADVERTISE_AS_OBJECT = { 'x-advertise': 'object' } as const;
const isMarkedObject = (node: Json) => node['x-advertise'] === ADVERTISE_AS_OBJECT['x-advertise'];

function lean(node: unknown, io: 'input' | 'output', depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => lean(item, io, depth));
  if (node === null || typeof node !== 'object') return node;
  if (io === 'output' && (depth >= OUTPUT_DEPTH || isMarkedObject(node as Json)) && (node as Json).type === 'object')
    return { type: 'object' };
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$schema') continue;
    if (io === 'output' && key === 'required' && Array.isArray(value)) continue;
    if (key === 'minimum' && value === -SAFE_INT) continue;
    if (key === 'maximum' && value === SAFE_INT) continue;
    if (io === 'output' && ((key === 'additionalProperties' && value === false) || key === 'description')) continue;
    if (io === 'output' && (key === 'enum' || key === 'const' || key === 'format')) continue;
    if (key === 'x-advertise') continue;
    // Each schema under `properties` or `items` is one level down.
    out[key] = lean(value, io, key === 'properties' || key === 'items' ? depth + 1 : depth);
  }
  // zod spells each `format` (uuid, date-time) out again as a long `pattern`; the format says it.
  if (typeof (node as Json).format === 'string') delete out.pattern;
  if (Array.isArray(out.type)) {
    const { type, description, ...rest } = out;
    const types = type as string[];
    // Keywords other than type apply to the non-null branch (a string's pattern, an enum).
    const branches = types.map((one) => (one === 'null' ? { type: 'null' } : { type: one, ...rest }));
    return { ...(description !== undefined ? { description } : {}), anyOf: branches };
  }
  return out;
}

/** Deep-frozen: one JSON Schema object is handed to every request, so none may change it for the next. */
function frozen<T>(node: T): T {
  if (node !== null && typeof node === 'object' && !Object.isFrozen(node)) {
    for (const value of Object.values(node)) frozen(value);
    Object.freeze(node);
  }
  return node;
}

// A tool's advertised schemas are built once per process: the SDK asks for them on every tools/list
// and, on 2026-07-28 (a server instance per request), on every tools/call too, and zod rebuilds
// them from scratch each time (issue 28: 8% of a stateless call).
const built = new WeakMap<z.ZodType, StandardSchemaWithJSON<unknown, unknown>>();

/** The zod schema with its advertised JSON Schema made portable and lean (see the header), built once. */
export function hostSchema<Schema extends z.ZodType>(
  schema: Schema,
): StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>> {
  let host = built.get(schema);
  if (!host) {
    host = leanSchema(schema) as StandardSchemaWithJSON<unknown, unknown>;
    built.set(schema, host);
  }
  return host as StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>>;
}

function leanSchema<Schema extends z.ZodType>(
  schema: Schema,
): StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>> {
  const standard = schema['~standard'] as StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>>['~standard'];
  type Options = Parameters<typeof standard.jsonSchema.input>[0];
  /** One JSON Schema per direction and target; options beyond the target are the library's, not cached. */
  const cache = new Map<string, Json>();
  const jsonSchema = (io: 'input' | 'output', options: Options): Json => {
    const make = () => lean(standard.jsonSchema[io](options), io) as Json;
    if (options.libraryOptions !== undefined) return make();
    const key = `${io} ${options.target}`;
    let json = cache.get(key);
    if (!json) {
      json = frozen(make());
      cache.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      ...standard,
      jsonSchema: {
        input: (options) => jsonSchema('input', options),
        output: (options) => jsonSchema('output', options),
      },
    },
  };
}
