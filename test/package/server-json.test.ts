// server.json, the entry for the MCP Registry: checked against the rules of the registry's
// server.json schema (2025-09-29, the version it names; transcribed here as zod because the schema
// file itself is not vendored into this repository) and against the package it describes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

// "Version ranges are rejected (e.g., '^1.2.3', '~1.2.3', '>=1.2.3', '1.x', '1.*')", and a package's
// version may not be "latest".
const exactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v !== 'latest' && !/[\^~<>=*|\s]|(^|\.)x(\.|$)/i.test(v), 'an exact version, not a range');

const Input = z.object({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
const KeyValueInput = Input.extend({ name: z.string() });
const Argument = z.union([
  Input.extend({
    type: z.literal('positional'),
    valueHint: z.string().optional(),
    isRepeated: z.boolean().optional(),
  }).refine(
    (a) => a.valueHint !== undefined || a.value !== undefined,
    'a positional argument needs valueHint or value',
  ),
  Input.extend({ type: z.literal('named'), name: z.string(), isRepeated: z.boolean().optional() }),
]);
const Transport = z.union([
  z.object({ type: z.literal('stdio') }),
  z.object({ type: z.literal('streamable-http'), url: z.string(), headers: z.array(KeyValueInput).optional() }),
  z.object({ type: z.literal('sse'), url: z.url(), headers: z.array(KeyValueInput).optional() }),
]);
const Package = z.strictObject({
  registryType: z.string(),
  registryBaseUrl: z.url().optional(),
  identifier: z.string(),
  version: exactVersion,
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: z.string().optional(),
  transport: Transport,
  runtimeArguments: z.array(Argument).optional(),
  packageArguments: z.array(Argument).optional(),
  environmentVariables: z.array(KeyValueInput).optional(),
});
const ServerJson = z.object({
  $schema: z.url(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  description: z.string().min(1).max(100),
  version: exactVersion,
  repository: z.object({ url: z.url(), source: z.string(), id: z.string().optional() }).optional(),
  websiteUrl: z.url().optional(),
  packages: z.array(Package).optional(),
});

describe('server.json for the MCP Registry', () => {
  const server = read('server.json');
  const pkg = read('package.json') as { name: string; version: string; mcpName: string; files: string[] };

  it('follows the registry schema it names', () => {
    expect(server.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json');
    const parsed = ServerJson.safeParse(server);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('would refuse what the registry refuses', () => {
    const broken = [
      { ...server, name: 'siteaudit' },
      { ...server, name: 'io.github.a/b/c' },
      { ...server, description: 'x'.repeat(101) },
      { ...server, packages: [{ ...(server.packages as object[])[0], version: 'latest' }] },
      { ...server, packages: [{ ...(server.packages as object[])[0], version: '^0.1.0' }] },
      { ...server, packages: [{ ...(server.packages as object[])[0], transport: undefined }] },
    ];
    for (const candidate of broken) expect(ServerJson.safeParse(candidate).success).toBe(false);
  });

  it('describes this package: name, version, the stdio `mcp` command and the settings the code reads', () => {
    const [entry] = ServerJson.parse(server).packages ?? [];
    expect(server.version).toBe(pkg.version);
    expect(pkg.mcpName).toBe(server.name); // the registry checks the npm package's mcpName
    expect(pkg.files).toContain('server.json');
    expect(entry).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      runtimeHint: 'npx',
    });
    expect(entry?.packageArguments).toEqual([{ type: 'positional', value: 'mcp' }]);
    const sources = ['src/cli/connect.ts', 'src/cli/options.ts'].map((file) => readFileSync(join(ROOT, file), 'utf8'));
    for (const variable of entry?.environmentVariables ?? [])
      expect(
        sources.some((source) => source.includes(`'${variable.name}'`) || source.includes(`.${variable.name}`)),
      ).toBe(true);
  });
});
